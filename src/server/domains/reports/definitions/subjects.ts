import { sql } from "drizzle-orm";
import { mapScaleOf } from "../../../../shared/contracts/assessment";
import type { ReportFilter, ReportValue } from "../../../../shared/contracts/reports";
import { dateInWords } from "../../../../shared/report-values";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../../shared/time-zone";
import { queryRows } from "../../../db/client";
import { schoolDailyGoals } from "../../goals/daily-goals";
import { columnsOf, type ReportContext, type ReportDefinition } from "../engine";
import { packedLine, packedLines } from "../packed";
import {
  describeFilters,
  filterOptions,
  gradeName,
  knownFilters,
  reportStudents,
  studentsOfFilters,
} from "../population";

const FILTERS: readonly ReportFilter[] = [
  "schoolId",
  "grade",
  "classId",
  "guideId",
  "subject",
  "startDate",
  "endDate",
];
/** Without a term in the roster, "this term" is the last 90 days. */
const FALLBACK_TERM_DAYS = 90;
/** MAP percentiles are counted in these bands on the chart. */
const PERCENTILE_BANDS = [
  [1, 20],
  [21, 40],
  [41, 60],
  [61, 80],
  [81, 99],
] as const;

/** The range asked for, else the roster's term that holds today (a school year when there is no term). */
async function termOf(context: ReportContext) {
  const today = localDateOf(context.now, SCHOOL_TIME_ZONE);
  const { startDate, endDate } = context.search;
  if (startDate && endDate && startDate <= endDate) return { start: startDate, end: endDate, title: null };
  const [term] = await queryRows<{ start: string; end: string; title: string }>(
    context.db,
    sql`select s.start_date::text as start, s.end_date::text as "end", s.title from academic_sessions s
      where s.status = 'active' and s.start_date <= ${today}::date and s.end_date >= ${today}::date
        and s.type in ('term', 'semester', 'schoolYear')
      order by case s.type when 'term' then 0 when 'semester' then 1 else 2 end, s.start_date desc limit 1`,
  );
  if (term) return { start: term.start, end: term.end < today ? term.end : today, title: term.title };
  return { start: addDays(today, -(FALLBACK_TERM_DAYS - 1)), end: today, title: null };
}

/**
 * `overall_students_subject_report`: every student against each subject — their level and course,
 * units mastered and XP this term, and their latest MAP percentile where there is one. A row per
 * student and subject; the subjects are the school's daily-goal subjects and any other the students
 * learned or were placed in.
 */
