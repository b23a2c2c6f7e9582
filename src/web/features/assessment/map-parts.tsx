import { useQuery } from "@tanstack/react-query";
import { LineChart as ChartIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import {
  type GoalAreaScore,
  GROWTH_MULTIPLE_TARGET,
  type GrowthRecord,
  type MapTestRecord,
  type StudentMapResults,
} from "../../../shared/contracts/assessment";
import { Card } from "../../components/page-header";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel, formatNumber } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { studentMapQuery } from "./map-api";
import { RitChart } from "./rit-chart";

/**
 * Who is reading a student's results: the student, a parent or guardian (both get plain words
 * about what the numbers mean), or staff (the figures NWEA's own reports use).
 */
export type MapReader = "self" | "family" | "staff";

/** A student's MAP results, every subject with its chart, goal areas and growth. */
export function StudentMapView({ studentId, reader }: { studentId: string; reader: MapReader }) {
  const { t } = useTranslation("assessment");
  const results = useQuery(studentMapQuery(studentId));
  if (results.isPending) return <Loading label={t("map.loading")} rows={4} />;
  if (results.isError)
    return <QueryError error={results.error} fallback={t("map.failed")} onRetry={() => results.refetch()} />;
  return <MapResults results={results.data} reader={reader} />;
}

export function MapResults({ results, reader }: { results: StudentMapResults; reader: MapReader }) {
  const { t } = useTranslation("assessment");
  if (results.subjects.length === 0)
    return (
      <EmptyState icon={ChartIcon} title={t("map.empty.title")}>
        {t(`map.empty.body.${reader}`, { name: results.student.name })}
      </EmptyState>
    );
  return (
    <div className="space-y-6">
      {reader !== "staff" && <WhatTheNumbersMean reader={reader} />}
      {results.subjects.map((subject) => (
        <SubjectResults key={subject.subject} {...subject} reader={reader} />
      ))}
    </div>
  );
}

/** RIT and percentile in plain words, for students and families. */
function WhatTheNumbersMean({ reader }: { reader: "self" | "family" }) {
  const { t } = useTranslation("assessment");
  return (
    <details className="rounded-2xl border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100">
      <summary className="cursor-pointer font-semibold">{t("map.explain.title")}</summary>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>{t(`map.explain.rit.${reader}`)}</li>
        <li>{t(`map.explain.percentile.${reader}`)}</li>
        <li>{t(`map.explain.growth.${reader}`, { target: GROWTH_MULTIPLE_TARGET })}</li>
      </ul>
    </details>
  );
}

function SubjectResults({
  subject,
  tests,
  growth,
  reader,
}: StudentMapResults["subjects"][number] & { reader: MapReader }) {
  const { t } = useTranslation("assessment");
  const latest = tests.at(-1);
  const headline = headlineGrowthOf(growth);
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-xl font-bold">{subject}</h2>
          {latest && (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {t("map.latest", { term: latest.termName, date: dateLabel(latest.testDate) })}
            </p>
          )}
        </div>
        {latest && <LatestFigures test={latest} reader={reader} />}
      </div>
      <div className="mt-5 grid gap-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <RitChart subject={subject} tests={tests} />
        </div>
        <div className="space-y-5 lg:col-span-2">
          {headline ? (
            <GrowthAgainstProjection growth={headline} reader={reader} />
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-300">{t(`map.growth.none.${reader}`)}</p>
          )}
          {latest && latest.goals.length > 0 && <GoalAreas goals={latest.goals} />}
        </div>
      </div>
      {reader === "staff" && growth.length > 0 && <GrowthTable growth={growth} />}
    </Card>
  );
}

/** The latest window that has a projection, preferring one from fall (the school's promise). */
export function headlineGrowthOf(growth: GrowthRecord[]): GrowthRecord | null {
  const projected = growth.filter((window) => window.projected !== null);
  const latestEnd = projected[0]?.to;
  const atLatest = projected.filter((window) => window.to === latestEnd);
  return atLatest.find((window) => window.window.startsWith("fall")) ?? atLatest[0] ?? growth[0] ?? null;
}

function LatestFigures({ test, reader }: { test: MapTestRecord; reader: MapReader }) {
  const { t } = useTranslation("assessment");
  return (
    <dl className="flex gap-3">
      <Figure
        label={t("map.rit")}
        value={String(test.rit)}
        hint={test.standardError ? `± ${formatNumber(test.standardError, 1)}` : undefined}
      />
      {test.percentile !== null && (
        <Figure
          label={t("map.percentile")}
          value={t("map.percentileValue", { percentile: test.percentile })}
          hint={
            reader === "staff"
              ? test.percentileSource === "norms"
                ? t("map.percentileFromNorms")
                : undefined
              : t("map.percentileWords", { percentile: test.percentile })
          }
        />
      )}
    </dl>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="min-w-28 rounded-xl bg-slate-50 px-4 py-2 dark:bg-slate-800">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300">
        {label}
      </dt>
      <dd className="text-2xl font-extrabold tabular-nums">{value}</dd>
      {hint && <dd className="max-w-44 text-xs text-slate-600 dark:text-slate-300">{hint}</dd>}
    </div>
  );
}

/**
 * Growth as a bar against two marks: the projection (what a typical student starting there grows)
 * and the school's 2× line. The bar is green at 2×, blue at the projection, amber below it.
 */
