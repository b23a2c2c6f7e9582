import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobListResponseSchema, runJobResponseSchema } from "../../../shared/contracts/jobs";
import { queryRows } from "../../db/client";
import { createTestApp, type TestApp } from "../../test/harness";

let t: TestApp;
let admin: string;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select sourced_id as id from users where email = 'admin@dash.demo'`,
  );
  adminId = row?.id as string;
});
afterAll(() => t.close());

async function listJobs() {
  const response = await t.request("/api/admin/jobs", { cookie: admin });
  expect(response.status).toBe(200);
  return jobListResponseSchema.parse(await response.json()).data;
}

describe("GET /api/admin/jobs and POST /api/admin/jobs/:name/run", () => {
  it("needs a session, then the administrator role", async () => {
    expect((await t.request("/api/admin/jobs")).status).toBe(401);
    expect((await t.request("/api/admin/jobs/sessions.sweep/run", { method: "POST" })).status).toBe(401);
    for (const email of ["guide@dash.demo", "student@dash.demo", "parent@dash.demo", "proctor@dash.demo"]) {
      const cookie = await t.signIn(email);
      const list = await t.request("/api/admin/jobs", { cookie });
      expect(list.status).toBe(403);
      expect((await list.json()).code).toBe("forbidden");
      const run = await t.request("/api/admin/jobs/sessions.sweep/run", { method: "POST", cookie });
      expect(run.status).toBe(403);
    }
    const [queued] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from jobs where requested_by is not null`,
    );
    expect(queued?.count).toBe(0);
  });

  it("lists the server's scheduled jobs before any has run", async () => {
    const jobs = await listJobs();
    const byName = Object.fromEntries(jobs.map((job) => [job.name, job]));
    expect(Object.keys(byName)).toEqual(
      expect.arrayContaining(["sessions.sweep", "privacy.retention", "jobs.prune"]),
    );
    expect(Boolean(byName["database.maintain"])).toBe(t.kind === "pglite");
    expect(byName["sessions.sweep"]).toMatchObject({
      schedule: "Every hour",
      lastRun: null,
      queued: 0,
      running: 0,
      failed: 0,
    });
    expect(byName["privacy.retention"]?.schedule).toBe("Daily at 02:00 (UTC)");
    const spanish = await t.request("/api/admin/jobs", {
      cookie: admin,
      headers: { "accept-language": "es" },
    });
    const inSpanish = jobListResponseSchema.parse(await spanish.json()).data;
    expect(Object.fromEntries(inSpanish.map((job) => [job.name, job.schedule]))).toMatchObject({
      "sessions.sweep": "Cada hora",
      "privacy.retention": "Todos los días a las 02:00 (UTC)",
    });
    const hour = 60 * 60_000;
    expect(byName["sessions.sweep"]?.nextRunAt).toBe(
      new Date((Math.floor(t.clock.now().getTime() / hour) + 1) * hour).toISOString(),
    );
  });

  it("runs a scheduled job now for an administrator and shows who asked and how it went", async () => {
    // The schedules' own runs first, so the run asked for below is the latest.
    await t.jobs.runDueJobs();
    t.clock.advance(1000);

    const response = await t.request("/api/admin/jobs/sessions.sweep/run", { method: "POST", cookie: admin });
    expect(response.status).toBe(202);
    const { data } = runJobResponseSchema.parse(await response.json());
    expect(data.name).toBe("sessions.sweep");
    expect(
      t.logLines.some((line) => line.includes('"msg":"job run requested"') && line.includes(adminId)),
    ).toBe(true);

    const waiting = (await listJobs()).find((job) => job.name === "sessions.sweep");
    expect(waiting?.queued).toBe(1);
    expect(waiting?.nextRunAt).toBe(t.clock.now().toISOString());

    // A schedule of a few seconds (the mail sender's) may come due within the second advanced too.
    expect(await t.jobs.runDueJobs()).toBeGreaterThanOrEqual(1);
    const done = (await listJobs()).find((job) => job.name === "sessions.sweep");
    expect(done).toMatchObject({
      queued: 0,
      lastRun: {
        startedAt: t.clock.now().toISOString(),
        outcome: "succeeded",
        error: null,
        requestedBy: adminId,
      },
    });
    const [row] = await queryRows<{ requestedBy: string; state: string }>(
      t.db,
      sql`select requested_by as "requestedBy", state from jobs where id = ${data.jobId}`,
    );
    expect(row).toEqual({ requestedBy: adminId, state: "succeeded" });
  });

  it("answers 404 for a job that is not scheduled and 400 for a malformed name", async () => {
    const unknown = await t.request("/api/admin/jobs/reports.nightly/run", { method: "POST", cookie: admin });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('No scheduled job is named "reports.nightly"');
    const spanish = await t.request("/api/admin/jobs/reports.nightly/run", {
      method: "POST",
      cookie: admin,
      headers: { "accept-language": "es" },
    });
    expect(await spanish.json()).toEqual({
      code: "not_found",
      message: 'No hay ninguna tarea programada llamada "reports.nightly"',
    });
    const malformed = await t.request("/api/admin/jobs/Not%20A%20Job/run", { method: "POST", cookie: admin });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).code).toBe("validation_failed");
  });
});
