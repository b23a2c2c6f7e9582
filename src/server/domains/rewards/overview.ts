import { sql } from "drizzle-orm";
import type { RewardsMonitor, StudentBalance } from "../../../shared/contracts/rewards";
import { localDateOf, monthStartOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { containsPattern } from "../rostering/filter";
import { studentIdsInReach } from "../rostering/scope";
import { ITEM_COLUMNS, type ItemRow, toItem } from "./items";
import { listRedemptions } from "./redemptions";

/** Requests open this long are stuck: someone should decide or hand them out. */
const STUCK_AFTER_DAYS = 7;
/** Items with this few units left are running low. */
const LOW_STOCK = 3;

/** The balances of the students in the caller's reach (a Guide's, a family's, everyone's), by name. */
export async function studentBalances(
  db: Database,
  actor: Actor,
  query: { search: string; offset: number; limit: number },
): Promise<{ data: StudentBalance[]; total: number }> {
  const reach = studentIdsInReach(actor);
  if (!reach) throw new AppError("forbidden", message("rewards:students.forbidden"));
  const matches = query.search
    ? sql`and (u.given_name || ' ' || u.family_name) ilike ${containsPattern(query.search)}`
    : sql``;
  const where = sql`u.sourced_id in (${reach}) ${matches}`;
  const [rows, [count]] = await Promise.all([
    queryJsonRows<StudentBalance>(
      db,
      sql`select u.sourced_id as "studentId", coalesce(u.preferred_first_name, u.given_name) || ' ' || u.family_name as name,
            coalesce(a.balance, 0) as balance, coalesce(a.held, 0) as held,
            coalesce(a.balance, 0) - coalesce(a.held, 0) as available, coalesce(a.savings, 0) as savings,
            (select count(*) from reward_redemptions r where r.student_sourced_id = u.sourced_id and r.status = 'pending')::int as pending,
            (select count(*) from reward_redemptions r where r.student_sourced_id = u.sourced_id and r.status = 'approved')::int as approved
          from users u left join reward_accounts a on a.student_sourced_id = u.sourced_id
          where ${where}
          order by u.family_name, u.given_name, u.sourced_id offset ${query.offset} limit ${query.limit}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from users u where ${where}`),
  ]);
  return { data: rows, total: count?.total ?? 0 };
}

/** Every request by state, the stuck ones, items running low and each school's Alphas. */
export async function rewardsMonitor(db: Database, actor: Actor, now: Date): Promise<RewardsMonitor> {
  const reach = studentIdsInReach(actor);
  if (!reach) throw new AppError("forbidden", message("rewards:students.forbidden"));
  const stuckBefore = new Date(now.getTime() - STUCK_AFTER_DAYS * 24 * 60 * 60 * 1000);
  const monthStart = monthStartOf(localDateOf(now, SCHOOL_TIME_ZONE));
  // A family's own rewards are theirs: only administrators see them among the items running low.
  const itemsSeen = actor.activeRole === "administrator" ? sql`true` : sql`i.audience_kind <> 'child'`;
  const [statuses, stuck, lowStock, schools] = await Promise.all([
    queryRows<{ status: RewardsMonitor["stuck"][number]["status"]; count: number }>(
      db,
      sql`select status, count(*)::int as count from reward_redemptions where student_sourced_id in (${reach}) group by status`,
    ),
    listRedemptions(db, actor, { openSince: stuckBefore, offset: 0, limit: 50 }),
    queryJsonRows<ItemRow>(
      db,
      sql`select ${ITEM_COLUMNS} from reward_items i where ${itemsSeen} and i.is_active and i.stock is not null and i.stock - i.reserved <= ${LOW_STOCK}
          order by i.stock - i.reserved, i.name`,
    ),
    queryJsonRows<RewardsMonitor["schools"][number]>(
      db,
      sql`select o.sourced_id as "orgId", o.name,
            count(distinct u.sourced_id)::int as students,
            coalesce(sum(a.balance), 0)::int as balance, coalesce(sum(a.held), 0)::int as held,
            coalesce(sum(a.savings), 0)::int as savings,
            (select count(*) from reward_redemptions r join users s on s.sourced_id = r.student_sourced_id
              where s.primary_org_sourced_id = o.sourced_id and r.status = 'fulfilled'
                and r.fulfilled_at >= ${monthStart}::date)::int as "fulfilledThisMonth",
            (select coalesce(sum(r.price), 0) from reward_redemptions r join users s on s.sourced_id = r.student_sourced_id
              where s.primary_org_sourced_id = o.sourced_id and r.status = 'fulfilled'
                and r.fulfilled_at >= ${monthStart}::date)::int as "spentThisMonth"
          from orgs o
          join users u on u.primary_org_sourced_id = o.sourced_id and u.sourced_id in (${reach})
          left join reward_accounts a on a.student_sourced_id = u.sourced_id
          where o.status = 'active'
          group by o.sourced_id, o.name order by o.name`,
    ),
  ]);
  const byStatus = { pending: 0, approved: 0, rejected: 0, cancelled: 0, fulfilled: 0, expired: 0 };
  for (const row of statuses) byStatus[row.status] = row.count;
  return {
    byStatus,
    stuckAfterDays: STUCK_AFTER_DAYS,
    stuck: stuck.data,
    lowStock: lowStock.map(toItem),
    schools,
  };
}
