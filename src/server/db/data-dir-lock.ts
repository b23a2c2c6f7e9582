import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, readlinkSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/**
 * The embedded database belongs to one process at a time: a second one on the same folder would
 * corrupt it. The lock file names its holder by process id *and* the process's start time, so a
 * lock left by a process that died is recognised even when its id now belongs to another process
 * (or to this one, as PID 1 in a restarted container). A holder on another machine or in another
 * container cannot be looked up, so the holder also touches the file every few seconds and such a
 * lock counts as left behind once it has not been touched for three intervals.
 * See docs/decisions/007-embedded-database-lock.md.
 */

export const LOCK_FILE_NAME = "dash.lock";
export const LOCK_HEARTBEAT_MS = 10_000;
export const LOCK_STALE_MS = 3 * LOCK_HEARTBEAT_MS;
// Two openers taking over the same stale lock at once: the one that creates this folder does it.
const TAKEOVER_SUFFIX = ".takeover";
// A takeover is a few file operations; a folder older than this was left by a crash mid-way.
const TAKEOVER_STALE_MS = 10_000;
const TAKEOVER_WAIT_MS = 5_000;

export interface LockRecord {
  pid: number;
  /** Clock ticks after boot at which the process started (Linux), null where unknown. */
  startTime: string | null;
  host: string;
  /** Where process ids mean the same process: one boot of one kernel, one PID namespace. */
  bootId: string | null;
  pidNamespace: string | null;
  /** Tells this holder's file from a later one written by the same process. */
  token: string;
}

export interface DataDirLock {
  release(): void;
}

export interface LockOptions {
  /** Told when a lock left behind is taken over. */
  onTakeover?: (message: string) => void;
  /** Told when the lock file stopped naming this process while it held it. */
  onLost?: (message: string) => void;
}

// Lock files held by this process, with their text: its own pid in a lock file it does not hold
// was left behind. They are removed when the process exits, however it exits short of a crash.
const heldLocks = new Map<string, string>();
process.on("exit", () => {
  for (const [lockFile, text] of heldLocks)
    if (readText(lockFile) === text) rmSync(lockFile, { force: true });
});

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses. */
export function processStartTime(pid: number): string | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
}

function pidNamespace(): string | null {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return null;
  }
}

const hasProcFs = processStartTime(process.pid) !== null;

function ownRecord(): LockRecord {
  return {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    host: hostname(),
    bootId: readText("/proc/sys/kernel/random/boot_id"),
    pidNamespace: pidNamespace(),
    token: randomUUID(),
  };
}

function parseRecord(text: string): Partial<LockRecord> {
  // Older versions wrote the bare process id.
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    return JSON.parse(text) as Partial<LockRecord>;
  } catch {
    return {};
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Why the lock's holder is gone, or null while it may still be using the database. */
function whyLeftBehind(lockFile: string, text: string): string | null {
  const record = parseRecord(text);
  const own = ownRecord();
  if (typeof record.pid !== "number" || !Number.isInteger(record.pid) || record.pid <= 0)
    return "it names no process";
  const isSameProcessSpace =
    record.host === own.host && record.bootId === own.bootId && record.pidNamespace === own.pidNamespace;
  const isLegacy = record.host === undefined;
  if (isSameProcessSpace || isLegacy) {
    if (record.pid === process.pid)
      return heldLocks.has(lockFile) ? null : `its process id ${record.pid} is this process's own`;
    if (!isRunning(record.pid)) return `process ${record.pid} no longer runs`;
    // A process hidden from /proc (mounted with hidepid) may be the holder: it keeps the lock.
    const startTime = hasProcFs && !isLegacy ? processStartTime(record.pid) : null;
    if (startTime !== null && startTime !== record.startTime)
      return `process id ${record.pid} now belongs to another process`;
    return null;
  }
  const untouchedMs = Date.now() - (statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  if (untouchedMs > LOCK_STALE_MS)
    return `its holder on ${record.host ?? "another machine"} has not refreshed it for ${Math.round(untouchedMs / 1000)} s`;
  return null;
}

function describeHolder(text: string): string {
  const record = parseRecord(text);
  const host = record.host && record.host !== hostname() ? ` on ${record.host}` : "";
  return `pid ${record.pid}${host}`;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Removes the lock file only if it still holds `judged`, the text found to be left behind, with
 * the other openers kept out meanwhile.
 */
function removeIfUnchanged(lockFile: string, judged: string): "removed" | "changed" | "busy" {
  const takeover = `${lockFile}${TAKEOVER_SUFFIX}`;
  try {
    mkdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age = Date.now() - (statSync(takeover, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > TAKEOVER_STALE_MS) rmSync(takeover, { recursive: true, force: true });
    return "busy";
  }
  try {
    if (readText(lockFile) !== judged) return "changed";
    rmSync(lockFile, { force: true });
    return "removed";
  } finally {
    rmSync(takeover, { recursive: true, force: true });
  }
}

/** Takes the lock of `dataDir`, or throws naming the process that holds it. */
export function lockDataDir(dataDir: string, options: LockOptions = {}): DataDirLock {
  const lockFile = path.join(dataDir, LOCK_FILE_NAME);
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    const record = ownRecord();
    const text = JSON.stringify(record);
    try {
      writeFileSync(lockFile, text, { flag: "wx" });
      heldLocks.set(lockFile, text);
      return holdLock(lockFile, text, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const found = readText(lockFile);
    const reason = found === null ? null : whyLeftBehind(lockFile, found);
    if (found !== null && reason === null)
      throw new Error(
        `another Dash process (${describeHolder(found)}) is using the database in ${dataDir}; stop it first`,
      );
    const outcome = found === null ? "changed" : removeIfUnchanged(lockFile, found);
    if (outcome === "removed") {
      options.onTakeover?.(`took over the lock of ${dataDir} left behind: ${reason}`);
    } else if (Date.now() > deadline) {
      throw new Error(`the lock of ${dataDir} is being taken over by another process; try again`);
    } else if (outcome === "busy") {
      sleepSync(50);
    }
  }
}

function holdLock(lockFile: string, text: string, options: LockOptions): DataDirLock {
  const isOurs = () => readText(lockFile) === text;
  const heartbeat = setInterval(() => {
    if (!isOurs()) {
      clearInterval(heartbeat);
      heldLocks.delete(lockFile);
      options.onLost?.(`the lock file ${lockFile} no longer names this process`);
      return;
    }
    const now = new Date();
    utimesSync(lockFile, now, now);
  }, LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  return {
    release() {
      clearInterval(heartbeat);
      heldLocks.delete(lockFile);
      if (isOurs()) rmSync(lockFile, { force: true });
    },
  };
}
