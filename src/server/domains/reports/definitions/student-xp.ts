import { type SQL, sql } from "drizzle-orm";
import { MAX_REPORT_DAYS, type ReportColumn, type ReportFilter } from "../../../../shared/contracts/reports";
import { dateInWords } from "../../../../shared/report-values";
import {
  addDays,
  daysBetween,
  localDateOf,
  SCHOOL_TIME_ZONE,
  weekStartOf,
} from "../../../../shared/time-zone";
import { queryRows } from "../../../db/client";
import { columnsOf, type ReportContext, type ReportDefinition } from "../engine";
import { daysSource, periodFigures, type Range } from "../figures";
import { packedLine, packedLines } from "../packed";
import {
  describeFilters,
  filterOptions,
  gradeName,
  knownFilters,
  reportStudents,
  studentsOfFilters,
} from "../population";
import { rangeOfSearch, rangeSubtitle } from "./sessions";

const FILTERS: readonly ReportFilter[] = [
  "schoolId",
  "grade",
  "classId",
  "guideId",
  "appKey",
  "startDate",
  "endDate",
];

/** The days the report covers unless asked otherwise, through yesterday. */
const DEFAULT_DAYS = 30;
/** A range up to this long has a point a day in each sparkline; a longer one a point a week. */
const DAILY_TREND_DAYS = 31;

const round2 = (value: number) => Math.round(value * 100) / 100;

interface StudentXp {
  /** The subjects with XP in the range, by name. */
  subjects: string[];
  /** Each student's XP per subject, in the order of `subjects`. */
  bySubject: Map<string, number[]>;
  /** Each student's XP per day of the range with XP, by the day's offset from its start. */
  byDay: Map<string, Map<number, number>>;
}

/**
 * The XP of the students a sub-query names per subject and per day, from their days (each
 * student's day in one row, or one app's XP added up per day): a line per student, handed over as
 * one string. A subject's XP is read from each day's XP per subject for each subject the students
 * ever earned XP in (their all-time XP per subject says which, a row per student and subject), so
 * the days are not spread out per subject; subjects without XP in the range are left out.
 */
async function studentXp(
  context: ReportContext,
  studentIds: SQL,
  range: Range,
  appKey: string | undefined,
): Promise<StudentXp> {
  const candidates = (
    await queryRows<{ subject: string }>(
      context.readDb,
      sql`select distinct p.subject from student_xp_periods p
        where p.period = 'all' and p.student_sourced_id in (${studentIds}) order by p.subject`,
    )
  ).map((row) => row.subject);
  const sums = candidates.map((subject) => sql`coalesce(sum((t.subject_xp ->> ${subject})::numeric), 0)`);
  const xpPerDay = sql`coalesce(string_agg((t.local_date - ${range.start}::date) || ':' || t.xp, ',')
    filter (where t.xp <> 0), '')`;
  const lines = await packedLines(
    context.readDb,
    sql`select ${packedLine([...sums, xpPerDay, sql`t.student_sourced_id`])} as line
      from ${daysSource({ appKey })} t
      where t.student_sourced_id in (${studentIds}) and t.local_date between ${range.start}::date and ${range.end}::date
      group by t.student_sourced_id`,
  );
  const bySubject = new Map<string, number[]>();
  const byDay = new Map<string, Map<number, number>>();
  const earned = candidates.map(() => false);
  for (const parts of lines) {
    const id = parts[candidates.length + 1] as string;
    const xp = candidates.map((_, index) => Number(parts[index]));
    xp.forEach((value, index) => {
      if (value !== 0) earned[index] = true;
    });
    bySubject.set(id, xp);
    const xpByDay = new Map<number, number>();
    for (const day of (parts[candidates.length] ?? "").split(",")) {
      if (!day) continue;
      const [offset, value] = day.split(":");
      xpByDay.set(Number(offset), Number(value));
    }
    byDay.set(id, xpByDay);
  }
  const kept = candidates.flatMap((_, index) => (earned[index] ? [index] : []));
  for (const [id, xp] of bySubject)
    bySubject.set(
      id,
      kept.map((index) => xp[index] ?? 0),
    );
  return { subjects: kept.map((index) => candidates[index] as string), bySubject, byDay };
}

