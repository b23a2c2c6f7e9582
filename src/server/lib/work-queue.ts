import { AppError } from "./errors";

/**
 * Runs at most `concurrency` jobs at once; later ones wait in line. When `maxWaiting` are
 * already waiting, a new job is refused at once with a 503: a flood of requests then costs a
 * quick refusal each instead of making everyone, real users too, wait behind it.
 */
export function createWorkQueue(options: { concurrency: number; maxWaiting: number; busyMessage: string }) {
  let running = 0;
  const waiting: (() => void)[] = [];

  async function run<T>(job: () => Promise<T>): Promise<T> {
    if (running < options.concurrency) {
      running++;
    } else {
      if (waiting.length >= options.maxWaiting)
        throw new AppError("busy", options.busyMessage, { retryAfterSeconds: 1 });
      // The job that finishes hands its place over directly, so `running` stays counted.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  return { run };
}
