import { type SQL, sql } from "drizzle-orm";
import {
  type ReportFilter,
  type ReportSearch,
  type ReportTable,
  type ReportValue,
  SESSION_GAP_MINUTES,
} from "../../../../shared/contracts/reports";
import { dateInWords } from "../../../../shared/report-values";
import { addDays, daysBetween, localDateOf, SCHOOL_TIME_ZONE } from "../../../../shared/time-zone";
import { columnsOf, type ReportContext, type ReportDefinition } from "../engine";
import type { Range } from "../figures";
import { packedLine, packedLines } from "../packed";
import {
  describeFilters,
  filterOptions,
  gradeName,
  knownFilters,
  type ReportStudent,
  reportStudents,
  studentsOfFilters,
} from "../population";
import { lastSchoolDayBefore } from "./period";

const FILTERS: readonly ReportFilter[] = [
  "schoolId",
  "grade",
  "classId",
  "guideId",
  "subject",
  "appKey",
  "startDate",
  "endDate",
];

/** Sessions are worked out from the events themselves, so a report covers at most this many days. */
export const MAX_SESSION_DAYS = 31;
/** Sessions listed as the longest and as the most wasteful. */
const LISTED_SESSIONS = 20;

/**
 * The range a search asks for, else the default. Dates the wrong way round are swapped; one date
 * given alone past the default's other end takes the default's length from it. A range longer
 * than `maxDays` is cut to that many days from its start.
 */
export function rangeOfSearch(
  search: ReportSearch,
  fallback: Range,
  maxDays: number,
): { range: Range; cut: boolean } {
  let start = search.startDate ?? fallback.start;
  let end = search.endDate ?? fallback.end;
  if (start > end) {
    const length = daysBetween(fallback.start, fallback.end);
    if (search.startDate && search.endDate) [start, end] = [end, start];
    else if (search.startDate) end = addDays(start, length);
    else start = addDays(end, -length);
  }
  const cut = daysBetween(start, end) + 1 > maxDays;
  return { range: { start, end: cut ? addDays(start, maxDays - 1) : end }, cut };
}

/** The subtitle of a range: one day in words, or its first and last, saying when it was cut. */
export function rangeSubtitle(context: ReportContext, range: Range, cutTo: number | null): string {
  const { t, locale } = context;
  const start = dateInWords(range.start, locale);
  const end = dateInWords(range.end, locale);
  if (cutTo !== null) return t("subtitles.rangeCut", { start, end, days: cutTo });
  return range.start === range.end ? start : t("subtitles.range", { start, end });
}

/** Sessions added up: how many, their length, active and wasted seconds, and XP. */
interface SessionTotals {
  sessions: number;
  seconds: number;
  activeSeconds: number;
  wasteSeconds: number;
  xp: number;
}

const emptySessions = (): SessionTotals => ({
  sessions: 0,
  seconds: 0,
  activeSeconds: 0,
  wasteSeconds: 0,
  xp: 0,
});

function addSessions(into: SessionTotals, from: SessionTotals): SessionTotals {
  into.sessions += from.sessions;
  into.seconds += from.seconds;
  into.activeSeconds += from.activeSeconds;
  into.wasteSeconds += from.wasteSeconds;
  into.xp += from.xp;
  return into;
}

/** One session of a student's day, as the lists show it: its start on the student's own clock. */
interface ListedSession extends SessionTotals {
  studentId: string;
  day: string;
  start: string;
}

