import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type {
  Redemption,
  RedemptionAction,
  RedemptionStatus,
  RewardSettings,
} from "../../../shared/contracts/rewards";
import { type Database, isUniqueViolation, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { nameOf } from "../rostering/queries";
import { studentIdsInReach } from "../rostering/scope";
import { emitWebhookEvent } from "../webhooks/emit";
import { isFamily, isStaff } from "./grants";
import { itemImagePath, itemsForStudents } from "./items";
import { assertAffordable, entriesWritten, lockAccount, type NewEntry, postEntries } from "./ledger";
import { rewardSettingsOf, STORED_REWARD_SETTINGS, settingsFrom } from "./settings";

const DAY_MS = 24 * 60 * 60 * 1000;

interface RedemptionRow {
  id: string;
  student_id: string;
  student_name: string | null;
  item_id: string;
  item_name: string;
  image_key: string | null;
  image_url: string | null;
  price: number;
  status: RedemptionStatus;
  approver_kind: "family" | "staff";
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: string | null;
  note: string | null;
  fulfilled_by: string | null;
  fulfilled_by_name: string | null;
  fulfilled_at: string | null;
  created_at: string;
}

const iso = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const REDEMPTION_COLUMNS = sql`r.id, r.student_sourced_id as student_id, ${nameOf(sql`r.student_sourced_id`)} as student_name,
  r.item_id, r.item_name, i.image_key, i.image_url, r.price, r.status,
  r.approver_kind, r.decided_by, ${nameOf(sql`r.decided_by`)} as decided_by_name, ${iso(sql`r.decided_at`)} as decided_at,
  r.note, r.fulfilled_by, ${nameOf(sql`r.fulfilled_by`)} as fulfilled_by_name, ${iso(sql`r.fulfilled_at`)} as fulfilled_at,
  ${iso(sql`r.created_at`)} as created_at`;

const person = (id: string | null, name: string | null) => (id ? { sourcedId: id, name: name ?? id } : null);

function toRedemption(row: RedemptionRow, expiryDays: number): Redemption {
  return {
    id: row.id,
    studentId: row.student_id,
    student: person(row.student_id, row.student_name),
    itemId: row.item_id,
    itemName: row.item_name,
    imageUrl: row.image_key ? itemImagePath(row.item_id, row.image_key) : row.image_url,
    price: row.price,
    status: row.status,
    approverKind: row.approver_kind,
    decidedBy: person(row.decided_by, row.decided_by_name),
    decidedAt: row.decided_at,
    note: row.note,
    fulfilledBy: person(row.fulfilled_by, row.fulfilled_by_name),
    fulfilledAt: row.fulfilled_at,
    createdAt: row.created_at,
    expiresAt:
      row.status === "pending"
        ? new Date(new Date(row.created_at).getTime() + expiryDays * DAY_MS).toISOString()
        : null,
  };
}

async function readRedemptions(db: Database, where: SQL, page?: { offset: number; limit: number }) {
  const settings = await rewardSettingsOf(db);
  const rows = await queryJsonRows<RedemptionRow>(
    db,
    sql`select ${REDEMPTION_COLUMNS} from reward_redemptions r join reward_items i on i.id = r.item_id
        where ${where} order by r.created_at desc, r.id
        ${page ? sql`offset ${page.offset} limit ${page.limit}` : sql``}`,
  );
  return rows.map((row) => toRedemption(row, settings.requestExpiryDays));
}

export async function getRedemption(db: Database, id: string): Promise<Redemption> {
  const [found] = await readRedemptions(db, uuidEquals(sql`r.id`, id));
  if (!found) throw new AppError("not_found", message("rewards:redemptions.notFound"));
  return found;
}

/**
 * A student asks for an item: its price is held and a unit of its stock set aside, under the
 * account's lock and the item's, so concurrent requests can neither overspend nor oversell.
 * The same idempotency key answers the first request again.
 */
export async function requestRedemption(
  db: Database,
  actor: Actor,
  input: { itemId: string; idempotencyKey: string },
  now: Date,
): Promise<{ redemption: Redemption; isReplay: boolean }> {
  if (actor.activeRole !== "student")
    throw new AppError("forbidden", message("rewards:redemptions.studentsOnly"));
  return placeRedemption(db, actor.user.sourcedId, input, now);
}

interface Asked {
  /** The student's account, once locked (zero without one). */
  balance: number;
  held: number;
  /** A request this student already made under the key. */
  earlier_id: string | null;
  /** Null when the student may not ask for the item (unknown, retired, not for them). */
  id: string | null;
  name: string;
  price: number;
  stock: number | null;
  reserved: number;
  image_key: string | null;
  image_url: string | null;
  student_name: string | null;
  has_family: boolean;
  settings: unknown;
  /** Whether the request was written. */
  placed: boolean;
}

/**
 * A student's request, once they are known to be the one asking (see requestRedemption), in one
 * statement: it locks the account, reads the item, the key's earlier request and the school's
 * rules, and only when the student may have the item and afford it, sets a unit aside (an item
 * with stock, in an update that refuses the last unit twice) or holds the item shared (without
 * stock, so stock given to it meanwhile counts this request), writes the request and holds its
 * price in the ledger. Under the account's lock a student's requests go one at a time, so the
 * balance cannot race; the unique key settles replays. One statement is one round trip: the
 * embedded database, which runs one transaction at a time, is held for no longer than it works.
 */
export async function placeRedemption(
  db: Database,
  studentId: string,
  input: { itemId: string; idempotencyKey: string },
  now: Date,
): Promise<{ redemption: Redemption; isReplay: boolean }> {
  const replayOf = async (id: string) => ({ redemption: await getRedemption(db, id), isReplay: true });
  const createdAt = now.toISOString();
  try {
    // A race lost between the statement's snapshot and its locks (the item's stock set or taken
    // meanwhile) is asked once more, on a fresh snapshot.
    for (let attempt = 1; ; attempt++) {
      const redemptionId = randomUUID();
      const hold = entriesWritten({
        studentId,
        actorId: studentId,
        at: now,
        entries: sql`select 'spending'::text as account, -ready.price as amount, 'hold'::text as kind,
            null::text as reason,
            jsonb_build_object('key', 'rewards:reasons.hold', 'values', jsonb_build_object('item', ready.name)) as reason_message,
            ${`redemption:${redemptionId}:hold`}::text as idempotency_key, ${redemptionId}::uuid as redemption_id,
            null::bigint as reverses_entry_id, null::text as rule_key, null::text as period, null::timestamptz as created_at
          from ready where exists (select 1 from created)`,
      });
      const [asked] = await queryRows<Asked>(
        db,
        sql`with account as (
              select balance, held from reward_accounts where student_sourced_id = ${studentId} for no key update),
            asked as (
              select coalesce(account.balance, 0) as balance, coalesce(account.held, 0) as held,
                (select r.id from reward_redemptions r
                  where r.student_sourced_id = ${studentId} and r.idempotency_key = ${input.idempotencyKey}) as earlier_id,
                i.id, i.name, i.price, i.stock, i.reserved, i.image_key, i.image_url,
                ${nameOf(sql`${studentId}::text`)} as student_name,
                exists (select 1 from user_agents a where a.user_sourced_id = ${studentId}) as has_family,
                ${STORED_REWARD_SETTINGS} as settings
              from (select 1) as one left join account on true
                left join reward_items i on ${uuidEquals(sql`i.id`, input.itemId)}
                  and i.is_active and ${itemsForStudents(sql`select ${studentId}::text`)}),
            ready as (
              select * from asked where earlier_id is null and id is not null and balance - held >= price),
            reserved as (
              update reward_items i set reserved = i.reserved + 1 from ready
              where i.id = ready.id and i.stock is not null and i.stock - i.reserved > 0 returning i.id),
            shared as (
              select i.id from reward_items i join ready on i.id = ready.id where i.stock is null for share of i),
            created as (
              insert into reward_redemptions (id, student_sourced_id, item_id, item_name, price, approver_kind,
                idempotency_key, created_at, updated_at)
              select ${redemptionId}::uuid, ${studentId}, ready.id, ready.name, ready.price,
                case when ready.has_family then 'family' else 'staff' end,
                ${input.idempotencyKey}, ${createdAt}::timestamptz, ${createdAt}::timestamptz
              from ready where exists (select 1 from reserved) or exists (select 1 from shared)
              returning id),
            ${hold}
            select asked.*, exists (select 1 from created) as placed from asked`,
      );
      if (!asked) throw new Error(`The request of ${studentId} answered nothing`);
      if (asked.earlier_id) return replayOf(asked.earlier_id);
      if (!asked.id) throw new AppError("validation_failed", message("rewards:items.unknown"));
      const outOfStock = new AppError(
        "out_of_stock",
        message("rewards:redemptions.outOfStock", { item: asked.name }),
      );
      if (asked.stock !== null && asked.stock - asked.reserved <= 0) throw outOfStock;
      assertAffordable(asked.balance - asked.held, asked.price);
      if (!asked.placed) {
        if (attempt === 1) continue;
        throw outOfStock;
      }
      const redemption = toRedemption(
        {
          id: redemptionId,
          student_id: studentId,
          student_name: asked.student_name,
          item_id: asked.id,
          item_name: asked.name,
          image_key: asked.image_key,
          image_url: asked.image_url,
          price: asked.price,
          status: "pending",
          approver_kind: asked.has_family ? "family" : "staff",
          decided_by: null,
          decided_by_name: null,
          decided_at: null,
          note: null,
          fulfilled_by: null,
          fulfilled_by_name: null,
          fulfilled_at: null,
          created_at: createdAt,
        },
        settingsFrom(asked.settings).requestExpiryDays,
      );
      // The request is one statement, committed by now; the key makes a repeated event one.
      await emitWebhookEvent(
        db,
        "redemption.requested",
        {
          redemptionId,
          studentId,
          itemId: asked.id,
          price: asked.price,
          approverKind: redemption.approverKind,
        },
        { at: now, key: redemptionId },
      );
      return { redemption, isReplay: false };
    }
  } catch (error) {
    // The unique key is the last word: a request that got past the lock twice answers the first.
    if (isUniqueViolation(error)) {
      const [first] = await queryRows<{ id: string }>(
        db,
        sql`select id from reward_redemptions where student_sourced_id = ${studentId} and idempotency_key = ${input.idempotencyKey}`,
      );
      if (first) return replayOf(first.id);
    }
    throw error;
  }
}

/** Who may take each step, for a request of a student the caller can see. */
function mayTake(
  action: RedemptionAction,
  actor: Actor,
  redemption: Redemption,
  isChildItem: boolean,
): boolean {
  switch (action) {
    case "cancel":
      return actor.activeRole === "student" && actor.user.sourcedId === redemption.studentId;
    case "approve":
    case "reject":
      return redemption.approverKind === "family" ? isFamily(actor) : isStaff(actor);
    case "fulfil":
      // A family's own reward is handed out at home, by the family.
      return isStaff(actor) || (isFamily(actor) && isChildItem);
  }
}

/** Each step's starting state and where it leads. */
const STEPS: Record<RedemptionAction, { from: RedemptionStatus; to: RedemptionStatus }> = {
  approve: { from: "pending", to: "approved" },
  reject: { from: "pending", to: "rejected" },
  cancel: { from: "pending", to: "cancelled" },
  fulfil: { from: "approved", to: "fulfilled" },
};

/**
 * Approves, rejects, cancels or fulfils a request. Rejecting or cancelling releases the hold and
 * the stock; fulfilling turns the hold into a spend and takes the unit from stock. Asking for a
 * step the request has already taken answers it as it is.
 */
export async function decideRedemption(
  db: Database,
  actor: Actor,
  id: string,
  action: RedemptionAction,
  note: string | undefined,
  now: Date,
): Promise<Redemption> {
  const reach = studentIdsInReach(actor);
  const [visible] = reach
    ? await readRedemptions(db, sql`${uuidEquals(sql`r.id`, id)} and r.student_sourced_id in (${reach})`)
    : [];
  if (!visible) throw new AppError("not_found", message("rewards:redemptions.notFound"));
  const [item] = await queryRows<{ audience_kind: string }>(
    db,
    sql`select audience_kind from reward_items where id = ${visible.itemId}::uuid`,
  );
  if (!mayTake(action, actor, visible, item?.audience_kind === "child"))
    throw new AppError("forbidden", message(`rewards:redemptions.mayNot.${action}`));
  return takeStep(db, visible, action, actor.user.sourcedId, note, now);
}

/** A step of a request, once the caller is known to be allowed it (see decideRedemption). */
export async function takeStep(
  db: Database,
  visible: Redemption,
  action: RedemptionAction,
  actorId: string | null,
  note: string | undefined,
  now: Date,
): Promise<Redemption> {
  const step = STEPS[action];
  if (visible.status === step.to) return visible;

  const moved = await moveRequest(db, {
    redemptionId: visible.id,
    studentId: visible.studentId,
    from: step.from,
    to: step.to,
    actorId,
    note: note ?? null,
    at: now,
  });
  if (moved !== "moved" && moved !== step.to)
    throw new AppError(
      "conflict",
      message("rewards:redemptions.alreadyDone", { status: message(`rewards:statuses.${moved}`) }),
    );
  return getRedemption(db, visible.id);
}

/**
 * Moves a request from one state to the next under its student's account lock; answers "moved",
 * or the state it was found in when that was not `from` (another request got there first).
 */
async function moveRequest(
  db: Database,
  input: {
    redemptionId: string;
    studentId: string;
    from: RedemptionStatus;
    to: RedemptionStatus;
    actorId: string | null;
    note: string | null;
    at: Date;
  },
): Promise<"moved" | RedemptionStatus> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    await lockAccount(tx, input.studentId);
    const [current] = await queryRows<{
      status: RedemptionStatus;
      price: number;
      item_id: string;
      item_name: string;
    }>(
      tx,
      sql`select status, price, item_id, item_name from reward_redemptions where id = ${input.redemptionId}::uuid for update`,
    );
    if (!current) throw new AppError("not_found", message("rewards:redemptions.notFound"));
    if (current.status !== input.from) return current.status;
    await settle(tx, {
      ...input,
      price: current.price,
      itemId: current.item_id,
      itemName: current.item_name,
    });
    if (input.to === "approved")
      await emitWebhookEvent(
        tx,
        "redemption.approved",
        {
          redemptionId: input.redemptionId,
          studentId: input.studentId,
          itemId: current.item_id,
          price: current.price,
          approvedBy: input.actorId,
        },
        { at: input.at, key: input.redemptionId },
      );
    return "moved";
  });
}

