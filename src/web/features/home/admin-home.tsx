import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowDownRight, ArrowUpRight, CircleCheck, School, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { schoolSummariesResponseSchema } from "../../../shared/contracts/activity";
import { addDays, localDateOf } from "../../../shared/time-zone";
import { BarFigure } from "../../components/charts/bar-figure";
import { TableRegion } from "../../components/ui/table-region";
import { dayLabel, formatPercent, formatXp, monthDayLabel } from "../../lib/format";
import { ReviewerNotice } from "../integrity/home-cards";
import { schoolsSummaryQuery } from "./api";
import { EmptyState, HomeHero, Loading, QueryError, Section } from "./parts";

type SchoolTotals = z.infer<typeof schoolSummariesResponseSchema>["data"][number];

/** Below this share of its students learning this week, a school needs attention. */
const ACTIVE_THIS_WEEK_FLOOR = 0.6;
/** XP this many times lower than on the same days of last week needs attention too. */
const XP_DROP_FLOOR = -0.25;
/** A change smaller than this reads as "about the same". */
const SAME_AS_LAST_WEEK = 0.02;

/** The pages an administrator goes to most from home. */
const QUICK_ACTIONS = [
  "/app/admin/onboarding",
  "/app/admin/roster-sync",
  "/app/admin/roles",
  "/app/admin/organizations/",
  "/app/learning-metrics",
  "/app/admin/operations",
] as const;

/** This week's change on the same days of last week, or null when last week had nothing. */
function weekChange(thisWeek: number, lastWeekToDate: number): number | null {
  return lastWeekToDate > 0 ? (thisWeek - lastWeekToDate) / lastWeekToDate : null;
}

/** An administrator's home: every school's students and XP, today and this week. */
export function AdminHome() {
  const { t } = useTranslation("home");
  const schools = useQuery(schoolsSummaryQuery);

  return (
    <div className="space-y-6">
      <HomeHero />
      <ReviewerNotice />
      {schools.isError && (
        <QueryError
          error={schools.error}
          fallback={t("admin.loadFailed")}
          onRetry={() => schools.refetch()}
        />
      )}
      {schools.isPending && <Loading label={t("admin.loading")} rows={4} />}
      {schools.data &&
        (schools.data.length === 0 ? (
          <EmptyState icon={School} title={t("admin.empty.title")}>
            {t("admin.empty.body")}
          </EmptyState>
        ) : (
          <>
            <Totals schools={schools.data} />
            <div className="grid gap-6 lg:grid-cols-5">
              <Section
                title={t("admin.trend.title")}
                description={t("admin.trend.description")}
                className="lg:col-span-3"
              >
                <DistrictTrend schools={schools.data} />
              </Section>
              <Section title={t("admin.attention.title")} className="lg:col-span-2">
                <NeedsAttention schools={schools.data} />
              </Section>
            </div>
            <Section title={t("admin.schools.title")} description={t("admin.schools.description")}>
              <SchoolsTable schools={schools.data} />
            </Section>
            <QuickActions />
          </>
        ))}
    </div>
  );
}

