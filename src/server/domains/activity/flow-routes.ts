import { type SQL, sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { isIsoDate } from "../../../shared/search";
import { localDateOf } from "../../../shared/time-zone";
import { invalid } from "../../../shared/validation-messages";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readQuery } from "../../lib/validation";
import { canSeeStudent, studentIdsInReach, studentIdsOfClass, teachesClass } from "../rostering/scope";
import { flowDay } from "./flow";

const flowQuerySchema = z.object({
  date: z.string().refine(isIsoDate, invalid("isoDate")).optional(),
  classId: z.string().trim().min(1).optional(),
  studentId: z.string().trim().min(1).optional(),
});

/** The flow pages' data: a day of timed learning, for one student, a class, or everyone the caller looks after. */
export function flowRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>().get("/day", async (c) => {
    const actor = currentActor(c);
    const query = readQuery(c, flowQuerySchema);
    const date = query.date ?? localDateOf(auth.now(), "America/New_York");
    const denied = new AppError("forbidden", message("activity:students.someForbidden"));

    let scope: SQL;
    if (query.studentId) {
      if (!(await canSeeStudent(db, actor, query.studentId))) throw denied;
      scope = sql`select ${query.studentId}::text`;
    } else if (query.classId) {
      const mayList =
        actor.activeRole === "administrator" ||
        (actor.activeRole === "teacher" && (await teachesClass(db, actor, query.classId)));
      if (!mayList) throw denied;
      scope = studentIdsOfClass(query.classId);
    } else if (actor.activeRole === "administrator") {
      throw new AppError("validation_failed", message("activity:flow.chooseScope"));
    } else {
      const reach = studentIdsInReach(actor);
      if (!reach) throw denied;
      scope = reach;
    }
    return c.json({ success: true, data: { date, students: await flowDay(db, scope, date) } });
  });
}
