import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CircleCheck, PackageOpen, RefreshCw, School } from "lucide-react";
import { useTranslation } from "react-i18next";
import {
  REDEMPTION_STATUSES,
  type Redemption,
  type RewardItem,
  type RewardsMonitor,
} from "../../../shared/contracts/rewards";
import { BarFigure } from "../../components/charts/bar-figure";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber, instantLabel, timeLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { monitorQuery } from "./api";
import { AlphaAmount, StatusBadge } from "./parts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The server lists at most this many stuck requests. */
const STUCK_LIST_LIMIT = 50;

const TH = "px-3 py-2 font-semibold";
const TH_NUMBER = "px-3 py-2 text-right font-semibold";
const TD = "px-3 py-2.5";
const TD_NUMBER = "px-3 py-2.5 text-right tabular-nums";
const THEAD =
  "border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300";

/** Staff watch the emporium: requests by state, the stuck ones, items running low, each school's Alphas. */
export function EmporiumMonitorPage() {
  const { t } = useTranslation("rewards");
  const monitor = useQuery(monitorQuery);
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/emporium-monitor.title")}
        description={t("monitor.description")}
        actions={
          <div className="flex flex-wrap items-center gap-3">
            <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
              {monitor.isFetching
                ? t("monitor.refreshing")
                : monitor.dataUpdatedAt > 0 &&
                  t("monitor.updated", { time: timeLabel(new Date(monitor.dataUpdatedAt)) })}
            </p>
            <button
              type="button"
              onClick={() => monitor.refetch()}
              disabled={monitor.isFetching}
              className={buttonClass("secondary", "inline-flex items-center gap-2")}
            >
              <RefreshCw
                aria-hidden="true"
                className={`size-4 ${monitor.isFetching ? "motion-safe:animate-spin" : ""}`}
              />
              {t("monitor.refresh")}
            </button>
          </div>
        }
      />
      {monitor.isPending ? (
        <Loading label={t("monitor.loading")} rows={5} />
      ) : monitor.isError ? (
        <QueryError
          error={monitor.error}
          fallback={t("monitor.loadFailed")}
          onRetry={() => monitor.refetch()}
        />
      ) : (
        <MonitorBody data={monitor.data} />
      )}
    </div>
  );
}

function MonitorBody({ data }: { data: RewardsMonitor }) {
  const { t } = useTranslation("rewards");
  const { activeRole } = useAuth();
  return (
    <>
      <Figures data={data} />
      <div className="grid gap-6 lg:grid-cols-5">
        <Section
          title={t("monitor.byStatus.title")}
          description={t("monitor.byStatus.description")}
          className="lg:col-span-3"
        >
          <StatusChart byStatus={data.byStatus} />
        </Section>
        <Section
          title={t("monitor.lowStock.title")}
          description={t("monitor.lowStock.description")}
          className="lg:col-span-2"
          actions={
            activeRole === "administrator" && (
              <Link to="/app/admin/rewards-management" className={buttonClass("secondary")}>
                {t("monitor.lowStock.manage")}
              </Link>
            )
          }
        >
          <LowStock items={data.lowStock} />
        </Section>
      </div>
      <Section
        title={t("monitor.stuck.title")}
        description={t("monitor.stuck.description", { count: data.stuckAfterDays })}
      >
        <StuckRequests requests={data.stuck} stuckAfterDays={data.stuckAfterDays} />
      </Section>
      <Section title={t("monitor.schools.title")} description={t("monitor.schools.description")}>
        <SchoolsTable schools={data.schools} />
      </Section>
    </>
  );
}

