import { describe, expect, it } from "vitest";
import { AppError } from "./errors";
import { createWorkQueue } from "./work-queue";

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("the work queue", () => {
  it("runs the allowed number at once, lets others wait and refuses beyond the line", async () => {
    let clock = 0;
    const queue = createWorkQueue({
      concurrency: 1,
      maxWaiting: 1,
      busyMessage: "Busy",
      now: () => clock,
      random: () => 0.5,
    });
    // One job of 4 s teaches the queue how long jobs take.
    await queue.run(async () => {
      clock += 4000;
    });
    const first = deferred();
    const order: string[] = [];
    const running = queue.run(async () => {
      await first.promise;
      order.push("first");
    });
    const waiting = queue.run(async () => {
      order.push("second");
    });
    const refusal = await queue.run(async () => "never").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).message).toBe("Busy");
    // Two jobs ahead of 4 s each on one slot: 8 s, spread by half again.
    expect((refusal as AppError).details).toEqual({ retryAfterSeconds: 12 });
    first.resolve();
    await Promise.all([running, waiting]);
    expect(order).toEqual(["first", "second"]);
  });

  it("never asks to wait longer than 30 s or less than 1 s", async () => {
    let clock = 0;
    const slow = createWorkQueue({ concurrency: 1, maxWaiting: 0, busyMessage: "Busy", now: () => clock });
    await slow.run(async () => {
      clock += 600_000;
    });
    const hold = deferred();
    const held = slow.run(() => hold.promise);
    const refusal = (await slow.run(async () => 1).catch((error: unknown) => error)) as AppError;
    expect(refusal.details).toEqual({ retryAfterSeconds: 30 });
    hold.resolve();
    await held;

    const fresh = createWorkQueue({ concurrency: 1, maxWaiting: 0, busyMessage: "Busy" });
    const hold2 = deferred();
    const held2 = fresh.run(() => hold2.promise);
    expect(((await fresh.run(async () => 1).catch((error: unknown) => error)) as AppError).details).toEqual({
      retryAfterSeconds: 1,
    });
    hold2.resolve();
    await held2;
  });
});
