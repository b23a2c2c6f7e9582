import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { HeldEventStatus } from "../../../shared/contracts/activity";
import type { AppKind } from "../../../shared/contracts/learning-apps";
import { users } from "../rostering/schema";

/** Learning apps that report activity, registered by administrators. */
export const learningApps = pgTable("learning_apps", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** `learning` for an app that reports activity, `agent` for the monitoring agent that reports incidents. */
  kind: text("kind").$type<AppKind>().notNull().default("learning"),
  subjects: text("subjects").array().notNull().default(sql`'{}'::text[]`),
  launchUrl: text("launch_url"),
  icon: text("icon"),
  isActive: boolean("is_active").notNull().default(true),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** An app's API keys. The secret is shown once; only its SHA-256 is kept, with a prefix to recognise it. */
export const appApiKeys = pgTable(
  "app_api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id")
      .notNull()
      .references(() => learningApps.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("app_api_keys_hash_idx").on(table.keyHash),
    index("app_api_keys_app_idx").on(table.appId),
  ],
);

/**
 * Every accepted activity event as the app reported it, with the XP it earned and why. An app's
 * event id is counted once: replays of the same id are duplicates.
 */
export const activityEvents = pgTable(
  "activity_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id").notNull(),
    eventId: text("event_id").notNull(),
    studentSourcedId: text("student_sourced_id").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    /** The day of the event in the student's timezone. */
    localDate: date("local_date").notNull(),
    subject: text("subject").notNull(),
    activityId: text("activity_id"),
    activityName: text("activity_name"),
    /** The app's learning session, which a focus incident may name: its XP can be voided with it. */
    sessionId: text("session_id"),
    expectedXp: numeric("expected_xp", { precision: 10, scale: 2, mode: "number" }),
    totalQuestions: integer("total_questions").notNull().default(0),
    correctQuestions: integer("correct_questions").notNull().default(0),
    masteredUnits: integer("mastered_units").notNull().default(0),
    /** A test's score in percent, when the event was a scored test. */
    scorePercent: numeric("score_percent", { precision: 5, scale: 2, mode: "number" }),
    activeSeconds: integer("active_seconds").notNull().default(0),
    inactiveSeconds: integer("inactive_seconds").notNull().default(0),
    wasteSeconds: integer("waste_seconds").notNull().default(0),
    antiPatternSeconds: integer("anti_pattern_seconds").notNull().default(0),
    attempt: integer("attempt").notNull().default(1),
    awardedXp: numeric("awarded_xp", { precision: 10, scale: 2, mode: "number" }).notNull(),
    xpExplanation: text("xp_explanation").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("activity_events_app_event_idx").on(table.appId, table.eventId),
    index("activity_events_student_day_idx").on(table.studentSourcedId, table.localDate),
    index("activity_events_session_idx")
      .on(table.studentSourcedId, table.sessionId)
      .where(sql`${table.sessionId} is not null`),
    // The events that earn Alphas (mastered units, scored tests), found by day by the earning rules.
    index("activity_events_earning_day_idx")
      .on(table.localDate)
      .where(sql`${table.masteredUnits} > 0 or ${table.scorePercent} is not null`),
  ],
);

/**
 * The XP ledger: append-only, one row per award or deduction, each with its reason and an
 * idempotency key so a retried request never counts twice. Balances are sums.
 */
export const xpLedger = pgTable(
  "xp_ledger",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id").notNull(),
    amount: numeric("amount", { precision: 10, scale: 2, mode: "number" }).notNull(),
    reason: text("reason").notNull(),
    source: text("source").$type<"activity" | "manual" | "integrity">().notNull(),
    activityEventId: uuid("activity_event_id"),
    actorSourcedId: text("actor_sourced_id"),
    localDate: date("local_date").notNull(),
    subject: text("subject").notNull(),
    appId: uuid("app_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("xp_ledger_idempotency_idx").on(table.idempotencyKey),
    index("xp_ledger_student_day_idx").on(table.studentSourcedId, table.localDate),
    // XP voided after focus incidents, found by event so an event is voided once at a time.
    index("xp_ledger_integrity_event_idx")
      .on(table.activityEventId)
      .where(sql`${table.source} = 'integrity'`),
  ],
);

