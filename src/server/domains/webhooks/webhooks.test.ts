import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  IngestRequestPage,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookSubscription,
} from "../../../shared/contracts/webhooks";
import { localDateOf } from "../../../shared/time-zone";
import { queryRows } from "../../db/client";
import { createLogger } from "../../lib/logger";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { drainDeliveries } from "./delivery";
import { DELIVERY_MAX_ATTEMPTS } from "./emit";
import { isSignedBy, type Received, startReceiver } from "./test-receiver";

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const cookies: Record<string, string> = {};
/** Every answer of the API in this file, to search for the secrets at the end. */
const answers: string[] = [];
const SECRET = "whsec-test-0123456789-abcdefghij";
const FAILING_SECRET = "whsec-failing-9876543210-zyxwvut";
const AVA = demoId("student-ava");

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startReceiver({ statusOf: (path) => (path.startsWith("/fail") ? 500 : 200) });
  for (const who of ["admin", "guide", "student", "parent", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/admin${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  answers.push(text);
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Runs the delivery job's work now, with retries a second apart (doubling) for the tests. */
function drain() {
  return drainDeliveries(
    {
      db: t.db,
      secretBox: t.secretBox,
      logger: createLogger("silent"),
      now: t.clock.now,
      workerId: "webhooks-test",
      backoffMs: 1_000,
    },
    { budgetMs: 30_000 },
  );
}

async function subscribe(json: Record<string, unknown>): Promise<WebhookSubscription> {
  const created = await call("admin", "/webhooks", { json });
  expect(created.status).toBe(201);
  return created.body.data as WebhookSubscription;
}

async function deliveries(query = ""): Promise<WebhookDelivery[]> {
  const { status, body } = await call("admin", `/webhooks/deliveries${query}`);
  expect(status).toBe(200);
  return (body as WebhookDeliveryPage).data;
}

const bodyOf = (received: Received) => JSON.parse(received.body);

describe("webhook subscriptions", () => {
  let subscription: WebhookSubscription;

  it("are added by an administrator, with the secret never answered back", async () => {
    subscription = await subscribe({
      url: receiver.url("/hook"),
      events: ["xp.awarded", "goal.met", "redemption.requested"],
      secret: SECRET,
      description: "The district's data warehouse",
    });
    expect(subscription).toMatchObject({
      url: receiver.url("/hook"),
      events: ["xp.awarded", "goal.met", "redemption.requested"],
      isActive: true,
      secretHint: `…${SECRET.slice(-4)}`,
    });
    const [stored] = await queryRows<{ secret_envelope: string }>(
      t.db,
      sql`select secret_envelope from webhook_subscriptions where id = ${subscription.id}::uuid`,
    );
    expect(stored?.secret_envelope).not.toContain(SECRET);
    const listed = await call("admin", "/webhooks");
    expect(listed.body.data.map((row: WebhookSubscription) => row.id)).toContain(subscription.id);
  });

  it("refuse addresses that are not http(s) or carry credentials, unknown events and short secrets", async () => {
    const refused = [
      { url: "ftp://127.0.0.1/hook", events: ["xp.awarded"], secret: SECRET },
      { url: "https://user:pass@example.org/hook", events: ["xp.awarded"], secret: SECRET },
      { url: "not an address", events: ["xp.awarded"], secret: SECRET },
      { url: receiver.url(), events: [], secret: SECRET },
      { url: receiver.url(), events: ["student.renamed"], secret: SECRET },
      { url: receiver.url(), events: ["xp.awarded"], secret: "too-short" },
    ];
    for (const json of refused) {
      const answer = await call("admin", "/webhooks", { json });
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body.message).toBeTruthy();
    }
  });

  it("are changed and removed by administrators only; Guides read, other roles are refused", async () => {
    const extra = await subscribe({
      url: receiver.url("/extra"),
      events: ["roster.imported"],
      secret: SECRET,
    });
    const changed = await call("admin", `/webhooks/${extra.id}`, {
      method: "PATCH",
      json: { events: ["roster.imported", "lockout.changed"], isActive: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      events: ["roster.imported", "lockout.changed"],
      isActive: false,
    });

    expect((await call("guide", "/webhooks")).status).toBe(200);
    expect((await call("guide", "/webhooks/deliveries")).status).toBe(200);
    expect((await call("guide", "/ingest-requests")).status).toBe(200);
    const writes = [
      {
        path: "/webhooks",
        method: "POST",
        json: { url: receiver.url(), events: ["xp.awarded"], secret: SECRET },
      },
      { path: `/webhooks/${extra.id}`, method: "PATCH", json: { isActive: true } },
      { path: `/webhooks/${extra.id}`, method: "DELETE" },
      { path: `/webhooks/${extra.id}/test`, method: "POST" },
      { path: "/webhooks/deliveries/replay", method: "POST", json: { ids: [extra.id] } },
      { path: `/webhooks/deliveries/${extra.id}/replay`, method: "POST" },
    ];
    for (const who of ["guide", "student", "parent", "proctor"])
      for (const write of writes)
        expect((await call(who, write.path, write)).status, `${who} ${write.method} ${write.path}`).toBe(403);
    for (const who of ["student", "parent", "proctor"]) {
      expect((await call(who, "/webhooks")).status).toBe(403);
      expect((await call(who, "/webhooks/deliveries")).status).toBe(403);
      expect((await call(who, "/ingest-requests")).status).toBe(403);
    }

    expect((await call("admin", `/webhooks/${extra.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call("admin", `/webhooks/${extra.id}`, { method: "DELETE" })).status).toBe(404);
    expect(
      (await call("admin", "/webhooks/not-a-uuid", { method: "PATCH", json: { isActive: true } })).status,
    ).toBe(404);
    const [removed] = await queryRows<{ removed_by: string | null }>(
      t.db,
      sql`select removed_by from webhook_subscriptions where id = ${extra.id}::uuid`,
    );
    expect(removed?.removed_by).toBe(demoId("admin"));
  });

  it("deliver a test event signed with the secret, which the receiver verifies", async () => {
    const sent = await call("admin", `/webhooks/${subscription.id}/test`, { method: "POST" });
    expect(sent.status).toBe(201);
    const before = receiver.received.length;
    await drain();
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const [delivery] = got as [Received];
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.headers["x-dash-delivery"]).toBe(sent.body.deliveryId);
    expect(delivery.headers["x-dash-event"]).toBe("webhook.test");
    expect(isSignedBy(delivery, SECRET)).toBe(true);
    expect(isSignedBy({ ...delivery, body: `${delivery.body} ` }, SECRET)).toBe(false);
    expect(bodyOf(delivery)).toMatchObject({ type: "webhook.test", data: expect.any(Object) });
    const [row] = await deliveries(`?subscriptionId=${subscription.id}&event=webhook.test`);
    expect(row).toMatchObject({ state: "succeeded", attempts: 1, lastStatusCode: 200 });
  });

  it("hear of XP awarded by a batch and of a daily goal it met, once", async () => {
    const occurredAt = new Date(t.clock.now().getTime() - 3600_000);
    const day = localDateOf(occurredAt, "America/New_York");
    const [today] = await queryRows<{ xp: number }>(
      t.db,
      sql`select coalesce(sum(xp), 0)::float8 as xp from daily_student_metrics
        where student_sourced_id = ${AVA} and local_date = ${day}::date and subject = 'Math'`,
    );
    // A goal one XP above what Ava has today: the next XP meets it.
    await t.db.execute(sql`insert into student_daily_goals (student_sourced_id, subject, daily_xp)
      values (${AVA}, 'Math', ${Math.floor(today?.xp ?? 0) + 1})
      on conflict (student_sourced_id, subject) do update set daily_xp = excluded.daily_xp`);
    const post = (eventId: string) =>
      t.request("/api/ingest/activity", {
        headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
        json: {
          events: [
            {
              eventId,
              studentId: AVA,
              occurredAt: occurredAt.toISOString(),
              subject: "Math",
              activityName: "Fractions",
              expectedXp: 5,
              totalQuestions: 10,
              correctQuestions: 10,
              activeSeconds: 300,
            },
          ],
        },
      });
    expect((await post("webhook-goal-1")).status).toBe(200);
    expect((await post("webhook-goal-2")).status).toBe(200);
    const before = receiver.received.length;
    await drain();
    const got = receiver.received.slice(before).map(bodyOf);
    const awarded = got.filter((body) => body.type === "xp.awarded");
    expect(awarded).toHaveLength(2);
    expect(awarded[0].data).toMatchObject({ source: "activity", appId: expect.any(String) });
    expect(awarded[0].data.awards[0]).toMatchObject({ studentId: AVA, subject: "Math", date: day });
    const met = got.filter((body) => body.type === "goal.met");
    expect(met).toHaveLength(1);
    expect(met[0].data).toMatchObject({ studentId: AVA, subject: "Math", date: day });
    // Ids, not names: the payload carries no one's name or email.
    expect(JSON.stringify(got)).not.toMatch(/Ava|@dash\.demo/);
  });

  it("hear of XP given by hand and of held XP a reviewer approved, once each", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const manual = {
      studentId: AVA,
      amount: -3,
      subject: "Reading",
      reason: "Took back a double award",
      idempotencyKey: "webhook-manual-xp",
    };
    const given = await t.request("/api/xp/manual", { json: manual, cookie: guide });
    expect(given.status).toBe(201);
    // The same award retried is one award, and one event.
    expect((await t.request("/api/xp/manual", { json: manual, cookie: guide })).status).toBe(200);

    // Events of a few hundred XP, until the day's XP without review is used up and one is held.
    let heldId: string | undefined;
    for (let attempt = 0; attempt < 10 && !heldId; attempt++) {
      const response = await t.request("/api/ingest/activity", {
        headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
        json: {
          events: [
            {
              eventId: `webhook-held-${attempt}`,
              studentId: AVA,
              occurredAt: new Date(t.clock.now().getTime() - 60_000).toISOString(),
              subject: "Science",
              expectedXp: 400,
              totalQuestions: 10,
              correctQuestions: 10,
              activeSeconds: 600,
            },
          ],
        },
      });
      heldId = ((await response.json()) as { held: { heldId: string }[] }).held[0]?.heldId;
    }
    expect(heldId).toBeDefined();
    await drain();
    const before = receiver.received.length;
    const review = () => t.request(`/api/xp/held/${heldId}/approve`, { cookie: guide, json: {} });
    expect((await review()).status).toBe(200);
    expect((await review()).status).toBe(200);
    await drain();

    const awarded = receiver.received.map(bodyOf).filter((body) => body.type === "xp.awarded");
    const byHand = awarded.filter((body) => body.data.source === "manual");
    expect(byHand).toHaveLength(1);
    expect(byHand[0].data).toMatchObject({
      appId: null,
      awards: [{ studentId: AVA, eventId: null, subject: "Reading", xp: -3 }],
    });
    const approved = receiver.received
      .slice(before)
      .map(bodyOf)
      .filter((body) => body.type === "xp.awarded");
    expect(approved).toHaveLength(1);
    expect(approved[0].data).toMatchObject({
      source: "review",
      awards: [{ studentId: AVA, subject: "Science", eventId: expect.stringMatching(/^webhook-held-/) }],
    });
    expect(approved[0].data.awards[0].xp).toBeGreaterThan(0);
  });

  it("log each ingestion request with its counts and reasons, refused ones too", async () => {
    t.clock.advance(1_000);
    const response = await t.request("/api/ingest/activity", {
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
      json: {
        events: [
          {
            eventId: "log-1",
            studentId: "nobody-at-all",
            occurredAt: new Date().toISOString(),
            subject: "Math",
          },
          { eventId: "log-2" },
        ],
      },
    });
    expect(response.status).toBe(200);
    t.clock.advance(1_000);
    const refused = await t.request("/api/ingest/activity", {
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
      json: { nothing: true },
    });
    expect(refused.status).toBe(400);
    const { status, body } = await call("guide", "/ingest-requests");
    expect(status).toBe(200);
    const page = body as IngestRequestPage;
    const [refusedLine, countedLine] = page.data;
    expect(refusedLine).toMatchObject({ statusCode: 400, accepted: 0, endpoint: "activity" });
    expect(Object.keys(refusedLine?.reasons ?? {})).toHaveLength(1);
    expect(countedLine).toMatchObject({ statusCode: 200, rejected: 2 });
    expect(countedLine?.reasons["Unknown student"]).toBe(1);
    expect(page.totals.length).toBeGreaterThan(0);
    const filtered = await call(
      "admin",
      `/ingest-requests?appId=${countedLine?.appId}&from=2000-01-01T00:00:00Z`,
    );
    expect(filtered.body.total).toBeGreaterThanOrEqual(2);
    expect((await call("admin", "/ingest-requests?appId=nope")).status).toBe(400);
  });

  it("retry a failing receiver with doubling waits, then fail the delivery", async () => {
    const failing = await subscribe({
      url: receiver.url("/fail"),
      events: ["xp.awarded"],
      secret: FAILING_SECRET,
    });
    const sent = await call("admin", `/webhooks/${failing.id}/test`, { method: "POST" });
    const id = sent.body.deliveryId as string;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= DELIVERY_MAX_ATTEMPTS; attempt++) {
      await drain();
      const [row] = await queryRows<{ state: string; attempts: number; wait: number | null }>(
        t.db,
        sql`select state, attempts,
            case when state = 'queued' then (extract(epoch from next_attempt_at - last_attempt_at) * 1000)::int end as wait
          from webhook_deliveries where id = ${id}::uuid`,
      );
      expect(row?.attempts).toBe(attempt);
      if (attempt < DELIVERY_MAX_ATTEMPTS) {
        expect(row?.state).toBe("queued");
        waits.push(row?.wait as number);
        // Not due yet: nothing is sent before the wait is over.
        expect((await drain()).attempted).toBe(0);
        t.clock.advance(row?.wait as number);
      } else expect(row?.state).toBe("failed");
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64].map((seconds) => seconds * 1000));
    const [failed] = await deliveries(`?state=failed&subscriptionId=${failing.id}`);
    expect(failed).toMatchObject({ id, attempts: DELIVERY_MAX_ATTEMPTS, lastStatusCode: 500 });
    expect(failed?.lastError).toContain("HTTP 500");
    const sentToFail = receiver.received.filter((got) => got.path === "/fail");
    expect(sentToFail).toHaveLength(DELIVERY_MAX_ATTEMPTS);
    expect(new Set(sentToFail.map((got) => got.headers["x-dash-delivery"]))).toEqual(new Set([id]));
    expect(sentToFail.every((got) => isSignedBy(got, FAILING_SECRET))).toBe(true);

    // Pointed at a working address, the failed delivery is replayed as a new one that succeeds.
    await call("admin", `/webhooks/${failing.id}`, {
      method: "PATCH",
      json: { url: receiver.url("/fixed") },
    });
    const replayed = await call("admin", `/webhooks/deliveries/${id}/replay`, { method: "POST" });
    expect(replayed.status).toBe(201);
    expect(replayed.body.replayed).toBe(1);
    const replayId = replayed.body.ids[0] as string;
    await drain();
    const [again] = await deliveries(`?subscriptionId=${failing.id}&state=succeeded`);
    expect(again).toMatchObject({ id: replayId, replayOf: id, requestedBy: demoId("admin"), attempts: 1 });
    const fixed = receiver.received.filter((got) => got.path === "/fixed");
    expect(fixed).toHaveLength(1);
    expect(fixed[0]?.body).toBe(sentToFail[0]?.body);
    expect(fixed[0]?.headers["x-dash-delivery"]).toBe(replayId);
  });

  it("replay many at once by ids or by filter, and refuse unknown or unfinished ones", async () => {
    const succeeded = await deliveries(`?subscriptionId=${subscription.id}&state=succeeded`);
    expect(succeeded.length).toBeGreaterThanOrEqual(2);
    const ids = succeeded.slice(0, 2).map((row) => row.id);
    const byIds = await call("admin", "/webhooks/deliveries/replay", { json: { ids } });
    expect(byIds).toMatchObject({ status: 201, body: { replayed: 2 } });
    const queued = await deliveries(`?subscriptionId=${subscription.id}&state=queued`);
    expect(queued.map((row) => row.replayOf).sort()).toEqual([...ids].sort());
    const unfinished = await call("admin", `/webhooks/deliveries/${queued[0]?.id}/replay`, {
      method: "POST",
    });
    expect(unfinished.status).toBe(409);
    await drain();

    const byFilter = await call("admin", "/webhooks/deliveries/replay", {
      json: { filter: { subscriptionId: subscription.id, event: "webhook.test", state: "succeeded" } },
    });
    expect(byFilter.status).toBe(201);
    expect(byFilter.body.replayed).toBeGreaterThanOrEqual(1);
    await drain();

    expect(
      (
        await call("admin", "/webhooks/deliveries/00000000-0000-4000-8000-000000000000/replay", {
          method: "POST",
        })
      ).status,
    ).toBe(404);
    expect((await call("admin", "/webhooks/deliveries/replay", { json: { ids: [] } })).status).toBe(400);
    expect((await call("admin", "/webhooks/deliveries?state=lost")).status).toBe(400);
  });

  it("show Guides the deliveries without their payloads", async () => {
    const { body } = await call("guide", "/webhooks/deliveries");
    const page = body as WebhookDeliveryPage;
    expect(page.total).toBeGreaterThan(0);
    expect(page.data.every((row) => row.payload === null)).toBe(true);
    expect((await deliveries()).some((row) => row.payload !== null)).toBe(true);
  });

  it("never put a secret in an answer, the log or the database in the clear", async () => {
    for (const secret of [SECRET, FAILING_SECRET]) {
      expect(answers.some((text) => text.includes(secret))).toBe(false);
      expect(t.logLines.some((line) => line.includes(secret))).toBe(false);
      const [found] = await queryRows<{ count: number }>(
        t.db,
        sql`select count(*)::int as count from webhook_subscriptions s
          where s::text like ${`%${secret}%`}`,
      );
      expect(found?.count).toBe(0);
    }
  });
});