export const subjectReport: ReportDefinition = {
  id: "overall_students_subject_report",
  access: "administrator",
  filters: FILTERS,
  async build(asked) {
    const options = await filterOptions(asked, FILTERS);
    const context = knownFilters(asked, options);
    const { search, t, locale } = context;
    const term = await termOf(context);
    const ids = studentsOfFilters(context, FILTERS);
    const onlySubject = search.subject ? sql`and x.subject = ${search.subject}` : sql``;
    const [{ students }, goals, learned, placed, tested] = await Promise.all([
      reportStudents(context, ids),
      schoolDailyGoals(context.db),
      packedLines(
        context.readDb,
        sql`select ${packedLine([sql`x.xp`, sql`x.mastered`, sql`x.student`, sql`x.subject`])} as line from (
            select m.student_sourced_id as student, m.subject, sum(m.xp) as xp, sum(m.mastered_units) as mastered
            from daily_student_metrics m
            where m.student_sourced_id in (${ids}) and m.local_date between ${term.start}::date and ${term.end}::date
            group by 1, 2) x where true ${onlySubject}`,
      ),
      queryRows<{ student: string; subject: string; level: number; course: string | null }>(
        context.db,
        sql`select p.student_sourced_id as student, p.subject, p.current_grade as level,
            (select st.title from subject_tracks tr join subject_track_steps st on st.track_id = tr.id
              where tr.subject = p.subject and st.grade_level = p.current_grade order by st.position limit 1) as course
          from placements p where p.student_sourced_id in (${ids})`,
      ),
      queryRows<{ student: string; scale: string; percentile: number | null; rit: number }>(
        context.db,
        sql`select distinct on (r.student_sourced_id, r.subject) r.student_sourced_id as student, r.subject as scale,
            r.percentile, r.rit
          from map_results r where r.student_sourced_id in (${ids})
          order by r.student_sourced_id, r.subject, r.test_date desc`,
      ),
    ]);

    const key = (student: string, subject: string) => `${student}\u0000${subject}`;
    const xp = new Map<string, { xp: number; mastered: number }>();
    const subjects = new Set(Object.keys(goals));
    for (const [xpText, masteredText, student, subject] of learned as [string, string, string, string][]) {
      xp.set(key(student, subject), { xp: Number(xpText), mastered: Number(masteredText) });
      subjects.add(subject);
    }
    const placements = new Map(placed.map((row) => [key(row.student, row.subject), row]));
    const percentiles = new Map(tested.map((row) => [key(row.student, row.scale), row]));
    for (const row of placed) subjects.add(row.subject);
    const shown = [...subjects].filter((subject) => !search.subject || subject === search.subject).sort();

    const rows: ReportValue[][] = [];
    const studentIds: string[] = [];
    const bySubject = new Map(shown.map((subject) => [subject, { xp: 0, students: 0 }]));
    const bands = PERCENTILE_BANDS.map(() => 0);
    let termXp = 0;
    let mastered = 0;
    const percentileList: number[] = [];
    for (const student of students) {
      for (const subject of shown) {
        const learning = xp.get(key(student.id, subject));
        const placement = placements.get(key(student.id, subject));
        const scale = mapScaleOf(subject);
        const map = scale ? percentiles.get(key(student.id, scale)) : undefined;
        const percentile = map?.percentile ?? null;
        rows.push([
          student.name,
          student.schoolName ?? "",
          student.grade ? gradeName(student.grade) : "",
          subject,
          placement ? t("level", { grade: placement.level === 0 ? "K" : String(placement.level) }) : null,
          placement?.course ?? null,
          learning?.mastered ?? 0,
          Math.round((learning?.xp ?? 0) * 100) / 100,
          percentile,
        ]);
        studentIds.push(student.id);
        const sum = bySubject.get(subject);
        if (sum) {
          sum.xp += learning?.xp ?? 0;
          sum.students++;
        }
        termXp += learning?.xp ?? 0;
        mastered += learning?.mastered ?? 0;
        if (percentile !== null) {
          percentileList.push(percentile);
          const band = PERCENTILE_BANDS.findIndex(([low, high]) => percentile >= low && percentile <= high);
          if (band >= 0) bands[band] = (bands[band] ?? 0) + 1;
        }
      }
    }
    percentileList.sort((a, b) => a - b);
    const median = percentileList.length
      ? (percentileList[Math.floor((percentileList.length - 1) / 2)] ?? null)
      : null;
    const described = describeFilters(context, FILTERS, options);
    const columns = columnsOf(context, [
      ["student", "text"],
      ["school", "text"],
      ["grade", "text"],
      ["subject", "text"],
      ["level", "text"],
      ["course", "text"],
      ["masteredUnits", "count"],
      ["termXp", "xp"],
      ["mapPercentile", "count"],
    ]);
    return {
      subtitle: term.title
        ? t("subtitles.term", {
            term: term.title,
            start: dateInWords(term.start, locale),
            end: dateInWords(term.end, locale),
          })
        : t("subtitles.range", {
            start: dateInWords(term.start, locale),
            end: dateInWords(term.end, locale),
          }),
      scope: described.scope,
      applied: described.applied,
      filters: {
        schoolId: search.schoolId,
        grade: search.grade,
        classId: search.classId,
        guideId: search.guideId,
        subject: search.subject,
        startDate: term.start,
        endDate: term.end,
      },
      options,
      comparedWith: null,
      figures: [
        { key: "students", label: t("figures.students"), value: students.length, unit: "count" },
        { key: "termXp", label: t("figures.termXp"), value: Math.round(termXp * 100) / 100, unit: "xp" },
        { key: "masteredUnits", label: t("figures.masteredUnits"), value: mastered, unit: "count" },
        { key: "medianPercentile", label: t("figures.medianPercentile"), value: median, unit: "count" },
      ],
      highlights: [],
      charts: [
        {
          key: "xpPerStudentBySubject",
          title: t("charts.xpPerStudentBySubject"),
          kind: "bar",
          unit: "xp",
          categories: shown,
          series: [
            {
              name: t("columns.termXp"),
              values: shown.map((subject) => {
                const sum = bySubject.get(subject);
                return sum?.students ? Math.round((sum.xp / sum.students) * 100) / 100 : 0;
              }),
            },
          ],
        },
        {
          key: "percentileBands",
          title: t("charts.percentileBands"),
          kind: "bar",
          unit: "count",
          categories: PERCENTILE_BANDS.map(([low, high]) => `${low}–${high}`),
          series: [{ name: t("columns.students"), values: bands }],
        },
      ],
      tables: [
        {
          key: "students",
          title: t("tables.studentsBySubject"),
          empty: t("empty.groups"),
          columns,
          rows,
          studentIds,
          total: rows.length,
          main: true,
          sortable: columns.map((column) => column.key),
        },
      ],
    };
  },
};
