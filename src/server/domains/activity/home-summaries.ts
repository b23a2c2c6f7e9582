import { type SQL, sql } from "drizzle-orm";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { localDateOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { studentVisibleTo } from "../rostering/scope";
import { studentSummaries } from "./summaries";

/** What is stored of a summary: everything but the student's name, grades and timezone, read live. */
type StoredSummary = Omit<StudentSummary, "sourcedId" | "givenName" | "familyName" | "grades" | "timezone">;

interface Identity {
  sourcedId: string;
  givenName: string;
  familyName: string;
  grades: string[];
  timezone: string;
}

interface StoredRow extends Identity {
  /** Null when the student has no row yet. */
  revision: number | null;
  summaryDate: string | null;
  summaryTimezone: string | null;
  summary: StoredSummary | null;
}

const storedOf = ({ sourcedId, givenName, familyName, grades, timezone, ...stored }: StudentSummary) =>
  stored;

function rowsOf(summaries: StudentSummary[], now: Date) {
  return summaries.map((summary) => ({
    student: summary.sourcedId,
    day: summary.today,
    timezone: summary.timezone,
    summary: storedOf(summary),
    computed_at: now.toISOString(),
  }));
}

/** Students whose summaries a write changed: the revision each now has, for those that had one kept. */
export type ChangedSummaries = Map<string, number>;

/**
 * Records, inside the transaction that changed these students' daily totals, that their summaries
 * changed: a new revision, and the kept summary dropped, so no read serves it from then on. The
 * rows are taken in key order and stay locked only until the transaction ends. Answers the
 * students that had a summary kept, for rewriteHomeSummaries once the transaction committed.
 */
export async function markHomeSummariesChanged(
  tx: Database,
  studentIds: string[],
): Promise<ChangedSummaries> {
  if (studentIds.length === 0) return new Map();
  const ids = JSON.stringify([...new Set(studentIds)].sort());
  const bumped = await queryRows<{ studentId: string; revision: number; wasKept: boolean }>(
    tx,
    sql`with kept as (
          select student_sourced_id from student_home_summaries
          where student_sourced_id in (select jsonb_array_elements_text(${ids}::jsonb)) and summary is not null)
        insert into student_home_summaries as s (student_sourced_id, revision)
        select id, 1 from jsonb_array_elements_text(${ids}::jsonb) as id order by id
        on conflict (student_sourced_id) do update set revision = s.revision + 1, local_date = null, summary = null
        returning s.student_sourced_id as "studentId", s.revision,
          s.student_sourced_id in (select student_sourced_id from kept) as "wasKept"`,
  );
  return new Map(bumped.filter((row) => row.wasKept).map((row) => [row.studentId, row.revision]));
}

/**
 * After the write committed, computes again the summaries it dropped, so the next read finds them
 * ready. Outside the transaction: a writer does not hold its students' rows while it computes,
 * and a summary another write changed meanwhile is left to that write.
 */
export async function rewriteHomeSummaries(
  db: Database,
  changed: ChangedSummaries,
  now: Date,
): Promise<void> {
  if (changed.size === 0) return;
  const summaries = await studentSummaries(db, [...changed.keys()], now);
  await storeComputedSummaries(db, summaries, changed, now);
}

/** Forgets every stored summary: the school's goals changed, so each is computed again on its next read. */
export async function forgetHomeSummaries(tx: Database): Promise<void> {
  await tx.execute(
    sql`update student_home_summaries set revision = revision + 1, local_date = null, summary = null`,
  );
}

/**
 * Stores computed summaries, each only if its student's revision is still the one read before
 * computing: a write meanwhile may hold XP the computation did not see, and its own summary (or
 * the next read's) is then the one kept. A row a writer holds is skipped rather than waited for:
 * that writer changes it anyway.
 */
async function storeComputedSummaries(
  db: Database,
  summaries: StudentSummary[],
  revisions: ReadonlyMap<string, number | null>,
  now: Date,
) {
  if (summaries.length === 0) return;
  const batch = JSON.stringify(
    rowsOf(summaries, now).map((row) => ({ ...row, revision: revisions.get(row.student) ?? null })),
  );
  await db.execute(sql`with r as (
      select * from jsonb_to_recordset(${batch}::jsonb)
        as r(student text, day date, timezone text, summary jsonb, computed_at timestamptz, revision int)),
    free as (
      select s.student_sourced_id from student_home_summaries s
        join r on s.student_sourced_id = r.student and s.revision = r.revision
      order by s.student_sourced_id
      for update of s skip locked),
    updated as (
      update student_home_summaries s set local_date = r.day, timezone = r.timezone, summary = r.summary,
        computed_at = r.computed_at
      from r where s.student_sourced_id = r.student and s.student_sourced_id in (select student_sourced_id from free))
    insert into student_home_summaries (student_sourced_id, local_date, timezone, summary, computed_at)
    select r.student, r.day, r.timezone, r.summary, r.computed_at from r where r.revision is null
    order by r.student
    on conflict (student_sourced_id) do nothing`);
}

const identityColumns = sql`u.sourced_id as "sourcedId", u.given_name as "givenName",
  u.family_name as "familyName", u.grades, u.timezone,
  s.revision, to_char(s.local_date, 'YYYY-MM-DD') as "summaryDate", s.timezone as "summaryTimezone", s.summary`;

/**
 * The summaries of these rows: the stored ones that are of the student's today in their current
 * timezone, the others computed (one more query) and stored for the next read.
 */
async function completeSummaries<Row extends StoredRow>(
  db: Database,
  rows: Row[],
  now: Date,
): Promise<StudentSummary[]> {
  const isCurrent = (row: Row) =>
    row.summary !== null &&
    row.summaryTimezone === row.timezone &&
    row.summaryDate === localDateOf(now, row.timezone);
  const stale = rows.filter((row) => !isCurrent(row)).map((row) => row.sourcedId);
  const computed = new Map<string, StudentSummary>();
  if (stale.length > 0) {
    const summaries = await studentSummaries(db, stale, now);
    const revisions = new Map(rows.map((row) => [row.sourcedId, row.revision]));
    await storeComputedSummaries(db, summaries, revisions, now);
    for (const summary of summaries) computed.set(summary.sourcedId, summary);
  }
  return rows.flatMap((row) => {
    const fresh = computed.get(row.sourcedId);
    if (fresh) return [fresh];
    if (!isCurrent(row)) return [];
    return [summaryOf(row, row.summary as StoredSummary)];
  });
}

/**
 * A stored summary with its student, keys in the order a computed one has them (jsonb keeps its
 * own order): the same figures make the same body, and so the same ETag.
 */
function summaryOf(student: Identity, stored: StoredSummary): StudentSummary {
  return {
    sourcedId: student.sourcedId,
    givenName: student.givenName,
    familyName: student.familyName,
    grades: student.grades,
    timezone: student.timezone,
    today: stored.today,
    subjects: stored.subjects.map(({ subject, xp, goal, isComplete }) => ({ subject, xp, goal, isComplete })),
    xpToday: stored.xpToday,
    xpThisWeek: stored.xpThisWeek,
    week: stored.week.map(({ date, xp, allGoalsMet }) => ({ date, xp, allGoalsMet })),
    streak: stored.streak,
    lastActivityAt: stored.lastActivityAt,
  };
}

/** Summaries of the students a scope sub-query names (a Guide's students, a parent's children). */
export async function homeSummariesOf(
  db: Database,
  studentIdsQuery: SQL,
  now: Date,
): Promise<StudentSummary[]> {
  const rows = await queryRows<StoredRow>(
    db,
    sql`select ${identityColumns}
        from users u left join student_home_summaries s on s.student_sourced_id = u.sourced_id
        where u.sourced_id in (${studentIdsQuery})
        order by u.family_name, u.given_name`,
  );
  return completeSummaries(db, rows, now);
}

interface AppFreshness {
  appId: string;
  name: string;
  icon: string | null;
  launchUrl: string | null;
  subjects: string[];
  lastReportedAt: string | null;
}

/**
 * A student's home (their summary, and when each active app last reported for them) in one
 * query with the check that the caller may see the student: 403 when they may not.
 */
export async function studentHome(db: Database, actor: Actor, studentId: string, now: Date) {
  const forbidden = new AppError("forbidden", message("activity:students.forbidden"));
  const visible = studentVisibleTo(actor, studentId);
  if (!visible) throw forbidden;
  const [row] = await queryRows<StoredRow & { isAllowed: boolean; apps: AppFreshness[] | null }>(
    db,
    sql`select ${identityColumns}, ${visible} as "isAllowed",
          (select json_agg(json_build_object('appId', a.id, 'name', a.name, 'icon', a.icon, 'launchUrl', a.launch_url,
              'subjects', a.subjects,
              'lastReportedAt', (select to_char(max(m.last_event_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                from daily_student_metrics m where m.student_sourced_id = u.sourced_id and m.app_key = a.id::text))
              order by a.name)
            from learning_apps a where a.is_active and a.kind = 'learning') as apps
        from users u left join student_home_summaries s on s.student_sourced_id = u.sourced_id
        where u.sourced_id = ${studentId}`,
  );
  if (!row?.isAllowed) throw forbidden;
  const [summary] = await completeSummaries(db, [row], now);
  if (!summary) throw new AppError("not_found", message("activity:students.notFound"));
  return { summary, apps: row.apps ?? [] };
}
