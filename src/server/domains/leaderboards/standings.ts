import { type SQL, sql } from "drizzle-orm";
import {
  LEADERBOARD_PAGE_SIZE,
  LEAGUE_DEMOTED,
  LEAGUE_PROMOTED,
  type Leaderboard,
  type LeaderboardQuery,
  type LeaderboardRow,
  type LeaderboardScope,
  type LeagueTier,
} from "../../../shared/contracts/leaderboards";
import { localDateOf, monthStartOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";
import { homeSummariesOf } from "../activity/home-summaries";
import {
  boundedClassIds,
  classIdsInGuideReach,
  classIdsOf,
  schoolIdsOf,
  studentIdsInReach,
  studentIdsOfClass,
  studentIdsOfGuide,
  studentIdsUnder,
} from "../rostering/scope";

/**
 * Where students stand by the XP of a period (each student's own days, as everywhere), within a
 * class, a school or the district. Equal values share a rank (1, 2, 2, 4). What a reader sees of a
 * row depends on who they are: staff see everyone in full; a student sees peers as first name and
 * last initial, without a link; a parent sees their own children, and of others only rank, grade
 * and value. A student hidden by their family or staff appears to nobody but themself, their
 * family and staff, and the ranks close up around them.
 */

export type Viewer = "staff" | "student" | "family";

/** The student whose standing the reader asks about: themself, or their child. */
interface Context {
  viewer: Viewer;
  subjectId: string | null;
  timezone: string;
  classId: string | null;
  schoolId: string | null;
  /** The subject's league this school week (last week's until this week's is placed). */
  league: { weekStart: string; tier: LeagueTier; league: number } | null;
}

/** How the caller reads leaderboards in their active role; refused, naming `action`, for a role that does not. */
export function viewerOf(actor: Actor, action: Message = message("leaderboards:actions.see")): Viewer {
  switch (actor.activeRole) {
    case "student":
      return "student";
    case "parent":
    case "guardian":
      return "family";
    case "teacher":
    case "administrator":
      return "staff";
    default:
      throw new AppError("forbidden", message("common:roleForbids", { action }));
  }
}

/** The top of each organisation's tree (its district, or itself when it has no parent). */
function rootsOf(orgIds: SQL): SQL {
  return sql`with recursive chain (id, parent) as (
      select o.sourced_id, o.parent_sourced_id from orgs o where o.sourced_id in (${orgIds})
      union select p.sourced_id, p.parent_sourced_id from orgs p join chain c on p.sourced_id = c.parent)
    select id from chain where parent is null`;
}

/** Students with their role at the school (OneRoster's record of who is a student where). */
function studentIdsOfSchool(schoolId: string): SQL {
  return sql`select r.user_sourced_id from user_roles r where r.org_sourced_id = ${schoolId} and lower(r.role) = 'student'`;
}

/**
 * Who the reader asks about, with the class and school they would see first: for a family the
 * `child` they name (which must be theirs) or their first child; for a Guide their first class.
 */
async function contextOf(db: Database, actor: Actor, query: LeaderboardQuery, now: Date): Promise<Context> {
  const viewer = viewerOf(actor);
  const self = actor.user.sourcedId;
  const children = viewer === "family" ? studentIdsInReach(actor) : null;
  const subject =
    viewer === "student"
      ? sql`select ${self}::text as id`
      : viewer === "family" && children
        ? sql`select u.sourced_id as id from users u where u.sourced_id in (${children})
            ${query.child ? sql`and u.sourced_id = ${query.child}` : sql``}
            order by u.given_name, u.family_name, u.sourced_id limit 1`
        : sql`select null::text as id`;
  const thisWeek = weekStartOf(localDateOf(now, SCHOOL_TIME_ZONE));
  const firstClassOf = (classIds: SQL) =>
    sql`(select c.sourced_id from classes c where c.sourced_id in (${classIds}) and c.status = 'active'
      order by c.title, c.sourced_id limit 1)`;
  const [row] = await queryRows<{
    subject_id: string | null;
    timezone: string | null;
    class_id: string | null;
    school_id: string | null;
    league: Context["league"];
  }>(
    db,
    sql`with subject as (${subject})
      select subject.id as subject_id,
        (select u.timezone from users u where u.sourced_id = coalesce(subject.id, ${self})) as timezone,
        ${
          viewer === "staff"
            ? actor.activeRole === "teacher"
              ? firstClassOf(classIdsInGuideReach(actor))
              : sql`null::text`
            : firstClassOf(boundedClassIds(actor, classIdsOf(sql`select subject.id`, "student")))
        } as class_id,
        (select u.primary_org_sourced_id from users u where u.sourced_id = coalesce(subject.id, ${self})) as school_id,
        (select json_build_object('weekStart', p.week_start, 'tier', p.tier, 'league', p.league)
          from league_placements p where p.student_sourced_id = subject.id
            and p.week_start in (${thisWeek}::date, ${thisWeek}::date - 7)
          order by p.week_start desc limit 1) as league
      from (select 1) one left join subject on true`,
  );
  if (viewer === "family" && !row?.subject_id)
    throw new AppError(
      "forbidden",
      message(query.child ? "leaderboards:notYourChild" : "leaderboards:noChildren"),
    );
  return {
    viewer,
    subjectId: row?.subject_id ?? null,
    timezone: row?.timezone ?? SCHOOL_TIME_ZONE,
    classId: row?.class_id ?? null,
    schoolId: row?.school_id ?? null,
    league: row?.league ?? null,
  };
}

/** The students the scope ranks, and whether the reader may see it (a condition, asked in the same statement). */
function membersOf(
  actor: Actor,
  context: Context,
  scope: LeaderboardScope,
  query: LeaderboardQuery,
): { members: SQL; allowed: SQL } {
  const subject = context.subjectId;
  const isAdmin = actor.activeRole === "administrator";
  switch (scope) {
    case "class": {
      const classId = query.cls ?? context.classId;
      if (!classId) throw new AppError("not_found", message("leaderboards:noClass"));
      const allowed = isAdmin
        ? sql`true`
        : context.viewer === "staff"
          ? sql`${classId} in (${classIdsInGuideReach(actor)})`
          : sql`${classId} in (${boundedClassIds(actor, classIdsOf(sql`select ${subject}::text`, "student"))})`;
      return { members: sql`select m.user_sourced_id as id from (${studentIdsOfClass(classId)}) m`, allowed };
    }
    case "school": {
      if (isAdmin && !query.school) throw new AppError("bad_request", message("leaderboards:chooseSchool"));
      const schoolId = query.school ?? context.schoolId;
      if (!schoolId) throw new AppError("not_found", message("leaderboards:noSchool"));
      const person = subject ?? actor.user.sourcedId;
      const allowed = isAdmin
        ? sql`true`
        : context.viewer === "staff"
          ? sql`(${schoolId} in (${schoolIdsOf(sql`select ${person}::text`)})
              or ${schoolId} in (select c.school_sourced_id from classes c where c.sourced_id in (${classIdsInGuideReach(actor)})))`
          : sql`${schoolId} in (${schoolIdsOf(sql`select ${person}::text`)})`;
      return {
        members: sql`select m.user_sourced_id as id from (${studentIdsOfSchool(schoolId)}) m`,
        allowed,
      };
    }
    case "global": {
      const allowed = sql`true`;
      const person = subject ?? actor.user.sourcedId;
      const students = isAdmin
        ? studentIdsInReach(actor)
        : studentIdsUnder(rootsOf(schoolIdsOf(sql`select ${person}::text`)));
      return { members: sql`select m.user_sourced_id as id from (${students}) m`, allowed };
    }
    case "league": {
      if (context.viewer === "staff") throw new AppError("forbidden", message("leaderboards:notYourScope"));
      const { league } = context;
      if (!league) throw new AppError("not_found", message("leaderboards:noLeague"));
      return {
        members: sql`select p.student_sourced_id as id from league_placements p
          where p.week_start = ${league.weekStart}::date and p.tier = ${league.tier} and p.league = ${league.league}`,
        allowed: sql`true`,
      };
    }
  }
}

/** Whether the reader sees a row (`u`) in full: staff always, a student their own, a family their children. */
function seenInFull(actor: Actor, context: Context): SQL {
  if (context.viewer === "staff") return sql`true`;
  if (context.viewer === "student") return sql`u.sourced_id = ${actor.user.sourcedId}`;
  return sql`u.sourced_id in (${studentIdsInReach(actor) ?? sql`select null::text`})`;
}

/** The days a timeframe counts, ending today in the subject's (or reader's) timezone; null for all time. */
function periodOf(query: LeaderboardQuery, timezone: string, now: Date) {
  const today = localDateOf(now, timezone);
  switch (query.tf) {
    case "today":
      return { startDate: today, endDate: today };
    case "week":
      return { startDate: weekStartOf(today), endDate: today };
    case "month":
      return { startDate: monthStartOf(today), endDate: today };
    case "custom":
      return { startDate: query.startDate as string, endDate: query.endDate as string };
    case "all":
    case "streak":
      return null;
  }
}

/**
 * The daily-goal streak of each student, as their home shows it (its kept summaries), as rows of
 * student and value for the ranking.
 */
async function streaksOf(db: Database, students: SQL, now: Date): Promise<SQL> {
  const summaries = await homeSummariesOf(db, students, now);
  const streaks = Object.fromEntries(summaries.map((summary) => [summary.sourcedId, summary.streak]));
  return sql`select s.key as student_sourced_id, s.value::numeric as xp
    from jsonb_each_text(${JSON.stringify(streaks)}::jsonb) as s`;
}

/**
 * Each student's XP for the timeframe: a week, a month or all time from the kept periods (one row a
 * student and subject), other ranges and a single app from the daily totals.
 */
function xpTotalsOf(query: LeaderboardQuery, period: ReturnType<typeof periodOf>, students: SQL): SQL {
  const kept = query.src
    ? null
    : query.tf === "week"
      ? "week"
      : query.tf === "month"
        ? "month"
        : query.tf === "all"
          ? "all"
          : null;
  if (kept)
    return sql`select p.student_sourced_id, sum(p.xp) as xp from student_xp_periods p
      where p.student_sourced_id in (${students}) and p.period = ${kept}
        and p.starts_on = ${period?.startDate ?? "2000-01-01"}::date
        ${query.subj ? sql`and p.subject = ${query.subj}` : sql``}
      group by p.student_sourced_id`;
  return sql`select d.student_sourced_id, sum(d.xp) as xp from daily_student_metrics d
    where d.student_sourced_id in (${students})
      ${period ? sql`and d.local_date between ${period.startDate}::date and ${period.endDate}::date` : sql``}
      ${query.subj ? sql`and d.subject = ${query.subj}` : sql``}
      ${query.src ? sql`and d.app_key = ${query.src}` : sql``}
    group by d.student_sourced_id`;
}

interface RankedRow {
  rank: number;
  position: number;
  student_id: string;
  full_name: string;
  peer_name: string;
  grade: string | null;
  value: number;
  in_full: boolean;
}

export async function leaderboard(
  db: Database,
  actor: Actor,
  query: LeaderboardQuery,
  now: Date,
): Promise<Leaderboard> {
  const context = await contextOf(db, actor, query, now);
  const isAdmin = actor.activeRole === "administrator";
  if ((query.teacher && !isAdmin) || (query.child && context.viewer !== "family"))
    throw new AppError("forbidden", message("leaderboards:filterNotYours"));
  const scope = query.scope ?? (isAdmin ? "global" : "class");
  const period = periodOf(query, context.timezone, now);
  const scoped = membersOf(actor, context, scope, query);
  let members = scoped.members;
  if (query.teacher)
    members = sql`${members} intersect select s.user_sourced_id from (${studentIdsOfGuide(query.teacher)}) s`;
  if (isAdmin && scope === "global" && query.school)
    members = sql`${members} intersect select s.user_sourced_id from (${studentIdsOfSchool(query.school)}) s`;
  const totals =
    query.tf === "streak"
      ? await streaksOf(db, sql`select m.id from (${members}) m where ${scoped.allowed}`, now)
      : xpTotalsOf(query, period, sql`select sourced_id from visible`);
  const offset = (query.p - 1) * LEADERBOARD_PAGE_SIZE;
  const [result] = await queryRows<{ allowed: boolean; total: number; rows: RankedRow[] }>(
    db,
    sql`with allowed as (select ${scoped.allowed} as allowed),
      members as (select m.id from (${members}) m where (select allowed from allowed)),
      shown as materialized (
        select u.sourced_id, u.given_name, u.family_name, u.preferred_first_name, u.grades[1] as grade,
          ${seenInFull(actor, context)} as in_full
        from (select distinct id from members) m join users u on u.sourced_id = m.id
        where u.status = 'active' ${query.g ? sql`and ${query.g} = any(u.grades)` : sql``}),
      -- The hidden, read once: checked row by row, the embedded database took 60 ms for a school.
      visible as (
        select * from shown u
        where u.in_full or u.sourced_id not in (select o.student_sourced_id from leaderboard_opt_outs o)),
      totals as (${totals}),
      ranked as (
        select v.sourced_id as student_id,
          coalesce(v.preferred_first_name, v.given_name) || ' ' || v.family_name as full_name,
          coalesce(v.preferred_first_name, v.given_name) || ' ' || left(v.family_name, 1) || '.' as peer_name,
          v.grade, coalesce(t.xp, 0)::float8 as value, v.in_full,
          rank() over (order by coalesce(t.xp, 0) desc)::int as rank,
          row_number() over (order by coalesce(t.xp, 0) desc, v.given_name, v.family_name, v.sourced_id)::int as position
        from visible v left join totals t on t.student_sourced_id = v.sourced_id)
      select (select allowed from allowed) as allowed, (select count(*)::int from ranked) as total,
        coalesce((select json_agg(r order by r.position) from ranked r
          where (r.position > ${offset} and r.position <= ${offset + LEADERBOARD_PAGE_SIZE})
            or r.student_id = ${context.subjectId}::text), '[]'::json) as rows`,
  );
  if (!result?.allowed) throw new AppError("forbidden", message("leaderboards:notYourScope"));
  const rowOf = (row: RankedRow): LeaderboardRow => ({
    rank: row.rank,
    studentId: row.in_full ? row.student_id : null,
    displayName: row.in_full ? row.full_name : context.viewer === "student" ? row.peer_name : null,
    grade: row.grade,
    value: row.value,
    isMe: row.student_id === context.subjectId,
  });
  const { rows } = result;
  const mine = rows.find((row) => row.student_id === context.subjectId);
  return {
    scope,
    tf: query.tf,
    period,
    rows: rows
      .filter((row) => row.position > offset && row.position <= offset + LEADERBOARD_PAGE_SIZE)
      .map(rowOf),
    page: query.p,
    pageSize: LEADERBOARD_PAGE_SIZE,
    total: result.total,
    league:
      scope === "league" && context.league
        ? {
            tier: context.league.tier,
            weekStart: context.league.weekStart,
            promoted: LEAGUE_PROMOTED,
            demoted: LEAGUE_DEMOTED,
          }
        : null,
    me: mine ? rowOf(mine) : null,
  };
}
