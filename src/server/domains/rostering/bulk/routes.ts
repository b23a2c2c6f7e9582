import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import { type ImportStreamLine, rosterImportQuerySchema } from "../../../../shared/contracts/roster-bulk";
import { requireActiveRole } from "../../../lib/auth";
import type { AppDeps, AppEnv } from "../../../lib/context";
import { AppError } from "../../../lib/errors";
import { type FileSet, openFileSet } from "../../../lib/file-set";
import { message, translate } from "../../../lib/i18n";
import { saveWithinLimit } from "../../../lib/uploads";
import { readQuery, requestLanguage } from "../../../lib/validation";
import { exportRosterZip } from "./export";
import { importRosterSet } from "./import";

/** The import takes the .zip as its body, larger than the API's 1 MB limit: app.ts leaves this path to the route. */
export const ROSTER_IMPORT_PATH = "/api/admin/roster/import";
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;

const ADMIN = ["administrator"] as const;
const NDJSON = "application/x-ndjson";

/** Streams the request body to a file, refusing more than MAX_IMPORT_BYTES. */
async function saveBody(body: ReadableStream<Uint8Array> | null, file: string): Promise<number> {
  if (!body) throw new AppError("bad_request", message("rostering:import.noBody"));
  const bytes = await saveWithinLimit(
    Readable.fromWeb(body as WebReadableStream<Uint8Array>),
    file,
    MAX_IMPORT_BYTES,
    message("rostering:import.tooLarge"),
  );
  if (bytes === 0) throw new AppError("bad_request", message("rostering:import.noBody"));
  return bytes;
}

export function rosterBulkRoutes({ db, logger }: AppDeps) {
  // One import at a time: two would check against a roster the other is changing.
  let isImporting = false;

  return new Hono<AppEnv>()
    .post("/import", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("rostering:actions.importRoster"));
      const { dryRun, strict } = readQuery(c, rosterImportQuerySchema);
      if (Number(c.req.header("content-length") ?? 0) > MAX_IMPORT_BYTES) {
        throw new AppError("payload_too_large", message("rostering:import.tooLarge"));
      }
      if (isImporting) {
        throw new AppError("conflict", message("rostering:import.running"));
      }
      isImporting = true;
      const folder = await mkdtemp(path.join(tmpdir(), "dash-roster-import-"));
      let source: FileSet | null = null;
      const release = async () => {
        await source?.close();
        await rm(folder, { recursive: true, force: true });
        isImporting = false;
      };
      try {
        const file = path.join(folder, "upload.zip");
        await saveBody(c.req.raw.body, file);
        source = await openFileSet(file);
      } catch (error) {
        await release();
        throw error;
      }
      const opened = source;
      const language = requestLanguage(c);
      const options = { dryRun, strict, protectUserId: actor.realUser.sourcedId, language };
      const logReport = (report: Awaited<ReturnType<typeof importRosterSet>>) =>
        logger.info("roster import", {
          by: actor.realUser.sourcedId,
          dryRun,
          strict,
          applied: report.applied,
          errors: report.errorCount,
          files: report.files
            .map((entry) => `${entry.file}:${entry.created}/${entry.updated}/${entry.deleted}`)
            .join(" "),
        });

      if (!c.req.header("accept")?.includes(NDJSON)) {
        try {
          const report = await importRosterSet(db, opened, options);
          logReport(report);
          return c.json(report);
        } finally {
          await release();
        }
      }
      // The page follows the import: progress lines, then the report, one JSON object per line.
      c.header("Content-Type", NDJSON);
      c.header("Cache-Control", "no-store");
      return stream(c, async (out) => {
        const send = (line: ImportStreamLine) => out.write(`${JSON.stringify(line)}\n`);
        try {
          const report = await importRosterSet(db, opened, {
            ...options,
            onProgress: (progress) => void send(progress),
          });
          logReport(report);
          await send({ type: "report", report });
        } catch (error) {
          // A refused file (too large, damaged, hostile) is the uploader's to fix: say what it is.
          if (error instanceof AppError) {
            await send({ type: "error", message: error.toBody(language).message });
            return;
          }
          const requestId = c.get("requestId");
          logger.error("roster import failed", {
            requestId,
            error: error instanceof Error ? error.stack : String(error),
          });
          await send({
            type: "error",
            message: translate(message("rostering:import.failed", { requestId }), language),
          });
        } finally {
          await release();
        }
      });
    })
    .get("/export", (c) => {
      const actor = requireActiveRole(c, ADMIN, message("rostering:actions.exportRoster"));
      logger.info("roster export", { by: actor.realUser.sourcedId });
      const day = new Date().toISOString().slice(0, 10);
      return c.body(Readable.toWeb(exportRosterZip(db)) as ReadableStream, 200, {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="oneroster-${day}.zip"`,
        "Cache-Control": "no-store",
      });
    });
}