function Totals({ schools }: { schools: SchoolTotals[] }) {
  const { t } = useTranslation("home");
  const sum = (pick: (school: SchoolTotals) => number) =>
    schools.reduce((total, school) => total + pick(school), 0);
  const students = sum((school) => school.students);
  const active = sum((school) => school.activeToday);
  const tiles: { label: string; value: string; note?: ReactNode }[] = [
    { label: t("admin.students"), value: String(students) },
    {
      label: t("admin.activeToday"),
      value: String(active),
      note: students ? formatPercent(active / students) : undefined,
    },
    { label: t("admin.xpToday"), value: formatXp(sum((school) => school.xpToday)) },
    {
      label: t("admin.xpThisWeek"),
      value: formatXp(sum((school) => school.xpThisWeek)),
      note: (
        <ChangeNote
          change={weekChange(
            sum((school) => school.xpThisWeek),
            sum((school) => school.xpLastWeekToDate),
          )}
        />
      ),
    },
  ];
  return (
    <section aria-labelledby="district-totals">
      <h2 id="district-totals" className="sr-only">
        {t("admin.allSchools")}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {tiles.map((tile) => (
          <div
            key={tile.label}
            className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{tile.label}</dt>
            {/* The change note wraps under the figure in a phone's half-width tile. */}
            <dd className="mt-1 flex flex-wrap items-baseline gap-x-2">
              <span className="text-2xl font-extrabold tabular-nums">{tile.value}</span>
              {tile.note && <span className="text-sm text-slate-600 dark:text-slate-300">{tile.note}</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function SchoolsTable({ schools }: { schools: SchoolTotals[] }) {
  const { t } = useTranslation("home");
  return (
    <TableRegion label={t("admin.schools.region")} className="-mx-5 sm:mx-0">
      <table className="w-full min-w-[30rem] text-left text-sm">
        <caption className="sr-only">{t("admin.schools.caption")}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
              {t("admin.school")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("admin.students")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("admin.activeToday")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("admin.xpToday")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("admin.xpThisWeek")}
            </th>
            <th scope="col" className="px-5 py-2 text-right font-semibold sm:px-3">
              {t("admin.onLastWeek")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {schools.map((school) => (
            <tr key={school.sourcedId}>
              <th scope="row" className="px-5 py-2.5 font-semibold sm:px-3">
                {school.name}
              </th>
              <td className="px-3 py-2.5 text-right tabular-nums">{school.students}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{school.activeToday}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{formatXp(school.xpToday)}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{formatXp(school.xpThisWeek)}</td>
              <td className="px-5 py-2.5 text-right sm:px-3">
                <ChangeNote change={weekChange(school.xpThisWeek, school.xpLastWeekToDate)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** "▲ 12% on last week", in words for screen readers too; nothing when there is nothing to compare. */
function ChangeNote({ change }: { change: number | null }) {
  const { t } = useTranslation("home");
  if (change === null) return <span className="text-sm text-slate-600 dark:text-slate-300">–</span>;
  if (Math.abs(change) < SAME_AS_LAST_WEEK)
    return <span className="text-sm text-slate-600 dark:text-slate-300">{t("admin.change.same")}</span>;
  const isUp = change > 0;
  const Arrow = isUp ? ArrowUpRight : ArrowDownRight;
  return (
    <span
      className={`inline-flex items-center gap-0.5 text-sm font-semibold ${isUp ? "text-emerald-700 dark:text-emerald-300" : "text-red-700 dark:text-red-300"}`}
    >
      <Arrow aria-hidden="true" className="size-4" />
      {t(isUp ? "admin.change.up" : "admin.change.down", { percent: formatPercent(Math.abs(change)) })}
    </span>
  );
}

/** Every school's XP per day over four weeks, added up: is learning growing? */
function DistrictTrend({ schools }: { schools: SchoolTotals[] }) {
  const { t } = useTranslation("home");
  const today = localDateOf(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);
  const days = schools[0]?.dailyXp.length ?? 0;
  const bars = Array.from({ length: days }, (_, index) => {
    const date = addDays(today, index - days + 1);
    return {
      label: monthDayLabel(date),
      name: dayLabel(date),
      value: schools.reduce((total, school) => total + (school.dailyXp[index] ?? 0), 0),
    };
  });
  return (
    <BarFigure
      bars={bars}
      description={t("admin.trend.chart")}
      valueLabel={t("admin.trend.valueLabel")}
      formatValue={(xp) => t("xp", { xp: formatXp(xp) })}
      minimumTop={100}
      caption={t("admin.trend.caption")}
    />
  );
}

/** Schools where few students learned this week, or XP fell well below the same days of last week. */
function NeedsAttention({ schools }: { schools: SchoolTotals[] }) {
  const { t } = useTranslation("home");
  const flagged = schools.flatMap((school) => {
    const reasons: string[] = [];
    if (school.students > 0 && school.activeThisWeek / school.students < ACTIVE_THIS_WEEK_FLOOR)
      reasons.push(
        t("admin.attention.fewActive", { active: school.activeThisWeek, students: school.students }),
      );
    const change = weekChange(school.xpThisWeek, school.xpLastWeekToDate);
    if (change !== null && change <= XP_DROP_FLOOR)
      reasons.push(t("admin.attention.xpDown", { percent: formatPercent(-change) }));
    return reasons.length > 0 ? [{ school, reasons }] : [];
  });
  if (flagged.length === 0)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
        <CircleCheck aria-hidden="true" className="size-5 shrink-0 text-emerald-600 dark:text-emerald-400" />
        {t("admin.attention.none")}
      </p>
    );
  return (
    <ul className="space-y-3">
      {flagged.map(({ school, reasons }) => (
        <li key={school.sourcedId} className="flex gap-3">
          <TriangleAlert
            aria-hidden="true"
            className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400"
          />
          <div className="min-w-0">
            <Link
              to="/app/admin/org-explorer/$orgId"
              params={{ orgId: school.sourcedId }}
              className="font-semibold text-brand-700 hover:underline dark:text-brand-100"
            >
              {school.name}
            </Link>
            {reasons.map((reason) => (
              <p key={reason} className="text-sm text-slate-700 dark:text-slate-300">
                {reason}
              </p>
            ))}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The pages an administrator goes to most, one click from home. */
function QuickActions() {
  const { t } = useTranslation("home");
  return (
    <Section title={t("admin.actions.title")}>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {QUICK_ACTIONS.map((path) => (
          <li key={path}>
            <Link
              to={path.replace(/\/$/, "")}
              className="block h-full rounded-xl border border-slate-200 p-4 hover:border-brand-600 hover:bg-brand-50 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              <span className="font-semibold text-brand-700 dark:text-brand-100">
                {t(`common:pages.${path}.title`)}
              </span>
              <span className="mt-1 block text-sm text-slate-600 dark:text-slate-300">
                {t(`common:pages.${path}.summary`)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}
