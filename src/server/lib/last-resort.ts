import type { Logger } from "./logger";

/**
 * The last resort: an error no request caught (a client gone mid-body, a stream failing after its
 * answer began) is logged and the process keeps serving everyone else instead of ending.
 */
export function keepServingOnUncaughtErrors(
  logger: Logger,
  target: Pick<NodeJS.EventEmitter, "on"> = process,
): void {
  const describe = (error: unknown) =>
    error instanceof Error ? (error.stack ?? error.message) : String(error);
  target.on("uncaughtException", (error) => logger.error("uncaught exception", { error: describe(error) }));
  target.on("unhandledRejection", (reason) =>
    logger.error("unhandled rejection", { error: describe(reason) }),
  );
}
