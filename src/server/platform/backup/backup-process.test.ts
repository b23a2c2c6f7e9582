import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, inject, it } from "vitest";
import { serverProcessEnv, startServer as startServerProcess } from "../../test/server-process";

/**
 * `npm run backup` beside a running server under write load, then `npm run restore` and a server
 * on the restored folder: every write acknowledged before the backup began is there, and the
 * server answered every request while the backup was written.
 */
const template = inject("testDatabase");
const tsx = path.resolve("node_modules/.bin/tsx");
const folder = mkdtempSync(path.join(tmpdir(), "dash-backup-load-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function childEnv(extra: Record<string, string>) {
  // The load is about writes, not the daily XP limit: nothing is held for review.
  return serverProcessEnv({ INGEST_MAX_AUTO_XP_PER_DAY: "1000000", ...extra });
}

const startServer = (dataDir: string) =>
  startServerProcess({ args: ["--api-only"], env: childEnv({ DATA_DIR: dataDir }), startTimeoutMs: 120_000 });

function runCommand(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [script, ...args], { env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

const occurredAt = new Date(Date.now() - 10 * 60 * 1000).toISOString();
const event = (eventId: string) => ({
  eventId,
  email: "student@dash.demo",
  occurredAt,
  subject: "Math",
  activityName: "Backup drill",
  expectedXp: 1,
  totalQuestions: 1,
  correctQuestions: 1,
  activeSeconds: 5,
});

async function ingest(url: string, eventIds: string[]) {
  const response = await fetch(`${url}/api/ingest/activity`, {
    method: "POST",
    headers: { authorization: "Bearer demo-app-key", "content-type": "application/json" },
    body: JSON.stringify({ events: eventIds.map(event) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      accepted: { eventId: string }[];
      duplicates: { eventId: string }[];
      rejected: { eventId: string; reason: string }[];
    },
  };
}

describe.skipIf(template.kind !== "pglite")("a backup of a live server under write load", () => {
  it("restores every write acknowledged before it began, while the server kept answering", async () => {
    if (template.kind !== "pglite") return;
    const dataDir = path.join(folder, "live");
    const seeded = await PGlite.create({ dataDir, loadDataDir: new Blob([readFileSync(template.dumpPath)]) });
    await seeded.close();
    const server = await startServer(dataDir);
    // The control socket is its owner's alone.
    const socket = path.join(dataDir, "control.sock");
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);

    const acknowledged: { eventId: string; at: number }[] = [];
    const failures: string[] = [];
    let lastAnswerAt = performance.now();
    let longestPauseMs = 0;
    let isWriting = true;
    let next = 0;
    const writer = async () => {
      while (isWriting) {
        const ids = Array.from({ length: 5 }, () => `backup-load-${next++}`);
        try {
          const { status, body } = await ingest(server.url, ids);
          const now = performance.now();
          longestPauseMs = Math.max(longestPauseMs, now - lastAnswerAt);
          lastAnswerAt = now;
          if (status !== 200 || body.accepted.length !== ids.length)
            failures.push(`${status} ${JSON.stringify(body).slice(0, 300)}`);
          for (const { eventId } of body.accepted) acknowledged.push({ eventId, at: now });
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const writers = [writer(), writer()];
    const untilAcknowledged = async (count: number) => {
      while (acknowledged.length < count && failures.length === 0)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    await untilAcknowledged(50);

    const backupFile = path.join(folder, "live.zip");
    const backupStartedAt = performance.now();
    const pauseBeforeBackup = longestPauseMs;
    longestPauseMs = 0;
    const backup = await runCommand("scripts/backup.ts", [backupFile], { DATA_DIR: dataDir });
    const backupEndedAt = performance.now();
    const pauseDuringBackup = longestPauseMs;
    await untilAcknowledged(acknowledged.length + 50);
    isWriting = false;
    await Promise.all(writers);

    expect(backup.stderr).toBe("");
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(
      new RegExp(
        `^Wrote ${backupFile} \\([\\d.]+ MB in [\\d.]+ s, written by the running server; the database paused \\d+ ms\\)`,
      ),
    );
    expect(failures).toEqual([]);
    const before = acknowledged.filter((write) => write.at < backupStartedAt).map((write) => write.eventId);
    const during = acknowledged.filter((write) => write.at >= backupStartedAt && write.at <= backupEndedAt);
    expect(before.length).toBeGreaterThan(0);
    // The server went on taking writes while the backup was written.
    expect(during.length).toBeGreaterThan(0);
    console.info(
      `backup under load: ${acknowledged.length} writes acknowledged, ${before.length} before the backup, ` +
        `${during.length} during its ${Math.round(backupEndedAt - backupStartedAt)} ms; longest wait for an answer ` +
        `${Math.round(pauseDuringBackup)} ms during the backup, ${Math.round(pauseBeforeBackup)} ms before; ${backup.stdout.trim()}`,
    );
    expect(await server.stop()).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(server.output()).toContain('"msg":"backup written on request"');
    // The server wrote it inside DATA_DIR, and the command took it away.
    expect(readdirSync(path.join(dataDir, "backups"))).toEqual([]);

    const restoredDir = path.join(folder, "restored");
    const restore = await runCommand("scripts/restore.ts", [backupFile], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe("");
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain(`into ${restoredDir} (`);
    const again = await runCommand("scripts/restore.ts", [backupFile], { DATA_DIR: restoredDir });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`restore: ${restoredDir} is not empty`);

    const restored = await startServer(restoredDir);
    // Sent again, every write acknowledged before the backup began is found there already.
    const found: string[] = [];
    for (let start = 0; start < before.length; start += 1_000) {
      const { status, body } = await ingest(restored.url, before.slice(start, start + 1_000));
      expect(status).toBe(200);
      expect(body.accepted).toEqual([]);
      found.push(...body.duplicates.map((duplicate) => duplicate.eventId));
    }
    expect(found.sort()).toEqual([...before].sort());
    const fresh = await ingest(restored.url, ["after-restore-1"]);
    expect(fresh.body.accepted.map((accepted) => accepted.eventId)).toEqual(["after-restore-1"]);
    expect(await restored.stop()).toBe(0);
  }, 600_000);
});

describe("npm run backup on PostgreSQL", () => {
  it("says to use pg_dump and exits with 2", async () => {
    const result = await runCommand("scripts/backup.ts", [path.join(folder, "x.zip")], {
      DATABASE_URL: "postgres://dash@127.0.0.1:1/dash",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('pg_dump --format=custom --file=dash.dump "$DATABASE_URL"');
  });
});
