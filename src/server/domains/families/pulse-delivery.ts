import { sql } from "drizzle-orm";
import type { Language } from "../../../shared/languages";
import { addDays, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryJsonRows } from "../../db/client";
import type { JobSchedule } from "../../platform/jobs/schedule";
import { latestOccurrence } from "../../platform/jobs/schedule";
import type { LiveHub } from "../../platform/live/hub";
import { languageOfSql } from "../notifications/choices";
import { notifyEach, type PersonalNotification } from "../notifications/notify";
import { isStudent } from "../rostering/queries";
import { type ChildDigest, namesIn, pulseEmail, pulseLink } from "./pulse-email";
import { buildPulses } from "./pulse-figures";

/** The weekly pulse goes out every afternoon to the families whose digest day it is, in the school's time zone. */
export const PULSE_SCHEDULE: JobSchedule = { dailyAt: "15:00", timeZone: SCHOOL_TIME_ZONE };

/** A family's digest day when they chose none: Friday (0 is Sunday). */
export const DEFAULT_DIGEST_DAY = 5;

/** Families told in one round (a few statements) before their deliveries are recorded. */
const FAMILIES_PER_ROUND = 500;

/**
 * The week a digest day closes: on a Friday or a Saturday the week running (its school days are
 * over); on any other day the week before, the latest whole school week.
 */
export function weekClosedOn(date: string): string {
  return weekStartOf(addDays(date, -5));
}

const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

interface DueFamily {
  parentId: string;
  /** The language the parent is written to in (as notify picks it), for the names in the notification. */
  language: Language;
  childIds: string[];
}

/**
 * Parents and guardians whose digest day is `weekday` and who were not yet told of the week, each
 * with their children who are active students.
 */
async function dueFamilies(db: Database, weekday: number, week: string): Promise<DueFamily[]> {
  return queryJsonRows<DueFamily>(
    db,
    sql`select a.agent_sourced_id as "parentId", ${languageOfSql(sql`a.agent_sourced_id`)} as language,
          json_agg(a.user_sourced_id order by coalesce(s.preferred_first_name, s.given_name), s.sourced_id) as "childIds"
        from user_agents a
          join users p on p.sourced_id = a.agent_sourced_id and p.status = 'active'
          join users s on s.sourced_id = a.user_sourced_id and s.status = 'active'
          left join user_preferences up on up.user_sourced_id = p.sourced_id
        where coalesce(up.digest_day, ${DEFAULT_DIGEST_DAY}) = ${weekday}
          and exists (select 1 from user_roles r where r.user_sourced_id = p.sourced_id and lower(r.role) in ('parent', 'guardian'))
          and ${isStudent(sql`s.sourced_id`)}
          and not exists (select 1 from pulse_deliveries d where d.parent_sourced_id = p.sourced_id and d.week_start = ${week}::date)
        group by a.agent_sourced_id
        order by a.agent_sourced_id`,
  );
}

/** Each child's name (as the family calls them) and the Guide's note of the week, if one was written. */
async function childrenOf(
  db: Database,
  childIds: readonly string[],
  week: string,
): Promise<Map<string, Omit<ChildDigest, "figures">>> {
  const rows = await queryJsonRows<Omit<ChildDigest, "figures">>(
    db,
    sql`select u.sourced_id as "childId", coalesce(u.preferred_first_name, u.given_name) as "givenName",
          case when n.note is not null then json_build_object('text', n.note,
            'authorName', a.given_name || ' ' || a.family_name) end as note
        from users u
          left join pulse_notes n on n.student_sourced_id = u.sourced_id and n.week_start = ${week}::date
          left join users a on a.sourced_id = n.author_sourced_id
        where u.sourced_id in (select jsonb_array_elements_text(${JSON.stringify(childIds)}::jsonb))`,
  );
  return new Map(rows.map((row) => [row.childId, row]));
}

export interface PulseDelivery {
  /** The day the run is for, in the school's time zone, and the week its families hear of. */
  day: string;
  week: string;
  families: number;
  children: number;
  /** Families told in the app or by mail (one who turned both off is counted as delivered, not told). */
  told: number;
}

/**
 * The weekly pulse of the latest digest afternoon (PULSE_SCHEDULE) at `now`: to every parent and
 * guardian whose digest day it is, each child's pulse of the week that day closes is built (the
 * work set-based, many children per statement), and the family is told once, in the app and by
 * mail with the digest itself. Running again tells no one twice: a family's delivery is recorded
 * after it was told, and a notification that went out under the week's key is not sent again.
 */
export async function deliverWeeklyPulses(
  deps: { db: Database; live: Pick<LiveHub, "publish"> },
  now: Date,
): Promise<PulseDelivery> {
  const { db } = deps;
  const day = latestOccurrence(PULSE_SCHEDULE, now).key;
  const week = weekClosedOn(day);
  const families = await dueFamilies(db, weekdayOf(day), week);
  const childIds = [...new Set(families.flatMap((family) => family.childIds))];
  const figures = await buildPulses(db, childIds, week, now);
  const children = await childrenOf(db, childIds, week);
  const digestOf = (childId: string): ChildDigest[] => {
    const child = children.get(childId);
    const childFigures = figures.get(childId);
    return child && childFigures ? [{ ...child, figures: childFigures }] : [];
  };

  const notificationOf = (family: DueFamily): PersonalNotification[] => {
    const digests = family.childIds.flatMap(digestOf);
    const first = digests[0];
    if (!first) return [];
    return [
      {
        userId: family.parentId,
        params: {
          studentId: first.childId,
          childName: namesIn(
            digests.map((digest) => digest.givenName),
            family.language,
          ),
          week,
        },
        link: pulseLink(first.childId, week),
        dedupeKey: `pulse:${week}`,
        email: (language) => pulseEmail(digests, week, language),
      },
    ];
  };

  let told = 0;
  for (let start = 0; start < families.length; start += FAMILIES_PER_ROUND) {
    const round = families.slice(start, start + FAMILIES_PER_ROUND);
    told += await notifyEach(deps, "pulse.ready", round.flatMap(notificationOf));
    await db.execute(sql`insert into pulse_deliveries (parent_sourced_id, week_start, delivered_at)
      select p.id, ${week}::date, ${now.toISOString()}::timestamptz
      from jsonb_array_elements_text(${JSON.stringify(round.map((family) => family.parentId))}::jsonb) as p(id)
      on conflict (parent_sourced_id, week_start) do nothing`);
  }
  return { day, week, families: families.length, children: figures.size, told };
}
