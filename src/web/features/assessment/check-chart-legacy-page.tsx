import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ChevronDown, ChevronRight, ClipboardCheck } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LegacyReview } from "../../../shared/contracts/assessment";
import { PageHeader } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { TableRegion } from "../../components/ui/table-region";
import { instantDateLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { SELECT_CLASS } from "../xp/student-picker";
import { LINK_CLASS, StatusNote, TEXT_BUTTON_CLASS, useLevelTitle } from "./check-chart-parts";
import { checkChartKeys, legacyReviewQuery, mapLevel } from "./check-charts-api";
import { GRADES, gradeName } from "./placements-parts";

type ReviewChart = LegacyReview["charts"][number];
type ReviewLevel = ReviewChart["levels"][number];

/**
 * /admin/check-chart-legacy-review: each level of every chart mapped to the placement grade it
 * stands for, with the students working at it and whether their current placement agrees.
 */
export function CheckChartLegacyReviewPage() {
  const { t } = useTranslation("assessment");
  const review = useQuery(legacyReviewQuery);
  const [note, setNote] = useState("");

  return (
    <div>
      <PageHeader title={t("checkCharts.legacy.title")} description={t("checkCharts.legacy.description")} />
      <StatusNote note={note} className="mb-4" />
      {review.isError ? (
        <QueryError
          error={review.error}
          fallback={t("checkCharts.loadFailed")}
          onRetry={() => review.refetch()}
        />
      ) : !review.data ? (
        <Loading label={t("checkCharts.loading")} rows={6} />
      ) : review.data.charts.length === 0 ? (
        <EmptyState icon={ClipboardCheck} title={t("checkCharts.list.emptyTitle")}>
          {t("checkCharts.legacy.empty")}
        </EmptyState>
      ) : (
        <div className="space-y-6">
          {review.data.charts.map((chart) => (
            <ChartReview key={chart.id} chart={chart} onMapped={setNote} />
          ))}
        </div>
      )}
    </div>
  );
}

function ChartReview({ chart, onMapped }: { chart: ReviewChart; onMapped: (note: string) => void }) {
  const { t } = useTranslation("assessment");
  const students = chart.levels.reduce((sum, level) => sum + level.students.length, chart.completedCount);
  const differing = chart.levels.reduce(
    (sum, level) => sum + level.students.filter((student) => student.differs).length,
    0,
  );
  return (
    <Section
      title={chart.title}
      description={t("checkCharts.legacy.chartSummary", {
        subject: chart.subject,
        students,
        completed: chart.completedCount,
        differing,
      })}
    >
      <ol className="divide-y divide-slate-100 dark:divide-slate-800">
        {chart.levels.map((level, index) => (
          <LevelReview
            key={level.id}
            chartId={chart.id}
            subject={chart.subject}
            level={level}
            index={index}
            onMapped={onMapped}
          />
        ))}
      </ol>
    </Section>
  );
}

function LevelReview({
  chartId,
  subject,
  level,
  index,
  onMapped,
}: {
  chartId: string;
  subject: string;
  level: ReviewLevel;
  index: number;
  onMapped: (note: string) => void;
}) {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const levelTitle = useLevelTitle();
  const selectId = useId();
  const listId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const [failure, setFailure] = useState("");
  const title = levelTitle(index, level.name);
  const differing = level.students.filter((student) => student.differs).length;

  async function choose(value: string) {
    const grade = value === "" ? null : Number(value);
    setIsSaving(true);
    setFailure("");
    try {
      await mapLevel(chartId, level.id, grade);
      await queryClient.invalidateQueries({ queryKey: checkChartKeys.legacyReview });
      onMapped(
        grade === null
          ? t("checkCharts.legacy.cleared", { level: title })
          : t("checkCharts.legacy.mapped", { level: title, grade: gradeName(grade) }),
      );
    } catch (error) {
      setFailure(failureMessage(error, t("checkCharts.legacy.mapFailed")));
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <li className="py-4">
      <div className="grid gap-x-6 gap-y-3 md:grid-cols-[minmax(0,1fr)_14rem_minmax(0,1fr)]">
        <div>
          <h3 className="font-semibold">{title}</h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {t("checkCharts.dashboard.checkCount", { count: level.checkCount })}
          </p>
        </div>
        <div>
          <label htmlFor={selectId} className="text-sm font-medium">
            {t("checkCharts.legacy.mappedGrade")}
          </label>
          <select
            id={selectId}
            className={SELECT_CLASS}
            value={level.mappedGrade === null ? "" : String(level.mappedGrade)}
            disabled={isSaving}
            aria-describedby={`${selectId}-by`}
            onChange={(event) => choose(event.target.value)}
          >
            <option value="">{t("checkCharts.legacy.notMapped")}</option>
            {GRADES.map((grade) => (
              <option key={grade} value={grade}>
                {gradeName(grade)}
              </option>
            ))}
          </select>
          <p id={`${selectId}-by`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {isSaving
              ? t("checkCharts.saving")
              : level.mappedBy && level.mappedAt
                ? t(
                    level.mappedGrade === null
                      ? "checkCharts.legacy.clearedBy"
                      : "checkCharts.legacy.mappedBy",
                    {
                      name: level.mappedBy.name ?? t("checkCharts.someone"),
                      date: instantDateLabel(level.mappedAt),
                    },
                  )
                : t("checkCharts.legacy.neverMapped")}
          </p>
          {failure && (
            <p role="alert" className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
              {failure}
            </p>
          )}
        </div>
        <div>
          <p className="text-sm">
            <span className="font-semibold tabular-nums">
              {t("checkCharts.legacy.studentsHere", { count: level.students.length })}
            </span>
            {differing > 0 && (
              <span className="ml-2 inline-flex rounded-full bg-orange-100 px-2 py-0.5 text-xs font-semibold text-orange-900 dark:bg-orange-950 dark:text-orange-100">
                {t("checkCharts.legacy.differing", { count: differing })}
              </span>
            )}
          </p>
          {level.students.length > 0 && (
            <button
              type="button"
              className={`${TEXT_BUTTON_CLASS} mt-1 inline-flex items-center gap-1`}
              aria-expanded={isOpen}
              aria-controls={listId}
              aria-label={t("checkCharts.legacy.listStudentsOf", { level: title })}
              onClick={() => setIsOpen(!isOpen)}
            >
              {isOpen ? (
                <ChevronDown aria-hidden="true" className="size-4" />
              ) : (
                <ChevronRight aria-hidden="true" className="size-4" />
              )}
              {t("checkCharts.legacy.listStudents")}
            </button>
          )}
        </div>
      </div>
      {isOpen && (
        <div id={listId} className="mt-3">
          <TableRegion label={t("checkCharts.legacy.studentsAt", { level: title })} maxHeight="max-h-96">
            <table className="w-full min-w-[28rem] text-left text-sm">
              <caption className="sr-only">{t("checkCharts.legacy.studentsAt", { level: title })}</caption>
              <thead className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("checkCharts.dashboard.student")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("checkCharts.legacy.placement", { subject })}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("checkCharts.legacy.agreement")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {level.students.map((student) => (
                  <tr key={student.id}>
                    <th scope="row" className="px-3 py-2 text-left font-normal">
                      <Link
                        to="/app/check-chart"
                        search={{ view: "progress", chartId, studentId: student.id }}
                        className={LINK_CLASS}
                      >
                        {student.name}
                      </Link>
                    </th>
                    <td className="px-3 py-2">
                      {student.placementGrade === null
                        ? t("checkCharts.legacy.notPlaced")
                        : gradeName(student.placementGrade)}
                    </td>
                    <td className="px-3 py-2">
                      {student.differs ? (
                        <span className="font-semibold text-orange-800 dark:text-orange-200">
                          {t("checkCharts.legacy.differs")}
                        </span>
                      ) : student.placementGrade === null || level.mappedGrade === null ? (
                        <span className="text-slate-600 dark:text-slate-400">
                          {t("checkCharts.legacy.unknown")}
                        </span>
                      ) : (
                        <span className="text-emerald-800 dark:text-emerald-300">
                          {t("checkCharts.legacy.agrees")}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </div>
      )}
    </li>
  );
}
