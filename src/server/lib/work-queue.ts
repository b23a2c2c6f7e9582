import { AppError } from "./errors";
import type { Message } from "./i18n";

/** Retry-After never asks for less or more than this many seconds. */
const RETRY_AFTER_RANGE_S = { min: 1, max: 30 };

/**
 * Runs at most `concurrency` jobs at once; later ones wait in line. When `maxWaiting` are
 * already waiting, a new job is refused at once with a 503: a flood of requests then costs a
 * quick refusal each instead of making everyone, real users too, wait behind it.
 *
 * The refusal's Retry-After is about how long the line ahead takes to clear (from how long recent
 * jobs took), spread at random up to twice that: thousands refused together do not all come back
 * in the same second and refill the line with refusals.
 */
export function createWorkQueue(options: {
  concurrency: number;
  maxWaiting: number;
  /** The 503's words, a catalogue message answered in the reader's language. */
  busyMessage: string | Message;
  random?: () => number;
  now?: () => number;
}) {
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => performance.now());
  let running = 0;
  let averageJobMs = 0;
  const waiting: (() => void)[] = [];

  function retryAfterSeconds(): number {
    const clearsInS =
      ((options.maxWaiting + options.concurrency) * averageJobMs) / options.concurrency / 1000;
    const spread = clearsInS * (1 + random());
    return Math.round(Math.min(RETRY_AFTER_RANGE_S.max, Math.max(RETRY_AFTER_RANGE_S.min, spread)));
  }

  async function run<T>(job: () => Promise<T>): Promise<T> {
    if (running < options.concurrency) {
      running++;
    } else {
      if (waiting.length >= options.maxWaiting)
        throw new AppError("busy", options.busyMessage, { retryAfterSeconds: retryAfterSeconds() });
      // The job that finishes hands its place over directly, so `running` stays counted.
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    const startedAt = now();
    try {
      return await job();
    } finally {
      const tookMs = now() - startedAt;
      averageJobMs = averageJobMs === 0 ? tookMs : averageJobMs * 0.9 + tookMs * 0.1;
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  return { run };
}
