import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import type { Database } from "../src/server/db/client";
import {
  figure,
  generateOnce,
  type LoadResult,
  measureLoad,
  projectRoot,
  runOnBothDatabases,
  signIn,
  startServer,
  stopChild,
} from "./bench-lib";
import { BENCH_PASSWORD, generateSchool } from "./gen-data";

/**
 * The Alphas under load: students requesting items from the emporium at a sustained rate, and a
 * student's account and store, on a district of students with a year of ledger each.
 */

const { values: args } = parseArgs({
  options: {
    students: { type: "string", default: "10000" },
    "entries-per-student": { type: "string", default: "200" },
    shoppers: { type: "string", default: "40" },
    rate: { type: "string", default: "200" },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    only: { type: "string" },
    "postgres-child": { type: "boolean", default: false },
    "result-file": { type: "string" },
  },
});
const students = Number(args.students);
const entriesPerStudent = Number(args["entries-per-student"]);
const shoppers = Number(args.shoppers);
const rate = Number(args.rate);
const load = { durationSeconds: Number(args.duration), warmupSeconds: Number(args.warmup) };
const log = (message: string) => process.stderr.write(`[bench-rewards] ${message}\n`);

const BENCH_ITEM = "00000000-0000-4000-8000-00000000be01";
const STUDENTS_PER_STATEMENT = 1000;

/** A year of earnings for every student, the account totals that match, and a store. */
async function fillRewards(db: Database) {
  for (let first = 1; first <= students; first += STUDENTS_PER_STATEMENT) {
    const last = Math.min(students, first + STUDENTS_PER_STATEMENT - 1);
    await db.execute(sql`insert into reward_ledger (student_sourced_id, account, amount, kind, reason, actor_key,
        idempotency_key, rule_key, period, created_at)
      select 'gen-student-' || s, 'spending', 1 + (n % 20), 'earn', 'Benchmark earning', 'dash',
        'bench:' || s || ':' || n, 'bench', n::text, now() - make_interval(hours => n * 43)
      from generate_series(${first}::int, ${last}::int) s cross join generate_series(1, ${entriesPerStudent}::int) n`);
  }
  await db.execute(sql`insert into reward_accounts (student_sourced_id, balance)
    select student_sourced_id, sum(amount) from reward_ledger group by student_sourced_id`);
  await db.execute(sql`insert into reward_items (id, name, price, category, stock, sort_order)
    values (${BENCH_ITEM}::uuid, 'Benchmark sticker', 1, 'Treats', null, 1)`);
  await db.execute(sql`insert into reward_items (name, price, category, stock)
    select 'Item ' || i, 10 * i, (array['Treats', 'Privileges', 'Experiences'])[1 + i % 3], case when i % 2 = 0 then 100 end
    from generate_series(1, 30) i`);
}

const generate = (env: NodeJS.ProcessEnv, dataDir: string | null) =>
  generateOnce(env, dataDir, `.generated-${students}-${entriesPerStudent}`, async (db) => {
    await generateSchool(db, {
      students,
      days: 1,
      today: new Date().toISOString().slice(0, 10),
      everyoneSignsIn: true,
    });
    await fillRewards(db);
  });

