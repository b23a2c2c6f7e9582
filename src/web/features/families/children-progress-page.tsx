import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { CalendarRange, ClipboardList, LineChart, Users } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { ChildProgress, PeriodFigures, ProgressTerm } from "../../../shared/contracts/families";
import { PROGRESS_WEEKS } from "../../../shared/contracts/families";
import type { searchSchemas } from "../../../shared/routes";
import { BarFigure } from "../../components/charts/bar-figure";
import { PageHeader } from "../../components/page-header";
import { SelectField } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel, formatNumber, formatXp, monthDayLabel } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { studentMapQuery } from "../assessment/map-api";
import { studentPlacementsQuery } from "../assessment/placements-api";
import { SubjectPlacementCard } from "../assessment/placements-parts";
import { RitChart } from "../assessment/rit-chart";
import { childrenQuery } from "../auth/api";
import { fullName } from "../auth/auth-state";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { ChildSwitcher } from "../rewards/family-child-switcher";
import { childProgressQuery } from "./api";
import { childrenFailure } from "./parts";
import { WeeklyXpChart } from "./progress-charts";

type ProgressSearch = z.output<typeof searchSchemas.childrenProgress>;

/** The spans a family may look back over. */
const WEEK_CHOICES = [4, 12, 26, 52] as const;

/** Time on task as people say it: "45 min", "3 h 20 min". */
function timeOnTask(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return minutes < 60
    ? i18next.t("families:progress.minutes", { minutes })
    : i18next.t("families:progress.hours", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/**
 * `children-progress`: one child at a time (the first when the address names none of theirs), their
 * weeks and terms of learning, MAP results and placements.
 */
export function ChildrenProgressPage() {
  const { t } = useTranslation("families");
  const { childId } = useSearch({ strict: false }) as ProgressSearch;
  const children = useQuery(childrenQuery);

  let body: ReactNode;
  if (children.isPending) body = <Loading label={t("progress.loadingChildren")} rows={4} />;
  else if (children.isError)
    body = (
      <QueryError
        error={new Error()}
        fallback={childrenFailure(children.error)}
        onRetry={() => children.refetch()}
      />
    );
  else if (children.data.data.length === 0)
    body = (
      <EmptyState icon={Users} title={t("children.empty.title")}>
        {t("children.empty.body")}
      </EmptyState>
    );
  else {
    const choices = children.data.data;
    const child = choices.find((choice) => choice.sourcedId === childId) ?? choices[0];
    body = child && (
      <>
        {choices.length > 1 && (
          <ChildSwitcher
            choices={choices}
            selectedId={child.sourcedId}
            label={t("progress.switcher")}
            linkOf={(id) => ({ to: "/app/children-progress", search: { childId: id } })}
          />
        )}
        <ChildProgressView key={child.sourcedId} childId={child.sourcedId} name={fullName(child)} />
      </>
    );
  }

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/children-progress.title")}
        description={t("progress.description")}
      />
      {body}
    </div>
  );
}

function ChildProgressView({ childId, name }: { childId: string; name: string }) {
  const { t } = useTranslation("families");
  const [weeks, setWeeks] = useState<number>(PROGRESS_WEEKS.default);
  const progress = useQuery(childProgressQuery(childId, weeks));
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 className="text-xl font-bold">{t("progress.heading", { name })}</h2>
        <SelectField
          label={t("progress.span")}
          value={String(weeks)}
          onChange={(event) => setWeeks(Number(event.target.value))}
          options={WEEK_CHOICES.map((count) => ({
            value: String(count),
            label: t("progress.lastWeeks", { count }),
          }))}
          className="w-48"
        />
      </div>
      {progress.isPending && <Loading label={t("progress.loading", { name })} rows={6} />}
      {progress.isError && (
        <QueryError
          error={progress.error}
          fallback={t("progress.loadFailed")}
          onRetry={() => progress.refetch()}
        />
      )}
      {progress.data && <Weeks progress={progress.data} />}
      {progress.data && <Terms terms={progress.data.terms} />}
      <MapSection childId={childId} name={name} />
      <PlacementsSection childId={childId} name={name} />
    </div>
  );
}