export function GrowthAgainstProjection({ growth, reader }: { growth: GrowthRecord; reader: MapReader }) {
  const { t } = useTranslation("assessment");
  const projected = growth.projected;
  const target = projected !== null && projected > 0 ? projected * GROWTH_MULTIPLE_TARGET : null;
  const scaleTop = Math.max(growth.observed, target ?? 0, projected ?? 0, 1) * 1.1;
  const at = (value: number) => `${Math.max(0, Math.min(100, (value / scaleTop) * 100))}%`;
  const tone = growth.reachesTarget
    ? "bg-emerald-600"
    : growth.metProjected
      ? "bg-brand-600 dark:bg-brand-500"
      : "bg-amber-500";
  const verdict = growth.reachesTarget
    ? "target"
    : growth.metProjected
      ? "met"
      : growth.metProjected === false
        ? "below"
        : "unknown";
  return (
    <section aria-labelledby={`growth-${growth.window}-${growth.to}`}>
      <h3 id={`growth-${growth.window}-${growth.to}`} className="font-semibold">
        {t(`map.windows.${growth.window}`)}
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("map.growth.span", {
          from: growth.from,
          to: growth.to,
          start: growth.startRit,
          end: growth.endRit,
        })}
      </p>
      <div
        role="img"
        aria-label={t("map.growth.chartLabel", {
          observed: growth.observed,
          projected: projected ?? "—",
          target: target ?? "—",
        })}
        className="relative mt-3 h-8 rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div className={`h-8 rounded-full ${tone}`} style={{ width: at(Math.max(growth.observed, 0)) }} />
        {projected !== null && <Mark at={at(projected)} label={t("map.growth.projectedMark")} />}
        {target !== null && <Mark at={at(target)} label={`${GROWTH_MULTIPLE_TARGET}×`} strong />}
      </div>
      <p className="mt-7 text-sm">
        {t(`map.growth.verdict.${reader}.${verdict}`, {
          observed: growth.observed,
          projected: projected ?? 0,
          multiple: growth.multiple === null ? "—" : formatNumber(growth.multiple, 2),
        })}
      </p>
      {reader === "staff" && (
        <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
          <SmallFigure
            label={t("map.multiple")}
            value={growth.multiple === null ? "—" : `${formatNumber(growth.multiple, 2)}×`}
          />
          <SmallFigure
            label={t("map.cgp")}
            value={
              growth.conditionalGrowthPercentile === null ? "—" : String(growth.conditionalGrowthPercentile)
            }
          />
          <SmallFigure
            label={t("map.cgi")}
            value={
              growth.conditionalGrowthIndex === null ? "—" : formatNumber(growth.conditionalGrowthIndex, 2)
            }
          />
        </dl>
      )}
    </section>
  );
}

function Mark({ at, label, strong = false }: { at: string; label: string; strong?: boolean }) {
  return (
    <div className="absolute top-0 h-8" style={{ left: at }} aria-hidden="true">
      <div className={`h-8 w-0.5 ${strong ? "bg-slate-900 dark:bg-white" : "bg-slate-500"}`} />
      <div className="absolute top-9 -translate-x-1/2 whitespace-nowrap text-xs font-semibold text-slate-700 dark:text-slate-200">
        {label}
      </div>
    </div>
  );
}

function SmallFigure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

const BAND_STYLE: Record<string, string> = {
  Low: "bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-200",
  LoAvg: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  Avg: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  HiAvg: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200",
  High: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
};

/** The goal areas (strands) of a test: each one's RIT range and band. */
function GoalAreas({ goals }: { goals: GoalAreaScore[] }) {
  const { t } = useTranslation("assessment");
  return (
    <section>
      <h3 className="font-semibold">{t("map.goalAreas")}</h3>
      <ul className="mt-2 space-y-2">
        {goals.map((goal) => (
          <li key={goal.name} className="flex items-center justify-between gap-3 text-sm">
            <span>{goal.name}</span>
            <span className="flex items-center gap-2">
              <span className="whitespace-nowrap tabular-nums text-slate-600 dark:text-slate-300">
                {goal.rangeLow !== null && goal.rangeHigh !== null
                  ? `${goal.rangeLow}–${goal.rangeHigh}`
                  : (goal.rit ?? "—")}
              </span>
              {goal.band && (
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BAND_STYLE[goal.band]}`}>
                  {t(`map.bands.${goal.band}`)}
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Every window the tests span, with NWEA's figures. */
function GrowthTable({ growth }: { growth: GrowthRecord[] }) {
  const { t } = useTranslation("assessment");
  return (
    <TableRegion label={t("map.growthTable.caption")} className="mt-6">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{t("map.growthTable.caption")}</caption>
        <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="py-2 pr-3">
              {t("map.growthTable.window")}
            </th>
            <th scope="col" className="py-2 pr-3">
              {t("map.growthTable.rits")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right">
              {t("map.growthTable.observed")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right">
              {t("map.growthTable.projected")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right">
              {t("map.multiple")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right">
              {t("map.cgp")}
            </th>
            <th scope="col" className="py-2 text-right">
              {t("map.growthTable.met")}
            </th>
          </tr>
        </thead>
        <tbody>
          {growth.map((window) => (
            <tr
              key={`${window.window}-${window.to}-${window.from}`}
              className="border-b border-slate-100 dark:border-slate-800"
            >
              <th scope="row" className="py-2 pr-3 font-medium">
                {t(`map.windows.${window.window}`)}
                <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
                  {window.from} → {window.to}
                </span>
              </th>
              <td className="py-2 pr-3 tabular-nums">
                {window.startRit} → {window.endRit}
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{window.observed}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{window.projected ?? "—"}</td>
              <td className="py-2 pr-3 text-right tabular-nums">
                {window.multiple === null ? "—" : `${formatNumber(window.multiple, 2)}×`}
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">
                {window.conditionalGrowthPercentile ?? "—"}
              </td>
              <td className="py-2 text-right">
                {window.metProjected === null ? "—" : window.metProjected ? t("map.yes") : t("map.no")}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
