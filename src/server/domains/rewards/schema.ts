import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { LedgerAccount, LedgerKind, RedemptionStatus } from "../../../shared/contracts/rewards";

/**
 * A student's Alphas as running totals, kept in step with the ledger in the same transaction as
 * every entry. Its row is the lock every movement of the student's Alphas takes first, so that
 * concurrent requests check `available` one after another; the ledger stays the truth, and the
 * reconciliation page compares the two.
 */
export const rewardAccounts = pgTable(
  "reward_accounts",
  {
    studentSourcedId: text("student_sourced_id").primaryKey(),
    /** The spending account: the sum of its entries, holds and releases aside. */
    balance: integer("balance").notNull().default(0),
    /** What pending and approved requests hold against the balance. */
    held: integer("held").notNull().default(0),
    savings: integer("savings").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("reward_accounts_available_check", sql`${table.balance} - ${table.held} >= 0`),
    check("reward_accounts_savings_check", sql`${table.savings} >= 0`),
    check("reward_accounts_held_check", sql`${table.held} >= 0`),
  ],
);

/**
 * The Alphas ledger: append-only. A correction is a new `reversal` entry pointing at the one it
 * undoes. `hold` and `release` entries record what a request holds without moving the balance.
 */
export const rewardLedger = pgTable(
  "reward_ledger",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    studentSourcedId: text("student_sourced_id").notNull(),
    account: text("account").$type<LedgerAccount>().notNull(),
    amount: integer("amount").notNull(),
    kind: text("kind").$type<LedgerKind>().notNull(),
    /** What a person wrote; entries Dash writes itself keep a catalogue message instead. */
    reason: text("reason"),
    reasonMessage: jsonb("reason_message"),
    /** Who moved the Alphas; null for Dash's own jobs and earning rules. */
    actorSourcedId: text("actor_sourced_id"),
    /** The actor's idempotency namespace: their id, or `dash` for Dash's own entries. */
    actorKey: text("actor_key").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    redemptionId: uuid("redemption_id"),
    reversesEntryId: bigint("reverses_entry_id", { mode: "number" }),
    /** For earnings: the rule and its period (a day, a week, an event), paid once per student. */
    ruleKey: text("rule_key"),
    period: text("period"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("reward_ledger_idempotency_idx").on(table.actorKey, table.idempotencyKey),
    uniqueIndex("reward_ledger_rule_period_idx")
      .on(table.studentSourcedId, table.ruleKey, table.period)
      .where(sql`${table.ruleKey} is not null`),
    uniqueIndex("reward_ledger_reversal_idx")
      .on(table.reversesEntryId)
      .where(sql`${table.reversesEntryId} is not null`),
    index("reward_ledger_student_idx").on(table.studentSourcedId, table.createdAt, table.id),
    index("reward_ledger_kind_idx").on(table.kind, table.id),
    index("reward_ledger_actor_kind_idx").on(table.actorSourcedId, table.kind, table.createdAt),
  ],
);

/** What the emporium sells, to the whole district, one school, or one child (a parent's reward). */
export const rewardItems = pgTable(
  "reward_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    price: integer("price").notNull(),
    /** Units on hand; null for unlimited. */
    stock: integer("stock"),
    /** Units that pending and approved requests have set aside. */
    reserved: integer("reserved").notNull().default(0),
    category: text("category").notNull(),
    sortOrder: integer("sort_order"),
    isActive: boolean("is_active").notNull().default(true),
    audienceKind: text("audience_kind")
      .$type<"district" | "school" | "child">()
      .notNull()
      .default("district"),
    audienceOrgId: text("audience_org_id"),
    audienceStudentId: text("audience_student_id"),
    /** An uploaded picture (a storage key), or a picture served elsewhere. */
    imageKey: text("image_key"),
    imageUrl: text("image_url"),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("reward_items_price_check", sql`${table.price} > 0`),
    check("reward_items_stock_check", sql`${table.stock} is null or ${table.stock} >= ${table.reserved}`),
    check("reward_items_reserved_check", sql`${table.reserved} >= 0`),
    index("reward_items_audience_idx").on(table.audienceKind, table.audienceOrgId, table.audienceStudentId),
  ],
);

/** A student's request for an item: its price is held until it is fulfilled or let go. */
export const rewardRedemptions = pgTable(
  "reward_redemptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id").notNull(),
    itemId: uuid("item_id")
      .notNull()
      .references(() => rewardItems.id),
    itemName: text("item_name").notNull(),
    price: integer("price").notNull(),
    status: text("status").$type<RedemptionStatus>().notNull().default("pending"),
    /** Whether a parent or guardian decides, or (for a student with none) staff. */
    approverKind: text("approver_kind").$type<"family" | "staff">().notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    decidedBy: text("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    note: text("note"),
    fulfilledBy: text("fulfilled_by"),
    fulfilledAt: timestamp("fulfilled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("reward_redemptions_idempotency_idx").on(table.studentSourcedId, table.idempotencyKey),
    index("reward_redemptions_status_idx").on(table.status, table.createdAt),
    index("reward_redemptions_student_idx").on(table.studentSourcedId, table.createdAt),
  ],
);

/** What a Guide has awarded in a week, checked against the weekly budget as each award is made. */
export const rewardGuideWeeks = pgTable(
  "reward_guide_weeks",
  {
    guideSourcedId: text("guide_sourced_id").notNull(),
    weekStart: date("week_start").notNull(),
    awarded: integer("awarded").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.guideSourcedId, table.weekStart] })],
);
