import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export type JobState = "queued" | "running" | "succeeded" | "failed";

/**
 * Every job, queued or scheduled, from its enqueueing to its outcome: the runner's whole state,
 * so a restart loses nothing and any process may take any job. A scheduled run is a job whose
 * key names its period, which is what makes it happen once per period across processes.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    name: text("name").notNull(),
    /** Enqueueing the same name and key again adds nothing. */
    key: text("key"),
    payload: jsonb("payload").notNull().default({}),
    state: text("state").$type<JobState>().notNull().default("queued"),
    /**
     * When the runner next looks at the job: while queued, when it may start (retries wait here);
     * while running, when its lease ends and another process may take it back (its runner died).
     * One column for both keeps the poll to one index range scan.
     */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    /** The runner holding the job while it runs. */
    lockedBy: text("locked_by"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    lastError: text("last_error"),
    /** The administrator who asked for this run, for runs started by hand. */
    requestedBy: text("requested_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("jobs_name_key_idx").on(table.name, table.key),
    index("jobs_due_idx").on(table.dueAt).where(sql`${table.state} in ('queued', 'running')`),
    // The latest run of each job, for the Operations page.
    index("jobs_name_started_idx").on(table.name, table.startedAt),
    // Counts of unfinished and failed jobs, without reading the succeeded ones.
    index("jobs_open_name_idx").on(table.name).where(sql`${table.state} in ('queued', 'running', 'failed')`),
    index("jobs_finished_idx").on(table.finishedAt),
  ],
);