/** Moves a locked request to its new state, with the ledger entries and stock that go with it. */
async function settle(
  tx: Database,
  input: {
    redemptionId: string;
    studentId: string;
    actorId: string | null;
    price: number;
    itemId: string;
    itemName: string;
    to: RedemptionStatus;
    note: string | null;
    at: Date;
  },
): Promise<void> {
  const at = input.at.toISOString();
  const releases = input.to !== "approved";
  const stock =
    input.to === "fulfilled"
      ? sql`stock = stock - 1, reserved = reserved - 1`
      : releases
        ? sql`reserved = reserved - 1`
        : null;
  const decision =
    input.to === "fulfilled"
      ? sql`fulfilled_by = ${input.actorId}, fulfilled_at = ${at}::timestamptz`
      : sql`decided_by = ${input.actorId}, decided_at = ${at}::timestamptz, note = coalesce(${input.note}, note)`;
  await queryRows(
    tx,
    sql`with moved as (update reward_redemptions set status = ${input.to}, ${decision}, updated_at = ${at}::timestamptz
          where id = ${input.redemptionId}::uuid)
        ${stock ? sql`update reward_items set ${stock} where id = ${input.itemId}::uuid and stock is not null` : sql`select 1`}`,
  );
  if (!releases) return;
  const key = (kind: string) => `redemption:${input.redemptionId}:${kind}`;
  const reasonValues = { item: input.itemName };
  const entries: NewEntry[] = [
    {
      account: "spending",
      amount: input.price,
      kind: "release",
      reasonMessage: message(`rewards:reasons.release.${input.to}`, reasonValues),
      redemptionId: input.redemptionId,
      idempotencyKey: key("release"),
    },
  ];
  if (input.to === "fulfilled")
    entries.push({
      account: "spending",
      amount: -input.price,
      kind: "spend",
      reasonMessage: message("rewards:reasons.spend", reasonValues),
      redemptionId: input.redemptionId,
      idempotencyKey: key("spend"),
    });
  await postEntries(tx, { studentId: input.studentId, actorId: input.actorId, entries, at: input.at });
}