interface Measurement {
  name: string;
  target: string;
  passed: boolean;
  result: LoadResult;
}
interface SuiteResult {
  db: "pglite" | "postgres";
  entries: number;
  measurements: Measurement[];
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(
    `${db}: ${students} students with ${entriesPerStudent} ledger entries each (reused when already there)…`,
  );
  await generate(env, dataDir);
  const server = await startServer({ projectRoot, env: { ...env, SEED_DEMO: "false" }, timeoutMs: 180_000 });
  try {
    log(`${db}: signing in ${shoppers} students…`);
    const cookies: string[] = [];
    for (let student = 1; student <= shoppers; student++)
      cookies.push(
        await signIn(
          server.baseUrl,
          student === 1 ? "bench-student@dash.bench" : `student-${student}@dash.bench`,
          BENCH_PASSWORD,
        ),
      );
    const [first] = cookies as [string];
    const base = server.baseUrl;
    const probe = await fetch(`${base}/api/rewards/students/gen-student-1/ledger?limit=1`, {
      headers: { cookie: first },
    });
    const entries = ((await probe.json()) as { total: number }).total;
    let next = 0;
    const measurements: Measurement[] = [];

    log(`${db}: ${rate} redemptions a second from ${shoppers} students…`);
    const redemptions = await measureLoad({
      url: `${base}/api/rewards/redemptions`,
      method: "POST",
      headers: { "content-type": "application/json" },
      makeHeaders: () => ({ cookie: cookies[next++ % cookies.length] as string }),
      makeBody: () => JSON.stringify({ itemId: BENCH_ITEM, idempotencyKey: randomUUID() }),
      connections: 20,
      overallRate: rate,
      ...load,
      serverPgid: server.child.pgid,
    });
    const sustained = redemptions.requestsPerSecond >= rate * 0.95;
    measurements.push({
      name: `redemptions at ${rate}/s`,
      target: `${rate}/s sustained, p95 < 50 ms`,
      passed: sustained && redemptions.failures === 0 && redemptions.p95 < 50,
      result: redemptions,
    });

    log(`${db}: redemptions as fast as they are answered…`);
    const flat = await measureLoad({
      url: `${base}/api/rewards/redemptions`,
      method: "POST",
      headers: { "content-type": "application/json" },
      makeHeaders: () => ({ cookie: cookies[next++ % cookies.length] as string }),
      makeBody: () => JSON.stringify({ itemId: BENCH_ITEM, idempotencyKey: randomUUID() }),
      connections: 20,
      ...load,
      serverPgid: server.child.pgid,
    });
    measurements.push({
      name: "redemptions, flat out",
      target: "(capacity)",
      passed: flat.failures === 0,
      result: flat,
    });

    for (const [name, path] of [
      ["a student's account", "/api/rewards/students/gen-student-1/account"],
      ["a student's store", "/api/rewards/items"],
      ["a student's ledger, first page", "/api/rewards/students/gen-student-1/ledger?limit=20"],
    ] as const) {
      log(`${db}: ${name}…`);
      const result = await measureLoad({
        url: `${base}${path}`,
        headers: { cookie: first },
        connections: 4,
        ...load,
        serverPgid: server.child.pgid,
      });
      const maxP95 = path.includes("ledger") ? 50 : 20;
      measurements.push({
        name,
        target: `p95 < ${maxP95} ms`,
        passed: result.failures === 0 && result.p95 < maxP95,
        result,
      });
    }
    return { db, entries, measurements };
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  const lines = [
    "",
    `## Rewards benchmark (${new Date().toISOString()})`,
    "",
    `Dataset: ${students} students with ${entriesPerStudent} ledger entries each (${(students * entriesPerStudent).toLocaleString("en")} in all), 31 store items. Redemptions come from ${shoppers} signed-in students in turn: started evenly at the rate (as people arrive), then flat out over 20 connections; reads over 4. ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s per run.`,
    "",
    "| Database | Request | req/s | p50 ms | p95 ms | p99 ms | failed | CPU cores (server / others) | target | |",
    "|---|---|---:|---:|---:|---:|---:|---|---|---|",
  ];
  for (const suite of results)
    for (const { name, target, passed, result } of suite.measurements) {
      const cpu = result.cpu ? `${figure(result.cpu.server, 2)} / ${figure(result.cpu.others, 2)}` : "–";
      lines.push(
        `| ${suite.db} | ${name} | ${figure(result.requestsPerSecond, 0)} | ${figure(result.p50)} | ${figure(result.p95)} | ${figure(result.p99)} | ${result.failures} | ${cpu} | ${target} | ${passed ? "PASS" : "FAIL"} |`,
      );
    }
  console.log(lines.join("\n"));
}

runOnBothDatabases({
  name: "bench-rewards",
  args,
  childArgs: [
    `--students=${students}`,
    `--entries-per-student=${entriesPerStudent}`,
    `--shoppers=${shoppers}`,
    `--rate=${rate}`,
    `--duration=${load.durationSeconds}`,
    `--warmup=${load.warmupSeconds}`,
  ],
  runSuite,
  report,
});