/** The span's totals, the two charts, each subject and each week. */
function Weeks({ progress }: { progress: ChildProgress }) {
  const { t } = useTranslation("families");
  const totals = totalOf(progress.weeks);
  const name = progress.child.givenName;
  return (
    <>
      <Totals figures={totals} label={t("progress.totalsLabel", { count: progress.weeks.length })} />
      <div className="grid gap-6 xl:grid-cols-2">
        <Section title={t("progress.xpTitle")} description={t("progress.xpDescription", { name })}>
          <WeeklyXpChart weeks={progress.weeks} weeklyGoal={progress.weeklyGoal} />
        </Section>
        <Section
          title={t("progress.goalDaysTitle")}
          description={t("progress.goalDaysDescription", { name })}
        >
          <BarFigure
            bars={progress.weeks.map((week) => ({
              label: monthDayLabel(week.weekStart),
              name: t("progress.goalDaysBar", {
                week: monthDayLabel(week.weekStart),
                count: week.goalDaysMet,
                schoolDays: week.schoolDays,
              }),
              value: week.goalDaysMet,
            }))}
            description={t("progress.goalDaysChart")}
            valueLabel={t("progress.goalDaysValue")}
            formatValue={(value) => t("progress.days", { count: value })}
            minimumTop={5}
            caption={t("progress.goalDaysCaption")}
          />
        </Section>
      </div>
      <Section title={t("progress.subjectsTitle")} description={t("progress.subjectsDescription")}>
        <SubjectsTable progress={progress} totals={totals} />
      </Section>
      <Section title={t("progress.weeksTitle")}>
        <WeeksTable progress={progress} />
      </Section>
    </>
  );
}

/** The weeks added up: what the tiles and the subjects table show for the whole span. */
function totalOf(periods: PeriodFigures[]): PeriodFigures {
  const subjects = (periods[0]?.subjects ?? []).map((first, index) => ({
    ...first,
    xp:
      Math.round(periods.reduce((total, period) => total + (period.subjects[index]?.xp ?? 0), 0) * 100) / 100,
    activeSeconds: periods.reduce((total, period) => total + (period.subjects[index]?.activeSeconds ?? 0), 0),
    masteredUnits: periods.reduce((total, period) => total + (period.subjects[index]?.masteredUnits ?? 0), 0),
    goalDays:
      first.goalDays === null
        ? null
        : periods.reduce((total, period) => total + (period.subjects[index]?.goalDays ?? 0), 0),
  }));
  const sum = (pick: (period: PeriodFigures) => number) =>
    periods.reduce((total, period) => total + pick(period), 0);
  return {
    xp: Math.round(sum((period) => period.xp) * 100) / 100,
    activeSeconds: sum((period) => period.activeSeconds),
    masteredUnits: sum((period) => period.masteredUnits),
    goalDaysMet: sum((period) => period.goalDaysMet),
    schoolDays: sum((period) => period.schoolDays),
    subjects,
  };
}

function Totals({ figures, label }: { figures: PeriodFigures; label: string }) {
  const { t } = useTranslation("families");
  const tiles = [
    { term: t("progress.tiles.xp"), value: formatXp(figures.xp) },
    { term: t("progress.tiles.time"), value: timeOnTask(figures.activeSeconds) },
    { term: t("progress.tiles.units"), value: formatNumber(figures.masteredUnits, 0) },
    {
      term: t("progress.tiles.goalDays"),
      value: t("progress.ofSchoolDays", { count: figures.goalDaysMet, schoolDays: figures.schoolDays }),
    },
  ];
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map((tile) => (
        <div
          key={tile.term}
          className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="text-xs font-semibold text-slate-600 dark:text-slate-300">{tile.term}</dt>
          <dd className="mt-1 text-xl font-bold tabular-nums sm:text-2xl">{tile.value}</dd>
        </div>
      ))}
    </dl>
  );
}

