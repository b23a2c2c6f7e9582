import { useQuery } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type CheckChart,
  type ClassChartProgress,
  type StudentChartProgress,
  workingLevelIndex,
} from "../../../shared/contracts/assessment";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { Card, PageHeader } from "../../components/page-header";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { SELECT_CLASS } from "../xp/student-picker";
import { ClassProgressView } from "./check-chart-dashboard";
import { ChartSelect, TEXT_BUTTON_CLASS } from "./check-chart-parts";
import { ChartProgressView } from "./check-chart-progress";
import { checkChartQuery } from "./check-charts-api";

/**
 * Previews of a chart with sample data made up in the browser, drawn by the same views as the real
 * pages: as a student sees their progress (check-chart-test), and as a Guide sees a class and ticks
 * (check-chart-simple-test). Nothing here is saved.
 */

/** A sample student's ticks: check id → the day observed. */
type SampleTicks = Record<string, string>;

const SAMPLE_SHARES = { starting: 0.1, partWay: 0.45, nearlyDone: 0.85, finished: 1 } as const;
type SampleStage = keyof typeof SAMPLE_SHARES;
const SAMPLE_CLASS_SHARES = [0.05, 0.2, 0.3, 0.45, 0.55, 0.7, 0.9, 1];
const SAMPLE_LETTERS = ["A", "B", "C", "D", "E", "F", "G", "H"];

const schoolToday = () => localDateOf(new Date(), SCHOOL_TIME_ZONE);

/** The first `share` of a chart's checks, in order, ticked over the last weeks up to yesterday. */
function sampleTicks(chart: CheckChart, share: number, today: string): SampleTicks {
  const checks = chart.levels.flatMap((level) => level.checks);
  const count = Math.round(checks.length * share);
  return Object.fromEntries(
    checks.slice(0, count).map((check, index) => [check.id, addDays(today, -Math.max(1, 30 - index * 2))]),
  );
}

/** A chart with a sample student's ticks, in the shape the real progress view reads. */
function sampleProgress(
  chart: CheckChart,
  student: StudentChartProgress["student"],
  ticks: SampleTicks,
  options: { observedBy: string; canObserve: boolean; today: string },
): StudentChartProgress {
  const levels = chart.levels.map((level) => ({
    id: level.id,
    name: level.name,
    checks: level.checks.map((check) => {
      const observedOn = ticks[check.id];
      return {
        id: check.id,
        name: check.name,
        description: check.description,
        observation: observedOn
          ? { observedOn, observedBy: options.observedBy, recordedAt: `${observedOn}T12:00:00.000Z` }
          : null,
      };
    }),
  }));
  const working = workingLevelIndex(
    levels.map((level) => ({
      checkCount: level.checks.length,
      observedCount: level.checks.filter((check) => check.observation).length,
    })),
  );
  return {
    chart: { id: chart.id, title: chart.title, subject: chart.subject, description: chart.description },
    student,
    levels,
    workingLevelId: working === null ? null : (levels[working]?.id ?? null),
    canObserve: options.canObserve,
    today: options.today,
  };
}

/** The chart chooser both previews start with, and the chart once chosen. */
function useChosenChart() {
  const [chartId, setChartId] = useState("");
  const chart = useQuery({ ...checkChartQuery(chartId), enabled: Boolean(chartId) });
  return { chartId, setChartId, chart };
}

function PreviewNote() {
  const { t } = useTranslation("assessment");
  return (
    <p className="mb-6 flex items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <Eye aria-hidden="true" className="size-4 shrink-0" />
      {t("checkCharts.preview.nothingSaved")}
    </p>
  );
}

function ChosenChart({
  chart,
  chartId,
  children,
}: {
  chart: ReturnType<typeof useChosenChart>["chart"];
  chartId: string;
  children: (chart: CheckChart) => ReactNode;
}) {
  const { t } = useTranslation("assessment");
  if (!chartId)
    return (
      <EmptyState icon={Eye} title={t("checkCharts.preview.chooseChart")}>
        {t("checkCharts.preview.chooseChartBody")}
      </EmptyState>
    );
  if (chart.isError)
    return (
      <QueryError
        error={chart.error}
        fallback={t("checkCharts.loadFailed")}
        onRetry={() => chart.refetch()}
      />
    );
  if (!chart.data) return <Loading label={t("checkCharts.loading")} rows={5} />;
  return <>{children(chart.data)}</>;
}

