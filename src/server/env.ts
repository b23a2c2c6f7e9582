import { availableParallelism } from "node:os";
import { z } from "zod";
import { DEFAULT_INGEST_LIMITS } from "../shared/contracts/activity";
import { DEMO_FIRST_SCHOOL_ID } from "./seed/demo-accounts";

const optionalFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .optional()
  .transform((value) => (value === undefined ? undefined : ["true", "1", "yes"].includes(value)));
const booleanFlag = (fallback: boolean) => optionalFlag.transform((value) => value ?? fallback);

export const MIN_SECRET_KEY_LENGTH = 32;

const postgresUrl = (name: string) =>
  z.string().regex(/^postgres(ql)?:\/\//, `${name} must start with postgres:// or postgresql://`);

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: postgresUrl("DATABASE_URL").optional(),
    // Behind a pooler in transaction mode (PgBouncer), the server itself, for what needs a whole
    // connection: migrations and LISTEN. Unset, DATABASE_URL.
    DATABASE_DIRECT_URL: postgresUrl("DATABASE_DIRECT_URL").optional(),
    // A streaming replica for reads that tolerate a second of lag (learning metrics, the heatmap).
    DATABASE_READ_URL: postgresUrl("DATABASE_READ_URL").optional(),
    // Named prepared statements on PostgreSQL. Unset, on unless DATABASE_DIRECT_URL says that
    // DATABASE_URL is a pooler (PgBouncer before 1.21 cannot carry them in transaction mode).
    DATABASE_PREPARED_STATEMENTS: optionalFlag,
    // The embedded database's own thread lets it and the HTTP work use two cores; `main` keeps it
    // on the server's thread (see docs/decisions/013-embedded-database-in-a-worker-thread.md).
    EMBEDDED_DATABASE_THREAD: z.enum(["worker", "main"]).default("worker"),
    // Unset, it follows NODE_ENV: a production server seeds the demo school only when asked to.
    SEED_DEMO: optionalFlag,
    DASH_SECRET_KEY: z
      .string()
      .min(
        MIN_SECRET_KEY_LENGTH,
        `DASH_SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters (for example the output of \`openssl rand -base64 32\`)`,
      )
      .optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    TRUST_PROXY: booleanFlag(false),
    SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(120),
    SESSION_MAX_HOURS: z.coerce.number().int().positive().default(168),
    LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
    LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(30),
    LOGIN_THROTTLE_MINUTES: z.coerce.number().int().positive().default(15),
    SUPPORT_URL: z.url().default("https://support.dash.school"),
    IMPERSONATION_MINUTES: z.coerce.number().int().positive().default(60),
    CLASS_LEADERBOARD_ORG: z.string().min(1).default(DEMO_FIRST_SCHOOL_ID),
    INGEST_MAX_XP_PER_EVENT: z.coerce.number().positive().default(DEFAULT_INGEST_LIMITS.maxXpPerEvent),
    INGEST_MAX_ACTIVE_SECONDS_PER_EVENT: z.coerce
      .number()
      .int()
      .positive()
      .max(86_400)
      .default(DEFAULT_INGEST_LIMITS.maxActiveSecondsPerEvent),
    INGEST_MAX_ACTIVE_SECONDS_PER_DAY: z.coerce
      .number()
      .int()
      .positive()
      .max(86_400, "a day has at most 86400 seconds")
      .default(DEFAULT_INGEST_LIMITS.maxActiveSecondsPerDay),
    INGEST_MAX_AUTO_XP_PER_DAY: z.coerce.number().positive().default(DEFAULT_INGEST_LIMITS.maxAutoXpPerDay),
    INGEST_MAX_PAST_DAYS: z.coerce.number().int().positive().default(DEFAULT_INGEST_LIMITS.maxPastDays),
    INGEST_MAX_FUTURE_MINUTES: z.coerce.number().int().min(0).default(DEFAULT_INGEST_LIMITS.maxFutureMinutes),
    // Set, files go to this bucket of an S3-compatible service instead of DATA_DIR/files.
    STORAGE_S3_BUCKET: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "STORAGE_S3_BUCKET must be a bucket name (3 to 63 characters)",
      )
      .optional(),
    STORAGE_S3_ENDPOINT: z.url().optional(),
    STORAGE_S3_REGION: z.string().min(1).default("us-east-1"),
    STORAGE_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    STORAGE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    STORAGE_S3_FORCE_PATH_STYLE: booleanFlag(false),
    // Unset, GET /metrics does not exist.
    METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
    BACKUP_KEEP: z.coerce.number().int().min(0).default(14),
    BACKUP_HOUR: z.coerce
      .number()
      .int()
      .min(0)
      .max(23, "BACKUP_HOUR is an hour of the day, 0 to 23")
      .default(2),
    // Mail goes to this SMTP server (smtp://user:password@host:587, smtps:// for TLS from the start).
    // Unset, mail is kept in the outbox that administrators read (admin/messaging, Sent).
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, "SMTP_URL must start with smtp:// or smtps://")
      .optional(),
    MAIL_FROM: z.string().trim().min(3).default("Dash <no-reply@dash.school>"),
    // The address people reach Dash at, for the links in mail. Unset, http://localhost:<PORT>.
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    // Also send Dash's own analytics events to this host (a POST of JSON batches). Unset, they stay in Dash.
    ANALYTICS_FORWARD_URL: z.url({ protocol: /^https?$/ }).optional(),
    // Unset, it follows the database: one process per core on PostgreSQL, one on the embedded one.
    WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  })
  .refine((env) => env.DATABASE_URL || (!env.DATABASE_DIRECT_URL && !env.DATABASE_READ_URL), {
    message: "DATABASE_DIRECT_URL and DATABASE_READ_URL need DATABASE_URL",
    path: ["DATABASE_URL"],
  })
  .refine(
    (env) =>
      (env.STORAGE_S3_ACCESS_KEY_ID === undefined) === (env.STORAGE_S3_SECRET_ACCESS_KEY === undefined),
    {
      path: ["STORAGE_S3_SECRET_ACCESS_KEY"],
      message: "set both STORAGE_S3_ACCESS_KEY_ID and STORAGE_S3_SECRET_ACCESS_KEY, or neither",
    },
  )
  .superRefine((env, context) => {
    if (env.WORKERS !== undefined && env.WORKERS > 1 && !env.DATABASE_URL) {
      context.addIssue({
        code: "custom",
        path: ["WORKERS"],
        message:
          "more than one server process needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process",
      });
    }
  })
  .transform(({ SEED_DEMO, WORKERS, PUBLIC_URL, ...env }) => ({
    ...env,
    PUBLIC_URL: (PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    SEED_DEMO: SEED_DEMO ?? env.NODE_ENV !== "production",
    WORKERS: WORKERS ?? (env.DATABASE_URL ? availableParallelism() : 1),
  }));

export type Env = z.output<typeof envSchema>;

/** The only reader of process.env: parses once and fails fast with a readable message. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable (`DATABASE_URL=`) means "not set", as shells and .env files use it.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${problems.join("\n")}`);
  }
  return parsed.data;
}
