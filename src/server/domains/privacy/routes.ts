import { Readable } from "node:stream";
import type { Context } from "hono";
import { Hono } from "hono";
import {
  accessLogQuerySchema,
  anonymiseRequestSchema,
  childParamSchema,
  retentionSettingsSchema,
  studentParamSchema,
} from "../../../shared/contracts/privacy";
import type { Database } from "../../db/client";
import { requireActiveRole } from "../../lib/auth";
import type { Actor, AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery } from "../../lib/validation";
import { listSensitiveAccess, recordSensitiveAccess } from "./access-log";
import { anonymiseStudent } from "./anonymise";
import { exportStudentZip } from "./export";
import { childOfAgent, studentExists } from "./queries";
import { lastRetentionRun, retentionSettings, saveRetentionSettings } from "./retention";

const ADMIN = ["administrator"] as const;
const FAMILY = ["parent", "guardian"] as const;

/** Records the export, then streams the student's .zip. */
async function sendExport(c: Context<AppEnv>, db: Database, actor: Actor, studentId: string, at: Date) {
  await recordSensitiveAccess(db, {
    actorId: actor.user.sourcedId,
    realActorId: actor.realUser.sourcedId,
    personId: studentId,
    kind: "data_export",
    detail: `Downloaded all their data as a .zip (${actor.activeRole})`,
    at,
  });
  const fileId = studentId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80);
  return c.body(Readable.toWeb(exportStudentZip(db, studentId, at)) as ReadableStream, 200, {
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="dash-student-${fileId}-${at.toISOString().slice(0, 10)}.zip"`,
    "Cache-Control": "no-store",
  });
}

/** `/api/admin/privacy/…`: a student's export and anonymisation, retention, the sensitive-access log. */
export function privacyAdminRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/students/:studentId/export", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("privacy:actions.exportStudent"));
      const { studentId } = readParams(c, studentParamSchema);
      if (!(await studentExists(db, studentId)))
        throw new AppError("not_found", message("privacy:students.notFound"));
      return sendExport(c, db, actor, studentId, auth.now());
    })
    .post("/students/:studentId/anonymise", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("privacy:actions.anonymiseStudent"));
      const { studentId } = readParams(c, studentParamSchema);
      const input = await readJsonBody(c, anonymiseRequestSchema);
      const data = await anonymiseStudent(db, actor, studentId, input, auth.now());
      if (!data.wasAlreadyAnonymised) await auth.forgetUser(studentId);
      return c.json({ success: true as const, data });
    })
    .get("/access-log", async (c) => {
      requireActiveRole(c, ADMIN, message("privacy:actions.readAccessLog"));
      const query = readQuery(c, accessLogQuerySchema);
      return c.json({ success: true as const, ...(await listSensitiveAccess(db, query)), error: null });
    })
    .get("/retention", async (c) => {
      requireActiveRole(c, ADMIN, message("privacy:actions.seeRetention"));
      const [settings, lastRun] = await Promise.all([retentionSettings(db), lastRetentionRun(db)]);
      return c.json({ success: true as const, data: { settings, lastRun } });
    })
    .put("/retention", async (c) => {
      requireActiveRole(c, ADMIN, message("privacy:actions.changeRetention"));
      const settings = await saveRetentionSettings(db, await readJsonBody(c, retentionSettingsSchema));
      return c.json({ success: true as const, data: { settings, lastRun: await lastRetentionRun(db) } });
    });
}

/** `/api/privacy/…`: what families may ask for themselves. */
export function privacyFamilyRoutes({ db, auth }: AppDeps) {
  return new Hono<AppEnv>().get("/children/:childId/export", async (c) => {
    const actor = requireActiveRole(c, FAMILY, message("privacy:actions.downloadChild"));
    if (actor.session.impersonation) throw new AppError("forbidden", message("privacy:export.stopViewingAs"));
    const { childId } = readParams(c, childParamSchema);
    if (!(await childOfAgent(db, actor.user.sourcedId, childId)))
      throw new AppError("forbidden", message("privacy:export.ownChildrenOnly"));
    return sendExport(c, db, actor, childId, auth.now());
  });
}
