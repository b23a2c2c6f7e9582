import { Hono } from "hono";
import { z } from "zod";
import { reportCsvQuerySchema, reportIdSchema, reportSearchSchema } from "../../../shared/contracts/reports";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { csvDownload } from "../../lib/csv-download";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { readParams, readQuery, requestLanguage } from "../../lib/validation";
import { reportCsv, reportFileName } from "./csv";
import { REPORTS } from "./definitions";
import { pageOfReport, type ReportDefinition, runReport } from "./engine";

const reportParamsSchema = z.object({ id: reportIdSchema });

function definitionOf(id: z.infer<typeof reportIdSchema>): ReportDefinition {
  const definition = REPORTS[id];
  if (!definition) throw new AppError("not_found", message("reports:notFound"));
  return definition;
}

export function reportsRoutes({ db, readDb, auth }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/:id", async (c) => {
      const definition = definitionOf(readParams(c, reportParamsSchema).id);
      const search = readQuery(c, reportSearchSchema);
      const result = await runReport(
        { db, readDb },
        definition,
        currentActor(c),
        search,
        requestLanguage(c),
        auth.now(),
      );
      return c.json({ success: true as const, data: pageOfReport(result, search) });
    })
    .get("/:id/csv", async (c) => {
      const definition = definitionOf(readParams(c, reportParamsSchema).id);
      const { table: tableKey, ...search } = readQuery(c, reportCsvQuerySchema);
      const result = await runReport(
        { db, readDb },
        definition,
        currentActor(c),
        search,
        requestLanguage(c),
        auth.now(),
      );
      const table =
        result.tables.find((candidate) => (tableKey ? candidate.key === tableKey : candidate.main)) ??
        result.tables[0];
      if (!table) throw new AppError("not_found", message("reports:noTable"));
      return csvDownload(c, reportFileName(result, "csv", table), reportCsv(table));
    });
}
