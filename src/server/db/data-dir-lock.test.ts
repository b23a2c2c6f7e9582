import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, pingDatabase } from "./client";
import {
  LOCK_FILE_NAME,
  LOCK_HEARTBEAT_MS,
  type LockRecord,
  lockDataDir,
  processStartTime,
} from "./data-dir-lock";

const folders: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function newDataDir(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "dash-lock-"));
  folders.push(folder);
  return folder;
}

// Creating an embedded database takes seconds, reopening one far less: the tests that open one
// share a folder created once.
let dataDir: string;
beforeAll(async () => {
  dataDir = newDataDir();
  await (await openDatabase({ dataDir })).close();
}, 180_000);

/** A lock file as a process on this machine writes it, with fields replaced by `changes`. */
function writeLock(dataDir: string, changes: Partial<LockRecord>): string {
  const probe = newDataDir();
  const probeLock = lockDataDir(probe);
  const own = JSON.parse(readFileSync(path.join(probe, LOCK_FILE_NAME), "utf8")) as LockRecord;
  probeLock.release();
  const lockFile = path.join(dataDir, LOCK_FILE_NAME);
  writeFileSync(lockFile, JSON.stringify({ ...own, ...changes }));
  return lockFile;
}

function spawnSleep(): ChildProcess {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  children.push(child);
  return child;
}

async function openWithTakeover(dataDir: string): Promise<string[]> {
  const messages: string[] = [];
  const handle = await openDatabase({ dataDir, lock: { onTakeover: (message) => messages.push(message) } });
  await pingDatabase(handle.db);
  await handle.close();
  expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  return messages;
}

describe("the embedded database's lock", () => {
  it("is taken over, with a log line, when it names this very process but this process does not hold it", async () => {
    writeLock(dataDir, { pid: process.pid, startTime: "1" });
    expect(await openWithTakeover(dataDir)).toEqual([
      `took over the lock of ${dataDir} left behind: its process id ${process.pid} is this process's own`,
    ]);
  }, 60_000);

  it("is taken over when its process id now belongs to another process: PID 1, or a live `sleep`", async () => {
    writeLock(dataDir, { pid: 1, startTime: "123456789012" });
    expect(await openWithTakeover(dataDir)).toEqual([
      `took over the lock of ${dataDir} left behind: process id 1 now belongs to another process`,
    ]);

    const sleeper = spawnSleep();
    writeLock(dataDir, { pid: sleeper.pid, startTime: "123456789012" });
    expect(await openWithTakeover(dataDir)).toEqual([
      `took over the lock of ${dataDir} left behind: process id ${sleeper.pid} now belongs to another process`,
    ]);
  }, 60_000);

  it("is taken over when its process no longer runs, in the old bare-pid format too", async () => {
    writeFileSync(path.join(dataDir, LOCK_FILE_NAME), "2147483646");
    expect(await openWithTakeover(dataDir)).toEqual([
      `took over the lock of ${dataDir} left behind: process 2147483646 no longer runs`,
    ]);
  }, 60_000);

  it("refuses while the process it names runs with the recorded start time", () => {
    const dataDir = newDataDir();
    const sleeper = spawnSleep();
    writeLock(dataDir, { pid: sleeper.pid, startTime: processStartTime(sleeper.pid as number) });
    expect(() => lockDataDir(dataDir)).toThrow(
      `another Dash process (pid ${sleeper.pid}) is using the database in ${dataDir}; stop it first`,
    );
  });

  it("from another machine or container counts while it is refreshed, and is taken over once it is not", () => {
    const dataDir = newDataDir();
    const lockFile = writeLock(dataDir, { pid: 4242, host: "other-host", bootId: "elsewhere" });
    expect(() => lockDataDir(dataDir)).toThrow(
      `another Dash process (pid 4242 on other-host) is using the database in ${dataDir}; stop it first`,
    );
    const longAgo = new Date(Date.now() - 3 * LOCK_HEARTBEAT_MS - 5_000);
    utimesSync(lockFile, longAgo, longAgo);
    const messages: string[] = [];
    const lock = lockDataDir(dataDir, { onTakeover: (message) => messages.push(message) });
    expect(messages).toEqual([
      `took over the lock of ${dataDir} left behind: its holder on other-host has not refreshed it for 35 s`,
    ]);
    lock.release();
  });

  it("is refreshed while held, and its holder is told when the file stops naming it", () => {
    vi.useFakeTimers({ toFake: ["setInterval"] });
    try {
      const dataDir = newDataDir();
      const lost: string[] = [];
      const lock = lockDataDir(dataDir, { onLost: (message) => lost.push(message) });
      const lockFile = path.join(dataDir, LOCK_FILE_NAME);
      const longAgo = new Date(Date.now() - 60_000);
      utimesSync(lockFile, longAgo, longAgo);
      vi.advanceTimersByTime(LOCK_HEARTBEAT_MS);
      expect(Date.now() - statSync(lockFile).mtimeMs).toBeLessThan(5_000);
      expect(lost).toEqual([]);

      writeFileSync(lockFile, JSON.stringify({ pid: 4242, host: "other-host" }));
      vi.advanceTimersByTime(LOCK_HEARTBEAT_MS);
      expect(lost).toEqual([`the lock file ${lockFile} no longer names this process`]);
      lock.release();
      // Releasing leaves the other holder's file alone.
      expect(existsSync(lockFile)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps a second opener out while a live process holds the database, and frees it when that process dies", async () => {
    const clientModule = path.resolve("src/server/db/client.ts");
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { openDatabase } = await import(${JSON.stringify(clientModule)});
         await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
         process.stdout.write("open\\n");
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(holder);
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.on("data", (chunk) => String(chunk).includes("open") && resolve());
      holder.on("exit", (code) => reject(new Error(`the holder exited with ${code}`)));
    });

    await expect(openDatabase({ dataDir })).rejects.toThrow(
      `another Dash process (pid ${holder.pid}) is using the database in ${dataDir}; stop it first`,
    );

    // Killed outright, the holder leaves its lock file behind; it is taken over.
    await new Promise((resolve) => {
      holder.on("exit", resolve);
      holder.kill("SIGKILL");
    });
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(true);
    expect(await openWithTakeover(dataDir)).toEqual([
      `took over the lock of ${dataDir} left behind: process ${holder.pid} no longer runs`,
    ]);
  }, 120_000);

  it("belongs to one opener at a time within one process, and is free again once closed", async () => {
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/another Dash process \(pid \d+\) is using/);
    await first.close();
    expect(existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  }, 60_000);
});