/**
 * Per student, day (in the student's timezone), subject and app: the running totals, kept up to
 * date as events and awards arrive so reads never scan raw events. Manual awards use app key "manual".
 */
export const dailyStudentMetrics = pgTable(
  "daily_student_metrics",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    localDate: date("local_date").notNull(),
    subject: text("subject").notNull(),
    appKey: text("app_key").notNull(),
    xp: numeric("xp", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
    activeSeconds: integer("active_seconds").notNull().default(0),
    wasteSeconds: integer("waste_seconds").notNull().default(0),
    totalQuestions: integer("total_questions").notNull().default(0),
    correctQuestions: integer("correct_questions").notNull().default(0),
    masteredUnits: integer("mastered_units").notNull().default(0),
    events: integer("events").notNull().default(0),
    lastEventAt: timestamp("last_event_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.studentSourcedId, table.localDate, table.subject, table.appKey] }),
    // Every student's totals of one day, for the nightly earning rules and reports.
    index("daily_student_metrics_day_idx").on(table.localDate),
  ],
);

/**
 * Each student's day in one row: the daily totals of every subject and app added up, with the XP
 * of each subject (`{"Math": 35.5}`) for the daily goals. What reports over many students read: a
 * district's month is a row per student and day instead of one per subject and app. Kept by
 * triggers on the daily totals (migration 0033) that add each statement's change, so concurrent
 * writers of one student's day never conflict; a day whose totals are all deleted goes too.
 */
export const studentDailyTotals = pgTable(
  "student_daily_totals",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    localDate: date("local_date").notNull(),
    xp: numeric("xp", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
    activeSeconds: integer("active_seconds").notNull().default(0),
    wasteSeconds: integer("waste_seconds").notNull().default(0),
    totalQuestions: integer("total_questions").notNull().default(0),
    correctQuestions: integer("correct_questions").notNull().default(0),
    masteredUnits: integer("mastered_units").notNull().default(0),
    events: integer("events").notNull().default(0),
    subjectXp: jsonb("subject_xp").notNull().default({}),
    /**
     * Whether the day met every daily goal, as the goals stand (`daily_goals_met`, the goals
     * domain's rule in SQL): kept when the day's totals change and when a student's or the
     * school's goals change (migration 0034).
     */
    goalsMet: boolean("goals_met").notNull().default(false),
    /** Daily-total rows added up here; at zero the row goes. */
    metricRows: integer("metric_rows").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.studentSourcedId, table.localDate] }),
    index("student_daily_totals_day_idx").on(table.localDate),
  ],
);

/**
 * Each student's week (from Sunday) and month added up from their days: what the week and month
 * reports read for a whole district, a row per student instead of one per day. Kept by triggers
 * on `student_daily_totals` (migration 0034) that add each change, as that table is kept.
 */
export const studentPeriodTotals = pgTable(
  "student_period_totals",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    /** `week` or `month`. */
    period: text("period").notNull(),
    startsOn: date("starts_on").notNull(),
    /** Days added up here; at zero the row goes. */
    days: integer("days").notNull().default(0),
    /** Days with time on task or an event. */
    daysLearned: integer("days_learned").notNull().default(0),
    goalDays: integer("goal_days").notNull().default(0),
    xp: numeric("xp", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
    activeSeconds: integer("active_seconds").notNull().default(0),
    wasteSeconds: integer("waste_seconds").notNull().default(0),
    totalQuestions: integer("total_questions").notNull().default(0),
    correctQuestions: integer("correct_questions").notNull().default(0),
    masteredUnits: integer("mastered_units").notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.studentSourcedId, table.period, table.startsOn] }),
    index("student_period_totals_period_idx").on(table.period, table.startsOn),
  ],
);

