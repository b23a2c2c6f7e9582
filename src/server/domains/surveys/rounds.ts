import { sql } from "drizzle-orm";
import type { Audience, SurveyRepeat } from "../../../shared/contracts/surveys";
import { type Database, isoInstant, queryRows } from "../../db/client";
import type { JobRunner } from "../../platform/jobs/runner";
import { type NotifyDeps, notify } from "../notifications/notify";
import { audienceMemberIds } from "./audience";

/**
 * Rounds: a survey opens once, or once a week or month from its opening until it closes. A round is
 * written when it opens (by publishing, or by the rounds job), and its audience is invited then.
 */

export const INVITE_JOB = "surveys.invite";

export interface RoundPlan {
  opensAt: Date;
  closesAt: Date | null;
  repeat: SurveyRepeat;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** The instant `months` calendar months after `start` (UTC), the day kept within the month. */
function addMonths(start: Date, months: number): Date {
  const target = new Date(start);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  return target;
}

function periodStart(plan: RoundPlan, number: number): Date {
  if (plan.repeat === "weekly") return new Date(plan.opensAt.getTime() + (number - 1) * WEEK_MS);
  if (plan.repeat === "monthly") return addMonths(plan.opensAt, number - 1);
  return plan.opensAt;
}

/** When round `number` opens and closes: its period, cut short by the survey's own closing. */
export function roundWindow(plan: RoundPlan, number: number): { opensAt: Date; closesAt: Date | null } {
  const opensAt = periodStart(plan, number);
  const periodEnd = plan.repeat === "none" ? null : periodStart(plan, number + 1);
  const ends = [periodEnd, plan.closesAt].filter((end): end is Date => end !== null);
  return {
    opensAt,
    closesAt: ends.length > 0 ? new Date(Math.min(...ends.map((end) => end.getTime()))) : null,
  };
}

/** The round open at `now`, or null before the opening and after the closing. */
export function dueRoundNumber(plan: RoundPlan, now: Date): number | null {
  if (now < plan.opensAt || (plan.closesAt && now >= plan.closesAt)) return null;
  if (plan.repeat === "weekly") return Math.floor((now.getTime() - plan.opensAt.getTime()) / WEEK_MS) + 1;
  if (plan.repeat === "monthly") {
    let number = 1;
    while (periodStart(plan, number + 1) <= now) number++;
    return number;
  }
  return 1;
}

interface DueSurvey {
  id: string;
  opens_at: string;
  closes_at: string | null;
  repeat: SurveyRepeat;
}

/**
 * Writes the round each published survey should have open now, where it is missing (all surveys,
 * or one). Answers the new rounds' ids. Run twice, it writes nothing twice.
 */
export async function openDueRounds(db: Database, now: Date, surveyId?: string): Promise<string[]> {
  const due = await queryRows<DueSurvey>(
    db,
    sql`select s.id, ${isoInstant(sql`s.opens_at`)} as opens_at, ${isoInstant(sql`s.closes_at`)} as closes_at, s.repeat from surveys s
      where s.status = 'published' and s.opens_at <= ${now} and (s.closes_at is null or s.closes_at > ${now})
        ${surveyId ? sql`and s.id = ${surveyId}::uuid` : sql``}`,
  );
  const opened: string[] = [];
  for (const survey of due) {
    const plan = {
      opensAt: new Date(survey.opens_at),
      closesAt: survey.closes_at ? new Date(survey.closes_at) : null,
      repeat: survey.repeat,
    };
    const number = dueRoundNumber(plan, now);
    if (number === null) continue;
    const window = roundWindow(plan, number);
    const [round] = await queryRows<{ id: string }>(
      db,
      sql`insert into survey_rounds (survey_id, number, opens_at, closes_at)
        values (${survey.id}::uuid, ${number}, ${window.opensAt}, ${window.closesAt})
        on conflict (survey_id, number) do nothing returning id`,
    );
    if (round) opened.push(round.id);
  }
  return opened;
}

/** A round's closing follows its survey's: after the survey's closing date changed, or it was closed. */
export async function alignOpenRound(db: Database, surveyId: string, now: Date): Promise<void> {
  const [survey] = await queryRows<DueSurvey & { number: number | null }>(
    db,
    sql`select s.id, ${isoInstant(sql`s.opens_at`)} as opens_at, ${isoInstant(sql`s.closes_at`)} as closes_at, s.repeat,
        (select max(r.number) from survey_rounds r where r.survey_id = s.id
          and (r.closes_at is null or r.closes_at > ${now})) as number
      from surveys s where s.id = ${surveyId}::uuid`,
  );
  if (!survey?.number) return;
  const window = roundWindow(
    {
      opensAt: new Date(survey.opens_at),
      closesAt: survey.closes_at ? new Date(survey.closes_at) : null,
      repeat: survey.repeat,
    },
    survey.number,
  );
  await db.execute(sql`update survey_rounds set closes_at = ${window.closesAt}
    where survey_id = ${surveyId}::uuid and number = ${survey.number}`);
}

/** Queues the invitation of each round's audience; a round already queued is queued once. */
export async function queueInvitations(jobs: Pick<JobRunner, "enqueue">, roundIds: readonly string[]) {
  for (const roundId of roundIds) await jobs.enqueue(INVITE_JOB, { roundId }, { key: roundId });
}

/**
 * Tells the audience of an open round that the survey waits for them (in the app and by email, as
 * each chose), but not those who answered it already. Answers how many were told.
 */
export async function inviteToRound(deps: NotifyDeps, roundId: string, now: Date): Promise<number> {
  const [round] = await queryRows<{ survey_id: string; title: string; audience: Audience }>(
    deps.db,
    sql`select s.id as survey_id, s.title, s.audience from survey_rounds r join surveys s on s.id = r.survey_id
      where r.id = ${roundId}::uuid and s.status = 'published'
        and r.opens_at <= ${now} and (r.closes_at is null or r.closes_at > ${now})`,
  );
  if (!round) return 0;
  // The round's size as it was asked: later roster changes do not rewrite its response rate.
  await deps.db.execute(
    sql`update survey_rounds set invited_count = (select count(*)::int from (${audienceMemberIds(round.audience)}) m)
      where id = ${roundId}::uuid and invited_count is null`,
  );
  const people = await queryRows<{ id: string }>(
    deps.db,
    sql`select m.sourced_id as id from (${audienceMemberIds(round.audience)}) m (sourced_id)
      where not exists (select 1 from survey_participation p
        where p.round_id = ${roundId}::uuid and p.user_sourced_id = m.sourced_id)`,
  );
  return notify(deps, {
    userIds: people.map((person) => person.id),
    type: "survey.invited",
    params: { surveyTitle: round.title },
    link: `/app/survey/${round.survey_id}`,
    dedupeKey: `survey:${roundId}`,
  });
}

/** Drafts of rounds that closed, or of surveys archived: no one can submit them any more. */
export async function removeStaleDrafts(db: Database, now: Date): Promise<number> {
  const removed = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from survey_drafts d using survey_rounds r, surveys s
        where r.id = d.round_id and s.id = r.survey_id
          and ((r.closes_at is not null and r.closes_at <= ${now}) or s.status <> 'published')
        returning 1)
      select count(*)::int as n from gone`,
  );
  return removed[0]?.n ?? 0;
}

/** Rounds that opened within this long are (re)queued for invitation by each run of the rounds job. */
export const INVITE_WINDOW_MS = 2 * 24 * 60 * 60 * 1000;

export async function recentlyOpenedRounds(db: Database, now: Date): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select r.id from survey_rounds r join surveys s on s.id = r.survey_id
      where s.status = 'published' and r.opens_at <= ${now}
        and r.opens_at > ${new Date(now.getTime() - INVITE_WINDOW_MS)}
        and (r.closes_at is null or r.closes_at > ${now})`,
  );
  return rows.map((row) => row.id);
}
