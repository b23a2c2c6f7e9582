import { bigserial, index, jsonb, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { SensitiveAccessKind } from "../../../shared/contracts/privacy";

/**
 * Every access to sensitive data (viewing Dash as someone, exporting a student's data, revealing a
 * credential, opening incident evidence, anonymising): who, as whom, about whom, when. Append-only;
 * `detail` is written at the time, without names, so it reads right after names change.
 */
export const sensitiveAccessLog = pgTable(
  "sensitive_access_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Order of writing, for entries made within the same instant. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /** Whose rights were used: the person viewed as, while viewing Dash as someone else. */
    actorSourcedId: text("actor_sourced_id").notNull(),
    /** Who signed in. */
    realActorSourcedId: text("real_actor_sourced_id").notNull(),
    /** The person whose data was reached. */
    personSourcedId: text("person_sourced_id"),
    kind: text("kind").$type<SensitiveAccessKind>().notNull(),
    detail: text("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("sensitive_access_log_created_idx").on(table.createdAt),
    index("sensitive_access_log_person_idx").on(table.personSourcedId, table.createdAt),
  ],
);

/**
 * Students whose personal data was removed: the record that it happened (who, when, why) and the
 * number in their new name, "Former student 0007". Kept for good, as proof of the erasure; it holds
 * no personal data itself.
 */
export const studentAnonymisations = pgTable("student_anonymisations", {
  studentSourcedId: text("student_sourced_id").primaryKey(),
  number: serial("number").notNull(),
  actorSourcedId: text("actor_sourced_id").notNull(),
  reason: text("reason").notNull(),
  anonymisedAt: timestamp("anonymised_at", { withTimezone: true }).notNull(),
});

/**
 * The daily retention run, one row per job: claimed with one UPDATE so that only one process runs
 * it each day, whatever the restarts.
 */
export const retentionRuns = pgTable("retention_runs", {
  job: text("job").primaryKey(),
  /** Null until the first run. */
  startedAt: timestamp("started_at", { withTimezone: true }),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  removed: jsonb("removed").$type<Record<string, number>>(),
});