/**
 * Each student's XP per subject for their week (from Sunday), their month and all time, counted by
 * their own days: what leaderboards and weekly goals rank and measure, one row a student instead of
 * a row per day and app. Kept by triggers on the daily totals (migration 0019), so every writer of
 * those totals keeps it, in the same statement.
 */
export const studentXpPeriods = pgTable(
  "student_xp_periods",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    /** `week`, `month` or `all`. */
    period: text("period").notNull(),
    /** The period's first day; all time starts on 2000-01-01. */
    startsOn: date("starts_on").notNull(),
    subject: text("subject").notNull(),
    xp: numeric("xp", { precision: 14, scale: 2, mode: "number" }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.period, table.startsOn, table.subject] })],
);

/**
 * Per student and day (their own calendar): the active seconds recorded and the XP credited
 * without a person's review, the figures the plausibility caps are checked against. A batch locks
 * the rows of its student-days while it checks and writes, so concurrent batches cannot together
 * pass a cap. Held events count their seconds here while pending or approved.
 */
export const dailyIngestTotals = pgTable(
  "daily_ingest_totals",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    localDate: date("local_date").notNull(),
    activeSeconds: integer("active_seconds").notNull().default(0),
    autoCreditedXp: numeric("auto_credited_xp", { precision: 12, scale: 2, mode: "number" })
      .notNull()
      .default(0),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.localDate] })],
);

/**
 * Events that would have taken a student-day past the XP it may earn without review: stored with
 * the XP they would earn and why they were held, credited only when a person approves them.
 */
export const heldActivityEvents = pgTable(
  "held_activity_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id").notNull(),
    eventId: text("event_id").notNull(),
    studentSourcedId: text("student_sourced_id").notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    localDate: date("local_date").notNull(),
    subject: text("subject").notNull(),
    activityName: text("activity_name"),
    /** The event as checked (Dash's plain form), so approval stores exactly what was reviewed. */
    fact: jsonb("fact").notNull(),
    xp: numeric("xp", { precision: 10, scale: 2, mode: "number" }).notNull(),
    xpExplanation: text("xp_explanation").notNull(),
    heldReason: text("held_reason").notNull(),
    status: text("status").$type<HeldEventStatus>().notNull().default("pending"),
    reviewerSourcedId: text("reviewer_sourced_id"),
    reviewNote: text("review_note"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex("held_activity_events_app_event_idx").on(table.appId, table.eventId),
    index("held_activity_events_status_idx").on(table.status, table.receivedAt),
    index("held_activity_events_student_day_idx").on(table.studentSourcedId, table.localDate),
  ],
);

/**
 * Each student's home summary (today per subject against the goals, the week, the streak, the last
 * activity) as of `local_date`, the student's day in `timezone`. Every change to the student's
 * daily totals adds one to `revision` and rewrites a kept summary in the same transaction, so a
 * home is read, not recomputed. A summary of another day or timezone, or none, is computed on the
 * next read and stored only if `revision` did not move meanwhile. Name and grades are read live.
 */
export const studentHomeSummaries = pgTable("student_home_summaries", {
  studentSourcedId: text("student_sourced_id")
    .primaryKey()
    .references(() => users.sourcedId, { onDelete: "cascade" }),
  revision: integer("revision").notNull().default(0),
  localDate: date("local_date"),
  timezone: text("timezone"),
  summary: jsonb("summary"),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each request a learning app made to ingest activity: what it brought and what became of it, for
 * the webhook monitor's log beside the deliveries. Reasons are counted, not the events themselves.
 */
export const ingestRequests = pgTable(
  "ingest_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    appId: uuid("app_id").notNull(),
    /** activity or caliper. */
    endpoint: text("endpoint").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer("status_code").notNull(),
    accepted: integer("accepted").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    rejected: integer("rejected").notNull().default(0),
    /** Each reason of a rejection (or of a refused request) with how many events it turned away. */
    reasons: jsonb("reasons").notNull().default(sql`'{}'::jsonb`),
    durationMs: integer("duration_ms").notNull(),
  },
  (table) => [index("ingest_requests_app_idx").on(table.appId, table.receivedAt)],
);
