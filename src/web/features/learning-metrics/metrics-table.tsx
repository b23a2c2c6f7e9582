import { useTranslation } from "react-i18next";
import type { LearningMetrics, MetricsView } from "../../../shared/contracts/activity";
import { csvText } from "../../../shared/csv";
import { addDays, weekStartOf } from "../../../shared/time-zone";
import { TableRegion } from "../../components/ui/table-region";
import { shownLocale } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { subjectColor } from "../../lib/subjects";

/** A group (subject or app) of the metrics, with its place in the chart's colours. */
export interface MetricsGroup {
  key: string;
  name: string;
  color: string;
}

const PALETTE = ["#2563eb", "#059669", "#d97706", "#7c3aed", "#e11d48", "#0891b2", "#65a30d", "#64748b"];

/** The heading of the period column: "Day", "Week starting", "Month". */
export function periodHeading(view: MetricsView): string {
  return i18next.t(`learning-metrics:table.period.${view}`);
}

const column = (name: string) => i18next.t(`learning-metrics:table.columns.${name}`);

/** Every group of the answer, by name, each with its colour: a subject's own, as on every page. */
export function groupsOf(data: LearningMetrics, groupBy: "subject" | "app"): MetricsGroup[] {
  const names = new Map<string, string>();
  for (const row of data.rows) names.set(row.group, row.groupName);
  return [...names.entries()]
    .sort((a, b) => a[1].localeCompare(b[1]))
    .map(([key, name], index) => ({
      key,
      name,
      color: groupBy === "subject" ? subjectColor(name) : (PALETTE[index % PALETTE.length] as string),
    }));
}

/** The first day of every period of the range, in order, empty periods included. */
export function periodsOf(view: MetricsView, startDate: string, endDate: string): string[] {
  const periods: string[] = [];
  if (view === "monthly") {
    let [year, month] = startDate.split("-").map(Number) as [number, number];
    for (;;) {
      const period = `${year}-${String(month).padStart(2, "0")}-01`;
      if (period > endDate) break;
      periods.push(period);
      month = month === 12 ? 1 : month + 1;
      if (month === 1) year++;
    }
    return periods;
  }
  const step = view === "weekly" ? 7 : 1;
  for (
    let day = view === "weekly" ? weekStartOf(startDate) : startDate;
    day <= endDate;
    day = addDays(day, step)
  )
    periods.push(day);
  return periods;
}

/** A cell of the table: text, a number, or nothing to show (an accuracy without questions). */
export type Cell = string | number | null;

export interface TableModel {
  columns: { label: string; isNumber: boolean }[];
  rows: { key: string; cells: Cell[] }[];
}

/**
 * What the table shows, and so what the CSV holds: a line per period (and per student when there
 * are several), XP per group and in total, and with every metric the time, questions and mastery.
 */
export function tableOf(
  data: LearningMetrics,
  groups: MetricsGroup[],
  options: { showAllMetrics: boolean },
): TableModel {
  const several = data.students.length > 1;
  const names = new Map(
    data.students.map((student) => [student.sourcedId, `${student.givenName} ${student.familyName}`]),
  );
  const columns = [
    { label: periodHeading(data.view), isNumber: false },
    ...(several ? [{ label: column("student"), isNumber: false }] : []),
    ...groups.map((group) => ({
      label: i18next.t("learning-metrics:table.columns.groupXp", { group: group.name }),
      isNumber: true,
    })),
    { label: column("totalXp"), isNumber: true },
    ...(options.showAllMetrics
      ? [
          { label: column("activeMinutes"), isNumber: true },
          { label: column("wastedMinutes"), isNumber: true },
          { label: column("questions"), isNumber: true },
          { label: column("correct"), isNumber: true },
          { label: column("accuracy"), isNumber: true },
          { label: column("unitsMastered"), isNumber: true },
        ]
      : []),
  ];

  interface Line {
    period: string;
    studentId: string;
    xp: Map<string, number>;
    active: number;
    waste: number;
    questions: number;
    correct: number;
    mastered: number;
  }
  const lines = new Map<string, Line>();
  for (const row of data.rows) {
    const key = several ? `${row.period}|${row.studentId}` : row.period;
    const line = lines.get(key) ?? {
      period: row.period,
      studentId: row.studentId,
      xp: new Map<string, number>(),
      active: 0,
      waste: 0,
      questions: 0,
      correct: 0,
      mastered: 0,
    };
    line.xp.set(row.group, (line.xp.get(row.group) ?? 0) + row.xp);
    line.active += row.activeSeconds;
    line.waste += row.wasteSeconds;
    line.questions += row.totalQuestions;
    line.correct += row.correctQuestions;
    line.mastered += row.masteredUnits;
    lines.set(key, line);
  }
  const sorted = [...lines.entries()].sort(([, a], [, b]) =>
    a.period === b.period
      ? (names.get(a.studentId) ?? "").localeCompare(names.get(b.studentId) ?? "")
      : a.period.localeCompare(b.period),
  );
  return {
    columns,
    rows: sorted.map(([key, line]) => {
      const xp = groups.map((group) => round(line.xp.get(group.key) ?? 0));
      return {
        key,
        cells: [
          periodLabel(data.view, line.period),
          ...(several ? [names.get(line.studentId) ?? line.studentId] : []),
          ...xp,
          round(xp.reduce((total, value) => total + value, 0)),
          ...(options.showAllMetrics
            ? [
                Math.round(line.active / 60),
                Math.round(line.waste / 60),
                line.questions,
                line.correct,
                line.questions > 0 ? Math.round((line.correct / line.questions) * 1000) / 10 : null,
                line.mastered,
              ]
            : []),
        ],
      };
    }),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

/** How the table names a period: the day, the Sunday of the week, or the month (`yyyy-MM`). */
export function periodLabel(view: MetricsView, period: string): string {
  return view === "monthly" ? period.slice(0, 7) : period;
}

/** The table as CSV, header line first; names that look like formulas are neutralised. */
export function csvOf(table: TableModel): string {
  return csvText([table.columns.map((column) => column.label), ...table.rows.map((row) => row.cells)]);
}

/** Saves the table as a CSV file through the browser's download. */
export function downloadCsv(table: TableModel, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csvOf(table)], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function MetricsTable({ table, caption }: { table: TableModel; caption: string }) {
  const { t } = useTranslation("learning-metrics");
  const numbers = new Intl.NumberFormat(shownLocale());
  return (
    <TableRegion
      label={caption}
      maxHeight="max-h-[32rem]"
      className="rounded-lg border border-slate-200 dark:border-slate-800"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 z-20 bg-slate-50 text-xs text-slate-600 uppercase dark:bg-slate-800 dark:text-slate-300">
          <tr>
            {table.columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={`px-3 py-2 font-semibold whitespace-nowrap ${column.isNumber ? "text-right" : ""}`}
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {table.rows.map((row) => (
            <tr key={row.key} className="hover:bg-slate-50 dark:hover:bg-slate-800/60">
              {row.cells.map((cell, index) => {
                const column = table.columns[index];
                return index === 0 ? (
                  <th key={column?.label} scope="row" className="px-3 py-2 font-medium whitespace-nowrap">
                    {cell}
                  </th>
                ) : (
                  <td
                    key={column?.label}
                    className={`px-3 py-2 whitespace-nowrap ${column?.isNumber ? "text-right tabular-nums" : ""}`}
                  >
                    {cell === null ? (
                      <>
                        <span aria-hidden="true">—</span>
                        <span className="sr-only">{t("table.none")}</span>
                      </>
                    ) : typeof cell === "number" ? (
                      numbers.format(cell)
                    ) : (
                      cell
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
