import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, pingDatabase } from "./client";

describe("the embedded database folder", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "dash-lock-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("belongs to one opener at a time, and is free again once closed", async () => {
    const first = await openDatabase({ dataDir });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/another Dash process \(pid \d+\) is using/);
    await pingDatabase(first.db);
    await first.close();
    expect(existsSync(path.join(dataDir, "dash.lock"))).toBe(false);

    // A lock left by a process that no longer runs is taken over.
    writeFileSync(path.join(dataDir, "dash.lock"), "2147483646");
    const second = await openDatabase({ dataDir });
    await pingDatabase(second.db);
    await second.close();
  }, 60_000);
});
