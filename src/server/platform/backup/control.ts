import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { chmodSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import type { DatabaseHandle } from "../../db/client";
import { BACKUPS_DIR_NAME, CONTROL_SOCKET_NAME } from "../../db/data-dir-snapshot";
import type { Logger } from "../../lib/logger";
import { type BackupWritten, writeBackup } from "./backup-file";

/**
 * The local control channel of a server on the embedded database: a unix socket in `DATA_DIR`,
 * readable and writable by its owner only, so whoever may use it may read the data directory
 * anyway. It is never reachable over the network. Commands that need the database, such as a
 * backup, go through it because the running server holds the data directory's lock.
 * One JSON request a line, one JSON answer a line.
 */
export type ControlAnswer = ({ ok: true } & BackupWritten) | { ok: false; error: string };

export interface ControlChannel {
  close(): Promise<void>;
}

export function controlSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), CONTROL_SOCKET_NAME);
}

export async function serveControlChannel(
  handle: DatabaseHandle,
  dataDir: string,
  logger: Logger,
): Promise<ControlChannel> {
  const socketPath = controlSocketPath(dataDir);
  // The caller holds the data directory's lock: a socket file found here was left by a server
  // that has ended.
  rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    const lines = createInterface({ input: socket });
    lines.once("line", async (line) => {
      lines.close();
      const answer = await answerRequest(handle, dataDir, line, logger);
      socket.end(`${JSON.stringify(answer)}\n`);
    });
    socket.on("error", () => socket.destroy());
  });
  // The socket is created with the process's umask: make it private from its first moment.
  const umask = process.umask(0o177);
  try {
    server.listen(socketPath);
  } finally {
    process.umask(umask);
  }
  await once(server, "listening");
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

async function answerRequest(
  handle: DatabaseHandle,
  dataDir: string,
  line: string,
  logger: Logger,
): Promise<ControlAnswer> {
  let command: unknown;
  try {
    command = (JSON.parse(line) as { command?: unknown }).command;
  } catch {
    return { ok: false, error: "the request is not JSON" };
  }
  if (command !== "backup") return { ok: false, error: `unknown command ${JSON.stringify(command)}` };
  // Written inside DATA_DIR only: the requester moves it where it wants it, with its own rights.
  const target = path.join(path.resolve(dataDir), BACKUPS_DIR_NAME, `requested-${randomUUID()}.zip`);
  try {
    const written = await writeBackup(handle, dataDir, target);
    logger.info("backup written on request", {
      file: written.file,
      bytes: written.bytes,
      pausedMs: written.pausedMs,
    });
    return { ok: true, ...written };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error("requested backup failed", { error: message });
    return { ok: false, error: message };
  }
}

/**
 * Asks the server running on `dataDir` for a backup and answers where it wrote it, or null when
 * no server listens there (no socket, or one left by a server that has ended).
 */
export async function requestBackupFromServer(dataDir: string): Promise<BackupWritten | null> {
  const socketPath = controlSocketPath(dataDir);
  const socket = net.connect(socketPath);
  try {
    await once(socket, "connect");
  } catch (error) {
    socket.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ECONNREFUSED") return null;
    throw new Error(`cannot reach the server through ${socketPath}: ${(error as Error).message}`);
  }
  socket.write(`${JSON.stringify({ command: "backup" })}\n`);
  let text = "";
  socket.setEncoding("utf8");
  for await (const chunk of socket) text += chunk;
  let answer: ControlAnswer;
  try {
    answer = JSON.parse(text) as ControlAnswer;
  } catch {
    throw new Error(`the server ended the backup without an answer${text ? `: ${text}` : ""}`);
  }
  if (!answer.ok) throw new Error(`the server could not write the backup: ${answer.error}`);
  return { file: answer.file, bytes: answer.bytes, pausedMs: answer.pausedMs };
}
