import { describe, expect, it } from "vitest";
import { batched } from "./batched";

/** A run whose batches the test sees and ends. */
function controlledRun() {
  const batches: { inputs: number[]; finish: (error?: Error) => void }[] = [];
  const run = (inputs: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({
        inputs,
        finish: (error) => (error ? reject(error) : resolve(inputs.map((input) => `done ${input}`))),
      });
    });
  return { batches, run };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("batched", () => {
  it("runs a lone call at once, and the calls made meanwhile together after it", async () => {
    const { batches, run } = controlledRun();
    const call = batched(run, { maxCalls: 10 });
    const first = call(1);
    expect(batches.map(({ inputs }) => inputs)).toEqual([[1]]);
    const later = [call(2), call(3), call(4)];
    batches[0]?.finish();
    await expect(first).resolves.toBe("done 1");
    await settle();
    expect(batches.map(({ inputs }) => inputs)).toEqual([[1], [2, 3, 4]]);
    batches[1]?.finish();
    await expect(Promise.all(later)).resolves.toEqual(["done 2", "done 3", "done 4"]);
  });

  it("runs at most maxCalls together", async () => {
    const { batches, run } = controlledRun();
    const call = batched(run, { maxCalls: 2 });
    const all = [call(1), call(2), call(3), call(4)];
    batches[0]?.finish();
    await settle();
    batches[1]?.finish();
    await settle();
    batches[2]?.finish();
    await Promise.all(all);
    expect(batches.map(({ inputs }) => inputs)).toEqual([[1], [2, 3], [4]]);
  });

  it("runs a failed batch again call by call, so only the failing call fails", async () => {
    const calls: number[][] = [];
    const call = batched(
      async (inputs: number[]) => {
        calls.push(inputs);
        if (inputs.includes(3)) throw new Error("three is refused");
        return inputs.map((input) => input * 10);
      },
      { maxCalls: 10 },
    );
    const results = await Promise.allSettled([call(1), call(2), call(3), call(4)]);
    expect(
      results.map((result) => (result.status === "fulfilled" ? result.value : result.reason.message)),
    ).toEqual([10, 20, "three is refused", 40]);
    expect(calls).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });
});
