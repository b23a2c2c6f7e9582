import { sql } from "drizzle-orm";
import type { PulseFigures, PulseNote, PulseResponse, PulseReward } from "../../../shared/contracts/families";
import type { DashRole } from "../../../shared/roles";
import { weekStartOf } from "../../../shared/time-zone";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import { isFamily } from "../rewards/grants";
import { nameOf } from "../rostering/queries";
import { studentVisibleTo } from "../rostering/scope";
import { buildPulses } from "./pulse-figures";

/** Who reads a child's pulse: their family, their Guides and administrators (each within their reach). */
export const PULSE_READERS: readonly DashRole[] = ["parent", "guardian", "teacher", "administrator"];
/** Who writes the week's note: the child's Guides. */
export const PULSE_NOTE_WRITERS: readonly DashRole[] = ["teacher"];

/** Weeks a child's list of pulses goes back at most. */
const LISTED_WEEKS = 52;
/**
 * A pulse built while its week ran is built again when read this long after, and once more on the
 * first read after the week ended; from then on it stays as it is.
 */
const REFRESH_AFTER_MS = 15 * 60_000;

/** The idempotency key of a week's bonus or debit: one per child and week, so a double click gives once. */
export const pulseRewardKey = (childId: string, week: string) => `pulse:${childId}:${week}`;

const childNotFound = () => new AppError("not_found", message("families:pulse.childNotFound"));

/** A week that has not begun for the child has no pulse yet; one before the first pulse has none. */
const weekNotFound = (hasStarted: boolean) =>
  new AppError(
    "not_found",
    message(hasStarted ? "families:pulse.weekNotFound" : "families:pulse.weekNotStarted"),
  );

function visibleOrNone(actor: Actor, childId: string) {
  const visible = studentVisibleTo(actor, childId);
  if (!visible)
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("families:pulse.actions.read") }),
    );
  return visible;
}

interface PulseRow {
  sourcedId: string;
  givenName: string;
  familyName: string;
  week: string;
  currentWeek: string;
  figures: PulseFigures | null;
  builtAt: string | null;
  /** Built before its week ended, so its figures may still change. */
  isProvisional: boolean;
  hasEnded: boolean;
  note: PulseNote | null;
  weeks: string[];
  reward: PulseReward | null;
}

/**
 * A child's pulse of a week (any day of it; the week running now in the child's timezone when none
 * is given), for the caller within their reach: the stored one, or built now for the week running.
 */
