import { sql } from "drizzle-orm";
import { queryRows } from "../src/server/db/client";
import {
  figure,
  generateOnce,
  type LoadResult,
  type Measurement,
  openBenchDatabase,
  percentile,
  printReport,
  projectRoot,
  readBenchArgs,
  runOnBothDatabases,
  signIn,
  startServer,
  stopChild,
  waitForStartupJobs,
} from "./bench-lib";
import { BENCH_PASSWORD, CLASS_SIZE, generateSchool } from "./gen-data";

/**
 * How fast a message reaches an open conversation: a parent posts a message to their child's Guide
 * (POST /api/messaging/messages) while the Guide's browser listens on the live stream (GET /api/live);
 * the time is from the start of the POST until the Guide's stream says `conversation-changed` for
 * that conversation. One conversation at a time, then 20 conversations at once (each round, every
 * parent sends together). Target: p95 under 200 ms, on PGlite and on PostgreSQL.
 *   tsx scripts/bench-messaging.ts [--sends 50] [--conversations 20] [--only pglite|postgres]
 */

const { args, whole } = readBenchArgs({
  sends: { type: "string", default: "50" },
  conversations: { type: "string", default: "20" },
});
const sends = whole("sends", 1);
const conversations = whole("conversations", 1);
const TARGET_MS = 200;
const STUDENTS = conversations * CLASS_SIZE;
const today = new Date().toISOString().slice(0, 10);
const log = (message: string) => process.stderr.write(`[bench-messaging] ${message}\n`);

interface Pair {
  parentEmail: string;
  guideEmail: string;
  guideId: string;
}

