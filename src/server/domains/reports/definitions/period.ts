import { sql } from "drizzle-orm";
import type { ReportFilter, ReportId, ReportTable, ReportValue } from "../../../../shared/contracts/reports";
import { dateInWords } from "../../../../shared/report-values";
import {
  addDays,
  daysBetween,
  isWeekday,
  localDateOf,
  monthStartOf,
  SCHOOL_TIME_ZONE,
  weekStartOf,
} from "../../../../shared/time-zone";
import { queryRows } from "../../../db/client";
import { columnsOf, type ReportContext, type ReportDefinition } from "../engine";
import { addTotals, emptyTotals, periodFigures, type Range, schoolDaysOf, type Totals } from "../figures";
import {
  describeFilters,
  filterOptions,
  gradeName,
  knownFilters,
  type ReportStudent,
  reportStudents,
  studentsOfFilters,
} from "../population";

type PeriodKind = "day" | "week" | "month";

const FILTERS: readonly ReportFilter[] = [
  "schoolId",
  "grade",
  "classId",
  "guideId",
  "subject",
  "appKey",
  "date",
];

/** The last day before today that is a weekday: on a Monday, Friday. */
export function lastSchoolDayBefore(today: string): string {
  let day = addDays(today, -1);
  while (!isWeekday(day)) day = addDays(day, -1);
  return day;
}

function lastDayOfMonth(first: string): string {
  return addDays(monthStartOf(addDays(first, 32)), -1);
}

/**
 * The period a report covers and the one it is compared with. A week starts on Sunday. A period
 * still running is compared with the same number of days at the start of the one before it.
 */
export function periodOf(kind: PeriodKind, date: string | undefined, today: string) {
  if (kind === "day") {
    const day = date ?? lastSchoolDayBefore(today);
    return { period: { start: day, end: day }, through: day, previous: null };
  }
  const start = kind === "week" ? weekStartOf(date ?? today) : monthStartOf(date ?? today);
  const end = kind === "week" ? addDays(start, 6) : lastDayOfMonth(start);
  const through = end < today ? end : today < start ? start : today;
  const elapsed = daysBetween(start, through);
  const previousStart = kind === "week" ? addDays(start, -7) : monthStartOf(addDays(start, -1));
  const previousEnd = kind === "week" ? addDays(start, -1) : addDays(start, -1);
  const previousThrough =
    addDays(previousStart, elapsed) < previousEnd ? addDays(previousStart, elapsed) : previousEnd;
  return {
    period: { start, end },
    through,
    previous: { start: previousStart, end: previousThrough } as Range,
  };
}

const GROUP_COLUMNS = [
  ["students", "count"],
  ["learning", "count"],
  ["xp", "xp"],
  ["minutesOnTask", "minutes"],
  ["minutesWasted", "minutes"],
  ["accuracy", "percent"],
  ["masteredUnits", "count"],
  ["goalShare", "percent"],
] as const;