/** /app/admin/check-chart-test: a chart as a student sees their progress, at a stage of it. */
export function CheckChartTestPage() {
  const { t } = useTranslation("assessment");
  const stageId = useId();
  const { chartId, setChartId, chart } = useChosenChart();
  const [stage, setStage] = useState<SampleStage>("partWay");
  const today = schoolToday();

  return (
    <div>
      <PageHeader
        title={t("checkCharts.preview.studentTitle")}
        description={t("checkCharts.preview.studentDescription")}
      />
      <PreviewNote />
      <Card className="mb-6">
        <div className="grid gap-4 md:grid-cols-2">
          <ChartSelect
            label={t("checkCharts.preview.chart")}
            value={chartId}
            onChange={(id) => setChartId(id)}
          />
          <div className="w-full sm:max-w-md">
            <label htmlFor={stageId} className="text-sm font-medium">
              {t("checkCharts.preview.stage")}
            </label>
            <select
              id={stageId}
              className={SELECT_CLASS}
              value={stage}
              onChange={(event) => setStage(event.target.value as SampleStage)}
            >
              {(Object.keys(SAMPLE_SHARES) as SampleStage[]).map((option) => (
                <option key={option} value={option}>
                  {t(`checkCharts.preview.stages.${option}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </Card>
      <ChosenChart chart={chart} chartId={chartId}>
        {(data) => (
          <ChartProgressView
            reader="self"
            progress={sampleProgress(
              data,
              {
                id: "sample-student",
                name: t("checkCharts.preview.sampleName", { letter: "A" }),
                grades: [],
              },
              sampleTicks(data, SAMPLE_SHARES[stage], today),
              { observedBy: t("checkCharts.preview.sampleGuide"), canObserve: false, today },
            )}
          />
        )}
      </ChosenChart>
    </div>
  );
}

/** /app/admin/check-chart-simple-test: a chart as a Guide sees a sample class, ticking in the browser. */
export function CheckChartSimpleTestPage() {
  const { t } = useTranslation("assessment");
  const { chartId, setChartId, chart } = useChosenChart();

  return (
    <div>
      <PageHeader
        title={t("checkCharts.preview.guideTitle")}
        description={t("checkCharts.preview.guideDescription")}
      />
      <PreviewNote />
      <Card className="mb-6">
        <ChartSelect
          label={t("checkCharts.preview.chart")}
          value={chartId}
          onChange={(id) => setChartId(id)}
        />
      </Card>
      <ChosenChart chart={chart} chartId={chartId}>
        {(data) => <SampleClass key={data.id} chart={data} />}
      </ChosenChart>
    </div>
  );
}

/** Eight sample students spread over the chart, whose ticks change here only. */
function SampleClass({ chart }: { chart: CheckChart }) {
  const { t } = useTranslation("assessment");
  const today = schoolToday();
  const students = SAMPLE_LETTERS.map((letter) => ({
    id: `sample-${letter}`,
    name: t("checkCharts.preview.sampleName", { letter }),
    grades: [],
  }));
  const [ticks, setTicks] = useState<Record<string, SampleTicks>>(() =>
    Object.fromEntries(
      students.map((student, index) => [
        student.id,
        sampleTicks(chart, SAMPLE_CLASS_SHARES[index] ?? 0, today),
      ]),
    ),
  );
  const [chosenId, setChosenId] = useState(students[0]?.id ?? "");
  const guide = t("checkCharts.preview.sampleGuide");
  const progressOf = (student: (typeof students)[number], canObserve: boolean) =>
    sampleProgress(chart, student, ticks[student.id] ?? {}, { observedBy: guide, canObserve, today });

  const classData: ClassChartProgress = {
    chart: { id: chart.id, title: chart.title, subject: chart.subject },
    class: { id: "sample-class", title: t("checkCharts.preview.sampleClass"), schoolName: null },
    levels: chart.levels.map((level) => ({
      id: level.id,
      name: level.name,
      checkCount: level.checks.length,
    })),
    students: students.map((student) => {
      const progress = progressOf(student, false);
      const observed = progress.levels.map(
        (level) => level.checks.filter((check) => check.observation).length,
      );
      const days = Object.values(ticks[student.id] ?? {}).sort();
      return {
        ...student,
        observed,
        workingLevelIndex: progress.workingLevelId
          ? progress.levels.findIndex((level) => level.id === progress.workingLevelId)
          : null,
        lastObservedOn: days.at(-1) ?? null,
      };
    }),
  };
  const chosen = students.find((student) => student.id === chosenId) ?? students[0];
  const changeTicks = (studentId: string, change: (current: SampleTicks) => SampleTicks) =>
    setTicks((all) => ({ ...all, [studentId]: change(all[studentId] ?? {}) }));

  return (
    <div className="space-y-6">
      <ClassProgressView
        data={classData}
        studentCell={(student) => (
          <button
            type="button"
            className={TEXT_BUTTON_CLASS}
            aria-pressed={student.id === chosen?.id}
            onClick={() => setChosenId(student.id)}
          >
            {student.name}
          </button>
        )}
      />
      {chosen && (
        <div>
          <h2 className="mb-3 text-xl font-bold">
            {t("checkCharts.preview.ticking", { name: chosen.name })}
          </h2>
          <ChartProgressView
            key={chosen.id}
            reader="other"
            progress={progressOf(chosen, true)}
            steps={{
              tick: async (checkId, observedOn) =>
                changeTicks(chosen.id, (current) => ({ ...current, [checkId]: observedOn })),
              untick: async (checkId) => changeTicks(chosen.id, ({ [checkId]: _removed, ...rest }) => rest),
            }}
          />
        </div>
      )}
    </div>
  );
}