/** A Guide's live stream: hands over the moment each conversation's change arrives. */
function listen(response: Response) {
  if (!response.body) throw new Error("the live stream has no body");
  const waiting = new Map<string, (at: number) => void>();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!/^event: conversation-changed$/m.test(block)) continue;
        const arrived = performance.now();
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as { conversationId?: string };
        const resolve = data.conversationId ? waiting.get(data.conversationId) : undefined;
        if (resolve && data.conversationId) {
          waiting.delete(data.conversationId);
          resolve(arrived);
        }
      }
    }
  })();
  return {
    /** Resolves when the next change of the conversation arrives; registered before the send. */
    next(conversationId: string, timeoutMs = 10_000): Promise<number> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no live event within ${timeoutMs} ms`)), timeoutMs);
        waiting.set(conversationId, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    close: () => reader.cancel().catch(() => {}),
  };
}

interface Conversation {
  parentCookie: string;
  conversationId: string;
  stream: ReturnType<typeof listen>;
}

/** One send: from the start of the POST until the Guide's stream hears of it. */
async function timeSend(baseUrl: string, conversation: Conversation, text: string): Promise<number> {
  const arrived = conversation.stream.next(conversation.conversationId);
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/messaging/messages`, {
    method: "POST",
    headers: { cookie: conversation.parentCookie, "content-type": "application/json" },
    body: JSON.stringify({ conversationId: conversation.conversationId, bodyHtml: `<p>${text}</p>` }),
  });
  if (response.status !== 201)
    throw new Error(`the send answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return (await arrived) - started;
}

function summarise(latencies: number[], seconds: number): LoadResult {
  const sorted = Float64Array.from(latencies).sort();
  return {
    requestsPerSecond: latencies.length / seconds,
    completed: latencies.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    failures: 0,
    cpu: null,
  };
}

interface SuiteResult {
  db: "pglite" | "postgres";
  measurements: Measurement[];
}

async function runSuite(
  db: SuiteResult["db"],
  env: NodeJS.ProcessEnv,
  dataDir: string | null,
): Promise<SuiteResult> {
  log(
    `${db}: a school of ${STUDENTS} students, ${conversations} Guides and their parents (reused when already there)…`,
  );
  await generateOnce(env, dataDir, `.generated-messaging-${conversations}`, async (database) => {
    await generateSchool(database, {
      students: STUDENTS,
      days: 1,
      today,
      guides: conversations,
      parents: STUDENTS,
      everyoneSignsIn: true,
      studentsPerSchool: STUDENTS,
    });
  });
  // Each Guide with the parent of their class's first student.
  const database = await openBenchDatabase(env, dataDir);
  let pairs: Pair[];
  try {
    await database.migrate();
    // Earlier runs' conversations go: every run starts from none.
    await database.db.execute(sql`delete from messages`);
    await database.db.execute(sql`delete from conversation_members`);
    await database.db.execute(sql`delete from conversations`);
    pairs = await queryRows<Pair>(
      database.db,
      sql`select p.email as "parentEmail", g.email as "guideEmail", g.sourced_id as "guideId"
        from enrollments t join users g on g.sourced_id = t.user_sourced_id
        join lateral (select s.user_sourced_id from enrollments s where s.class_sourced_id = t.class_sourced_id
          and s.role = 'student' order by s.user_sourced_id limit 1) first on true
        join user_agents a on a.user_sourced_id = first.user_sourced_id join users p on p.sourced_id = a.agent_sourced_id
        where t.role = 'teacher' order by t.class_sourced_id limit ${conversations}`,
    );
  } finally {
    await database.close();
  }
  if (pairs.length < conversations) throw new Error(`only ${pairs.length} Guide and parent pairs`);

  const server = await startServer({
    projectRoot,
    env: {
      ...env,
      SEED_DEMO: "false",
      DATA_DIR: dataDir ?? `${projectRoot}/.tmp/bench-messaging/postgres-data`,
    },
    timeoutMs: 180_000,
  });
  const streams: ReturnType<typeof listen>[] = [];
  try {
    const admin = await signIn(server.baseUrl, "bench-admin@dash.bench", BENCH_PASSWORD);
    await waitForStartupJobs(server, admin, log);
    log(`${db}: signing in ${pairs.length} parents and Guides, opening the Guides' live streams…`);
    const open: Conversation[] = [];
    for (const pair of pairs) {
      const parentCookie = await signIn(server.baseUrl, pair.parentEmail, BENCH_PASSWORD);
      const guideCookie = await signIn(server.baseUrl, pair.guideEmail, BENCH_PASSWORD);
      const stream = listen(await fetch(`${server.baseUrl}/api/live`, { headers: { cookie: guideCookie } }));
      streams.push(stream);
      // The first message begins the conversation; it is not measured.
      const first = await fetch(`${server.baseUrl}/api/messaging/messages`, {
        method: "POST",
        headers: { cookie: parentCookie, "content-type": "application/json" },
        body: JSON.stringify({ recipientId: pair.guideId, bodyHtml: "<p>Hello</p>" }),
      });
      if (first.status !== 201)
        throw new Error(`the first message answered ${first.status}: ${await first.text()}`);
      const { conversationId } = (await first.json()) as { conversationId: string };
      open.push({ parentCookie, conversationId, stream });
    }

    log(`${db}: ${sends} messages, one at a time…`);
    const alone: number[] = [];
    let started = performance.now();
    for (let n = 0; n < sends; n++)
      alone.push(await timeSend(server.baseUrl, open[0] as Conversation, `Message ${n}`));
    const aloneResult = summarise(alone, (performance.now() - started) / 1000);

    log(`${db}: ${sends} rounds of ${open.length} conversations at once…`);
    const together: number[] = [];
    started = performance.now();
    for (let n = 0; n < sends; n++) {
      const round = await Promise.all(
        open.map((conversation) => timeSend(server.baseUrl, conversation, `Round ${n}`)),
      );
      together.push(...round);
    }
    const togetherResult = summarise(together, (performance.now() - started) / 1000);
    log(
      `${db}: alone p50 ${figure(aloneResult.p50)} ms, p95 ${figure(aloneResult.p95)} ms; ${open.length} at once p50 ${figure(togetherResult.p50)} ms, p95 ${figure(togetherResult.p95)} ms`,
    );
    const judged = (name: string, result: LoadResult): Measurement => ({
      name,
      target: `p50 and p95 < ${TARGET_MS} ms`,
      result,
      passed: result.p50 < TARGET_MS && result.p95 < TARGET_MS,
    });
    return {
      db,
      measurements: [
        judged(`message to an open conversation, one at a time (${sends} sends)`, aloneResult),
        judged(`the same, ${open.length} conversations at once (${sends} rounds)`, togetherResult),
      ],
    };
  } finally {
    for (const stream of streams) await stream.close();
    await stopChild(server.child);
  }
}

function report(results: SuiteResult[]) {
  printReport(
    "Messaging benchmark",
    `Dataset: ${STUDENTS} students in ${conversations} classes, each with a Guide and a parent per student. Latency: from the start of a parent's POST /api/messaging/messages to the Guide's live stream (GET /api/live) saying conversation-changed for that conversation; req/s is messages delivered per second.`,
    results,
  );
}

runOnBothDatabases({
  name: "bench-messaging",
  args,
  childArgs: [`--sends=${sends}`, `--conversations=${conversations}`],
  runSuite,
  report,
});
