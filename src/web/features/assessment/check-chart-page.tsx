import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ClipboardCheck, Lock, Plus, Users } from "lucide-react";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type {
  CheckChart,
  CheckChartSummary,
  StudentChartProgress,
} from "../../../shared/contracts/assessment";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { instantDateLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { myClassesQuery } from "../flow/api";
import { isRefusal } from "../goals/api";
import { ProgressBar, RefusalState } from "../goals/parts";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { SELECT_CLASS, StudentPicker } from "../xp/student-picker";
import { ClassProgressView } from "./check-chart-dashboard";
import { ChartEditor } from "./check-chart-editor";
import { LINK_CLASS, StatusNote, useLevelTitle } from "./check-chart-parts";
import { ChartProgressView, type ObservationSteps } from "./check-chart-progress";
import {
  checkChartKeys,
  checkChartListQuery,
  checkChartQuery,
  classChartProgressQuery,
  clearObservation,
  deleteCheckChart,
  observeCheck,
  studentChartProgressQuery,
} from "./check-charts-api";

type CheckChartSearch = z.output<typeof searchSchemas.checkChart>;

/**
 * /app/check-chart: without a view, the charts (a student's own with their progress; every chart
 * for staff). `view=progress` a student's ticks (staff choose the student and tick), `view=dashboard`
 * a class's progress, `view=create` and `view=edit` the editor.
 */
export function CheckChartPage() {
  const { activeRole } = useAuth();
  const search = useSearch({ strict: false }) as CheckChartSearch;
  const navigate = useNavigate();
  // The editor of a chart just created stays as it is when the address turns to editing it.
  const justCreated = useRef<string | null>(null);
  const isStaff = activeRole === "teacher" || activeRole === "administrator";
  const { view, chartId } = search;

  if (!isStaff)
    return view === "progress" && chartId ? <OwnProgressView chartId={chartId} /> : <ChartListView />;
  if (view === "create" || (view === "edit" && chartId)) {
    const isContinuing = view === "edit" && chartId === justCreated.current;
    return (
      <EditorView
        key={isContinuing || view === "create" ? "new" : chartId}
        chartId={view === "edit" ? chartId : undefined}
        onCreated={(chart) => {
          justCreated.current = chart.id;
          void navigate({
            to: "/app/check-chart",
            search: { view: "edit", chartId: chart.id },
            replace: true,
          });
        }}
      />
    );
  }
  if (view === "progress" && chartId)
    return <StaffProgressView key={chartId} chartId={chartId} studentId={search.studentId} />;
  if (view === "dashboard" && chartId)
    return <DashboardView key={chartId} chartId={chartId} classId={search.classId} />;
  return <ChartListView />;
}

// ── The list ──────────────────────────────────────────────────────────────────────────────────

function ChartListView() {
  const { t } = useTranslation("assessment");
  const { activeRole } = useAuth();
  const queryClient = useQueryClient();
  const list = useQuery(checkChartListQuery());
  const [removing, setRemoving] = useState<CheckChartSummary | null>(null);
  const [note, setNote] = useState("");
  const isStudent = activeRole === "student";

  return (
    <div>
      <PageHeader
        title={t("checkCharts.list.title")}
        description={
          isStudent ? t("checkCharts.list.descriptionStudent") : t("checkCharts.list.descriptionStaff")
        }
        actions={
          list.data?.canCreate && (
            <Link
              to="/app/check-chart"
              search={{ view: "create" }}
              className={buttonClass("primary", "inline-flex items-center gap-1.5")}
            >
              <Plus aria-hidden="true" className="size-4" />
              {t("checkCharts.list.create")}
            </Link>
          )
        }
      />
      {activeRole === "administrator" && (
        <nav aria-label={t("checkCharts.list.adminTools")} className="-mt-2 mb-5">
          <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
            <li>
              <Link to="/admin/check-chart-legacy-review" className={LINK_CLASS}>
                {t("checkCharts.legacy.title")}
              </Link>
            </li>
            <li>
              <Link to="/app/admin/check-chart-test" className={LINK_CLASS}>
                {t("checkCharts.preview.studentTitle")}
              </Link>
            </li>
            <li>
              <Link to="/app/admin/check-chart-simple-test" className={LINK_CLASS}>
                {t("checkCharts.preview.guideTitle")}
              </Link>
            </li>
          </ul>
        </nav>
      )}
      <StatusNote note={note} className="mb-4" />
      {list.isError ? (
        <QueryError
          error={list.error}
          fallback={t("checkCharts.list.loadFailed")}
          onRetry={() => list.refetch()}
        />
      ) : !list.data ? (
        <Loading label={t("checkCharts.loading")} rows={4} />
      ) : list.data.charts.length === 0 ? (
        <EmptyState icon={ClipboardCheck} title={t("checkCharts.list.emptyTitle")}>
          {isStudent ? t("checkCharts.list.emptyStudent") : t("checkCharts.list.emptyStaff")}
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" aria-label={t("checkCharts.list.title")}>
          {list.data.charts.map((chart) => (
            <li key={chart.id}>
              <ChartCard chart={chart} isStudent={isStudent} onRemove={() => setRemoving(chart)} />
            </li>
          ))}
        </ul>
      )}
      {removing && (
        <ConfirmDialog
          title={t("checkCharts.list.deleteTitle", { title: removing.title })}
          message={t("checkCharts.list.deleteMessage")}
          confirmLabel={t("checkCharts.list.deleteConfirm")}
          cancelLabel={t("checkCharts.editor.keepIt")}
          onConfirm={async () => {
            await deleteCheckChart(removing.id);
            setNote(t("checkCharts.list.deleted", { title: removing.title }));
            await queryClient.invalidateQueries({ queryKey: checkChartKeys.all });
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </div>
  );
}

function ChartCard({
  chart,
  isStudent,
  onRemove,
}: {
  chart: CheckChartSummary;
  isStudent: boolean;
  onRemove: () => void;
}) {
  const { t } = useTranslation("assessment");
  const headingId = useId();
  const levelTitle = useLevelTitle();
  const progress = chart.progress;
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold">
          {chart.title}
        </h2>
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100">
          {chart.subject}
        </span>
      </div>
      {chart.description && (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{chart.description}</p>
      )}
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-200">
        {t("checkCharts.list.counts", { levels: chart.levelCount, checks: chart.checkCount })}
      </p>
      {progress && (
        <div className="mt-3">
          <p className="text-sm font-semibold">
            {progress.workingLevel
              ? t("checkCharts.list.workingOn", {
                  level: levelTitle(progress.workingLevel.index, progress.workingLevel.name),
                })
              : progress.total > 0
                ? t("checkCharts.list.allDone")
                : t("checkCharts.progress.noChecks")}
          </p>
          <p className="mt-1 mb-1 text-xs text-slate-600 tabular-nums dark:text-slate-300">
            {t("checkCharts.progress.checksShown", { observed: progress.observed, total: progress.total })}
          </p>
          <ProgressBar
            label={t("checkCharts.list.progressLabel", { title: chart.title })}
            valueNow={progress.observed}
            valueMax={progress.total}
            valueText={t("checkCharts.progress.checksShown", {
              observed: progress.observed,
              total: progress.total,
            })}
            share={progress.total > 0 ? progress.observed / progress.total : 0}
            tone={progress.total > 0 && progress.observed === progress.total ? "good" : "neutral"}
            size="sm"
          />
        </div>
      )}
      {!isStudent && (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          {t("checkCharts.list.madeBy", {
            name: chart.createdBy.name ?? t("checkCharts.someone"),
            date: instantDateLabel(chart.updatedAt),
          })}
        </p>
      )}
      <div className="mt-auto flex flex-wrap gap-x-4 gap-y-2 pt-4">
        <Link
          to="/app/check-chart"
          search={{ view: "progress", chartId: chart.id }}
          className={LINK_CLASS}
          aria-label={
            isStudent
              ? t("checkCharts.list.myProgressOf", { title: chart.title })
              : t("checkCharts.list.studentProgressOf", { title: chart.title })
          }
        >
          {isStudent ? t("checkCharts.list.myProgress") : t("checkCharts.list.studentProgress")}
        </Link>
        {!isStudent && (
          <Link
            to="/app/check-chart"
            search={{ view: "dashboard", chartId: chart.id }}
            className={LINK_CLASS}
            aria-label={t("checkCharts.list.dashboardOf", { title: chart.title })}
          >
            {t("checkCharts.list.dashboard")}
          </Link>
        )}
        {chart.canEdit && (
          <Link
            to="/app/check-chart"
            search={{ view: "edit", chartId: chart.id }}
            className={LINK_CLASS}
            aria-label={t("checkCharts.list.editOf", { title: chart.title })}
          >
            {t("checkCharts.list.edit")}
          </Link>
        )}
        {chart.canDelete && (
          <button
            type="button"
            onClick={onRemove}
            className="rounded font-semibold text-red-700 underline-offset-2 hover:underline dark:text-red-300"
            aria-label={t("checkCharts.list.deleteOf", { title: chart.title })}
          >
            {t("checkCharts.list.delete")}
          </button>
        )}
      </div>
    </article>
  );
}

/** A link back to the list of charts, under a page's header. */
function BackToList() {
  const { t } = useTranslation("assessment");
  return (
    <p className="-mt-3 mb-5 text-sm">
      <Link to="/app/check-chart" className={LINK_CLASS}>
        {t("checkCharts.backToList")}
      </Link>
    </p>
  );
}

// ── A student's progress ──────────────────────────────────────────────────────────────────────

/** A refusal or failure of a page's main query, under the page's heading. */
function LoadProblem({ error, onRetry, title }: { error: Error; onRetry: () => void; title: string }) {
  const { t } = useTranslation("assessment");
  return isRefusal(error) ? (
    <RefusalState title={title} error={error}>
      <Link to="/app/check-chart" className={LINK_CLASS}>
        {t("checkCharts.backToList")}
      </Link>
    </RefusalState>
  ) : (
    <QueryError error={error} fallback={t("checkCharts.loadFailed")} onRetry={onRetry} />
  );
}

/** A student's own progress through a chart. */
function OwnProgressView({ chartId }: { chartId: string }) {
  const { t } = useTranslation("assessment");
  const { user } = useAuth();
  const progress = useQuery(studentChartProgressQuery(chartId, user.sourcedId));
  return (
    <div>
      <PageHeader
        title={progress.data?.chart.title ?? t("checkCharts.progress.title")}
        description={progress.data?.chart.description || t("checkCharts.progress.descriptionSelf")}
      />
      <BackToList />
      {progress.isError ? (
        <LoadProblem
          error={progress.error}
          onRetry={() => progress.refetch()}
          title={t("checkCharts.notOpen")}
        />
      ) : !progress.data ? (
        <Loading label={t("checkCharts.loading")} rows={5} />
      ) : (
        <ChartProgressView progress={progress.data} reader="self" />
      )}
    </div>
  );
}

/** Staff choose a student and tick the checks they show. */
function StaffProgressView({ chartId, studentId }: { chartId: string; studentId: string | undefined }) {
  const { t } = useTranslation("assessment");
  const navigate = useNavigate();
  const chart = useQuery(checkChartQuery(chartId));
  const progress = useQuery({
    ...studentChartProgressQuery(chartId, studentId ?? ""),
    enabled: Boolean(studentId),
  });
  const title = chart.data?.title ?? t("checkCharts.progress.title");

  return (
    <div>
      <PageHeader title={title} description={t("checkCharts.progress.descriptionStaff")} />
      <BackToList />
      {chart.isError ? (
        <LoadProblem error={chart.error} onRetry={() => chart.refetch()} title={t("checkCharts.notOpen")} />
      ) : (
        <div className="space-y-6">
          <Card>
            <StudentPicker
              selected={
                studentId
                  ? {
                      sourcedId: studentId,
                      name: progress.data?.student.name ?? (progress.isError ? studentId : "…"),
                    }
                  : null
              }
              onSelect={(student) =>
                navigate({
                  to: "/app/check-chart",
                  search: { view: "progress", chartId, ...(student && { studentId: student.sourcedId }) },
                })
              }
            />
          </Card>
          {!studentId ? (
            <EmptyState icon={Users} title={t("checkCharts.progress.chooseStudent")}>
              {t("checkCharts.progress.chooseStudentBody")}
            </EmptyState>
          ) : progress.isError ? (
            <LoadProblem
              error={progress.error}
              onRetry={() => progress.refetch()}
              title={t("checkCharts.progress.studentNotOpen")}
            />
          ) : !progress.data ? (
            <Loading label={t("checkCharts.loading")} rows={5} />
          ) : (
            <ObservedProgress progress={progress.data} />
          )}
        </div>
      )}
    </div>
  );
}

/** The progress view with ticks that are saved; each answer is the student's progress as it is now. */
function ObservedProgress({ progress }: { progress: StudentChartProgress }) {
  const queryClient = useQueryClient();
  const target = (checkId: string) => ({
    chartId: progress.chart.id,
    studentId: progress.student.id,
    checkId,
  });
  const keep = async (next: StudentChartProgress) => {
    queryClient.setQueryData(checkChartKeys.student(next.chart.id, next.student.id), next);
    // Lists and dashboards count the ticks: they read again when next shown.
    await queryClient.invalidateQueries({ queryKey: checkChartKeys.all, refetchType: "none" });
  };
  const steps: ObservationSteps = {
    tick: async (checkId, observedOn) => keep(await observeCheck(target(checkId), observedOn)),
    untick: async (checkId) => keep(await clearObservation(target(checkId))),
  };
  return <ChartProgressView progress={progress} reader="other" steps={steps} />;
}

// ── A class's progress ────────────────────────────────────────────────────────────────────────

function DashboardView({ chartId, classId }: { chartId: string; classId: string | undefined }) {
  const { t } = useTranslation("assessment");
  const navigate = useNavigate();
  const selectId = useId();
  const chart = useQuery(checkChartQuery(chartId));
  const classes = useQuery(myClassesQuery);
  const progress = useQuery({
    ...classChartProgressQuery(chartId, classId ?? ""),
    enabled: Boolean(classId),
  });
  const classList = classes.data?.data ?? [];

  return (
    <div>
      <PageHeader
        title={chart.data?.title ?? t("checkCharts.dashboard.title")}
        description={t("checkCharts.dashboard.description")}
      />
      <BackToList />
      {chart.isError ? (
        <LoadProblem error={chart.error} onRetry={() => chart.refetch()} title={t("checkCharts.notOpen")} />
      ) : (
        <div className="space-y-6">
          <Card>
            <div className="w-full sm:max-w-md">
              <label htmlFor={selectId} className="text-sm font-medium">
                {t("checkCharts.dashboard.class")}
              </label>
              <select
                id={selectId}
                className={SELECT_CLASS}
                value={classId ?? ""}
                onChange={(event) =>
                  navigate({
                    to: "/app/check-chart",
                    search: {
                      view: "dashboard",
                      chartId,
                      ...(event.target.value && { classId: event.target.value }),
                    },
                  })
                }
              >
                <option value="">{t("checkCharts.dashboard.chooseClass")}</option>
                {classList.map((entry) => (
                  <option key={entry.sourcedId} value={entry.sourcedId}>
                    {entry.schoolName ? `${entry.title} · ${entry.schoolName}` : entry.title}
                  </option>
                ))}
              </select>
              {classes.isError && (
                <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
                  {t("checkCharts.dashboard.classesFailed")}
                </p>
              )}
            </div>
          </Card>
          {!classId ? (
            <EmptyState icon={Users} title={t("checkCharts.dashboard.chooseClass")}>
              {t("checkCharts.dashboard.chooseClassBody")}
            </EmptyState>
          ) : progress.isError ? (
            <LoadProblem
              error={progress.error}
              onRetry={() => progress.refetch()}
              title={t("checkCharts.dashboard.classNotOpen")}
            />
          ) : !progress.data ? (
            <Loading label={t("checkCharts.loading")} rows={6} />
          ) : (
            <ClassProgressView
              data={progress.data}
              studentCell={(student) => (
                <Link
                  to="/app/check-chart"
                  search={{ view: "progress", chartId, studentId: student.id }}
                  className={LINK_CLASS}
                  aria-label={t("checkCharts.dashboard.openStudent", { name: student.name })}
                >
                  {student.name}
                </Link>
              )}
            />
          )}
        </div>
      )}
    </div>
  );
}

// ── The editor ────────────────────────────────────────────────────────────────────────────────

function EditorView({
  chartId,
  onCreated,
}: {
  chartId: string | undefined;
  onCreated: (chart: CheckChart) => void;
}) {
  const { t } = useTranslation("assessment");
  const chart = useQuery({ ...checkChartQuery(chartId ?? ""), enabled: Boolean(chartId) });
  const title = chartId ? t("checkCharts.editor.editTitle") : t("checkCharts.editor.createTitle");

  return (
    <div>
      <PageHeader title={title} description={chart.data?.title ?? t("checkCharts.editor.pageDescription")} />
      <BackToList />
      {chartId && chart.isError ? (
        <LoadProblem error={chart.error} onRetry={() => chart.refetch()} title={t("checkCharts.notOpen")} />
      ) : chartId && !chart.data ? (
        <Loading label={t("checkCharts.loading")} rows={6} />
      ) : chart.data && !chart.data.canEdit ? (
        <EmptyState icon={Lock} title={t("checkCharts.editor.notYours")}>
          <Link
            to="/app/check-chart"
            search={{ view: "progress", chartId: chart.data.id }}
            className={LINK_CLASS}
          >
            {t("checkCharts.editor.useInstead")}
          </Link>
        </EmptyState>
      ) : (
        <ChartEditor chart={chartId ? (chart.data ?? null) : null} onCreated={onCreated} />
      )}
    </div>
  );
}