interface SessionFigures {
  students: Map<string, SessionTotals>;
  /** Sessions by the hour (0–23) they started on the student's clock. */
  hours: Map<number, number>;
  longest: ListedSession[];
  wasteful: ListedSession[];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Sessions' figures as the report shows them: minutes, focus as a fraction, XP per hour of session. */
function measuresOf(totals: SessionTotals) {
  const engaged = totals.activeSeconds + totals.wasteSeconds;
  return {
    sessions: totals.sessions,
    minutes: round(totals.seconds / 60, 1),
    averageLength: totals.sessions > 0 ? round(totals.seconds / 60 / totals.sessions, 1) : null,
    minutesOnTask: round(totals.activeSeconds / 60, 1),
    minutesWasted: round(totals.wasteSeconds / 60, 1),
    focus: engaged > 0 ? totals.activeSeconds / engaged : null,
    xp: round(totals.xp, 2),
    xpPerHour: totals.seconds > 0 ? round(totals.xp / (totals.seconds / 3600), 1) : null,
  };
}

/**
 * The learning sessions of the students a sub-query names, worked out in the database: each event
 * runs from its end less its active, wasted and gaming seconds to its end; within a student's own
 * day, an event starting `SESSION_GAP_MINUTES` or more after everything before it ended starts a
 * new session. The answer comes packed (packed.ts): a line per student with their sessions added up, a line
 * per starting hour, and the longest and the most wasteful sessions.
 */
async function sessionFigures(
  context: ReportContext,
  studentIds: SQL,
  range: Range,
  filter: { subject?: string; appKey?: string },
): Promise<SessionFigures> {
  const conditions = [
    filter.subject ? sql`and e.subject = ${filter.subject}` : sql``,
    filter.appKey ? sql`and e.app_id::text = ${filter.appKey}` : sql``,
  ];
  const listed = (kind: string, order: SQL, where: SQL) =>
    sql`select ${kind}::text as kind, l.rank, ${packedLine([sql`${kind}::text`, sql`l.day`, sql`l.clock`, sql`l.seconds`, sql`l.active`, sql`l.waste`, sql`l.xp`, sql`l.student`])} as line
      from (select s.*, row_number() over (order by ${order}, s.started, s.student) as rank from timed s where ${where}) l
      where l.rank <= ${LISTED_SESSIONS}`;
  const lines = await packedLines(
    context.readDb,
    sql`with events as (
        select e.student_sourced_id as student, e.local_date as day, e.occurred_at as ended,
          e.occurred_at - make_interval(secs => e.active_seconds + e.waste_seconds + e.anti_pattern_seconds) as started,
          e.active_seconds as active, e.waste_seconds as waste, e.awarded_xp as xp
        from activity_events e
        where e.student_sourced_id in (${studentIds}) and e.local_date between ${range.start}::date and ${range.end}::date
          ${sql.join(conditions, sql` `)}),
      marked as (
        select v.*, case when v.started - max(v.ended) over (partition by v.student, v.day order by v.started, v.ended
            rows between unbounded preceding and 1 preceding) < make_interval(mins => ${SESSION_GAP_MINUTES}) then 0 else 1 end as fresh
        from events v),
      numbered as (
        select m.*, sum(m.fresh) over (partition by m.student, m.day order by m.started, m.ended rows unbounded preceding) as number
        from marked m),
      sessions as (
        select n.student, n.day, min(n.started) as started, extract(epoch from max(n.ended) - min(n.started)) as seconds,
          sum(n.active) as active, sum(n.waste) as waste, sum(n.xp) as xp
        from numbered n group by n.student, n.day, n.number),
      timed as (
        select s.*, to_char(s.started at time zone u.timezone, 'HH24:MI') as clock,
          extract(hour from s.started at time zone u.timezone)::int as hour
        from sessions s join users u on u.sourced_id = s.student)
      select p.kind, p.rank, p.line from (
        select 's' as kind, 0 as rank, ${packedLine([sql`'s'`, sql`count(*)`, sql`sum(t.seconds)`, sql`sum(t.active)`, sql`sum(t.waste)`, sql`sum(t.xp)`, sql`t.student`])} as line
        from timed t group by t.student
        union all
        select 'h', 0, ${packedLine([sql`'h'`, sql`t.hour`, sql`count(*)`])} from timed t group by t.hour
        union all ${listed("l", sql`s.seconds desc`, sql`true`)}
        union all ${listed("w", sql`s.waste desc, s.seconds desc`, sql`s.waste > 0`)}) p`,
    sql`order by g.kind, g.rank`,
  );
  const figures: SessionFigures = { students: new Map(), hours: new Map(), longest: [], wasteful: [] };
  for (const parts of lines) {
    const kind = parts[0];
    if (kind === "h") {
      figures.hours.set(Number(parts[1]), Number(parts[2]));
    } else if (kind === "s") {
      figures.students.set(parts[6] as string, {
        sessions: Number(parts[1]),
        seconds: Number(parts[2]),
        activeSeconds: Number(parts[3]),
        wasteSeconds: Number(parts[4]),
        xp: Number(parts[5]),
      });
    } else {
      (kind === "l" ? figures.longest : figures.wasteful).push({
        day: parts[1] as string,
        start: parts[2] as string,
        sessions: 1,
        seconds: Number(parts[3]),
        activeSeconds: Number(parts[4]),
        wasteSeconds: Number(parts[5]),
        xp: Number(parts[6]),
        studentId: parts[7] as string,
      });
    }
  }
  return figures;
}

const TOTALS_COLUMNS = [
  ["sessions", "count"],
  ["minutes", "minutes"],
  ["averageLength", "minutes"],
  ["focus", "percent"],
  ["xp", "xp"],
  ["xpPerHour", "xpPerHour"],
] as const;

const SESSION_COLUMNS = [
  ["student", "text"],
  ["day", "date"],
  ["start", "text"],
  ["length", "minutes"],
  ["minutesOnTask", "minutes"],
  ["minutesWasted", "minutes"],
  ["focus", "percent"],
  ["xp", "xp"],
  ["xpPerHour", "xpPerHour"],
] as const;

function totalsCells(totals: SessionTotals): ReportValue[] {
  const measures = measuresOf(totals);
  return TOTALS_COLUMNS.map(([key]) => measures[key]);
}

/** The session report: learning sessions from the flow data, per student and class, with the longest and the most wasteful. */
export const sessionReport: ReportDefinition = {
  id: "session-report",
  access: "administrator",
  filters: FILTERS,
  async build(asked) {
    const options = await filterOptions(asked, FILTERS);
    const context = knownFilters(asked, options);
    const { search, t, locale } = context;
    const lastSchoolDay = lastSchoolDayBefore(localDateOf(context.now, SCHOOL_TIME_ZONE));
    const { range, cut } = rangeOfSearch(
      search,
      { start: lastSchoolDay, end: lastSchoolDay },
      MAX_SESSION_DAYS,
    );
    const ids = studentsOfFilters(context, FILTERS);
    const [{ students, classes }, figures] = await Promise.all([
      reportStudents(context, ids),
      sessionFigures(context, ids, range, { subject: search.subject, appKey: search.appKey }),
    ]);

    const all = emptySessions();
    const byClass = new Map<string, { students: number; totals: SessionTotals }>();
    const withSessions: ReportStudent[] = [];
    for (const student of students) {
      const totals = figures.students.get(student.id);
      if (!totals) continue;
      withSessions.push(student);
      addSessions(all, totals);
      for (const classId of student.classIds) {
        const group = byClass.get(classId) ?? { students: 0, totals: emptySessions() };
        group.students++;
        addSessions(group.totals, totals);
        byClass.set(classId, group);
      }
    }
    const overall = measuresOf(all);
    const names = new Map(students.map((student) => [student.id, student.name]));

    const sessionTable = (key: string, sessions: ListedSession[]): ReportTable => ({
      key,
      title: t(`tables.${key}`),
      empty: t("empty.sessions"),
      columns: columnsOf(context, SESSION_COLUMNS),
      rows: sessions.map((session) => {
        const measures = measuresOf(session);
        return [
          names.get(session.studentId) ?? "",
          session.day,
          session.start,
          measures.minutes,
          measures.minutesOnTask,
          measures.minutesWasted,
          measures.focus,
          measures.xp,
          measures.xpPerHour,
        ];
      }),
      studentIds: sessions.map((session) => session.studentId),
      total: sessions.length,
      main: false,
      sortable: [],
    });

    const studentColumns = columnsOf(context, [
      ["student", "text"],
      ["school", "text"],
      ["grade", "text"],
      ...TOTALS_COLUMNS,
    ]);
    const classColumns = columnsOf(context, [
      ["class", "text"],
      ["guides", "text"],
      ["students", "count"],
      ...TOTALS_COLUMNS,
    ]);
    const classRows = [...byClass.entries()]
      .map(([classId, group]) => [
        classes.get(classId)?.title ?? classId,
        classes.get(classId)?.guides ?? "",
        group.students,
        ...totalsCells(group.totals),
      ])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]), locale, { numeric: true }));
    const tables: ReportTable[] = [
      {
        key: "student",
        title: t("tables.student"),
        empty: t("empty.sessions"),
        columns: studentColumns,
        rows: withSessions.map((student) => [
          student.name,
          student.schoolName ?? "",
          student.grade ? gradeName(student.grade) : "",
          ...totalsCells(figures.students.get(student.id) ?? emptySessions()),
        ]),
        studentIds: withSessions.map((student) => student.id),
        total: withSessions.length,
        main: true,
        sortable: studentColumns.map((column) => column.key),
      },
      {
        key: "class",
        title: t("tables.class"),
        empty: t("empty.sessions"),
        columns: classColumns,
        rows: classRows,
        total: classRows.length,
        main: false,
        sortable: [],
      },
      sessionTable("longest", figures.longest),
      sessionTable("wasteful", figures.wasteful),
    ];

    // Every hour from the earliest start to the latest, so quiet hours show as gaps.
    const startingHours = [...figures.hours.keys()];
    const hours: number[] = [];
    if (startingHours.length > 0)
      for (let hour = Math.min(...startingHours); hour <= Math.max(...startingHours); hour++)
        hours.push(hour);
    const hourName = new Intl.DateTimeFormat(locale, { hour: "numeric", timeZone: "UTC" });

    const described = describeFilters(context, FILTERS, options);
    const { schoolId, grade, classId, guideId, subject, appKey } = search;
    return {
      subtitle: rangeSubtitle(context, range, cut ? MAX_SESSION_DAYS : null),
      scope: described.scope,
      applied: described.applied,
      filters: {
        schoolId,
        grade,
        classId,
        guideId,
        subject,
        appKey,
        startDate: range.start,
        endDate: range.end,
      },
      options,
      comparedWith: null,
      figures: [
        { key: "sessions", label: t("figures.sessions"), value: overall.sessions, unit: "count" },
        {
          key: "studentsWithSession",
          label: t("figures.studentsWithSession"),
          value: withSessions.length,
          unit: "count",
        },
        {
          key: "averageLength",
          label: t("figures.averageLength"),
          value: overall.averageLength,
          unit: "minutes",
        },
        { key: "focus", label: t("figures.focus"), value: overall.focus, unit: "percent" },
        { key: "xpPerHour", label: t("figures.xpPerHour"), value: overall.xpPerHour, unit: "xpPerHour" },
      ],
      highlights: [],
      charts: [
        {
          key: "sessionsByHour",
          title: t("charts.sessionsByHour"),
          kind: "bar",
          unit: "count",
          categories: hours.map((hour) => hourName.format(new Date(Date.UTC(2000, 0, 1, hour)))),
          series: [
            { name: t("figures.sessions"), values: hours.map((hour) => figures.hours.get(hour) ?? 0) },
          ],
        },
      ],
      tables,
    };
  },
};