/** The figures that need someone: waiting for a decision, ready to hand out, stuck, running low. */
function Figures({ data }: { data: RewardsMonitor }) {
  const { t } = useTranslation("rewards");
  const tiles = [
    { key: "pending", value: data.byStatus.pending },
    { key: "approved", value: data.byStatus.approved },
    { key: "stuck", value: data.stuck.length },
    { key: "lowStock", value: data.lowStock.length },
  ] as const;
  return (
    <section aria-labelledby="monitor-figures">
      <h2 id="monitor-figures" className="sr-only">
        {t("monitor.figures.title")}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {tiles.map((tile) => (
          <div
            key={tile.key}
            className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">
              {t(`monitor.figures.${tile.key}`)}
            </dt>
            <dd className="mt-1 text-2xl font-extrabold tabular-nums">{formatNumber(tile.value, 0)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function StatusChart({ byStatus }: { byStatus: RewardsMonitor["byStatus"] }) {
  const { t } = useTranslation("rewards");
  const total = REDEMPTION_STATUSES.reduce((sum, status) => sum + (byStatus[status] ?? 0), 0);
  if (total === 0)
    return (
      <EmptyState icon={PackageOpen} title={t("monitor.byStatus.empty.title")}>
        {t("monitor.byStatus.empty.body")}
      </EmptyState>
    );
  const bars = REDEMPTION_STATUSES.map((status) => ({
    label: t(`monitor.byStatus.short.${status}`),
    name: t(`status.${status}`),
    value: byStatus[status] ?? 0,
  }));
  // Six named bars need more room than a phone has: there the chart scrolls sideways in its box.
  return (
    <TableRegion label={t("monitor.byStatus.chart")}>
      <div className="min-w-[28rem]">
        <BarFigure
          bars={bars}
          description={t("monitor.byStatus.chart")}
          valueLabel={t("monitor.byStatus.requests")}
          formatValue={(value) => formatNumber(value, 0)}
          minimumTop={5}
          caption={t("monitor.byStatus.caption", { count: total })}
        />
      </div>
    </TableRegion>
  );
}

function StuckRequests({ requests, stuckAfterDays }: { requests: Redemption[]; stuckAfterDays: number }) {
  const { t } = useTranslation("rewards");
  if (requests.length === 0)
    return (
      <EmptyState icon={CircleCheck} title={t("monitor.stuck.empty.title")}>
        {t("monitor.stuck.empty.body", { count: stuckAfterDays })}
      </EmptyState>
    );
  const now = Date.now();
  return (
    <>
      <TableRegion label={t("monitor.stuck.caption")} className="-mx-5 sm:mx-0">
        <table className="w-full min-w-[44rem] text-left text-sm">
          <caption className="sr-only">{t("monitor.stuck.caption")}</caption>
          <thead className={THEAD}>
            <tr>
              <th scope="col" className={`${TH} pl-5 sm:pl-3`}>
                {t("monitor.stuck.student")}
              </th>
              <th scope="col" className={TH}>
                {t("monitor.stuck.item")}
              </th>
              <th scope="col" className={TH}>
                {t("monitor.stuck.state")}
              </th>
              <th scope="col" className={TH_NUMBER}>
                {t("monitor.stuck.age")}
              </th>
              <th scope="col" className={TH}>
                <span className="sr-only">{t("monitor.stuck.action")}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {requests.map((request) => {
              const studentName = request.student?.name ?? request.studentId;
              return (
                <tr key={request.id}>
                  <th scope="row" className={`${TD} pl-5 text-left font-medium sm:pl-3`}>
                    {studentName}
                  </th>
                  <td className={TD}>
                    <span className="block">{request.itemName}</span>
                    <AlphaAmount
                      value={request.price}
                      className="text-xs text-slate-600 dark:text-slate-300"
                    />
                  </td>
                  <td className={TD}>
                    <StatusBadge status={request.status} />
                    {request.status === "pending" && (
                      <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-300">
                        {t(`monitor.stuck.decides.${request.approverKind}`)}
                      </span>
                    )}
                  </td>
                  <td className={`${TD_NUMBER} whitespace-nowrap`}>
                    <span title={instantLabel(request.createdAt)}>
                      {t("monitor.stuck.days", {
                        count: Math.floor((now - new Date(request.createdAt).getTime()) / DAY_MS),
                      })}
                    </span>
                  </td>
                  <td className={TD}>
                    <Link
                      to="/app/teacher/emporium"
                      className="font-semibold whitespace-nowrap text-brand-700 underline underline-offset-2 hover:no-underline dark:text-brand-100"
                    >
                      {t("monitor.stuck.handOutPage")}
                      <span className="sr-only">
                        {t("monitor.stuck.forRequest", {
                          item: request.itemName,
                          name: studentName,
                        })}
                      </span>
                    </Link>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      {requests.length >= STUCK_LIST_LIMIT && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          {t("monitor.stuck.more", { count: STUCK_LIST_LIMIT })}
        </p>
      )}
    </>
  );
}

function LowStock({ items }: { items: RewardItem[] }) {
  const { t } = useTranslation("rewards");
  if (items.length === 0)
    return (
      <EmptyState icon={CircleCheck} title={t("monitor.lowStock.empty.title")}>
        {t("monitor.lowStock.empty.body")}
      </EmptyState>
    );
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800">
      {items.map((item) => {
        const remaining = item.remaining ?? 0;
        return (
          <li key={item.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 py-2.5">
            <span className="font-medium">{item.name}</span>
            <span
              className={`text-sm font-semibold tabular-nums ${remaining === 0 ? "text-red-700 dark:text-red-300" : "text-amber-800 dark:text-amber-200"}`}
            >
              {t("monitor.lowStock.left", {
                count: remaining,
                remaining: formatNumber(remaining, 0),
                stock: formatNumber(item.stock ?? 0, 0),
              })}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function SchoolsTable({ schools }: { schools: RewardsMonitor["schools"] }) {
  const { t } = useTranslation("rewards");
  if (schools.length === 0)
    return (
      <EmptyState icon={School} title={t("monitor.schools.empty.title")}>
        {t("monitor.schools.empty.body")}
      </EmptyState>
    );
  const columns = [
    { key: "students", label: t("monitor.schools.students") },
    { key: "balance", label: t("monitor.schools.balance") },
    { key: "held", label: t("monitor.schools.held") },
    { key: "savings", label: t("monitor.schools.savings") },
    { key: "fulfilledThisMonth", label: t("monitor.schools.fulfilledThisMonth") },
    { key: "spentThisMonth", label: t("monitor.schools.spentThisMonth") },
  ] as const;
  return (
    <TableRegion label={t("monitor.schools.caption")} className="-mx-5 sm:mx-0">
      <table className="w-full min-w-[44rem] text-left text-sm">
        <caption className="sr-only">{t("monitor.schools.caption")}</caption>
        <thead className={THEAD}>
          <tr>
            <th scope="col" className={`${TH} pl-5 sm:pl-3`}>
              {t("monitor.schools.school")}
            </th>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={TH_NUMBER}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {schools.map((school) => (
            <tr key={school.orgId}>
              <th scope="row" className={`${TD} pl-5 text-left font-semibold sm:pl-3`}>
                {school.name}
              </th>
              {columns.map((column) => (
                <td key={column.key} className={TD_NUMBER}>
                  {formatNumber(school[column.key], 0)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
