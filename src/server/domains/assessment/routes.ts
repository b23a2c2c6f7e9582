import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Hono } from "hono";
import { z } from "zod";
import {
  MAX_MAP_UPLOAD_BYTES,
  mapImportFormSchema,
  mapLinkSchema,
} from "../../../shared/contracts/assessment";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { openFileSet } from "../../lib/file-set";
import { message } from "../../lib/i18n";
import { saveMultipartUpload } from "../../lib/multipart-upload";
import { formatBytes } from "../../lib/uploads";
import { parseWith, readJsonBody, readParams, requestLanguage } from "../../lib/validation";
// Registers the MAP growth bounty among the rewards' earning rules.
import "./bounty";
import { EARN_JOB } from "../rewards/jobs";
import { checkChartRoutes } from "./check-chart-routes";
import { heldMapRows, importMapExport, linkMapStudent, mapImportHistory } from "./map-import";
import { studentMapResults } from "./map-results";
import { placementRoutes } from "./placement-routes";

/** The import takes a multipart upload larger than the API's JSON limit: app.ts leaves this path to the route. */
export const MAP_IMPORT_PATH = "/api/assessment/map/imports";

/** A form's boundaries and other fields around the file, which the file's own limit leaves out. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const ADMIN = ["administrator"] as const;
const studentParam = z.object({ studentId: z.string().trim().min(1).max(200) });

export function assessmentRoutes(deps: AppDeps) {
  const { db, auth, logger, jobs } = deps;
  /** Results that changed may have earned a growth bounty: the earning job pays it. */
  const payGrowth = async (studentIds: string[]) => {
    if (studentIds.length > 0) await jobs.enqueue(EARN_JOB, { studentIds });
  };
  // One import at a time: two would compare against results the other is changing.
  let isImporting = false;
  return new Hono<AppEnv>()
    .route("/", placementRoutes(deps))
    .route("/", checkChartRoutes(deps))
    .post("/map/imports", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("assessment:actions.import"));
      if (Number(c.req.header("content-length") ?? 0) > MAX_MAP_UPLOAD_BYTES + FORM_OVERHEAD_BYTES)
        throw new AppError(
          "payload_too_large",
          message("common:upload.tooLarge", { limit: formatBytes(MAX_MAP_UPLOAD_BYTES) }),
        );
      if (isImporting) throw new AppError("conflict", message("assessment:import.running"));
      isImporting = true;
      let folder: string | null = null;
      try {
        folder = await mkdtemp(path.join(tmpdir(), "dash-map-import-"));
        const file = path.join(folder, "upload");
        const upload = await saveMultipartUpload(c.req.raw, file, {
          fileField: "file",
          maxBytes: MAX_MAP_UPLOAD_BYTES,
        });
        const { dryRun } = parseWith(mapImportFormSchema, upload.fields, requestLanguage(c));
        const files = await openFileSet(file, { singleFile: { name: upload.fileName } });
        try {
          const { changedStudentIds, ...report } = await importMapExport(db, files, {
            dryRun,
            actorId: actor.realUser.sourcedId,
            fileName: upload.fileName,
            now: auth.now(),
            language: requestLanguage(c),
          });
          logger.info("map import", {
            by: actor.realUser.sourcedId,
            dryRun,
            applied: report.applied,
            ...report.rows,
          });
          await payGrowth(changedStudentIds);
          return c.json(report);
        } finally {
          await files.close();
        }
      } finally {
        isImporting = false;
        if (folder) await rm(folder, { recursive: true, force: true });
      }
    })
    .get("/map/imports", async (c) => {
      requireActiveRole(c, ADMIN, message("assessment:actions.import"));
      return c.json({ imports: await mapImportHistory(db) });
    })
    .get("/map/unmatched", async (c) => {
      requireActiveRole(c, ADMIN, message("assessment:actions.import"));
      return c.json({ rows: await heldMapRows(db) });
    })
    .post("/map/unmatched/link", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("assessment:actions.import"));
      const link = await readJsonBody(c, mapLinkSchema);
      const linked = await linkMapStudent(db, { ...link, actorId: actor.realUser.sourcedId }, auth.now());
      if (linked.imported > 0) await payGrowth([link.studentId]);
      return c.json(linked);
    })
    .get("/map/students/:studentId", async (c) => {
      const { studentId } = readParams(c, studentParam);
      return c.json(await studentMapResults(db, currentActor(c), studentId));
    });
}
