import { Hono } from "hono";
import { z } from "zod";
import { goalChangesSchema, goalInputSchema, goalsQuerySchema } from "../../../shared/contracts/goals";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { classGoals, createGoal, deleteGoal, studentGoals, updateGoal } from "./goals";

const goalParam = z.object({ goalId: z.string().trim().min(1).max(200) });
const classParam = z.object({ classId: z.string().trim().min(1).max(200) });

export function goalsRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const { studentId } = readQuery(c, goalsQuerySchema);
      return c.json(await studentGoals(db, currentActor(c), studentId, auth.now()));
    })
    .get("/classes/:classId", async (c) => {
      const { classId } = readParams(c, classParam);
      return c.json(await classGoals(db, currentActor(c), classId, auth.now()));
    })
    .post("/", async (c) => {
      const input = await readJsonBody(c, goalInputSchema);
      return c.json(await createGoal(db, currentActor(c), input, auth.now()), 201);
    })
    .patch("/:goalId", async (c) => {
      const { goalId } = readParams(c, goalParam);
      const changes = await readJsonBody(c, goalChangesSchema);
      await updateGoal(db, currentActor(c), goalId, changes, auth.now());
      return c.body(null, 204);
    })
    .delete("/:goalId", async (c) => {
      const { goalId } = readParams(c, goalParam);
      await deleteGoal(db, currentActor(c), goalId);
      return c.body(null, 204);
    });
}
