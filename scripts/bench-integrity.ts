import { randomBytes, randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { hashSecret } from "../src/server/lib/secrets";
import {
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
 * Integrity on one school of 10,000 students with 30,000 incidents (5,000 waiting for review):
 * the monitoring agents reporting 500 incidents a second, each with a 100 KB screenshot, started
 * at an even pace; and the review queue of the school's proctor and of the district's
 * administrator, a page of 50 with its total, on one connection.
 */

const { args, whole } = readBenchArgs({
  students: { type: "string", default: "10000" },
  incidents: { type: "string", default: "30000" },
  rate: { type: "string", default: "500" },
  duration: { type: "string", default: "10" },
  warmup: { type: "string", default: "2" },
});
const students = whole("students", 1);
const incidents = whole("incidents", 1);
const rate = whole("rate", 1);
const load = { durationSeconds: whole("duration", 1), warmupSeconds: whole("warmup", 0) };

const log = (message: string) => process.stderr.write(`[bench-integrity] ${message}\n`);
const today = new Date().toISOString().slice(0, 10);
const AGENT_KEY = "bench-agent-key";
const QUEUE_TARGET_MS = 50;
const SCREENSHOT_BYTES = 100 * 1024;
// Enough connections that a slow answer never holds back the pace.
const INTAKE_CONNECTIONS = 50;

interface SuiteResult {
  db: "pglite" | "postgres";
  measurements: Measurement[];
}

/** The school, a proctor of it, the agent and its key, and the incidents already reported and reviewed. */
const generate = (env: NodeJS.ProcessEnv, dataDir: string | null) =>
  generateOnce(env, dataDir, `.generated-${students}-${incidents}`, async (db) => {
    await generateSchool(db, { students, days: 5, today, studentsPerSchool: students });
    await db.execute(sql`insert into users (sourced_id, given_name, family_name, email, primary_org_sourced_id)
      values ('gen-proctor', 'Bench', 'Proctor', 'bench-proctor@dash.bench', 'gen-school-1')`);
    await db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
      values ('gen-proctor', 'proctor', 'primary', 'gen-school-1')`);
    await db.execute(sql`insert into user_credentials (user_sourced_id, password_hash)
      select 'gen-proctor', password_hash from user_credentials where user_sourced_id = 'gen-admin'`);
    await db.execute(
      sql`insert into learning_apps (id, name, kind) values ('00000000-0000-4000-8000-00000000a9e7', 'Bench Agent', 'agent')`,
    );
    await db.execute(sql`insert into app_api_keys (app_id, label, key_prefix, key_hash)
      values ('00000000-0000-4000-8000-00000000a9e7', 'bench', 'bench-agent-', ${hashSecret(AGENT_KEY)})`);
    // One in six waits for review; the rest were confirmed or dismissed over the last 60 days.
    await db.execute(sql`insert into integrity_incidents (student_sourced_id, agent_id, client_id, incident_type,
        confidence_score, app_name, detected_text, occurred_at, received_at, review_status, decided_at, struck_at,
        strike_expires_at)
      select 'gen-student-' || (1 + (n * 7919) % ${students}), '00000000-0000-4000-8000-00000000a9e7', 'seed-' || n,
        'off_task_app', 0.5 + (n % 50) / 100.0, 'Game ' || (n % 20), 'Level ' || (n % 9),
        at, at, status, case when status <> 'pending' then at + interval '1 hour' end,
        case when status = 'confirmed' then at + interval '1 hour' end,
        case when status = 'confirmed' then at + interval '31 days' end
      from generate_series(1, ${incidents}) n
        cross join lateral (select ${today}::timestamptz - (n % 60) * interval '1 day' - (n % 1440) * interval '1 minute' as at,
          case when n % 6 = 0 then 'pending' when n % 3 = 0 then 'dismissed' else 'confirmed' end as status) x`);
    await db.execute(sql`insert into integrity_decisions (incident_id, step, action, note, actor_sourced_id, actor_role, created_at)
      select id, 1, case review_status when 'dismissed' then 'dismiss' else 'confirm' end, 'Seen on the screenshot.',
        'gen-proctor', 'proctor', decided_at
      from integrity_incidents where review_status <> 'pending'`);
    await db.execute(sql`vacuum analyze`);
  });

/**
 * What an earlier run's agents reported is taken away (the kept PGlite folder would otherwise
 * grow a longer queue and a folder of screenshots with every run), so each run starts the same.
 */
async function forgetEarlierReports(env: NodeJS.ProcessEnv, dataDir: string | null) {
  if (!dataDir) return;
  rmSync(path.join(dataDir, "files", "evidence"), { recursive: true, force: true });
  const database = await openBenchDatabase(env, dataDir);
  try {
    await database.db.execute(sql`delete from integrity_incidents where client_id not like 'seed-%'`);
    await database.db.execute(sql`vacuum full analyze integrity_incidents`);
  } finally {
    await database.close();
  }
}

/** A screenshot's size in base64, starting as a PNG does (the storage checks the signature). */
const screenshot = Buffer.from(
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    randomBytes(SCREENSHOT_BYTES - 8),
  ]).toString("base64"),
);
const bodyEnd = Buffer.from(`"}`);

function incidentBody(): Buffer {
  const student = 1 + Math.floor(Math.random() * students);
  const fields = `{"client_id":"${randomUUID()}","user_id":"gen-student-${student}","incident_type":"off_task_app","confidence_score":0.9,"app_name":"Game","detected_text":"Level 1","created_at":"${new Date().toISOString()}","screenshot":"`;
  return Buffer.concat([Buffer.from(fields), screenshot, bodyEnd]);
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(`${db}: generating ${students} students and ${incidents} incidents (reused when already there)…`);
  await generate(env, dataDir);
  await forgetEarlierReports(env, dataDir);
  if (dataDir) warmFiles(dataDir, log);
  const server = await startServer({ projectRoot, env: { ...env, SEED_DEMO: "false" }, timeoutMs: 180_000 });
  try {
    await waitForStartupJobs(
      server,
      await signIn(server.baseUrl, "bench-admin@dash.bench", BENCH_PASSWORD),
      log,
    );
    const measurements: Measurement[] = [];
    const queue = async (name: string, email: string) => {
      log(`${db}: ${name}…`);
      const cookie = await signIn(server.baseUrl, email, BENCH_PASSWORD);
      const result = await measureLoad({
        url: `${server.baseUrl}/api/integrity/incidents?status=pending`,
        headers: { cookie },
        connections: 1,
        ...load,
        serverPgid: server.child.pgid,
      });
      measurements.push(p95Measurement(name, result, QUEUE_TARGET_MS));
    };
    await queue("the school's review queue, as its proctor", "bench-proctor@dash.bench");
    await queue("the district's review queue, as an administrator", "bench-admin@dash.bench");

    log(`${db}: ${rate} incidents a second with 100 KB screenshots…`);
    const intake = await measureLoad({
      url: `${server.baseUrl}/api/integrity/incidents`,
      method: "POST",
      headers: { authorization: `Bearer ${AGENT_KEY}`, "content-type": "application/json" },
      makeBody: incidentBody,
      overallRate: rate,
      connections: INTAKE_CONNECTIONS,
      ...load,
      serverPgid: server.child.pgid,
    });
    measurements.push({
      name: `incidents from agents at ${rate}/s, 100 KB screenshots`,
      target: `${rate}/s sustained, no failures`,
      result: intake,
      passed: intake.failures === 0 && intake.requestsPerSecond >= rate * 0.97,
    });
    return { db, measurements };
  } finally {
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  printReport(
    "Integrity benchmark",
    `Dataset: one school of ${students} students, ${incidents} incidents (one in six waiting for review), generated by the script. Queues on one connection; intake paced at ${rate}/s over ${INTAKE_CONNECTIONS} connections; ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s per run.`,
    results,
  );
}

runOnBothDatabases({
  name: "bench-integrity",
  args,
  childArgs: [
    `--students=${students}`,
    `--incidents=${incidents}`,
    `--rate=${rate}`,
    `--duration=${load.durationSeconds}`,
    `--warmup=${load.warmupSeconds}`,
  ],
  runSuite,
  report,
});
