import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { keepServingOnUncaughtErrors } from "./last-resort";
import { createLogger } from "./logger";

describe("the last-resort handlers", () => {
  it("log uncaught exceptions and unhandled rejections with their stack", () => {
    const lines: string[] = [];
    const target = new EventEmitter();
    keepServingOnUncaughtErrors(
      createLogger("info", (_level, line) => lines.push(line)),
      target,
    );
    expect(target.listenerCount("uncaughtException")).toBe(1);
    expect(target.listenerCount("unhandledRejection")).toBe(1);
    target.emit("uncaughtException", new Error("socket closed mid-body"));
    target.emit("unhandledRejection", "a background task failed");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("uncaught exception");
    expect(lines[0]).toContain("socket closed mid-body");
    expect(lines[1]).toContain("unhandled rejection");
    expect(lines[1]).toContain("a background task failed");
  });
});
