import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ClassChartProgress } from "../../../shared/contracts/assessment";
import { BarFigure } from "../../components/charts/bar-figure";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel, formatPercent, gradeLabel } from "../../lib/format";
import { Section } from "../home/parts";
import { useLevelTitle } from "./check-chart-parts";

/**
 * A class's students through a chart: how many work at each level (a bar chart), and a table of
 * students by levels with the share of each level's checks observed. `studentCell` says how a
 * student's name leads on (a link to their progress, or a sample's button in the previews).
 */

type ClassStudent = ClassChartProgress["students"][number];

/** The cell's colour by the share of a level's checks observed: darker is further. */
function shareClass(share: number, isWorking: boolean): string {
  const ring = isWorking ? "ring-2 ring-brand-600 ring-inset dark:ring-brand-400" : "";
  if (share >= 1) return `bg-emerald-700 text-white dark:bg-emerald-500 dark:text-emerald-950 ${ring}`;
  if (share >= 0.5) return `bg-emerald-200 text-emerald-950 dark:bg-emerald-800 dark:text-emerald-50 ${ring}`;
  if (share > 0) return `bg-emerald-50 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100 ${ring}`;
  return `bg-slate-50 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300 ${ring}`;
}

export function ClassProgressView({
  data,
  studentCell,
}: {
  data: ClassChartProgress;
  studentCell: (student: ClassStudent) => ReactNode;
}) {
  const { t } = useTranslation("assessment");
  const levelTitle = useLevelTitle();
  const { levels, students } = data;
  const completed = students.filter((student) => student.workingLevelIndex === null).length;
  const bars = [
    ...levels.map((level, index) => ({
      label: t("checkCharts.dashboard.levelShort", { number: index + 1 }),
      name: levelTitle(index, level.name),
      value: students.filter((student) => student.workingLevelIndex === index).length,
    })),
    {
      label: t("checkCharts.dashboard.completedShort"),
      name: t("checkCharts.dashboard.completed"),
      value: completed,
    },
  ];
  const classShare = (index: number) => {
    const possible = (levels[index]?.checkCount ?? 0) * students.length;
    const observed = students.reduce((sum, student) => sum + (student.observed[index] ?? 0), 0);
    return possible > 0 ? observed / possible : 0;
  };

  if (students.length === 0)
    return (
      <Section title={t("checkCharts.dashboard.tableTitle")}>
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("checkCharts.dashboard.noStudents")}</p>
      </Section>
    );

  return (
    <div className="space-y-6">
      <Section
        title={t("checkCharts.dashboard.chartTitle")}
        description={t("checkCharts.dashboard.chartDescription", { count: students.length })}
      >
        <BarFigure
          bars={bars}
          description={t("checkCharts.dashboard.chartAlt", { className: data.class.title })}
          valueLabel={t("checkCharts.dashboard.students")}
          formatValue={(value) => t("checkCharts.dashboard.studentCount", { count: value })}
          minimumTop={4}
          caption={t("checkCharts.dashboard.chartCaption")}
        />
      </Section>

      <Section
        title={t("checkCharts.dashboard.tableTitle")}
        description={t("checkCharts.dashboard.tableDescription")}
      >
        <TableRegion label={t("checkCharts.dashboard.tableTitle")}>
          <table
            className="w-full text-left text-sm"
            style={{ minWidth: `${16 + levels.length * 7 + 14}rem` }}
          >
            <caption className="sr-only">
              {t("checkCharts.dashboard.tableCaption", {
                chart: data.chart.title,
                className: data.class.title,
              })}
            </caption>
            <thead className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-300">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                  {t("checkCharts.dashboard.student")}
                </th>
                {levels.map((level, index) => (
                  <th key={level.id} scope="col" className="px-2 py-2 text-center font-semibold">
                    <abbr title={levelTitle(index, level.name)} className="no-underline">
                      {t("checkCharts.dashboard.levelShort", { number: index + 1 })}
                    </abbr>
                    <span className="block font-normal">
                      {t("checkCharts.dashboard.checkCount", { count: level.checkCount })}
                    </span>
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                  {t("checkCharts.dashboard.workingOn")}
                </th>
                <th scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                  {t("checkCharts.dashboard.lastObserved")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {students.map((student) => (
                <tr key={student.id}>
                  <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
                    {studentCell(student)}
                    {student.grades.length > 0 && (
                      <span className="block text-xs text-slate-600 dark:text-slate-400">
                        {gradeLabel(student.grades)}
                      </span>
                    )}
                  </th>
                  {levels.map((level, index) => {
                    const count = student.observed[index] ?? 0;
                    const share = level.checkCount > 0 ? count / level.checkCount : 0;
                    return (
                      <td key={level.id} className="px-1.5 py-1.5 text-center">
                        <span
                          className={`block rounded-md px-2 py-1.5 font-semibold tabular-nums ${shareClass(share, student.workingLevelIndex === index)}`}
                        >
                          <span aria-hidden="true">
                            {t("checkCharts.dashboard.cell", { count, total: level.checkCount })}
                          </span>
                          <span className="sr-only">
                            {t("checkCharts.dashboard.cellLabel", {
                              level: levelTitle(index, level.name),
                              count,
                              total: level.checkCount,
                            })}
                          </span>
                        </span>
                      </td>
                    );
                  })}
                  <td className="px-3 py-2 whitespace-nowrap">
                    {student.workingLevelIndex === null
                      ? t("checkCharts.dashboard.completed")
                      : levelTitle(student.workingLevelIndex, levels[student.workingLevelIndex]?.name ?? "")}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-700 dark:text-slate-300">
                    {student.lastObservedOn
                      ? dateLabel(student.lastObservedOn)
                      : t("checkCharts.dashboard.never")}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-slate-200 dark:border-slate-700">
              <tr>
                <th scope="row" className="px-3 py-2 text-left text-xs font-semibold">
                  {t("checkCharts.dashboard.classShare")}
                </th>
                {levels.map((level, index) => (
                  <td key={level.id} className="px-2 py-2 text-center text-xs font-semibold tabular-nums">
                    {formatPercent(classShare(index))}
                  </td>
                ))}
                <td colSpan={2} />
              </tr>
            </tfoot>
          </table>
        </TableRegion>
        <p className="mt-3 text-xs text-slate-600 dark:text-slate-300">{t("checkCharts.dashboard.legend")}</p>
      </Section>
    </div>
  );
}
