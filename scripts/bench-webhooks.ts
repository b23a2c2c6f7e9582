import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows } from "../src/server/db/client";
import { drainDeliveries, secretContextOf } from "../src/server/domains/webhooks/delivery";
import { DELIVERY_MAX_ATTEMPTS } from "../src/server/domains/webhooks/emit";
import { startReceiver } from "../src/server/domains/webhooks/test-receiver";
import { createLogger } from "../src/server/lib/logger";
import { createSecretBox } from "../src/server/lib/secret-box";
import {
  type BenchDatabase,
  figure,
  openBenchDatabase,
  printReport,
  readBenchArgs,
  runOnBothDatabases,
} from "./bench-lib";

/**
 * How fast the webhook queue drains: a backlog of queued deliveries (10,000 by default) of one
 * subscription is sent to a receiver on 127.0.0.1 by the delivery job's own loop (claims with
 * FOR UPDATE SKIP LOCKED, signs, POSTs 16 at a time, records each outcome), as one server process
 * does. The receiver runs in this process too, so it takes its share of the same CPU. Target:
 * at least 200 deliveries a second, on PGlite and on PostgreSQL.
 *   tsx scripts/bench-webhooks.ts [--deliveries 10000] [--only pglite|postgres]
 */

const { args, whole } = readBenchArgs({ deliveries: { type: "string", default: "10000" } });
const deliveries = whole("deliveries", 1);
const TARGET_PER_SECOND = 200;
/** The delivery job's budget per run (jobs.ts): the loop is measured in the same slices. */
const RUN_BUDGET_MS = 5_000;
const log = (message: string) => process.stderr.write(`[bench-webhooks] ${message}\n`);

interface SuiteResult {
  db: BenchDatabase;
  deliveries: number;
  seconds: number;
  succeeded: number;
  received: number;
}

async function runSuite(
  db: BenchDatabase,
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  const receiver = await startReceiver({ keep: false });
  const database = await openBenchDatabase(env, dataDir);
  try {
    await database.migrate();
    const secretBox = createSecretBox(randomBytes(32).toString("base64url"));
    const subscriptionId = randomUUID();
    await database.db.execute(sql`delete from webhook_deliveries`);
    await database.db.execute(sql`delete from webhook_subscriptions`);
    await database.db.execute(
      sql`insert into webhook_subscriptions (id, url, events, secret_envelope, created_by)
          values (${subscriptionId}::uuid, ${receiver.url("/bench")}, array['xp.awarded'],
            ${secretBox.encryptSecret("bench-secret-0123456789", secretContextOf(subscriptionId))}, 'bench')`,
    );
    // Payloads the size of a batch's xp.awarded (ten awards).
    await database.db.execute(
      sql`insert into webhook_deliveries (subscription_id, event_type, event_id, payload, max_attempts)
          select ${subscriptionId}::uuid, 'xp.awarded', e.id,
            jsonb_build_object('id', e.id, 'type', 'xp.awarded', 'occurredAt', now()::text,
              'data', jsonb_build_object('appId', ${randomUUID()}::text, 'awards',
                (select jsonb_agg(jsonb_build_object('studentId', 'student-' || n || '-' || a, 'eventId', 'event-' || n || '-' || a,
                  'subject', 'Math', 'date', current_date::text, 'xp', 5)) from generate_series(1, 10) a))),
            ${DELIVERY_MAX_ATTEMPTS}
          from (select n, gen_random_uuid() as id from generate_series(1, ${deliveries}) n) e`,
    );
    log(`${db}: ${deliveries} deliveries queued; draining`);
    const deps = {
      db: database.db,
      secretBox,
      logger: createLogger("warn"),
      now: () => new Date(),
      workerId: `bench-webhooks:${process.pid}`,
    };
    const started = performance.now();
    for (;;) {
      const run = await drainDeliveries(deps, { budgetMs: RUN_BUDGET_MS });
      if (!run.hasMore) break;
    }
    const seconds = (performance.now() - started) / 1000;
    const [counted] = await queryRows<{ succeeded: number }>(
      database.db,
      sql`select count(*) filter (where state = 'succeeded')::int as succeeded from webhook_deliveries`,
    );
    const result = {
      db,
      deliveries,
      seconds,
      succeeded: Number(counted?.succeeded ?? 0),
      received: receiver.count(),
    };
    log(`${db}: ${figure(deliveries / seconds, 0)} deliveries/s (${figure(seconds, 1)} s)`);
    return result;
  } finally {
    await database.close();
    await receiver.close();
  }
}

function report(results: SuiteResult[]) {
  printReport(
    "Webhooks benchmark",
    `Dataset: a backlog of ${deliveries} queued deliveries (10-award xp.awarded payloads) of one subscription, drained by the delivery loop (16 in flight) to a receiver on 127.0.0.1 in the same process. Deliveries per second in the req/s column, the whole drain in the p50 column (ms).`,
    results.map((suite) => {
      const perSecond = suite.deliveries / suite.seconds;
      const passed = suite.succeeded === suite.deliveries && perSecond >= TARGET_PER_SECOND;
      return {
        db: suite.db,
        measurements: [],
        otherRows: [
          `| ${suite.db} | drain ${suite.deliveries} deliveries (${suite.succeeded} succeeded, ${suite.received} received) | ${figure(perSecond, 0)} | ${figure(suite.seconds * 1000, 0)} | – | – | ${suite.deliveries - suite.succeeded} | ≥ ${TARGET_PER_SECOND}/s | ${passed ? "PASS" : "FAIL"} |`,
        ],
      };
    }),
  );
}

runOnBothDatabases({
  name: "bench-webhooks",
  args,
  childArgs: [`--deliveries=${deliveries}`],
  runSuite,
  report,
});