const HEAD = "px-3 py-2 font-semibold tracking-wide whitespace-nowrap";
const CELL = "px-3 py-2 tabular-nums whitespace-nowrap";

function SubjectsTable({ progress, totals }: { progress: ChildProgress; totals: PeriodFigures }) {
  const { t } = useTranslation("families");
  const goalOf = new Map(progress.dailyGoals.map((entry) => [entry.subject, entry.goal]));
  const columns = ["subject", "dailyGoal", "xp", "time", "units", "goalDays"] as const;
  return (
    <TableRegion label={t("progress.subjectsTitle")}>
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">
          {t("progress.subjectsCaption", { name: progress.child.givenName, count: progress.weeks.length })}
        </caption>
        <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={HEAD}>
                {t(`progress.columns.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {totals.subjects.map((subject) => {
            const goal = goalOf.get(subject.subject);
            return (
              <tr key={subject.subject}>
                <th scope="row" className="px-3 py-2 font-semibold whitespace-nowrap">
                  {subject.subject}
                </th>
                <td className={CELL}>
                  {goal === undefined ? t("progress.noGoal") : t("progress.xpValue", { xp: formatXp(goal) })}
                </td>
                <td className={CELL}>{formatXp(subject.xp)}</td>
                <td className={CELL}>{timeOnTask(subject.activeSeconds)}</td>
                <td className={CELL}>{formatNumber(subject.masteredUnits, 0)}</td>
                <td className={CELL}>
                  {subject.goalDays === null
                    ? t("progress.noGoal")
                    : t("progress.days", { count: subject.goalDays })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}

function WeeksTable({ progress }: { progress: ChildProgress }) {
  const { t } = useTranslation("families");
  const columns = ["week", "xp", "time", "units", "goalDaysMet"] as const;
  return (
    <TableRegion label={t("progress.weeksTitle")} maxHeight="max-h-[32rem]">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">
          {t("progress.weeksCaption", { name: progress.child.givenName })}
        </caption>
        <thead className="sticky top-0 z-20 border-b border-slate-200 bg-white text-xs text-slate-600 uppercase dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={HEAD}>
                {t(`progress.columns.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {[...progress.weeks].reverse().map((week) => (
            <tr key={week.weekStart}>
              <th scope="row" className="px-3 py-2 font-semibold whitespace-nowrap">
                {t("progress.weekOf", { date: dateLabel(week.weekStart) })}
              </th>
              <td className={CELL}>{formatXp(week.xp)}</td>
              <td className={CELL}>{timeOnTask(week.activeSeconds)}</td>
              <td className={CELL}>{formatNumber(week.masteredUnits, 0)}</td>
              <td className={CELL}>
                {t("progress.ofSchoolDays", { count: week.goalDaysMet, schoolDays: week.schoolDays })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** Each term of the child's classes that has begun, with its figures so far. */
function Terms({ terms }: { terms: ProgressTerm[] }) {
  const { t } = useTranslation("families");
  return (
    <Section title={t("progress.termsTitle")} description={t("progress.termsDescription")}>
      {terms.length === 0 ? (
        <EmptyState icon={CalendarRange} title={t("progress.noTerms")} />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {[...terms].reverse().map((term) => (
            <li
              key={term.sourcedId}
              className="min-w-0 rounded-xl border border-slate-200 p-4 dark:border-slate-700"
            >
              <h3 className="flex flex-wrap items-center gap-2 font-semibold">
                {term.title}
                {term.isCurrent && (
                  <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
                    {t("progress.currentTerm")}
                  </span>
                )}
              </h3>
              <p className="text-xs text-slate-600 dark:text-slate-300">
                {t("progress.termDates", { start: dateLabel(term.startDate), end: dateLabel(term.endDate) })}
              </p>
              <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
                <TermFigure term={t("progress.tiles.xp")} value={formatXp(term.xp)} />
                <TermFigure term={t("progress.tiles.time")} value={timeOnTask(term.activeSeconds)} />
                <TermFigure term={t("progress.tiles.units")} value={formatNumber(term.masteredUnits, 0)} />
                <TermFigure
                  term={t("progress.tiles.goalDays")}
                  value={t("progress.ofSchoolDays", { count: term.goalDaysMet, schoolDays: term.schoolDays })}
                />
              </dl>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function TermFigure({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600 dark:text-slate-300">{term}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** RIT over the terms of each subject tested, with the latest score; the MAP page has the rest. */
function MapSection({ childId, name }: { childId: string; name: string }) {
  const { t } = useTranslation("families");
  const results = useQuery(studentMapQuery(childId));
  return (
    <Section
      title={t("progress.mapTitle")}
      description={t("progress.mapDescription")}
      actions={
        <Link
          to="/app/parent-map-growth"
          search={{ childId }}
          className="text-sm font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
        >
          {t("progress.mapLink")}
        </Link>
      }
    >
      <Queried
        query={results}
        loading={t("progress.mapLoading")}
        failed={t("progress.mapFailed")}
        empty={<EmptyState icon={LineChart} title={t("progress.mapNone", { name })} />}
      >
        {(subjects) => (
          <ul className="grid gap-6 lg:grid-cols-2">
            {subjects.map((subject) => {
              const latest = subject.tests.at(-1);
              return (
                <li key={subject.subject} className="min-w-0">
                  <h3 className="font-semibold">{subject.subject}</h3>
                  {latest && (
                    <p className="mb-2 text-sm text-slate-600 dark:text-slate-300">
                      {latest.percentile === null
                        ? t("progress.mapLatest", { term: latest.termName, rit: latest.rit })
                        : t("progress.mapLatestPercentile", {
                            term: latest.termName,
                            rit: latest.rit,
                            percentile: latest.percentile,
                          })}
                    </p>
                  )}
                  <RitChart subject={subject.subject} tests={subject.tests} />
                </li>
              );
            })}
          </ul>
        )}
      </Queried>
    </Section>
  );
}

/** Each subject's starting and current grade level, course and next test. */
function PlacementsSection({ childId, name }: { childId: string; name: string }) {
  const { t } = useTranslation("families");
  const placements = useQuery(studentPlacementsQuery(childId));
  return (
    <Section title={t("progress.placementsTitle")} description={t("progress.placementsDescription")}>
      <Queried
        query={placements}
        loading={t("progress.placementsLoading")}
        failed={t("progress.placementsFailed")}
        empty={<EmptyState icon={ClipboardList} title={t("progress.placementsNone", { name })} />}
      >
        {(subjects) => (
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {subjects.map((placement) => (
              <SubjectPlacementCard key={placement.subject} placement={placement} />
            ))}
          </div>
        )}
      </Queried>
    </Section>
  );
}

/**
 * A section's per-subject query: grey rows while it loads, the error with a retry, `empty` when
 * there is no subject, else the subjects. Kept data still shows under a failed refetch.
 */
function Queried<Subject>({
  query,
  loading,
  failed,
  empty,
  children,
}: {
  query: UseQueryResult<{ subjects: Subject[] }>;
  loading: string;
  failed: string;
  empty: ReactNode;
  children: (subjects: Subject[]) => ReactNode;
}) {
  return (
    <>
      {query.isPending && <Loading label={loading} rows={3} />}
      {query.isError && <QueryError error={query.error} fallback={failed} onRetry={() => query.refetch()} />}
      {query.data && (query.data.subjects.length === 0 ? empty : children(query.data.subjects))}
    </>
  );
}
