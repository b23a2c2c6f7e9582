import { sql } from "drizzle-orm";
import type { Database } from "../src/server/db/client";
import { queryRows } from "../src/server/db/client";
import {
  deliverWeeklyPulses,
  PULSE_SCHEDULE,
  weekClosedOn,
} from "../src/server/domains/families/pulse-delivery";
import { buildPulses } from "../src/server/domains/families/pulse-figures";
import { latestOccurrence } from "../src/server/platform/jobs/schedule";
import { localDateOf, SCHOOL_TIME_ZONE } from "../src/shared/time-zone";
import {
  figure,
  generateOnce,
  openBenchDatabase,
  printReport,
  readBenchArgs,
  runOnBothDatabases,
} from "./bench-lib";
import { generateSchool } from "./gen-data";

/**
 * The weekly parent pulse for a district of families: every family's children's digests of the
 * week built (set-based, as the weekly job builds them), then the whole Friday run of the job:
 * digests built, each family told in the app and by email with its digest, deliveries recorded;
 * then the run again, which tells no one. Every other family has a second child, and every child
 * six weeks of daily totals and a few Alphas a week. Target: the digests of 10,000 families in
 * under 60 s, on PGlite and on PostgreSQL.
 *   tsx scripts/bench-pulse.ts [--families 10000] [--only pglite|postgres]
 */

const { args, whole } = readBenchArgs({ families: { type: "string", default: "10000" } });
const families = whole("families", 1);
const children = families + Math.floor(families / 2);
const TARGET_SECONDS = 60;
const DAYS = 42;
const log = (message: string) => process.stderr.write(`[bench-pulse] ${message}\n`);

/** The latest Friday afternoon run of the job (15:00 in the school's time zone), and half an hour after it. */
function lastFridayRun(): Date {
  let run = latestOccurrence(PULSE_SCHEDULE, new Date());
  while (new Date(`${run.key}T12:00:00Z`).getUTCDay() !== 5)
    run = latestOccurrence(PULSE_SCHEDULE, new Date(run.at.getTime() - 60_000));
  return new Date(run.at.getTime() + 30 * 60_000);
}

/** Families of one or two children, parents who read email, and Alphas earned and spent each week. */
async function fillFamilies(db: Database, today: string) {
  await generateSchool(db, { students: children, days: DAYS, today, parents: families });
  await db.execute(sql`insert into user_agents (user_sourced_id, agent_sourced_id)
    select 'gen-student-' || (${families}::int + k), 'gen-parent-' || k
    from generate_series(1, ${children - families}::int) k`);
  await db.execute(sql`update users set email = 'parent-' || substr(sourced_id, 12) || '@dash.bench'
    where sourced_id like 'gen-parent-%'`);
  await db.execute(sql`insert into reward_ledger (student_sourced_id, account, amount, kind, reason, actor_key,
      idempotency_key, rule_key, period, created_at)
    select 'gen-student-' || s, 'spending', case when n % 4 = 0 then -(n % 7) - 1 else 5 + n % 10 end,
      case when n % 4 = 0 then 'payout' else 'earn' end, 'Benchmark', 'dash', 'bench-pulse:' || s || ':' || n,
      'bench-pulse', s || ':' || n, ${today}::date - (n * 2) + time '14:00'
    from generate_series(1, ${children}::int) s cross join generate_series(1, 21) n`);
  await db.execute(sql`vacuum analyze`);
}

interface SuiteResult {
  db: "pglite" | "postgres";
  week: string;
  build: { seconds: number; pulses: number };
  run: { seconds: number; families: number; children: number; told: number; mails: number };
  again: { seconds: number; families: number };
}

const seconds = (started: number) => (performance.now() - started) / 1000;

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  const friday = lastFridayRun();
  const today = localDateOf(friday, SCHOOL_TIME_ZONE);
  const week = weekClosedOn(today);
  log(`${db}: ${families} families, ${children} children, ${DAYS} days of totals (generated once)…`);
  const generated = await generateOnce(env, dataDir, `.generated-pulse-${families}-${today}`, (database) =>
    fillFamilies(database, today),
  );
  if (generated !== null) log(`${db}: generated in ${figure(generated, 1)} s`);
  const database = await openBenchDatabase(env, dataDir);
  const live = { publish: async () => {} };
  try {
    const clear = async () => {
      await database.db.execute(sql`delete from weekly_pulses`);
      await database.db.execute(sql`delete from pulse_deliveries`);
      await database.db.execute(sql`delete from notifications where type = 'pulse.ready'`);
      await database.db.execute(sql`delete from email_outbox where category = 'pulse.ready'`);
    };
    await clear();
    const childIds = (
      await queryRows<{ id: string }>(
        database.db,
        sql`select distinct user_sourced_id as id from user_agents order by 1`,
      )
    ).map((row) => row.id);

    log(`${db}: building the digests of the week of ${week} for ${childIds.length} children…`);
    let started = performance.now();
    const built = await buildPulses(database.db, childIds, week, friday);
    const build = { seconds: seconds(started), pulses: built.size };
    log(`${db}: ${figure(build.seconds)} s`);

    await clear();
    log(`${db}: the job's Friday run: digests, notifications and mail for every family…`);
    started = performance.now();
    const delivery = await deliverWeeklyPulses({ db: database.db, live }, friday);
    const runSeconds = seconds(started);
    const [mails] = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from email_outbox where category = 'pulse.ready'`,
    );
    const run = { seconds: runSeconds, ...delivery, mails: mails?.count ?? 0 };
    log(`${db}: ${figure(run.seconds)} s, ${run.told} families told, ${run.mails} mails queued`);

    started = performance.now();
    const second = await deliverWeeklyPulses({ db: database.db, live }, friday);
    const again = { seconds: seconds(started), families: second.families };
    log(`${db}: again in ${figure(again.seconds)} s, ${again.families} families told`);
    return { db, week, build, run, again };
  } finally {
    await database.close();
  }
}

function report(results: SuiteResult[]) {
  const row = (suite: SuiteResult, what: string, value: number, passed: boolean | null) =>
    `| ${suite.db} | ${what} | – | ${figure(value * 1000, 0)} | – | – | 0 | < ${TARGET_SECONDS} s | ${passed === null ? "" : passed ? "PASS" : "FAIL"} |`;
  printReport(
    "Weekly parent pulse benchmark",
    `Dataset: ${families} families (${children} children: every other family has two), ${DAYS} days of daily totals per child and subject, 21 Alphas movements per child; the week of ${results[0]?.week ?? "–"}. Times in the p50 column.`,
    results.map((suite) => ({
      db: suite.db,
      measurements: [],
      otherRows: [
        row(
          suite,
          `digests of ${families} families built: ${suite.build.pulses} children's pulses in ${figure(suite.build.seconds)} s`,
          suite.build.seconds,
          suite.build.seconds < TARGET_SECONDS,
        ),
        row(
          suite,
          `the job's Friday run: built, ${suite.run.told} of ${suite.run.families} families told, ${suite.run.mails} mails queued, in ${figure(suite.run.seconds)} s`,
          suite.run.seconds,
          suite.run.seconds < TARGET_SECONDS,
        ),
        row(
          suite,
          `the run again: ${suite.again.families} families told, in ${figure(suite.again.seconds)} s`,
          suite.again.seconds,
          suite.again.families === 0,
        ),
      ],
    })),
  );
}

runOnBothDatabases({
  name: "bench-pulse",
  args,
  childArgs: [`--families=${families}`],
  runSuite,
  report,
});
