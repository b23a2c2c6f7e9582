/**
 * Calls of one operation that arrive together run together: a call made while no run is going
 * starts one at once; calls made during a run wait for it and then run as one batch. Under load
 * many small writes then cost one statement each batch (as a database's group commit does), and a
 * quiet server pays nothing for it.
 *
 * `run` answers one output per input, in order, and must be all or nothing (one statement, say):
 * a batch that fails is run again call by call, so one caller's failure stays that caller's.
 */
export function batched<Input, Output>(
  run: (inputs: Input[]) => Promise<Output[]>,
  options: { maxCalls: number },
): (input: Input) => Promise<Output> {
  type Call = { input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void };
  let waiting: Call[] = [];
  let isRunning = false;

  const runAlone = (call: Call) =>
    run([call.input]).then(([output]) => call.resolve(output as Output), call.reject);

  async function drain() {
    isRunning = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, options.maxCalls);
      waiting = waiting.slice(batch.length);
      if (batch.length === 1) {
        await runAlone(batch[0] as Call);
        continue;
      }
      try {
        const outputs = await run(batch.map(({ input }) => input));
        for (const [index, call] of batch.entries()) call.resolve(outputs[index] as Output);
      } catch {
        for (const call of batch) await runAlone(call);
      }
    }
    isRunning = false;
  }

  return (input) =>
    new Promise<Output>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      if (!isRunning) void drain();
    });
}
