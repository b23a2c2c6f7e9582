import { Hono } from "hono";
import { z } from "zod";
import {
  MAX_MAP_UPLOAD_BYTES,
  type MapGrowthReport,
  type MapReportQuery,
  mapActualsQuerySchema,
  mapImportFormSchema,
  mapLinkSchema,
  mapReportQuerySchema,
  mapStudentsQuerySchema,
} from "../../../shared/contracts/assessment";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { csvDownload } from "../../lib/csv-download";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { withUploadedFile } from "../../lib/multipart-upload";
import { createTtlCache } from "../../lib/ttl-cache";
import { formatBytes } from "../../lib/uploads";
import { parseWith, readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
// Registers the MAP growth bounty among the rewards' earning rules.
import "./bounty";
import { EARN_JOB } from "../rewards/jobs";
import { checkChartRoutes } from "./check-chart-routes";
import { heldMapRows, importMapExport, linkMapStudent, mapImportHistory } from "./map-import";
import { mapActualsCsv, mapGrowthReportCsv } from "./map-report-csv";
import { mapActualsReport, mapGrowthReport, mapStudentsOverview, mapTerms } from "./map-reports";
import { studentMapResults } from "./map-results";
import { placementRoutes } from "./placement-routes";

/** The import takes a multipart upload larger than the API's JSON limit: app.ts leaves this path to the route. */
export const MAP_IMPORT_PATH = "/api/assessment/map/imports";

/** A form's boundaries and other fields around the file, which the file's own limit leaves out. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const ADMIN = ["administrator"] as const;
const STAFF = ["administrator", "teacher"] as const;
/** Said when MAP results changed (an import applied, a StudentID linked). */
const MAP_RESULTS_CHANGED_CHANNEL = "map-results-changed";
const REPORT_CACHE_MS = 10 * 60_000;
const studentParam = z.object({ studentId: z.string().trim().min(1).max(200) });

export function assessmentRoutes(deps: AppDeps) {
  const { db, auth, logger, jobs, bus } = deps;
  // The growth report is read far more often than results change; every process drops its copies
  // when an import or a link changes results, and a roster change shows within REPORT_CACHE_MS.
  const reports = createTtlCache<MapGrowthReport>({ ttlMs: REPORT_CACHE_MS, maxEntries: 500 });
  const forgetReports = () => reports.clear();
  bus.subscribe(MAP_RESULTS_CHANGED_CHANNEL, forgetReports);
  bus.onMissedMessages(forgetReports);
  const growthReport = (query: MapReportQuery) =>
    reports.remember(JSON.stringify(query, Object.keys(query).sort()), auth.now(), () =>
      mapGrowthReport(db, query),
    );
  /** After results changed: reports are stale, and the changes may have earned a growth bounty. */
  const resultsChanged = async (studentIds: string[]) => {
    if (studentIds.length === 0) return;
    await bus.publish(MAP_RESULTS_CHANGED_CHANNEL, null);
    await jobs.enqueue(EARN_JOB, { studentIds });
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
      try {
        const report = await withUploadedFile(
          c.req.raw,
          { fileField: "file", maxBytes: MAX_MAP_UPLOAD_BYTES },
          async (files, upload) => {
            const { dryRun } = parseWith(mapImportFormSchema, upload.fields, requestLanguage(c));
            const { changedStudentIds, ...report } = await importMapExport(db, files, {
              dryRun,
              actorId: actor.realUser.sourcedId,
              fileName: upload.fileName,
              now: auth.now(),
              language: requestLanguage(c),
            });
            await resultsChanged(changedStudentIds);
            return report;
          },
        );
        logger.info("map import", {
          by: actor.realUser.sourcedId,
          dryRun: report.dryRun,
          applied: report.applied,
          ...report.rows,
        });
        return c.json(report);
      } finally {
        isImporting = false;
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
      if (linked.imported > 0) await resultsChanged([link.studentId]);
      return c.json(linked);
    })
    .get("/map/terms", async (c) => {
      requireActiveRole(c, ADMIN, message("assessment:actions.reports"));
      return c.json({ terms: await mapTerms(db) });
    })
    .get("/map/report", async (c) => {
      requireActiveRole(c, ADMIN, message("assessment:actions.reports"));
      return c.json(await growthReport(readQuery(c, mapReportQuerySchema)));
    })
    .get("/map/report.csv", async (c) => {
      requireActiveRole(c, ADMIN, message("assessment:actions.reports"));
      const report = await growthReport(readQuery(c, mapReportQuerySchema));
      return csvDownload(c, "map-growth-report.csv", mapGrowthReportCsv(report, requestLanguage(c)));
    })
    .get("/map/actuals", async (c) => {
      requireActiveRole(c, ADMIN, message("assessment:actions.reports"));
      return c.json(await mapActualsReport(db, readQuery(c, mapActualsQuerySchema)));
    })
    .get("/map/actuals.csv", async (c) => {
      requireActiveRole(c, ADMIN, message("assessment:actions.reports"));
      const query = readQuery(c, mapActualsQuerySchema);
      return csvDownload(c, "map-actuals.csv", mapActualsCsv(db, query, requestLanguage(c)));
    })
    .get("/map/students", async (c) => {
      requireActiveRole(c, STAFF, message("assessment:actions.overview"));
      return c.json(await mapStudentsOverview(db, currentActor(c), readQuery(c, mapStudentsQuerySchema)));
    })
    .get("/map/students/:studentId", async (c) => {
      const { studentId } = readParams(c, studentParam);
      return c.json(await studentMapResults(db, currentActor(c), studentId));
    });
}
