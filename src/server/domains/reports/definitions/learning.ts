import { sql } from "drizzle-orm";
import type { ReportFilter, ReportTable } from "../../../../shared/contracts/reports";
import { dateInWords, formatReportValue } from "../../../../shared/report-values";
import {
  addDays,
  datesAfter,
  daysBetween,
  isWeekday,
  localDateOf,
  SCHOOL_TIME_ZONE,
  weekStartOf,
} from "../../../../shared/time-zone";
import { queryRows } from "../../../db/client";
import { AppError } from "../../../lib/errors";
import { message } from "../../../lib/i18n";
import { studentForbidden } from "../../activity/metrics";
import {
  allGoalsMet,
  dailyGoalsFrom,
  goalsWith,
  holidaysOf,
  ownGoalsOf,
  type SubjectGoals,
  storedDailyGoals,
} from "../../goals/daily-goals";
import { studentVisibleTo } from "../../rostering/scope";
import { columnsOf, type ReportBody, type ReportContext, type ReportDefinition } from "../engine";

const FILTERS: readonly ReportFilter[] = ["studentId", "startDate", "endDate"];
const DEFAULT_WEEKS = 26;
const MAX_DAYS = 366;
/** "Most improved" compares the last four weeks of the range with the four before. */
const IMPROVEMENT_WEEKS = 4;

interface Learner {
  id: string;
  name: string;
  school: string | null;
  goals: SubjectGoals;
  holidays: Set<string>;
  /** The reader is the student: highlights speak to them ("your best week"). */
  isReader: boolean;
}

interface DayRow {
  day: string;
  subject: string;
  app: string;
  appName: string | null;
  xp: number;
  active: number;
  waste: number;
  questions: number;
  correct: number;
  mastered: number;
  events: number;
}

/** The range asked for: the last 26 weeks through today by default, never more than a year. */
function rangeOf(context: ReportContext) {
  const today = localDateOf(context.now, SCHOOL_TIME_ZONE);
  const end = context.search.endDate ?? today;
  let start = context.search.startDate ?? addDays(weekStartOf(end), -7 * (DEFAULT_WEEKS - 1));
  if (start > end) start = addDays(weekStartOf(end), -7 * (DEFAULT_WEEKS - 1));
  if (daysBetween(start, end) + 1 > MAX_DAYS) start = addDays(end, -(MAX_DAYS - 1));
  return { start, end };
}

/**
 * The student whose report it is — the one named, or the student reading — with their goals and
 * days without school, asked in one query that holds the reader's right to see them.
 */
async function learnerOf(context: ReportContext, range: { start: string; end: string }): Promise<Learner> {
  const { actor, search } = context;
  const id = search.studentId ?? (actor.activeRole === "student" ? actor.user.sourcedId : null);
  if (!id) throw new AppError("validation_failed", message("reports:chooseStudent"));
  const visible = studentVisibleTo(actor, id);
  if (!visible) throw studentForbidden();
  const [row] = await queryRows<{
    name: string;
    school: string | null;
    allowed: boolean;
    schoolGoals: unknown;
    subjects: string[] | null;
    dailyXp: number[] | null;
    offsets: number[] | null;
  }>(
    context.db,
    sql`select concat_ws(' ', u.given_name, u.family_name) as name, s.name as school, ${visible} as allowed,
        ${storedDailyGoals} as "schoolGoals", g.subjects, g.daily_xp as "dailyXp", h.offsets
      from users u
      left join lateral (select o.name from orgs o where o.type = 'school' and (o.sourced_id = u.primary_org_sourced_id
          or o.sourced_id in (select r.org_sourced_id from user_roles r where r.user_sourced_id = u.sourced_id))
        order by o.sourced_id = u.primary_org_sourced_id desc, o.name limit 1) s on true
      left join lateral (${ownGoalsOf(sql`u.sourced_id`)}) g on true
      left join lateral (${holidaysOf(sql`u.sourced_id`, range.start, range.end)}) h on true
      where u.sourced_id = ${id}`,
  );
  if (!row?.allowed) throw studentForbidden();
  const holiday = datesAfter(range.start);
  return {
    id,
    name: row.name,
    school: row.school,
    goals: goalsWith(dailyGoalsFrom(row.schoolGoals), row.subjects, row.dailyXp),
    holidays: new Set((row.offsets ?? []).map(holiday)),
    isReader: actor.user.sourcedId === id,
  };
}

