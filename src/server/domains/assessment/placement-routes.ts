import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  bulkPlacementSchema,
  csvImportFormSchema,
  MAX_PLACEMENT_UPLOAD_BYTES,
  placementLevelSchema,
  placementListQuerySchema,
  placementQuerySchema,
  placementReportQuerySchema,
  placementTestSchema,
  screeningChangesSchema,
  screeningInputSchema,
  screeningQuerySchema,
  subjectTrackInputSchema,
  trackStepsSchema,
} from "../../../shared/contracts/assessment";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { csvDownload } from "../../lib/csv-download";
import type { FileSet } from "../../lib/file-set";
import { message } from "../../lib/i18n";
import { withUploadedFile } from "../../lib/multipart-upload";
import { parseWith, readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import {
  bulkSetPlacementLevel,
  importPlacementLevels,
  placementReport,
  placementReportCsv,
  placementStudents,
  placementsCsv,
  recordPlacementTest,
  setPlacementLevel,
  studentPlacements,
} from "./placements";
import {
  addScreeningResult,
  changeScreeningResult,
  importScreening,
  listScreening,
  screeningCsv,
} from "./screening";
import { createTrack, deleteTrack, listTracks, replaceTrackSteps } from "./subject-tracks";

/** The CSV uploads take a multipart form: app.ts lets these paths send one. */
export const PLACEMENT_UPLOAD_PATHS = [
  "/api/assessment/placements/imports",
  "/api/assessment/screening/imports",
];

const ADMIN = ["administrator"] as const;
const STAFF = ["administrator", "teacher"] as const;
const LEARNING = ["student", "teacher", "administrator"] as const;

const studentParam = z.object({ studentId: z.string().trim().min(1).max(200) });
const idParam = z.object({ id: z.string().trim().min(1).max(200) });
const trackParam = z.object({ trackId: z.string().trim().min(1).max(200) });

/** A CSV import's form: the file and `dryRun`. */
function withUploadedCsv<Result>(
  c: Context<AppEnv>,
  use: (files: FileSet, dryRun: boolean) => Promise<Result>,
) {
  return withUploadedFile(
    c.req.raw,
    { fileField: "file", maxBytes: MAX_PLACEMENT_UPLOAD_BYTES },
    (files, upload) => use(files, parseWith(csvImportFormSchema, upload.fields, requestLanguage(c)).dryRun),
  );
}

/** Placements, placement tests, screening and subject tracks. */
export function placementRoutes({ db, auth, logger }: AppDeps) {
  const manage = message("assessment:placements.actions.manage");
  const screen = message("assessment:screening.actions.manage");
  const changeTracks = message("assessment:tracks.actions.manage");
  return (
    new Hono<AppEnv>()
      // ── Placements ──
      .get("/placements", async (c) => {
        const { studentId } = readQuery(c, placementQuerySchema);
        return c.json(await studentPlacements(db, currentActor(c), studentId));
      })
      .get("/placements/students", async (c) => {
        const query = readQuery(c, placementListQuerySchema);
        return c.json(await placementStudents(db, currentActor(c), query));
      })
      .get("/placements/students.csv", async (c) => {
        const actor = requireActiveRole(c, STAFF, message("assessment:placements.actions.see"));
        const { page: _page, perPage: _perPage, ...filters } = readQuery(c, placementListQuerySchema);
        return csvDownload(c, "placements.csv", placementsCsv(db, actor, filters, requestLanguage(c)));
      })
      .post("/placements/bulk", async (c) => {
        const actor = requireActiveRole(c, ADMIN, manage);
        const input = await readJsonBody(c, bulkPlacementSchema);
        const result = await bulkSetPlacementLevel(db, actor, input, auth.now());
        logger.info("placements bulk change", {
          by: actor.realUser.sourcedId,
          subject: input.subject,
          ...result,
        });
        return c.json(result);
      })
      .post("/placements/imports", async (c) => {
        const actor = requireActiveRole(c, ADMIN, manage);
        const report = await withUploadedCsv(c, (files, dryRun) =>
          importPlacementLevels(db, actor, files, { dryRun, now: auth.now(), language: requestLanguage(c) }),
        );
        logger.info("placements import", {
          by: actor.realUser.sourcedId,
          applied: report.applied,
          ...report.rows,
        });
        return c.json(report);
      })
      .get("/placements/changes", async (c) => {
        requireActiveRole(c, ADMIN, manage);
        return c.json(await placementReport(db, readQuery(c, placementReportQuerySchema)));
      })
      .get("/placements/changes.csv", async (c) => {
        requireActiveRole(c, ADMIN, manage);
        const { page: _page, perPage: _perPage, ...filters } = readQuery(c, placementReportQuerySchema);
        return csvDownload(c, "placement-changes.csv", placementReportCsv(db, filters, requestLanguage(c)));
      })
      .post("/placements/:studentId/level", async (c) => {
        const { studentId } = readParams(c, studentParam);
        const input = await readJsonBody(c, placementLevelSchema);
        return c.json(await setPlacementLevel(db, currentActor(c), studentId, input, auth.now()));
      })
      .put("/placements/:studentId/tests", async (c) => {
        const { studentId } = readParams(c, studentParam);
        const input = await readJsonBody(c, placementTestSchema);
        return c.json(await recordPlacementTest(db, currentActor(c), studentId, input, auth.now()));
      })
      // ── Screening ──
      .get("/screening", async (c) => {
        requireActiveRole(c, ADMIN, screen);
        return c.json(await listScreening(db, readQuery(c, screeningQuerySchema)));
      })
      .post("/screening", async (c) => {
        const actor = requireActiveRole(c, ADMIN, screen);
        const input = await readJsonBody(c, screeningInputSchema);
        return c.json(await addScreeningResult(db, actor, input, auth.now()), 201);
      })
      .get("/screening/export.csv", async (c) => {
        requireActiveRole(c, ADMIN, screen);
        const { page: _page, perPage: _perPage, ...filters } = readQuery(c, screeningQuerySchema);
        return csvDownload(c, "screening.csv", screeningCsv(db, filters));
      })
      .post("/screening/imports", async (c) => {
        const actor = requireActiveRole(c, ADMIN, screen);
        const report = await withUploadedCsv(c, (files, dryRun) =>
          importScreening(db, actor, files, { dryRun, now: auth.now(), language: requestLanguage(c) }),
        );
        logger.info("screening import", {
          by: actor.realUser.sourcedId,
          applied: report.applied,
          ...report.rows,
        });
        return c.json(report);
      })
      .patch("/screening/:id", async (c) => {
        const actor = requireActiveRole(c, ADMIN, screen);
        const changes = await readJsonBody(c, screeningChangesSchema);
        const { id } = readParams(c, idParam);
        return c.json(await changeScreeningResult(db, actor, id, changes, auth.now()));
      })
      // ── Subject tracks ──
      .get("/subject-tracks", async (c) => {
        requireActiveRole(c, LEARNING, message("assessment:tracks.actions.see"));
        return c.json({ tracks: await listTracks(db) });
      })
      .post("/subject-tracks", async (c) => {
        const actor = requireActiveRole(c, ADMIN, changeTracks);
        const { subject } = await readJsonBody(c, subjectTrackInputSchema);
        return c.json(await createTrack(db, actor, subject, auth.now()), 201);
      })
      .put("/subject-tracks/:trackId/steps", async (c) => {
        const actor = requireActiveRole(c, ADMIN, changeTracks);
        const { trackId } = readParams(c, trackParam);
        const input = await readJsonBody(c, trackStepsSchema);
        return c.json(await replaceTrackSteps(db, actor, trackId, input, auth.now()));
      })
      .delete("/subject-tracks/:trackId", async (c) => {
        requireActiveRole(c, ADMIN, changeTracks);
        const { trackId } = readParams(c, trackParam);
        await deleteTrack(db, trackId);
        return c.body(null, 204);
      })
  );
}
