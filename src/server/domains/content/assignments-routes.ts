import { Hono } from "hono";
import { z } from "zod";
import {
  assignmentChangesSchema,
  assignmentInputSchema,
  assignmentListQuerySchema,
} from "../../../shared/contracts/content";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import {
  createAssignments,
  listAssignments,
  myAssignments,
  removeAssignment,
  updateAssignment,
} from "./assignments";

const assignmentParam = z.object({ assignmentId: z.string().trim().min(1).max(200) });

/** Required learning: who may see and change what is decided in the queries (see assignments.ts). */
export function assignmentsRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/assignments", async (c) => {
      const query = readQuery(c, assignmentListQuerySchema);
      return c.json(await listAssignments(db, currentActor(c), query, auth.now()));
    })
    .get("/assignments/mine", async (c) => c.json(await myAssignments(db, currentActor(c), auth.now())))
    .post("/assignments", async (c) => {
      const input = await readJsonBody(c, assignmentInputSchema);
      return c.json(await createAssignments(db, currentActor(c), input, auth.now()), 201);
    })
    .patch("/assignments/:assignmentId", async (c) => {
      const { assignmentId } = readParams(c, assignmentParam);
      const changes = await readJsonBody(c, assignmentChangesSchema);
      await updateAssignment(db, currentActor(c), assignmentId, changes, auth.now());
      return c.body(null, 204);
    })
    .delete("/assignments/:assignmentId", async (c) => {
      const { assignmentId } = readParams(c, assignmentParam);
      await removeAssignment(db, currentActor(c), assignmentId, auth.now());
      return c.body(null, 204);
    });
}
