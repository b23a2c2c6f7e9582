import { useQuery } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { useTranslation } from "react-i18next";
import { SelectField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber, instantLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { ingestionQuery } from "./api";
import { DayRange, ROW, TD, TD_NUMBER, TH, TH_NUMBER, THEAD } from "./parts";
import type { WebhookMonitorSearch } from "./webhook-monitor-page";

const OUTCOMES = ["accepted", "duplicates", "rejected"] as const;
const OUTCOME_BARS: Record<(typeof OUTCOMES)[number], string> = {
  accepted: "bg-emerald-600",
  duplicates: "bg-sky-600",
  rejected: "bg-red-600",
};

/** What each learning app posted: per app the events accepted, repeated and turned away, then each request. */
export function IngestionPanel({
  search,
  setSearch,
}: {
  search: WebhookMonitorSearch;
  setSearch: (changes: Partial<WebhookMonitorSearch>) => void;
}) {
  const { t } = useTranslation("webhooks");
  const page = search.page ?? 1;
  const log = useQuery(ingestionQuery({ appId: search.appId, from: search.from, to: search.to, page }));
  // The apps the unfiltered period knows, so the choice of app does not shrink to the chosen one.
  const apps = useQuery(ingestionQuery({ from: search.from, to: search.to, page: 1 }));

  return (
    <div className="space-y-6">
      <Section title={t("ingestion.title")} description={t("ingestion.description")}>
        <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-3">
          <SelectField
            className="col-span-2 lg:col-span-1"
            label={t("filters.app")}
            value={search.appId ?? ""}
            onChange={(event) => setSearch({ appId: event.target.value || undefined })}
            options={[
              { value: "", label: t("filters.allApps") },
              ...(apps.data?.totals ?? []).map((app) => ({
                value: app.appId,
                label: app.appName ?? app.appId,
              })),
            ]}
          />
          <DayRange from={search.from} to={search.to} onChange={setSearch} />
        </div>
        {log.isPending ? (
          <Loading label={t("ingestion.loading")} rows={4} />
        ) : log.isError ? (
          <QueryError error={log.error} fallback={t("ingestion.loadFailed")} onRetry={() => log.refetch()} />
        ) : log.data.totals.length === 0 ? (
          <EmptyState icon={Inbox} title={t("ingestion.none")}>
            {t("ingestion.noneHint")}
          </EmptyState>
        ) : (
          <ul className="grid gap-3 md:grid-cols-2">
            {log.data.totals.map((app) => {
              const events = app.accepted + app.duplicates + app.rejected;
              return (
                <li key={app.appId} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
                  <p className="font-semibold">{app.appName ?? app.appId}</p>
                  <p className="text-sm text-slate-600 dark:text-slate-300">
                    {t("ingestion.requests", { count: app.requests })}
                  </p>
                  {/* The share of each outcome, also said in words under it. */}
                  <div
                    aria-hidden="true"
                    className="mt-3 flex h-3 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
                  >
                    {OUTCOMES.map((outcome) =>
                      app[outcome] > 0 ? (
                        <div
                          key={outcome}
                          className={OUTCOME_BARS[outcome]}
                          style={{ width: `${(app[outcome] / Math.max(events, 1)) * 100}%` }}
                        />
                      ) : null,
                    )}
                  </div>
                  <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                    {OUTCOMES.map((outcome) => (
                      <div key={outcome} className="flex items-center gap-1.5">
                        <span
                          aria-hidden="true"
                          className={`size-2.5 rounded-full ${OUTCOME_BARS[outcome]}`}
                        />
                        <dt>{t(`ingestion.${outcome}`)}</dt>
                        <dd className="font-semibold tabular-nums">{formatNumber(app[outcome], 0)}</dd>
                      </div>
                    ))}
                  </dl>
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      {log.data && log.data.data.length > 0 && (
        <Section title={t("ingestion.logTitle")}>
          <TableRegion label={t("ingestion.logTitle")}>
            <table className="w-full min-w-[48rem] text-sm">
              <thead className={THEAD}>
                <tr>
                  <th className={TH}>{t("ingestion.time")}</th>
                  <th className={TH}>{t("ingestion.app")}</th>
                  <th className={TH_NUMBER}>{t("ingestion.status")}</th>
                  <th className={TH_NUMBER}>{t("ingestion.accepted")}</th>
                  <th className={TH_NUMBER}>{t("ingestion.duplicates")}</th>
                  <th className={TH_NUMBER}>{t("ingestion.rejected")}</th>
                  <th className={TH}>{t("ingestion.reasons")}</th>
                  <th className={TH_NUMBER}>{t("ingestion.duration")}</th>
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((row) => (
                  <tr key={row.id} className={ROW}>
                    <td className={`${TD} whitespace-nowrap`}>{instantLabel(row.receivedAt)}</td>
                    <td className={`${TD} whitespace-nowrap`}>
                      {row.appName ?? row.appId}
                      <span className="block text-xs text-slate-600 dark:text-slate-300">
                        {t(`ingestion.endpoints.${row.endpoint === "caliper" ? "caliper" : "activity"}`)}
                      </span>
                    </td>
                    <td
                      className={`${TD_NUMBER} ${row.statusCode >= 400 ? "font-semibold text-red-700 dark:text-red-300" : ""}`}
                    >
                      {row.statusCode}
                    </td>
                    <td className={TD_NUMBER}>{formatNumber(row.accepted, 0)}</td>
                    <td className={TD_NUMBER}>{formatNumber(row.duplicates, 0)}</td>
                    <td className={TD_NUMBER}>{formatNumber(row.rejected, 0)}</td>
                    <td className={`${TD} min-w-48`}>
                      {Object.keys(row.reasons).length === 0 ? (
                        "—"
                      ) : (
                        <ul>
                          {Object.entries(row.reasons).map(([reason, count]) => (
                            <li key={reason}>{t("ingestion.reason", { reason, count })}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td className={TD_NUMBER}>
                      {t("ingestion.ms", { ms: formatNumber(row.durationMs, 0) })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <Pager
            offset={(page - 1) * log.data.pageSize}
            limit={log.data.pageSize}
            total={log.data.total}
            label={t("ingestion.logTitle")}
            onChange={(offset) => setSearch({ page: offset / log.data.pageSize + 1 })}
          />
        </Section>
      )}
    </div>
  );
}
