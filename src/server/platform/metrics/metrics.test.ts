import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app";
import { readEnv } from "../../env";
import { createLogger } from "../../lib/logger";
import { DEMO_APP_KEY, DEMO_FIRST_SCHOOL_ID } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { registerGauge } from "./metrics";

const TOKEN = "metrics-token-for-the-tests";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => {
  await t?.close();
});

const scrape = (authorization?: string) =>
  t.request("/metrics", { headers: authorization ? { authorization } : {} });

async function metricsText(): Promise<string> {
  const response = await scrape(`Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  return response.text();
}

/** A sample's value, by its exact name and labels as Prometheus's text format writes them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics", () => {
  it("is off without METRICS_TOKEN: 404, not the web app", async () => {
    const env = readEnv({});
    const withoutToken = createApp({ ...t.deps, env, logger: createLogger("silent") });
    const response = await withoutToken.request("/metrics", {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(404);
  });

  it("refuses a scrape without the token or with another one", async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const response = await scrape(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(await response.json()).toEqual({
        code: "unauthenticated",
        message: "Send the metrics token as Authorization: Bearer",
      });
    }
  });

  it("answers Prometheus's text format with the token", async () => {
    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text).toContain("# TYPE dash_http_request_duration_seconds histogram");
    expect(text).toContain("# TYPE dash_process_cpu_seconds_total counter");
  });

  it("counts requests under their route pattern and status class, with histogram buckets", async () => {
    const cookie = await t.signIn("admin@dash.demo");
    for (const id of ["no-such-course-1", "no-such-course-2", "no-such-course-3"])
      expect((await t.request(`/api/courses/${id}`, { cookie })).status).toBe(404);
    expect((await t.request("/api/courses/no-such-course-4")).status).toBe(401);

    const text = await metricsText();
    const labels = 'method="GET",route="/api/courses/:courseId",status_class="4xx"';
    expect(sample(text, `dash_http_request_duration_seconds_count{${labels}}`)).toBe(3);
    expect(
      sample(text, `dash_http_request_duration_seconds_bucket{le="0.005",${labels}}`),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(text, `dash_http_request_duration_seconds_bucket{le="10",${labels}}`)).toBe(3);
    expect(sample(text, `dash_http_request_duration_seconds_bucket{le="+Inf",${labels}}`)).toBe(3);
    expect(sample(text, `dash_http_request_duration_seconds_sum{${labels}}`)).toBeGreaterThan(0);
    // Without a session the request is refused by the middleware of every signed-in route.
    expect(
      sample(
        text,
        'dash_http_request_duration_seconds_count{method="GET",route="/api/*",status_class="4xx"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'dash_http_request_duration_seconds_count{method="POST",route="/api/auth/login",status_class="2xx"}',
      ),
    ).toBe(1);
    expect(text).not.toContain("no-such-course");
  });

  it("times database queries", async () => {
    const before = sample(await metricsText(), "dash_db_query_duration_seconds_count") ?? 0;
    await t.request("/api/health");
    const after = await metricsText();
    expect(sample(after, "dash_db_query_duration_seconds_count")).toBeGreaterThan(before);
    expect(sample(after, 'dash_db_query_duration_seconds_bucket{le="+Inf"}')).toBe(
      sample(after, "dash_db_query_duration_seconds_count"),
    );
  });

  it("counts ingested events by outcome", async () => {
    const occurredAt = new Date(t.clock.now().getTime() - 3600_000).toISOString();
    const event = (eventId: string, activeSeconds: number) => ({
      eventId,
      email: "student@dash.demo",
      occurredAt,
      subject: "Math",
      activityName: "Fractions",
      expectedXp: 5,
      totalQuestions: 10,
      correctQuestions: 9,
      activeSeconds,
    });
    const response = await t.request("/api/ingest/activity", {
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
      json: { events: [event("metrics-1", 300), event("metrics-1", 300), event("metrics-2", 999_999)] },
    });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect([result.accepted.length, result.duplicates.length, result.rejected.length]).toEqual([1, 1, 1]);

    const text = await metricsText();
    expect(sample(text, 'dash_ingested_events_total{outcome="accepted"}')).toBe(1);
    expect(sample(text, 'dash_ingested_events_total{outcome="duplicate"}')).toBe(1);
    expect(sample(text, 'dash_ingested_events_total{outcome="rejected"}')).toBe(1);
  });

  it("shows the gauges other pieces register, read at each scrape", async () => {
    let depth = 3;
    registerGauge("dash_test_queue_depth", "Jobs waiting in the test queue", async () => depth);
    expect(sample(await metricsText(), "dash_test_queue_depth")).toBe(3);
    depth = 7;
    expect(sample(await metricsText(), "dash_test_queue_depth")).toBe(7);
  });

  it("leaves GET /api/health as it was", async () => {
    const response = await t.request("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: t.kind });
  });
});

describe("the request log", () => {
  const requestLines = () =>
    t.logLines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "request" && entry.path === "/api/auth/me");

  it("names the active role and its organisation of a signed-in caller, and nothing of others", async () => {
    const cookie = await t.signIn("student@dash.demo");
    t.logLines.length = 0;
    await t.request("/api/auth/me", { cookie });
    await t.request("/api/auth/me");
    const [signedIn, anonymous] = requestLines();
    expect(signedIn).toMatchObject({ status: 200, role: "student", org: DEMO_FIRST_SCHOOL_ID });
    expect(anonymous).not.toHaveProperty("role");
    expect(anonymous).not.toHaveProperty("org");

    const multi = await t.signIn("multi@dash.demo");
    t.logLines.length = 0;
    await t.request("/api/auth/me", { cookie: `${multi}; selectedUserRole=student` });
    expect(requestLines()[0]).toMatchObject({ role: "student", org: DEMO_FIRST_SCHOOL_ID });
  });
});
