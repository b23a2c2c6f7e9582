import { describe, expect, it } from "vitest";
import { sharedRuns } from "./shared-runs";

/** A run that ends when the test says so, recording when it started. */
function controlledRuns() {
  const started: { key: string; finish: (error?: Error) => void }[] = [];
  const run = (key: string) =>
    new Promise<void>((resolve, reject) => {
      started.push({ key, finish: (error) => (error ? reject(error) : resolve()) });
    });
  return { started, run };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("sharedRuns", () => {
  it("runs at once when nothing runs for the key, and callers during a run share the next one", async () => {
    const { started, run } = controlledRuns();
    const flush = sharedRuns(run);
    const first = flush("a");
    expect(started).toHaveLength(1);
    const second = flush("a");
    const third = flush("a");
    expect(second).toBe(third);
    expect(started).toHaveLength(1);
    started[0]?.finish();
    await first;
    await settle();
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await Promise.all([second, third]);
    expect(started).toHaveLength(2);
  });

  it("keeps keys apart", async () => {
    const { started, run } = controlledRuns();
    const flush = sharedRuns(run);
    void flush("a");
    void flush("b");
    expect(started.map(({ key }) => key)).toEqual(["a", "b"]);
  });

  it("gives a failed run's error to its own callers and still starts the next run", async () => {
    const { started, run } = controlledRuns();
    const flush = sharedRuns(run);
    const first = flush("a");
    const second = flush("a");
    started[0]?.finish(new Error("disk gone"));
    await expect(first).rejects.toThrow("disk gone");
    await settle();
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await expect(second).resolves.toBeUndefined();
  });

  it("starts afresh once every run has ended", async () => {
    const { started, run } = controlledRuns();
    const flush = sharedRuns(run);
    const first = flush("a");
    started[0]?.finish();
    await first;
    const again = flush("a");
    expect(started).toHaveLength(2);
    started[1]?.finish();
    await again;
  });
});
