import { Hono } from "hono";
import { clockQuerySchema } from "../../../shared/contracts/clock";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readQuery } from "../../lib/validation";
import { serverTime } from "./clock";

export function clockRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>().get("/", async (c) => {
    const { studentId } = readQuery(c, clockQuerySchema);
    // Answered fresh every time: a cached clock is a wrong clock.
    c.header("Cache-Control", "no-store");
    return c.json(await serverTime(db, currentActor(c), studentId, auth.now()));
  });
}
