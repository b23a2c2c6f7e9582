import { type SQL, sql } from "drizzle-orm";
import type { MapSeason } from "../../../shared/contracts/assessment";
import type { ChildLatestMap, ChildOverview, ChildStanding } from "../../../shared/contracts/families";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { homeSummariesOf } from "../activity/home-summaries";
import { percentileFromNorms } from "../assessment/norms";
import { progressOfStudents } from "../goals/progress";
import { activeStrikesOf } from "../integrity/records";
import { integritySettingsOf, lockoutEnabledFor } from "../integrity/settings";
import { studentBalances } from "../rewards/overview";
import { nameOf } from "../rostering/queries";
import { studentIdsInReach } from "../rostering/scope";

/** As many children as the spec's children list answers (GET /api/parent/children). */
const MAX_CHILDREN = 100;

/**
 * The children of the caller in their active role (a parent's or guardian's), as a sub-query of
 * ids: active students in their reach, which while a Guide views Dash as the parent is the
 * intersection with the Guide's own students.
 */
export function childIdsOf(actor: Actor): SQL {
  const reach =
    actor.activeRole === "parent" || actor.activeRole === "guardian" ? studentIdsInReach(actor) : null;
  if (!reach)
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("families:actions.see") }),
    );
  return sql`select u.sourced_id from users u where u.status = 'active' and u.sourced_id in (${reach})`;
}

interface IdentityRow {
  sourcedId: string;
  givenName: string;
  familyName: string;
  preferredFirstName: string | null;
  grades: string[];
  timezone: string;
  school: ChildOverview["school"];
  guides: ChildOverview["guides"];
}

/**
 * Who each child is: names, grades, timezone, their school (the organisation of their student
 * role, their primary one first, a school before a district) and their Guides (the teachers of
 * their active classes).
 */
function identitiesOf(db: Database, children: SQL) {
  return queryJsonRows<IdentityRow>(
    db,
    sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName",
        u.preferred_first_name as "preferredFirstName", u.grades, u.timezone,
        (select json_build_object('sourcedId', o.sourced_id, 'name', o.name)
          from user_roles r join orgs o on o.sourced_id = r.org_sourced_id
          where r.user_sourced_id = u.sourced_id and lower(r.role) = 'student'
          order by o.sourced_id = u.primary_org_sourced_id desc, o.type = 'school' desc, o.name limit 1) as school,
        (select coalesce(json_agg(json_build_object('sourcedId', g.id, 'name', g.name) order by g.name), '[]'::json)
          from (select distinct t.user_sourced_id as id, ${nameOf(sql`t.user_sourced_id`)} as name
            from enrollments s join enrollments t on t.class_sourced_id = s.class_sourced_id
            where s.user_sourced_id = u.sourced_id and s.role = 'student' and s.status = 'active'
              and t.role = 'teacher' and t.status = 'active') g) as guides
      from users u where u.sourced_id in (${children})
      order by u.family_name, u.given_name, u.sourced_id limit ${MAX_CHILDREN}`,
  );
}

/** Each child's latest MAP test of every subject, with a percentile from the norms where the export gave none. */
async function latestMapOf(db: Database, children: SQL): Promise<Map<string, ChildLatestMap[]>> {
  const rows = await queryRows<
    ChildLatestMap & { studentId: string; season: MapSeason; grade: number | null }
  >(
    db,
    sql`select distinct on (r.student_sourced_id, r.subject) r.student_sourced_id as "studentId", r.subject,
        r.term_name as "termName", to_char(r.test_date, 'YYYY-MM-DD') as "testDate", r.rit, r.percentile,
        r.season, r.grade
      from map_results r where r.student_sourced_id in (${children})
      order by r.student_sourced_id, r.subject, r.test_date desc`,
  );
  const latest = new Map<string, ChildLatestMap[]>();
  for (const { studentId, season, grade, ...test } of rows) {
    const percentile =
      test.percentile ?? (grade === null ? null : percentileFromNorms(test.subject, season, grade, test.rit));
    latest.set(studentId, [...(latest.get(studentId) ?? []), { ...test, percentile }]);
  }
  return latest;
}

/** Each child's strikes that count now and open lockout (the family never sees the code). */
async function standingsOf(db: Database, children: SQL, now: Date): Promise<Map<string, ChildStanding>> {
  const [rows, settings] = await Promise.all([
    queryRows<Omit<ChildStanding, "threshold" | "isLocked"> & { studentId: string }>(
      db,
      sql`select u.sourced_id as "studentId", ${activeStrikesOf(sql`u.sourced_id`, now)} as "activeStrikes",
          ${lockoutEnabledFor(sql`u.sourced_id`)} as "lockoutEnabled",
          (select ${isoInstant(sql`l.locked_at`)} from integrity_lockouts l
            where l.student_sourced_id = u.sourced_id and l.unlocked_at is null) as "lockedAt"
        from users u where u.sourced_id in (${children})`,
    ),
    integritySettingsOf(db),
  ]);
  return new Map(
    rows.map(({ studentId, ...row }) => [
      studentId,
      { ...row, threshold: settings.strikeThreshold, isLocked: row.lockedAt !== null },
    ]),
  );
}

/**
 * Every child of the caller as a card: who they are, today and this week (the home's summaries),
 * their goals, Alphas, latest MAP results and any strike or lockout. One query per concern for all
 * the children together, whatever their number.
 */
export async function childrenOverview(db: Database, actor: Actor, now: Date): Promise<ChildOverview[]> {
  const children = childIdsOf(actor);
  const [identities, summaries, goals, balances, maps, standings] = await Promise.all([
    identitiesOf(db, children),
    homeSummariesOf(db, children, now),
    progressOfStudents(db, actor, children, now),
    studentBalances(db, actor, { search: "", offset: 0, limit: MAX_CHILDREN }),
    latestMapOf(db, children),
    standingsOf(db, children, now),
  ]);
  const summaryOf = new Map(summaries.map((summary) => [summary.sourcedId, summary]));
  const goalsOf = new Map(goals.map((progress) => [progress.id, progress]));
  const balanceOf = new Map(balances.data.map((balance) => [balance.studentId, balance]));
  return identities.flatMap((child) => {
    const summary = summaryOf.get(child.sourcedId);
    const progress = goalsOf.get(child.sourcedId);
    const standing = standings.get(child.sourcedId);
    if (!summary || !progress || !standing) return [];
    const {
      sourcedId: _id,
      givenName: _given,
      familyName: _family,
      grades: _grades,
      timezone: _tz,
      ...today
    } = summary;
    const balance = balanceOf.get(child.sourcedId);
    const count = (...statuses: string[]) =>
      progress.targets.filter((goal) => statuses.includes(goal.forecast.status)).length;
    return [
      {
        ...child,
        summary: today,
        goals: {
          weekly: {
            value: progress.weekly.value,
            target: progress.weekly.target,
            percent: progress.weekly.percent,
          },
          reached: count("reached"),
          onTrack: count("on_track"),
          behind: count("behind", "no_pace", "missed"),
          awaitingTest: count("awaiting_test"),
        },
        alphas: {
          balance: balance?.balance ?? 0,
          held: balance?.held ?? 0,
          available: balance?.available ?? 0,
          savings: balance?.savings ?? 0,
          pendingRequests: balance?.pending ?? 0,
        },
        map: maps.get(child.sourcedId) ?? [],
        standing,
      },
    ];
  });
}