/** A student's sparkline: their XP per day, or per week (from Sunday) for a long range. */
function trendOf(
  days: Map<number, number> | undefined,
  range: Range,
  weekly: boolean,
  points: number,
): number[] {
  const values = new Array<number>(points).fill(0);
  // Days before the range's first day in its week: a day's week is its offset from that Sunday over 7.
  const weekOffset = daysBetween(weekStartOf(range.start), range.start);
  for (const [offset, xp] of days ?? []) {
    const point = weekly ? Math.floor((offset + weekOffset) / 7) : offset;
    values[point] = (values[point] ?? 0) + xp;
  }
  return values.map(round2);
}

/** The student XP report: each student's XP per subject over a range, their goal days and a sparkline. */
export const studentXpReport: ReportDefinition = {
  id: "student-xp-report",
  access: "administrator",
  filters: FILTERS,
  async build(asked) {
    const options = await filterOptions(asked, FILTERS);
    const context = knownFilters(asked, options);
    const { search, t, locale } = context;
    const yesterday = addDays(localDateOf(context.now, SCHOOL_TIME_ZONE), -1);
    const { range, cut } = rangeOfSearch(
      search,
      { start: addDays(yesterday, 1 - DEFAULT_DAYS), end: yesterday },
      MAX_REPORT_DAYS,
    );
    const days = daysBetween(range.start, range.end) + 1;
    const weekly = days > DAILY_TREND_DAYS;
    const points = weekly ? daysBetween(weekStartOf(range.start), weekStartOf(range.end)) / 7 + 1 : days;
    const ids = studentsOfFilters(context, FILTERS);
    const [{ students }, figures, xp] = await Promise.all([
      reportStudents(context, ids),
      periodFigures(context.readDb, ids, range, null, { appKey: search.appKey }),
      studentXp(context, ids, range, search.appKey),
    ]);

    const { subjects } = xp;
    const subjectColumns: ReportColumn[] = subjects.map((subject) => ({
      key: `subject:${subject}`,
      label: subject,
      unit: "xp",
      unitLabel: t("units.xp"),
    }));
    const columns = [
      ...columnsOf(context, [
        ["student", "text"],
        ["school", "text"],
        ["grade", "text"],
      ]),
      ...subjectColumns,
      ...columnsOf(context, [
        ["totalXp", "xp"],
        ["goalDays", "count"],
        ["trend", "trend"],
      ]),
    ];
    let totalXp = 0;
    let goalDays = 0;
    const rows = students.map((student) => {
      const totals = figures.current.get(student.id);
      totalXp += totals?.xp ?? 0;
      goalDays += totals?.goalDays ?? 0;
      const bySubject = xp.bySubject.get(student.id);
      return [
        student.name,
        student.schoolName ?? "",
        student.grade ? gradeName(student.grade) : "",
        ...subjects.map((_, index) => round2(bySubject?.[index] ?? 0)),
        round2(totals?.xp ?? 0),
        totals?.goalDays ?? 0,
        trendOf(xp.byDay.get(student.id), range, weekly, points),
      ];
    });

    const everyDay = Array.from({ length: days }, (_, index) => addDays(range.start, index));
    const described = describeFilters(context, FILTERS, options);
    const { schoolId, grade, classId, guideId, appKey } = search;
    return {
      subtitle: rangeSubtitle(context, range, cut ? MAX_REPORT_DAYS : null),
      scope: described.scope,
      applied: described.applied,
      filters: { schoolId, grade, classId, guideId, appKey, startDate: range.start, endDate: range.end },
      options,
      comparedWith: null,
      figures: [
        { key: "students", label: t("figures.students"), value: students.length, unit: "count" },
        { key: "xp", label: t("figures.xp"), value: round2(totalXp), unit: "xp" },
        {
          key: "averageXp",
          label: t("figures.averageXp"),
          value: students.length > 0 ? round2(totalXp / students.length) : null,
          unit: "xp",
        },
        { key: "goalDays", label: t("figures.goalDays"), value: goalDays, unit: "count" },
      ],
      highlights: [],
      charts: [
        {
          key: "xpPerDay",
          title: t("charts.xpPerDay"),
          kind: "bar",
          unit: "xp",
          categories: everyDay.map((day) => dateInWords(day, locale)),
          series: [
            {
              name: t("columns.xp"),
              values: everyDay.map((day) => round2(figures.days.get(day)?.xp ?? 0)),
            },
          ],
        },
      ],
      tables: [
        {
          key: "studentXp",
          title: t("tables.studentXp"),
          empty: t("empty.groups"),
          columns,
          rows,
          studentIds: students.map((student) => student.id),
          total: rows.length,
          main: true,
          sortable: columns.map((column) => column.key),
        },
      ],
    };
  },
};