/** The student's daily totals in the range, per day, subject and app (a year is a few thousand rows). */
function daysOf(context: ReportContext, studentId: string, range: { start: string; end: string }) {
  return queryRows<DayRow>(
    context.readDb,
    sql`select m.local_date::text as day, m.subject, m.app_key as app, a.name as "appName", m.xp::float8 as xp,
        m.active_seconds as active, m.waste_seconds as waste, m.total_questions as questions,
        m.correct_questions as correct, m.mastered_units as mastered, m.events
      from daily_student_metrics m left join learning_apps a on a.id::text = m.app_key
      where m.student_sourced_id = ${studentId} and m.local_date between ${range.start}::date and ${range.end}::date
      order by m.local_date`,
  );
}

interface Sum {
  xp: number;
  active: number;
  waste: number;
  questions: number;
  correct: number;
  mastered: number;
  days: Set<string>;
  last: string | null;
}

const emptySum = (): Sum => ({
  xp: 0,
  active: 0,
  waste: 0,
  questions: 0,
  correct: 0,
  mastered: 0,
  days: new Set(),
  last: null,
});

function add(sum: Sum, row: DayRow): void {
  sum.xp += row.xp;
  sum.active += row.active;
  sum.waste += row.waste;
  sum.questions += row.questions;
  sum.correct += row.correct;
  sum.mastered += row.mastered;
  if (row.active > 0 || row.events > 0) sum.days.add(row.day);
  if (!sum.last || row.day > sum.last) sum.last = row.day;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const accuracyOf = (sum: Sum) => (sum.questions > 0 ? sum.correct / sum.questions : null);

/** What both learning reports read: the student, their days, and the days every goal was met. */
async function learningOf(context: ReportContext) {
  const asked = rangeOf(context);
  const learner = await learnerOf(context, asked);
  const rows = await daysOf(context, learner.id, asked);
  // Unless asked for a start, the report starts with the week of the first learning in it.
  const first = rows[0]?.day;
  const range =
    !context.search.startDate && first && weekStartOf(first) > asked.start
      ? { ...asked, start: weekStartOf(first) }
      : asked;
  const xpByDay = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const day = xpByDay.get(row.day) ?? {};
    day[row.subject] = (day[row.subject] ?? 0) + row.xp;
    xpByDay.set(row.day, day);
  }
  const goalDays = new Set(
    [...xpByDay].filter(([, xp]) => allGoalsMet(learner.goals, xp)).map(([day]) => day),
  );
  return { range, learner, rows, xpByDay, goalDays };
}

