import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_APP_KEY, demoId } from "../seed/demo-accounts";
import { withDatabase } from "../test/global-setup";
import { createTestApp, type TestApp, waitForReplay } from "../test/harness";
import { queryRows } from "./client";

/**
 * Reads that tolerate a second of lag go to DATABASE_READ_URL's streaming replica; sessions,
 * scope and writes stay on the primary. Runs when the PostgreSQL run started a replica
 * (`scripts/with-postgres.sh --replica`, as `npm test` does): its replay is paused, so what the
 * primary writes meanwhile shows where each answer was read.
 */
const template = inject("testDatabase");
const replicaUrl = template.kind === "postgres" ? template.readUrl : null;

const AVA = demoId("student-ava");
// Long before the demo school's activity: every figure in this range comes from the test's event.
const RANGE = { startDate: "2024-02-25", endDate: "2024-03-09" };

describe.skipIf(!replicaUrl)("reads from a streaming replica", () => {
  let t: TestApp;
  let replica: pg.Client;
  let primary: pg.Client;

  beforeAll(async () => {
    if (template.kind !== "postgres" || !replicaUrl) return;
    t = await createTestApp({ readReplica: true, env: { INGEST_MAX_PAST_DAYS: "36500" } });
    replica = new pg.Client({ connectionString: replicaUrl });
    primary = new pg.Client({ connectionString: template.adminUrl });
    await Promise.all([replica.connect(), primary.connect()]);
  });
  afterAll(async () => {
    // Other files' databases must keep reaching the replica.
    await replica?.query("select pg_wal_replay_resume()");
    await Promise.all([replica?.end(), primary?.end(), t?.close()]);
  });

  async function pauseReplay() {
    await replica.query("select pg_wal_replay_pause()");
    for (;;) {
      const { rows } = await replica.query<{ state: string }>(
        "select pg_get_wal_replay_pause_state() as state",
      );
      if (rows[0]?.state === "paused") return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function metricsXp(cookie: string): Promise<number> {
    const response = await t.request(
      `/api/learning-metrics?${new URLSearchParams({ studentId: AVA, ...RANGE })}`,
      {
        cookie,
      },
    );
    expect(response.status).toBe(200);
    const { data } = await response.json();
    return data.rows.reduce((total: number, row: { xp: number }) => total + row.xp, 0);
  }

  async function heatmapXp(cookie: string): Promise<number> {
    const response = await t.request("/api/learning-metrics/analytics-xp-heatmap", {
      cookie,
      json: { userId: AVA, ...RANGE },
    });
    expect(response.status).toBe(200);
    const { data } = await response.json();
    return data.reduce((total: number, day: { xpGained: number }) => total + day.xpGained, 0);
  }

  it("reads through the replica and writes through the primary", async () => {
    const [readSide] = await queryRows<{ recovering: boolean }>(
      t.readDb,
      sql`select pg_is_in_recovery() as recovering`,
    );
    const [writeSide] = await queryRows<{ recovering: boolean }>(
      t.db,
      sql`select pg_is_in_recovery() as recovering`,
    );
    expect(readSide?.recovering).toBe(true);
    expect(writeSide?.recovering).toBe(false);
  });

  it("answers learning metrics and the heatmap from the replica, sign-in, scope and ingestion from the primary", async () => {
    await pauseReplay();
    // Signed in while the replica stands still: the session exists on the primary alone.
    const guide = await t.signIn("guide@dash.demo");

    const ingested = await t.request("/api/ingest/activity", {
      json: {
        events: [
          {
            eventId: "replica-event-1",
            email: "student@dash.demo",
            occurredAt: "2024-03-02T15:00:00Z",
            subject: "Math",
            activityId: "replica-activity",
            activityName: "Replica test",
            expectedXp: 10,
            totalQuestions: 10,
            correctQuestions: 10,
            activeSeconds: 600,
          },
        ],
      },
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
    });
    expect(ingested.status).toBe(200);
    const { accepted } = await ingested.json();
    expect(accepted).toHaveLength(1);
    const xp = accepted[0].xp as number;
    expect(xp).toBeGreaterThan(0);

    // The primary holds the event; the replica, paused, does not yet.
    const [onPrimary] = await queryRows<{ xp: number | null }>(
      t.db,
      sql`select sum(xp)::float8 as xp from daily_student_metrics
        where student_sourced_id = ${AVA} and local_date between ${RANGE.startDate} and ${RANGE.endDate}`,
    );
    expect(onPrimary?.xp).toBe(xp);
    expect(await metricsXp(guide)).toBe(0);
    expect(await heatmapXp(guide)).toBe(0);

    // Scope is asked of the primary: a student outside the Guide's reach stays refused.
    const outside = await t.request(
      `/api/learning-metrics?${new URLSearchParams({ studentId: demoId("student-leo"), ...RANGE })}`,
      { cookie: guide },
    );
    expect(outside.status).toBe(403);

    await replica.query("select pg_wal_replay_resume()");
    await waitForReplay(primary, withDatabase(replicaUrl as string, "postgres"));
    expect(await metricsXp(guide)).toBe(xp);
    expect(await heatmapXp(guide)).toBe(xp);
  });
});
