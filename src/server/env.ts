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

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must start with postgres:// or postgresql://")
      .optional(),
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
    // Unset, it follows the database: one process per core on PostgreSQL, one on the embedded one.
    WORKERS: z.coerce.number().int().min(1).max(256).optional(),
  })
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
  .transform(({ SEED_DEMO, WORKERS, ...env }) => ({
    ...env,
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