/** The longest run of school days (weekdays without a holiday) on which every goal was met. */
function longestStreak(
  range: { start: string; end: string },
  goalDays: Set<string>,
  holidays: Set<string>,
): number {
  let longest = 0;
  let run = 0;
  for (let day = range.start; day <= range.end; day = addDays(day, 1)) {
    if (!isWeekday(day) || holidays.has(day)) continue;
    run = goalDays.has(day) ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** The subject whose XP grew most from the four weeks before the last four to the last four. */
function mostImproved(rows: DayRow[], end: string): { subject: string; change: number } | null {
  const recentFrom = addDays(weekStartOf(end), -7 * (IMPROVEMENT_WEEKS - 1));
  const earlierFrom = addDays(recentFrom, -7 * IMPROVEMENT_WEEKS);
  const recent = new Map<string, number>();
  const earlier = new Map<string, number>();
  for (const row of rows) {
    if (row.day >= recentFrom) recent.set(row.subject, (recent.get(row.subject) ?? 0) + row.xp);
    else if (row.day >= earlierFrom) earlier.set(row.subject, (earlier.get(row.subject) ?? 0) + row.xp);
  }
  let best: { subject: string; change: number } | null = null;
  for (const [subject, before] of earlier) {
    if (before <= 0) continue;
    const change = ((recent.get(subject) ?? 0) - before) / before;
    if (change > 0 && (!best || change > best.change)) best = { subject, change };
  }
  return best;
}

/**
 * Both reports' last highlights: the most improved subject, and, when there is nothing else to say,
 * that no learning is recorded yet (`said`: how many highlights came before).
 */
function closingHighlights(
  context: ReportContext,
  learner: Learner,
  rows: DayRow[],
  end: string,
  said: number,
): string[] {
  const who = whoOf(learner);
  const improved = mostImproved(rows, end);
  if (improved)
    return [
      context.t("highlights.mostImproved", {
        ...who,
        subject: improved.subject,
        change: formatReportValue(improved.change, "percent", context.locale),
      }),
    ];
  return said === 0 ? [context.t("highlights.nothingYet", who)] : [];
}

/** Both reports' header: the student and the range in words. */
function headerOf(context: ReportContext, learner: Learner, range: { start: string; end: string }) {
  const { t, locale } = context;
  return {
    subtitle: t("subtitles.range", {
      start: dateInWords(range.start, locale),
      end: dateInWords(range.end, locale),
    }),
    scope: learner.school ? `${learner.name} · ${learner.school}` : learner.name,
    applied: [{ label: t("filters.studentId"), value: learner.name }],
    filters: { studentId: learner.id, startDate: range.start, endDate: range.end },
    options: {},
    comparedWith: null,
  } satisfies Partial<ReportBody>;
}

/** How a highlight names the student: "your" to the student, their name to anyone else. */
const whoOf = (learner: Learner) => ({ self: learner.isReader ? "yes" : "no", name: learner.name });

export const learningReport: ReportDefinition = {
  id: "my-learning-report",
  access: "learner",
  filters: FILTERS,
  async build(context) {
    const { t, locale } = context;
    const { range, learner, rows, goalDays } = await learningOf(context);
    const total = emptySum();
    const weeks = new Map<string, Sum & { goalDays: number }>();
    for (let week = weekStartOf(range.start); week <= range.end; week = addDays(week, 7))
      weeks.set(week, { ...emptySum(), goalDays: 0 });
    for (const row of rows) {
      add(total, row);
      const week = weeks.get(weekStartOf(row.day));
      if (week) add(week, row);
    }
    for (const day of goalDays) {
      const week = weeks.get(weekStartOf(day));
      if (week) week.goalDays++;
    }
    const streak = longestStreak(range, goalDays, learner.holidays);
    const who = whoOf(learner);
    const highlights: string[] = [];
    const best = [...weeks].reduce<[string, number] | null>(
      (top, [week, sum]) => (sum.xp > 0 && (!top || sum.xp > top[1]) ? [week, sum.xp] : top),
      null,
    );
    if (best)
      highlights.push(
        t("highlights.bestWeek", { ...who, week: dateInWords(best[0], locale), xp: round2(best[1]) }),
      );
    if (streak >= 2) highlights.push(t("highlights.longestStreak", { ...who, days: streak }));
    highlights.push(...closingHighlights(context, learner, rows, range.end, highlights.length));

    const weekRows = [...weeks];
    const categories = weekRows.map(([week]) => dateInWords(week, locale));
    const weekTable: ReportTable = {
      key: "weeks",
      title: t("tables.weeks"),
      empty: t("empty.weeks"),
      columns: columnsOf(context, [
        ["weekOf", "date"],
        ["xp", "xp"],
        ["minutesOnTask", "minutes"],
        ["goalDays", "count"],
        ["masteredUnits", "count"],
        ["accuracy", "percent"],
      ]),
      rows: weekRows.map(([week, sum]) => [
        week,
        round2(sum.xp),
        Math.round(sum.active / 60),
        sum.goalDays,
        sum.mastered,
        accuracyOf(sum),
      ]),
      total: weekRows.length,
      main: true,
      sortable: ["weekOf", "xp", "minutesOnTask", "goalDays", "masteredUnits", "accuracy"],
    };
    return {
      ...headerOf(context, learner, range),
      figures: [
        { key: "xp", label: t("figures.xp"), value: round2(total.xp), unit: "xp" },
        { key: "daysLearned", label: t("figures.daysLearned"), value: total.days.size, unit: "count" },
        { key: "goalDays", label: t("figures.goalDays"), value: goalDays.size, unit: "count" },
        { key: "longestStreak", label: t("figures.longestStreak"), value: streak, unit: "count" },
        { key: "masteredUnits", label: t("figures.masteredUnits"), value: total.mastered, unit: "count" },
        {
          key: "hoursOnTask",
          label: t("figures.hoursOnTask"),
          value: round2(total.active / 3600),
          unit: "hours",
        },
        { key: "accuracy", label: t("figures.accuracy"), value: accuracyOf(total), unit: "percent" },
      ],
      highlights,
      charts: [
        {
          key: "xpPerWeek",
          title: t("charts.xpPerWeek"),
          kind: "bar",
          unit: "xp",
          categories,
          series: [{ name: t("columns.xp"), values: weekRows.map(([, sum]) => round2(sum.xp)) }],
        },
        {
          key: "goalsAndMastery",
          title: t("charts.goalsAndMastery"),
          kind: "line",
          unit: "count",
          categories,
          series: [
            { name: t("columns.goalDays"), values: weekRows.map(([, sum]) => sum.goalDays) },
            { name: t("columns.masteredUnits"), values: weekRows.map(([, sum]) => sum.mastered) },
          ],
        },
      ],
      tables: [weekTable],
    };
  },
};

export const learningBySubjectReport: ReportDefinition = {
  id: "my-learning-report-2",
  access: "learner",
  filters: FILTERS,
  async build(context) {
    const { t } = context;
    const { range, learner, rows, xpByDay } = await learningOf(context);
    const total = emptySum();
    const subjects = new Map<string, Sum>();
    const apps = new Map<string, Sum & { name: string; subjects: Set<string> }>();
    for (const row of rows) {
      add(total, row);
      const subject = subjects.get(row.subject) ?? emptySum();
      add(subject, row);
      subjects.set(row.subject, subject);
      const appName = row.app === "manual" ? t("apps.manual") : (row.appName ?? t("apps.unknown"));
      const app = apps.get(row.app) ?? { ...emptySum(), name: appName, subjects: new Set<string>() };
      add(app, row);
      app.subjects.add(row.subject);
      apps.set(row.app, app);
    }
    // A subject's goal days: days its own daily goal was met.
    const subjectGoalDays = (subject: string) => {
      const goal = learner.goals[subject];
      if (goal === undefined) return null;
      return [...xpByDay.values()].filter((xp) => (xp[subject] ?? 0) >= goal).length;
    };
    const bySubject = [...subjects].sort(([, a], [, b]) => b.xp - a.xp);
    const byApp = [...apps.values()].sort((a, b) => b.active - a.active || b.xp - a.xp);
    const who = whoOf(learner);
    const highlights: string[] = [];
    const top = bySubject[0];
    if (top && top[1].xp > 0)
      highlights.push(t("highlights.topSubject", { ...who, subject: top[0], xp: round2(top[1].xp) }));
    const longest = byApp[0];
    if (longest && longest.active > 0)
      highlights.push(
        t("highlights.mostTimeApp", { ...who, app: longest.name, hours: round2(longest.active / 3600) }),
      );
    highlights.push(...closingHighlights(context, learner, rows, range.end, highlights.length));

    return {
      ...headerOf(context, learner, range),
      figures: [
        { key: "xp", label: t("figures.xp"), value: round2(total.xp), unit: "xp" },
        {
          key: "hoursOnTask",
          label: t("figures.hoursOnTask"),
          value: round2(total.active / 3600),
          unit: "hours",
        },
        { key: "subjects", label: t("figures.subjects"), value: subjects.size, unit: "count" },
        { key: "apps", label: t("figures.apps"), value: apps.size, unit: "count" },
      ],
      highlights,
      charts: [
        {
          key: "xpBySubject",
          title: t("charts.xpBySubject"),
          kind: "bar",
          unit: "xp",
          categories: bySubject.map(([subject]) => subject),
          series: [{ name: t("columns.xp"), values: bySubject.map(([, sum]) => round2(sum.xp)) }],
        },
        {
          key: "timeByApp",
          title: t("charts.timeByApp"),
          kind: "bar",
          unit: "minutes",
          categories: byApp.map((app) => app.name),
          series: [
            { name: t("columns.minutesOnTask"), values: byApp.map((app) => Math.round(app.active / 60)) },
          ],
        },
      ],
      tables: [
        {
          key: "subjects",
          title: t("tables.subjects"),
          empty: t("empty.learning"),
          columns: columnsOf(context, [
            ["subject", "text"],
            ["xp", "xp"],
            ["minutesOnTask", "minutes"],
            ["minutesWasted", "minutes"],
            ["accuracy", "percent"],
            ["masteredUnits", "count"],
            ["daysLearned", "count"],
            ["subjectGoalDays", "count"],
          ]),
          rows: bySubject.map(([subject, sum]) => [
            subject,
            round2(sum.xp),
            Math.round(sum.active / 60),
            Math.round(sum.waste / 60),
            accuracyOf(sum),
            sum.mastered,
            sum.days.size,
            subjectGoalDays(subject),
          ]),
          total: bySubject.length,
          main: true,
          sortable: [
            "subject",
            "xp",
            "minutesOnTask",
            "minutesWasted",
            "accuracy",
            "masteredUnits",
            "daysLearned",
          ],
        },
        {
          key: "apps",
          title: t("tables.apps"),
          empty: t("empty.learning"),
          columns: columnsOf(context, [
            ["app", "text"],
            ["subjects", "text"],
            ["xp", "xp"],
            ["minutesOnTask", "minutes"],
            ["accuracy", "percent"],
            ["masteredUnits", "count"],
            ["lastUsed", "date"],
          ]),
          rows: byApp.map((app) => [
            app.name,
            [...app.subjects].sort().join(", "),
            round2(app.xp),
            Math.round(app.active / 60),
            accuracyOf(app),
            app.mastered,
            app.last,
          ]),
          total: byApp.length,
          main: false,
          sortable: [],
        },
      ],
    };
  },
};