interface Group {
  students: number;
  learning: number;
  totals: Totals;
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const change = (now: number | null, before: number | null) =>
  now === null || before === null || before === 0 ? null : (now - before) / before;

/** A group's figures as the report shows them: sums rounded, shares as fractions (null with nothing to share). */
function measuresOf(group: Group, schoolDays: number) {
  const { totals } = group;
  return {
    students: group.students,
    learning: group.learning,
    xp: Math.round(totals.xp * 100) / 100,
    minutesOnTask: Math.round(totals.activeSeconds / 60),
    minutesWasted: Math.round(totals.wasteSeconds / 60),
    accuracy: share(totals.correctQuestions, totals.totalQuestions),
    masteredUnits: totals.masteredUnits,
    goalShare: share(totals.goalDays, group.students * schoolDays),
  };
}

function groupCells(group: Group, schoolDays: number): ReportValue[] {
  const measures = measuresOf(group, schoolDays);
  return GROUP_COLUMNS.map(([key]) => measures[key]);
}

function addStudent(groups: Map<string, Group>, key: string, totals: Totals | undefined) {
  const group = groups.get(key) ?? { students: 0, learning: 0, totals: emptyTotals() };
  group.students++;
  if (totals) {
    if (totals.daysLearned > 0) group.learning++;
    addTotals(group.totals, totals);
  }
  groups.set(key, group);
}

/** The daily, weekly and monthly reports: one definition each, from the same figures. */
function periodReport(id: ReportId, kind: PeriodKind): ReportDefinition {
  return {
    id,
    access: "administrator",
    filters: FILTERS,
    async build(asked) {
      const options = await filterOptions(asked, FILTERS);
      const context = knownFilters(asked, options);
      const { search, t, locale } = context;
      const today = localDateOf(context.now, SCHOOL_TIME_ZONE);
      const { period, through, previous } = periodOf(kind, search.date, today);
      const ids = studentsOfFilters(context, FILTERS);
      const filter = { subject: search.subject, appKey: search.appKey };
      const [{ students, classes }, figures, schoolDays, previousDays] = await Promise.all([
        reportStudents(context, ids),
        periodFigures(
          context.readDb,
          ids,
          { start: period.start, end: through },
          previous,
          filter,
          kind === "day" ? undefined : { period: kind, previousEnds: addDays(period.start, -1) },
        ),
        kind === "day"
          ? [period.start]
          : schoolDaysOf(context.db, { start: period.start, end: through }, search.schoolId),
        previous ? schoolDaysOf(context.db, previous, search.schoolId) : [],
      ]);
      const dayCount = Math.max(schoolDays.length, 1);

      const all = new Map<string, Group>();
      const before = new Map<string, Group>();
      const bySchool = new Map<string, Group>();
      const byGrade = new Map<string, Group>();
      const byClass = new Map<string, Group>();
      for (const student of students) {
        const totals = figures.current.get(student.id);
        addStudent(all, "all", totals);
        addStudent(before, "all", figures.previous.get(student.id));
        addStudent(bySchool, student.schoolId ?? "", totals);
        addStudent(byGrade, student.grade, totals);
        for (const classId of student.classIds) addStudent(byClass, classId, totals);
      }
      const total = all.get("all") ?? { students: 0, learning: 0, totals: emptyTotals() };
      const earlier = before.get("all") ?? { students: 0, learning: 0, totals: emptyTotals() };
      const now = measuresOf(total, dayCount);
      const then = measuresOf(earlier, Math.max(previousDays.length, 1));
      const figure = (
        key: keyof typeof now,
        unit: "count" | "xp" | "minutes" | "percent",
        compared = true,
      ) => ({
        key,
        label: t(`figures.${key}`),
        value: now[key],
        unit,
        ...(previous && compared ? { change: change(now[key], then[key]) } : {}),
      });

      const schoolNames = new Map(
        students.map((student) => [student.schoolId ?? "", student.schoolName ?? t("scope.noSchool")]),
      );
      const groupTable = (
        key: string,
        groups: Map<string, Group>,
        label: (key: string) => string,
        main: boolean,
        extra: { columns: (readonly [string, "text"])[]; cells: (key: string) => ReportValue[] } = {
          columns: [],
          cells: () => [],
        },
      ): ReportTable => {
        const rows = [...groups.entries()]
          .map(([groupKey, group]) => [
            label(groupKey),
            ...extra.cells(groupKey),
            ...groupCells(group, dayCount),
          ])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]), locale, { numeric: true }));
        const columns = columnsOf(context, [[key, "text"], ...extra.columns, ...GROUP_COLUMNS]);
        return {
          key,
          title: t(`tables.${key}`),
          empty: t("empty.groups"),
          columns,
          rows,
          total: rows.length,
          main,
          sortable: columns.map((column) => column.key),
        };
      };
      const classTitle = (classId: string) => classes.get(classId)?.title ?? classId;
      const absent = students.filter((student) => !(figures.current.get(student.id)?.daysLearned ?? 0));
      const lastLearned = await lastLearnedBefore(context, absent, period.start);

      const tables: ReportTable[] = [
        groupTable("school", bySchool, (key) => schoolNames.get(key) ?? key, false),
        groupTable("grade", byGrade, (key) => (key ? gradeName(key) : t("scope.noGrade")), false),
        groupTable("class", byClass, classTitle, true, {
          columns: [
            ["guides", "text"],
            ["school", "text"],
          ],
          cells: (classId) => [
            classes.get(classId)?.guides ?? "",
            schoolNames.get(classes.get(classId)?.schoolId ?? "") ?? "",
          ],
        }),
        {
          key: "absent",
          title: t("tables.absent"),
          empty: t("empty.absent"),
          columns: columnsOf(context, [
            ["student", "text"],
            ["school", "text"],
            ["grade", "text"],
            ["classes", "text"],
            ["lastLearned", "date"],
          ]),
          rows: absent.map((student) => [
            student.name,
            student.schoolName ?? "",
            student.grade ? gradeName(student.grade) : "",
            student.classIds.map(classTitle).join(", "),
            lastLearned.get(student.id) ?? null,
          ]),
          studentIds: absent.map((student) => student.id),
          total: absent.length,
          main: false,
          sortable: [],
        },
      ];

      const everyDay: string[] = [];
      for (let day = period.start; day <= through; day = addDays(day, 1)) everyDay.push(day);
      const gradeRows = tables[1]?.rows ?? [];
      const charts =
        kind === "day"
          ? [
              {
                key: "xpByGrade",
                title: t("charts.xpByGrade"),
                kind: "bar" as const,
                unit: "xp" as const,
                categories: gradeRows.map((row) => String(row[0])),
                series: [{ name: t("columns.xp"), values: gradeRows.map((row) => Number(row[3])) }],
              },
            ]
          : [
              {
                key: "xpPerDay",
                title: t("charts.xpPerDay"),
                kind: "bar" as const,
                unit: "xp" as const,
                categories: everyDay.map((day) => dateInWords(day, locale)),
                series: [
                  {
                    name: t("columns.xp"),
                    values: everyDay.map((day) => Math.round((figures.days.get(day)?.xp ?? 0) * 100) / 100),
                  },
                ],
              },
              {
                key: "learningPerDay",
                title: t("charts.learningPerDay"),
                kind: "line" as const,
                unit: "count" as const,
                categories: everyDay.map((day) => dateInWords(day, locale)),
                series: [
                  {
                    name: t("columns.learning"),
                    values: everyDay.map((day) => figures.days.get(day)?.students ?? 0),
                  },
                ],
              },
            ];

      const described = describeFilters(context, FILTERS, options);
      return {
        subtitle: subtitleOf(context, kind, period, through),
        scope: described.scope,
        applied: described.applied,
        filters: { ...pickFilters(search), date: period.start },
        options,
        comparedWith: previous
          ? t("comparedWith", {
              start: dateInWords(previous.start, locale),
              end: dateInWords(previous.end, locale),
            })
          : null,
        figures: [
          figure("students", "count", false),
          figure("learning", "count"),
          figure("xp", "xp"),
          figure("minutesOnTask", "minutes"),
          figure("minutesWasted", "minutes"),
          figure("accuracy", "percent"),
          figure("masteredUnits", "count"),
          figure("goalShare", "percent"),
        ],
        highlights: [],
        charts,
        tables,
      };
    },
  };
}