/** Requests the caller may see: a student's own, a family's children's, a Guide's students', or all. */
export async function listRedemptions(
  db: Database,
  actor: Actor,
  query: {
    status?: RedemptionStatus;
    studentId?: string;
    /** Only requests still open that were made before this instant. */
    openSince?: Date;
    offset: number;
    limit: number;
  },
): Promise<{ data: Redemption[]; total: number }> {
  const reach = studentIdsInReach(actor);
  if (!reach)
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("rewards:actions.requests") }),
    );
  const conditions: SQL[] = [sql`r.student_sourced_id in (${reach})`];
  if (query.status) conditions.push(sql`r.status = ${query.status}`);
  if (query.studentId) conditions.push(sql`r.student_sourced_id = ${query.studentId}`);
  if (query.openSince)
    conditions.push(
      sql`r.status in ('pending', 'approved') and r.created_at < ${query.openSince.toISOString()}::timestamptz`,
    );
  const where = sql.join(conditions, sql` and `);
  const [count] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from reward_redemptions r where ${where}`,
  );
  return { data: await readRedemptions(db, where, query), total: count?.total ?? 0 };
}

/**
 * Lets go of requests no one decided within the school's days: each releases its hold and its
 * unit of stock. Safe to run twice, or in two processes at once (each request is settled under
 * its lock, once).
 */
export async function expireStaleRequests(
  db: Database,
  now: Date,
  settings?: RewardSettings,
): Promise<number> {
  const { requestExpiryDays } = settings ?? (await rewardSettingsOf(db));
  const cutoff = new Date(now.getTime() - requestExpiryDays * DAY_MS).toISOString();
  const stale = await queryRows<{ id: string; student_sourced_id: string }>(
    db,
    sql`select id, student_sourced_id from reward_redemptions
        where status = 'pending' and created_at < ${cutoff}::timestamptz order by created_at limit 5000`,
  );
  let expired = 0;
  for (const row of stale) {
    const moved = await moveRequest(db, {
      redemptionId: row.id,
      studentId: row.student_sourced_id,
      from: "pending",
      to: "expired",
      actorId: null,
      note: null,
      at: now,
    });
    if (moved === "moved") expired += 1;
  }
  return expired;
}
