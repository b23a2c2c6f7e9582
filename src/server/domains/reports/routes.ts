import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  type ReportSearch,
  reportFileQuerySchema,
  reportIdSchema,
  reportSearchSchema,
} from "../../../shared/contracts/reports";
import type { Language } from "../../../shared/languages";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { csvDownload } from "../../lib/csv-download";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readParams, readQuery, requestLanguage } from "../../lib/validation";
import { reportCsv, reportFileName } from "./csv";
import { REPORTS } from "./definitions";
import { pageOfReport, runReport } from "./engine";
import { reportPdf } from "./pdf";
import { scheduleRoutes } from "./schedule-routes";

const reportParamsSchema = z.object({ id: reportIdSchema });

export function reportsRoutes(deps: AppDeps) {
  const { db, readDb, auth } = deps;
  /** The report the address names, run for the caller with the address's filters. */
  const reportOf = (c: Context<AppEnv>, search: ReportSearch, language: Language) =>
    runReport(
      { db, readDb },
      REPORTS[readParams(c, reportParamsSchema).id],
      currentActor(c),
      search,
      language,
      auth.now(),
    );
  const fileRequest = (c: Context<AppEnv>) => {
    const { table, lang, ...search } = readQuery(c, reportFileQuerySchema);
    return { table, search, language: lang ?? requestLanguage(c) };
  };
  return new Hono<AppEnv>()
    .route("/schedules", scheduleRoutes(deps))
    .get("/:id", async (c) => {
      const search = readQuery(c, reportSearchSchema);
      const result = await reportOf(c, search, requestLanguage(c));
      return c.json({ success: true as const, data: pageOfReport(result, search) });
    })
    .get("/:id/csv", async (c) => {
      const { table: tableKey, search, language } = fileRequest(c);
      const result = await reportOf(c, search, language);
      const table =
        result.tables.find((candidate) => (tableKey ? candidate.key === tableKey : candidate.main)) ??
        result.tables[0];
      if (!table) throw new AppError("not_found", message("reports:noTable"));
      return csvDownload(c, reportFileName(result, "csv", table), reportCsv(table));
    })
    .get("/:id/pdf", async (c) => {
      const { search, language } = fileRequest(c);
      const result = await reportOf(c, search, language);
      return c.body(await reportPdf(result, language), 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${reportFileName(result, "pdf")}"`,
      });
    });
}