function pickFilters(search: ReportContext["search"]) {
  const { schoolId, grade, classId, guideId, subject, appKey } = search;
  return { schoolId, grade, classId, guideId, subject, appKey };
}

function subtitleOf(context: ReportContext, kind: PeriodKind, period: Range, through: string): string {
  const { t, locale } = context;
  if (kind === "day") return dateInWords(period.start, locale);
  const soFar = through < period.end;
  const values = {
    start: dateInWords(period.start, locale),
    end: dateInWords(period.end, locale),
    through: dateInWords(through, locale),
    month: new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${period.start}T12:00:00Z`),
    ),
  };
  return t(`subtitles.${kind}${soFar ? "SoFar" : ""}`, values);
}

/** The last day each student learned before a date (none when they never have). */
async function lastLearnedBefore(
  context: ReportContext,
  students: ReportStudent[],
  before: string,
): Promise<Map<string, string>> {
  if (students.length === 0) return new Map();
  const rows = await queryRows<{ id: string; day: string }>(
    context.readDb,
    sql`select t.student_sourced_id as id, max(t.local_date)::text as day from student_daily_totals t
      where t.student_sourced_id in ${students.map((student) => student.id)} and t.local_date < ${before}::date
        and (t.active_seconds > 0 or t.events > 0)
      group by 1`,
  );
  return new Map(rows.map((row) => [row.id, row.day]));
}

export const dailyMetricsReport = periodReport("daily-metrics", "day");
export const weekReport = periodReport("week-report", "week");
export const monthReport = periodReport("month-report", "month");
