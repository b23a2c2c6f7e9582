import { sql } from "drizzle-orm";
import type { IntegritySummary } from "../../../shared/contracts/integrity";
import { type Database, isoInstant, queryJsonRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { reviewableStudentIds } from "./access";
import { isActiveStrike, isOpen } from "./records";

/** Students and classes listed at most: the ones that need attention first. */
const MAX_LISTED = 200;
const NEW_STRIKE_DAYS = 7;

/**
 * Incidents waiting, active strikes and locked dashboards among the students a reviewer reviews,
 * in all and per student and class, for the review pages and the homes. One statement: the
 * students with anything to say are found through the incidents and lockouts, never by scanning
 * everyone in reach.
 */
export async function integritySummary(db: Database, actor: Actor, now: Date): Promise<IntegritySummary> {
  const reviewable = reviewableStudentIds(actor);
  if (!reviewable) throw new AppError("forbidden", message("integrity:reviewForbidden"));
  const newSince = new Date(now.getTime() - NEW_STRIKE_DAYS * 86_400_000);
  const [result] = await queryJsonRows<IntegritySummary>(
    db,
    sql`with per_student as (
        select i.student_sourced_id as id,
          count(*) filter (where ${isOpen(sql`i`)})::int as pending,
          count(*) filter (where ${isActiveStrike(sql`i`, now)})::int as strikes,
          count(*) filter (where ${isActiveStrike(sql`i`, now)} and i.struck_at >= ${newSince})::int as new_strikes,
          max(i.occurred_at) as latest
        from integrity_incidents i
        where (${isOpen(sql`i`)} or ${isActiveStrike(sql`i`, now)})
          and i.student_sourced_id in (${reviewable})
        group by i.student_sourced_id),
      locked as (
        select l.student_sourced_id as id from integrity_lockouts l
        where l.unlocked_at is null and l.student_sourced_id in (${reviewable})),
      students as (
        select coalesce(p.id, k.id) as id, coalesce(p.pending, 0) as pending, coalesce(p.strikes, 0) as strikes,
          coalesce(p.new_strikes, 0) as new_strikes, p.latest, k.id is not null as is_locked
        from per_student p full join locked k on k.id = p.id),
      classes as (
        select c.sourced_id as id, c.title, sum(s.pending)::int as pending, sum(s.strikes)::int as strikes,
          count(*) filter (where s.is_locked)::int as locked
        from students s
        join enrollments e on e.user_sourced_id = s.id and e.role = 'student' and e.status = 'active'
        join classes c on c.sourced_id = e.class_sourced_id
        group by c.sourced_id, c.title)
      select json_build_object(
          'pending', coalesce((select sum(pending) from students), 0)::int,
          'activeStrikes', coalesce((select sum(strikes) from students), 0)::int,
          'lockedStudents', (select count(*) from students where is_locked)::int,
          'newStrikes', coalesce((select sum(new_strikes) from students), 0)::int) as totals,
        coalesce((select json_agg(x order by x."isLocked" desc, x."activeStrikes" desc, x.pending desc, x.name)
          from (select s.id as "studentId",
              coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name as name,
              s.pending, s.strikes as "activeStrikes", s.is_locked as "isLocked",
              ${isoInstant(sql`s.latest`)} as "latestIncidentAt"
            from students s join users u on u.sourced_id = s.id
            order by s.is_locked desc, s.strikes desc, s.pending desc limit ${MAX_LISTED}) x), '[]'::json) as students,
        coalesce((select json_agg(x order by x."lockedStudents" desc, x."activeStrikes" desc, x.pending desc, x.title)
          from (select id as "classId", title, pending, strikes as "activeStrikes", locked as "lockedStudents"
            from classes order by locked desc, strikes desc, pending desc limit ${MAX_LISTED}) x), '[]'::json) as classes`,
  );
  return result as IntegritySummary;
}