export async function readPulse(
  db: Database,
  actor: Actor,
  query: { childId: string; week?: string },
  now: Date,
): Promise<PulseResponse> {
  const visible = visibleOrNone(actor, query.childId);
  const asked = query.week ? weekStartOf(query.week) : null;
  const at = sql`${now.toISOString()}::timestamptz`;
  const [row] = await queryJsonRows<PulseRow>(
    db,
    sql`with child as (
          select u.sourced_id, coalesce(u.preferred_first_name, u.given_name) as given_name, u.family_name,
            u.timezone, (${at} at time zone u.timezone)::date as today
          from users u where u.sourced_id = ${query.childId} and ${visible}),
        w as (
          select c.*, c.today - extract(dow from c.today)::int as current_week,
            coalesce(${asked}::date, c.today - extract(dow from c.today)::int) as week_start
          from child c)
        select w.sourced_id as "sourcedId", w.given_name as "givenName", w.family_name as "familyName",
          w.week_start::text as week, w.current_week::text as "currentWeek",
          p.figures, ${isoInstant(sql`p.built_at`)} as "builtAt",
          p.built_at < ((w.week_start + 7)::timestamp at time zone w.timezone) as "isProvisional",
          ((w.week_start + 7)::timestamp at time zone w.timezone) <= ${at} as "hasEnded",
          case when pn.note is not null then json_build_object('text', pn.note,
            'authorName', ${nameOf(sql`pn.author_sourced_id`)}, 'updatedAt', ${isoInstant(sql`pn.updated_at`)}) end as note,
          (select json_agg(x.week order by x.week desc) from (
              select k.week_start::text as week from weekly_pulses k where k.student_sourced_id = w.sourced_id
              union select w.current_week::text
              order by 1 desc limit ${LISTED_WEEKS}) x) as weeks,
          (select json_build_object('kind', l.kind, 'amount', abs(l.amount), 'at', ${isoInstant(sql`l.created_at`)})
            from reward_ledger l
            where l.actor_key = ${actor.user.sourcedId} and l.kind in ('parent_bonus', 'parent_debit')
              and l.idempotency_key = 'pulse:' || w.sourced_id || ':' || w.week_start::text) as reward
        from w
          left join weekly_pulses p on p.student_sourced_id = w.sourced_id and p.week_start = w.week_start
          left join pulse_notes pn on pn.student_sourced_id = w.sourced_id and pn.week_start = w.week_start`,
  );
  if (!row) throw childNotFound();
  if (row.week > row.currentWeek) throw weekNotFound(false);
  const isCurrentWeek = row.week === row.currentWeek;

  let figures = row.figures;
  let builtAt = row.builtAt;
  const isStale =
    builtAt !== null &&
    row.isProvisional &&
    (row.hasEnded || now.getTime() - Date.parse(builtAt) > REFRESH_AFTER_MS);
  if ((figures === null && isCurrentWeek) || isStale) {
    figures = (await buildPulses(db, [row.sourcedId], row.week, now)).get(row.sourcedId) ?? null;
    builtAt = now.toISOString();
  }
  if (figures === null || builtAt === null) throw weekNotFound(true);

  return {
    child: { sourcedId: row.sourcedId, givenName: row.givenName, familyName: row.familyName },
    week: row.week,
    isCurrentWeek,
    builtAt,
    figures,
    note: row.note,
    weeks: row.weeks,
    canWriteNote: PULSE_NOTE_WRITERS.includes(actor.activeRole as DashRole),
    canReward: isFamily(actor),
    rewardKey: pulseRewardKey(row.sourcedId, row.week),
    reward: row.reward,
  };
}

/**
 * A Guide writes (or rewrites) the note of a child's week, this week's or an earlier one. The note
 * keeps who wrote it last and when.
 */
export async function savePulseNote(
  db: Database,
  actor: Actor,
  input: { childId: string; week: string; note: string },
  now: Date,
  logger: Logger,
): Promise<PulseNote> {
  const visible = studentVisibleTo(actor, input.childId);
  if (!visible || !PULSE_NOTE_WRITERS.includes(actor.activeRole as DashRole))
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("families:pulse.actions.writeNote") }),
    );
  const week = weekStartOf(input.week);
  const at = sql`${now.toISOString()}::timestamptz`;
  const authorId = actor.user.sourcedId;
  const saved = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [child] = await queryJsonRows<{ currentWeek: string }>(
      tx,
      sql`select ((${at} at time zone u.timezone)::date - extract(dow from (${at} at time zone u.timezone)::date)::int)::text
            as "currentWeek"
          from users u where u.sourced_id = ${input.childId} and ${visible}`,
    );
    if (!child) throw childNotFound();
    if (week > child.currentWeek) throw new AppError("bad_request", message("families:pulse.noteFutureWeek"));
    const [note] = await queryRows<PulseNote>(
      tx,
      sql`insert into pulse_notes as pn (student_sourced_id, week_start, note, author_sourced_id, updated_at)
          values (${input.childId}, ${week}::date, ${input.note}, ${authorId}, ${at})
          on conflict (student_sourced_id, week_start)
            do update set note = excluded.note, author_sourced_id = excluded.author_sourced_id, updated_at = excluded.updated_at
          returning pn.note as text, ${nameOf(sql`pn.author_sourced_id`)} as "authorName",
            ${isoInstant(sql`pn.updated_at`)} as "updatedAt"`,
    );
    // Every wording is kept: a family may have read an earlier one.
    await tx.execute(
      sql`insert into pulse_note_changes (student_sourced_id, week_start, note, author_sourced_id, at)
        values (${input.childId}, ${week}::date, ${input.note}, ${authorId}, ${at})`,
    );
    return note as PulseNote;
  });
  logger.info("weekly pulse note saved", {
    studentId: input.childId,
    week,
    by: authorId,
    realUser: actor.realUser.sourcedId,
  });
  return saved;
}
