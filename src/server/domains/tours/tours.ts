import { sql } from "drizzle-orm";
import {
  type TourCompletion,
  type TourName,
  type TourOutcome,
  tourOfRole,
} from "../../../shared/contracts/tours";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";

/** The tours the person in view has done (finished, skipped or closed), on any device. */
export async function completedTours(db: Database, actor: Actor): Promise<TourCompletion[]> {
  return queryRows<TourCompletion>(
    db,
    sql`select tour, outcome,
        to_char(completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "completedAt"
      from tour_completions where user_sourced_id = ${actor.user.sourcedId} order by tour`,
  );
}

/**
 * The caller, who may record this tour: their own (never while viewing as someone: the viewed
 * person has not taken it), and one of the tours of their roles.
 */
function ownTourOf(actor: Actor, tour: TourName): Actor {
  if (actor.session.impersonation) throw new AppError("forbidden", message("tours:notWhileViewingAs"));
  if (!actor.availableRoles.some((role) => tourOfRole(role) === tour))
    throw new AppError("forbidden", message("tours:notYourTour"));
  return actor;
}

/** Marks the tour done; doing it again keeps the newest ending. */
export async function completeTour(
  db: Database,
  actor: Actor,
  tour: TourName,
  outcome: TourOutcome,
  at: Date,
): Promise<TourCompletion> {
  const { user } = ownTourOf(actor, tour);
  const [row] = await queryRows<TourCompletion>(
    db,
    sql`insert into tour_completions (user_sourced_id, tour, outcome, completed_at)
      values (${user.sourcedId}, ${tour}, ${outcome}, ${at.toISOString()}::timestamptz)
      on conflict (user_sourced_id, tour) do update set outcome = excluded.outcome, completed_at = excluded.completed_at
      returning tour, outcome,
        to_char(completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "completedAt"`,
  );
  return row as TourCompletion;
}

/** Restarting: the tour counts as not done, so it is offered again. */
export async function restartTour(db: Database, actor: Actor, tour: TourName): Promise<void> {
  const { user } = ownTourOf(actor, tour);
  await db.execute(
    sql`delete from tour_completions where user_sourced_id = ${user.sourcedId} and tour = ${tour}`,
  );
}
