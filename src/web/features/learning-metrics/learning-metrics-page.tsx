import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import {
  type LearningMetrics,
  learningMetricsResponseSchema,
  type MetricsView,
} from "../../../shared/contracts/activity";
import type { searchSchemas } from "../../../shared/routes";
import { isIsoDate } from "../../../shared/search";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass, TextField } from "../../components/ui/form";
import { Tabs, tabId } from "../../components/ui/tabs";
import { shownLocale } from "../../lib/format";
import { apiFetch } from "../../lib/http";
import { i18next } from "../../lib/i18n";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { childrenSummaryQuery, guideStudentsQuery } from "../home/api";
import { StudentPicker as SearchedStudentPicker } from "../xp/student-picker";
import { MetricsChart } from "./metrics-chart";
import { downloadCsv, groupsOf, MetricsTable, type TableModel, tableOf } from "./metrics-table";

type MetricsSearch = z.output<typeof searchSchemas.learningMetrics>;

/** The periods; each one's tab reads `views.<id>` in the catalogue. */
const VIEWS: MetricsView[] = ["daily", "weekly", "monthly"];
const ALL = "__all";
const SOME = "__some";
const CLASS = "__class";

const metricsQuery = (params: Record<string, string>) =>
  queryOptions({
    queryKey: ["learning-metrics", params],
    queryFn: ({ signal }) =>
      apiFetch(`/api/learning-metrics?${new URLSearchParams(params)}`, learningMetricsResponseSchema, {
        signal,
      }),
    select: (response) => response.data,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** What the address asks for, as the API's query; the server fills in the same defaults. */
function requestOf(search: MetricsSearch, dates: { startDate: string; endDate: string }) {
  const params: Record<string, string> = {
    view: search.view ?? "daily",
    startDate: dates.startDate,
    endDate: dates.endDate,
    groupBy: search.groupByApp ? "app" : "subject",
  };
  if (search.studentId) params.studentId = search.studentId;
  else if (search.studentIds) params.studentIds = search.studentIds.join(",");
  else if (search.classId) params.classId = search.classId;
  else if (search.allStudents) params.allStudents = "1";
  return params;
}

/** The goal line: per student, times the students shown; a week counts five school days. */
function goalOf(data: LearningMetrics): { value: number; label: string } | null {
  const students = Math.max(data.students.length, 1);
  if (data.view === "daily")
    return {
      value: data.dailyGoal * students,
      label: i18next.t("learning-metrics:goal.daily", { students }),
    };
  if (data.view === "weekly")
    return {
      value: data.dailyGoal * 5 * students,
      label: i18next.t("learning-metrics:goal.weekly", { students }),
    };
  return null;
}

export function LearningMetricsPage() {
  const { t } = useTranslation("learning-metrics");
  const search = useSearch({ strict: false }) as MetricsSearch;
  const navigate = useNavigate();
  const { activeRole, user } = useAuth();
  const view = search.view ?? "daily";
  const today = localDateOf(new Date(), SCHOOL_TIME_ZONE);
  const endDate = search.endDate ?? (search.startDate && search.startDate > today ? search.startDate : today);
  const startDate = search.startDate ?? addDays(endDate, -29);
  const showDailyGoal = search.showDailyGoal ?? true;
  const showAllMetrics = search.showAllMetrics ?? false;

  const setSearch = (next: Partial<MetricsSearch>) =>
    void navigate({ to: "/app/learning-metrics", search: { ...search, ...next } as never });

  const metrics = useQuery(metricsQuery(requestOf(search, { startDate, endDate })));
  const data = metrics.data;
  const groups = data ? groupsOf(data, search.groupByApp ? "app" : "subject") : [];
  const table: TableModel | null = data ? tableOf(data, groups, { showAllMetrics }) : null;
  const goal = data && showDailyGoal ? goalOf(data) : null;

  return (
    <div>
      <PageHeader
        title={t("page.title")}
        description={t("page.description")}
        actions={
          <button
            type="button"
            className={buttonClass("secondary", "inline-flex items-center gap-2")}
            disabled={!table || table.rows.length === 0}
            onClick={() =>
              table && data && downloadCsv(table, `learning-metrics-${data.startDate}-${data.endDate}.csv`)
            }
          >
            <span aria-hidden="true">⬇</span> {t("page.download")}
          </button>
        }
      />

      <Card className="mb-6">
        <Tabs
          label={t("page.period")}
          look="pills"
          idPrefix="metrics-view"
          panelId="metrics-panel"
          selected={view}
          items={VIEWS.map((entry) => ({
            id: entry,
            label: t(`views.${entry}`),
            link: { to: "/app/learning-metrics", search: { ...search, view: entry } as never },
          }))}
        />

        <div className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label={t("page.from")}
            type="date"
            value={startDate}
            max={endDate}
            onChange={(event) =>
              setSearch({ startDate: isIsoDate(event.target.value) ? event.target.value : undefined })
            }
          />
          <TextField
            label={t("page.to")}
            type="date"
            value={endDate}
            min={startDate}
            onChange={(event) =>
              setSearch({ endDate: isIsoDate(event.target.value) ? event.target.value : undefined })
            }
          />
          {activeRole !== "student" && (
            <StudentPicker
              search={search}
              role={activeRole}
              userId={user.sourcedId}
              chosenName={
                search.studentId && data?.students.length === 1 && data.students[0]
                  ? fullName(data.students[0])
                  : null
              }
              onPick={(value) =>
                setSearch({
                  studentId: value === ALL || value === SOME || value === CLASS ? undefined : value,
                  studentIds: value === SOME ? search.studentIds : undefined,
                  classId: value === CLASS ? search.classId : undefined,
                  allStudents: value === ALL ? "1" : undefined,
                })
              }
            />
          )}
        </div>

        <fieldset className="mt-5 flex flex-wrap gap-x-6 gap-y-3">
          <legend className="sr-only">{t("page.display")}</legend>
          <Toggle
            label={t("page.groupByApp")}
            checked={Boolean(search.groupByApp)}
            onChange={(checked) => setSearch({ groupByApp: checked || undefined })}
          />
          <Toggle
            label={t("page.showDailyGoal")}
            checked={showDailyGoal}
            onChange={(checked) => setSearch({ showDailyGoal: checked ? undefined : false })}
          />
          <Toggle
            label={t("page.showAllMetrics")}
            checked={showAllMetrics}
            onChange={(checked) => setSearch({ showAllMetrics: checked ? true : undefined })}
          />
        </fieldset>
      </Card>

      <div
        id="metrics-panel"
        role="tabpanel"
        aria-labelledby={tabId("metrics-view", view)}
        aria-busy={metrics.isFetching}
      >
        {metrics.isError && (
          <Card className="mb-6 border-red-200 dark:border-red-900">
            <p role="alert" className="text-red-700 dark:text-red-300">
              <span className="font-semibold">{t("page.loadFailed")}</span> {metrics.error.message}
            </p>
            <button
              type="button"
              className={buttonClass("secondary", "mt-3")}
              onClick={() => metrics.refetch()}
            >
              {t("page.retry")}
            </button>
          </Card>
        )}
        {!data && metrics.isPending && (
          <Card>
            <p role="status" className="text-slate-600 dark:text-slate-300">
              {t("page.loading")}
            </p>
          </Card>
        )}
        {data && table && !metrics.isError && (
          <Results data={data} table={table} groups={groups} goal={goal} showDailyGoal={showDailyGoal} />
        )}
      </div>
    </div>
  );
}

function Results({
  data,
  table,
  groups,
  goal,
  showDailyGoal,
}: {
  data: LearningMetrics;
  table: TableModel;
  groups: ReturnType<typeof groupsOf>;
  goal: ReturnType<typeof goalOf>;
  showDailyGoal: boolean;
}) {
  const { t } = useTranslation("learning-metrics");
  const numbers = new Intl.NumberFormat(shownLocale());
  const who = {
    count: data.students.length,
    name: `${data.students[0]?.givenName} ${data.students[0]?.familyName}`,
    start: data.startDate,
    end: data.endDate,
  };
  if (data.rows.length === 0) {
    return (
      <Card>
        <h2 className="text-lg font-bold">{t("results.empty.title")}</h2>
        <p className="mt-1 text-slate-600 dark:text-slate-300">
          {data.students.length === 0 ? t("results.empty.noStudents") : t("results.empty.nothing", who)}
        </p>
      </Card>
    );
  }
  const totals = data.rows.reduce(
    (sum, row) => ({
      xp: sum.xp + row.xp,
      active: sum.active + row.activeSeconds,
      questions: sum.questions + row.totalQuestions,
      correct: sum.correct + row.correctQuestions,
      mastered: sum.mastered + row.masteredUnits,
    }),
    { xp: 0, active: 0, questions: 0, correct: 0, mastered: 0 },
  );
  const stats = [
    { label: t("table.columns.totalXp"), value: numbers.format(Math.round(totals.xp * 10) / 10) },
    { label: t("results.activeTime"), value: duration(totals.active) },
    {
      label: t("results.accuracy"),
      value: totals.questions ? `${Math.round((totals.correct / totals.questions) * 100)}%` : "—",
    },
    { label: t("table.columns.unitsMastered"), value: numbers.format(totals.mastered) },
  ];
  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {stats.map((stat) => (
          <div
            key={stat.label}
            className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm text-slate-600 dark:text-slate-300">{stat.label}</dt>
            <dd className="mt-1 text-xl font-extrabold tabular-nums sm:text-2xl">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <Card>
        <figure aria-labelledby="metrics-chart-title">
          <figcaption id="metrics-chart-title" className="mb-3">
            <span className="text-lg font-bold">{t("results.chartTitle", { view: data.view })}</span>
            <span className="block text-sm text-slate-600 dark:text-slate-300">
              {t("results.chartCaption", { ...who, groupBy: data.groupBy })}
              {showDailyGoal && !goal && ` ${t("results.goalNote")}`}
            </span>
          </figcaption>
          <MetricsChart data={data} groups={groups} goal={goal} />
        </figure>
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-bold">{t("results.numbers")}</h2>
        <MetricsTable table={table} caption={t("results.tableCaption", who)} />
      </Card>
    </div>
  );
}

function duration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return minutes < 60
    ? i18next.t("learning-metrics:duration.minutes", { minutes })
    : i18next.t("learning-metrics:duration.hours", {
        hours: Math.floor(minutes / 60),
        minutes: minutes % 60,
      });
}

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 rounded border-slate-300 accent-brand-600"
      />
      {label}
    </label>
  );
}

/**
 * Guides pick among their students and families among their children; administrators search the
 * whole roster on the server (no list of everyone), and clear the choice to see every student.
 */
function StudentPicker({
  search,
  role,
  userId,
  chosenName,
  onPick,
}: {
  search: MetricsSearch;
  role: ReturnType<typeof useAuth>["activeRole"];
  userId: string;
  /** The chosen student's name, once the metrics have named them. */
  chosenName: string | null;
  onPick: (value: string) => void;
}) {
  const { t } = useTranslation("learning-metrics");
  const id = useId();
  const isGuide = role === "teacher";
  const isFamily = role === "parent" || role === "guardian";
  const guide = useQuery({ ...guideStudentsQuery(userId), enabled: isGuide });
  const family = useQuery({ ...childrenSummaryQuery(userId), enabled: isFamily });
  if (role === "administrator")
    return (
      <SearchedStudentPicker
        selected={
          search.studentId ? { sourcedId: search.studentId, name: chosenName ?? t("picker.chosen") } : null
        }
        onSelect={(student) => onPick(student ? student.sourcedId : ALL)}
        wide
      />
    );
  const list = (isGuide ? guide.data : isFamily ? family.data : null) ?? [];
  const students = [...list].sort((a, b) =>
    `${a.familyName} ${a.givenName}`.localeCompare(`${b.familyName} ${b.givenName}`),
  );
  const value = search.studentId ?? (search.studentIds ? SOME : search.classId ? CLASS : ALL);
  const allLabel = t(`picker.all.${isGuide ? "guide" : isFamily ? "family" : "admin"}`);
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {t("picker.label")}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onPick(event.target.value)}
        className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm dark:border-slate-700 dark:bg-slate-950"
      >
        <option value={ALL}>{allLabel}</option>
        {search.studentIds && (
          <option value={SOME}>{t("picker.some", { count: search.studentIds.length })}</option>
        )}
        {search.classId && <option value={CLASS}>{t("picker.class")}</option>}
        {search.studentId && !students.some((student) => student.sourcedId === search.studentId) && (
          <option value={search.studentId}>{t("picker.chosen")}</option>
        )}
        {students.map((student) => (
          <option key={student.sourcedId} value={student.sourcedId}>
            {student.givenName} {student.familyName}
          </option>
        ))}
      </select>
    </div>
  );
}
