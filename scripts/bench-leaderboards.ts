import { sql } from "drizzle-orm";
import { placeLeagues } from "../src/server/domains/leaderboards/leagues";
import { addDays, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../src/shared/time-zone";
import {
  figure,
  generateOnce,
  type Measurement,
  measureLoad,
  openBenchDatabase,
  p95Measurement,
  printReport,
  projectRoot,
  readBenchArgs,
  runOnBothDatabases,
  signIn,
  startServer,
  stopChild,
  waitForStartupJobs,
  warmFiles,
} from "./bench-lib";
import { BENCH_PASSWORD, generateSchool } from "./gen-data";

/**
 * Leaderboards on a district of 10,000 students with 180 school days of learning: a student's
 * school leaderboard for this week and this month on one connection, the weekly league job
 * placing every student from last week's standings, and a Guide's class page (every student of the
 * class with a weekly goal and two target goals set two months ago).
 */

const { args, whole } = readBenchArgs({
  students: { type: "string", default: "10000" },
  days: { type: "string", default: "180" },
  duration: { type: "string", default: "10" },
  warmup: { type: "string", default: "2" },
});
const students = whole("students", 1);
const days = whole("days", 1);
const load = { durationSeconds: whole("duration", 1), warmupSeconds: whole("warmup", 0) };

const log = (message: string) => process.stderr.write(`[bench-leaderboards] ${message}\n`);
const today = new Date().toISOString().slice(0, 10);
const LEAGUE_JOB_TARGET_MS = 5_000;
const LEADERBOARD_TARGET_MS = 30;
const CLASS_PAGE_TARGET_MS = 30;
const BENCH_CLASS = "gen-class-1";

interface SuiteResult {
  db: "pglite" | "postgres";
  leagueJobMs: number;
  placed: number;
  measurements: Measurement[];
}

const generate = (env: NodeJS.ProcessEnv, dataDir: string | null) =>
  generateOnce(env, dataDir, `.generated-${students}-${days}-${today}`, async (db) => {
    await generateSchool(db, { students, days, today });
  });

/** Places last week's leagues, then times placing this week's from them (each run places it anew). */
async function timeLeagueJob(env: NodeJS.ProcessEnv, dataDir: string | null) {
  const database = await openBenchDatabase(env, dataDir);
  try {
    const thisWeek = weekStartOf(localDateOf(new Date(), SCHOOL_TIME_ZONE));
    await database.db.execute(
      sql`delete from league_placements where week_start >= ${addDays(thisWeek, -7)}::date`,
    );
    await placeLeagues(database.db, addDays(thisWeek, -7));
    const started = performance.now();
    const placed = await placeLeagues(database.db, thisWeek);
    return { leagueJobMs: performance.now() - started, placed };
  } finally {
    await database.close();
  }
}

/** The bench class's goals, set anew: a weekly goal for the class, and a units and a course goal for each student. */
async function setClassGoals(env: NodeJS.ProcessEnv, dataDir: string | null) {
  const database = await openBenchDatabase(env, dataDir);
  try {
    const startsOn = addDays(today, -60);
    const deadline = addDays(today, 30);
    // A dataset generated before goals existed gets their table, as the server would give it.
    await database.migrate();
    await database.db.execute(sql`delete from goals where class_sourced_id = ${BENCH_CLASS}
      or student_sourced_id in (select user_sourced_id from enrollments where class_sourced_id = ${BENCH_CLASS})`);
    await database.db.execute(sql`insert into goals (kind, class_sourced_id, student_sourced_id, subject, course_sourced_id,
        target, starts_on, deadline, set_by_sourced_id, set_by_role)
      select 'weekly_xp', ${BENCH_CLASS}, null, null, null, 500, ${startsOn}::date, null, 'gen-guide-1', 'teacher'
      union all
      select kind, null, e.user_sourced_id, subject, null, target, ${startsOn}::date, ${deadline}::date, 'gen-guide-1', 'teacher'
      from enrollments e cross join (values ('units', null, 150), ('course', 'Math', 3000)) g (kind, subject, target)
      where e.class_sourced_id = ${BENCH_CLASS} and e.role = 'student'`);
  } finally {
    await database.close();
  }
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: generating ${students} students × ${days} days (reused when already there)…`);
  await generate(env, dataDir);
  if (dataDir) warmFiles(dataDir, log);
  log(`${db}: the weekly league job…`);
  const { leagueJobMs, placed } = await timeLeagueJob(env, dataDir);
  await setClassGoals(env, dataDir);
  const server = await startServer({ projectRoot, env: { ...env, SEED_DEMO: "false" }, timeoutMs: 180_000 });
  try {
    await waitForStartupJobs(
      server,
      await signIn(server.baseUrl, "bench-admin@dash.bench", BENCH_PASSWORD),
      log,
    );
    const measurements: Measurement[] = [];
    const measure = async (name: string, path: string, cookie: string, targetMs: number) => {
      log(`${db}: ${name}…`);
      const result = await measureLoad({
        url: `${server.baseUrl}${path}`,
        headers: { cookie },
        connections: 1,
        ...load,
        serverPgid: server.child.pgid,
      });
      measurements.push(p95Measurement(name, result, targetMs));
    };
    const student = await signIn(server.baseUrl, "bench-student@dash.bench", BENCH_PASSWORD);
    for (const tf of ["week", "month"])
      await measure(
        `a student's school leaderboard, tf=${tf}`,
        `/api/leaderboards?scope=school&tf=${tf}`,
        student,
        LEADERBOARD_TARGET_MS,
      );
    const guide = await signIn(server.baseUrl, "bench-guide@dash.bench", BENCH_PASSWORD);
    await measure(
      "a Guide's class page (30 students, 61 goals)",
      `/api/goals/classes/${BENCH_CLASS}`,
      guide,
      CLASS_PAGE_TARGET_MS,
    );
    return { db, leagueJobMs, placed, measurements };
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  printReport(
    "Leaderboards benchmark",
    `Dataset: ${students} students × ${days} days (school days only, 4 subjects, schools of 1,000), generated by gen:data. One connection; ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s per run.`,
    results.map((suite) => ({
      ...suite,
      otherRows: [
        `| ${suite.db} | the weekly league job, ${suite.placed} students placed | – | ${figure(suite.leagueJobMs, 0)} | – | – | – | < ${LEAGUE_JOB_TARGET_MS} ms | ${suite.leagueJobMs < LEAGUE_JOB_TARGET_MS ? "PASS" : "FAIL"} |`,
      ],
    })),
  );
}

runOnBothDatabases({
  name: "bench-leaderboards",
  args,
  childArgs: [
    `--students=${students}`,
    `--days=${days}`,
    `--duration=${load.durationSeconds}`,
    `--warmup=${load.warmupSeconds}`,
  ],
  runSuite,
  report,
});
