import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry } from "prom-client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { metricsRegistry } from "./metrics";

/**
 * Several server processes share one port (node:cluster), so a scrape reaches one of them at
 * random. That process asks the primary, which gathers every worker's metrics over IPC (prom-client
 * answers in each worker by itself) and adds them up: every scrape sees the whole server.
 */
const REQUEST = "dash:metrics-request";
const RESPONSE = "dash:metrics-response";
const ASK_TIMEOUT_MS = 5000;

interface MetricsMessage {
  type: typeof REQUEST | typeof RESPONSE;
  id: string;
  text?: string;
  error?: string;
}

// prom-client answers the primary's requests for a worker's metrics once an AggregatorRegistry
// exists in that worker: made here, as the server loads, in every worker.
if (cluster.isWorker) new AggregatorRegistry();

const isMetricsMessage = (message: unknown): message is MetricsMessage =>
  typeof message === "object" && message !== null && "type" in message && "id" in message;

/** In the primary process: answer workers that ask for the whole cluster's metrics. */
export function answerClusterMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", async (worker, message: unknown) => {
    if (!isMetricsMessage(message) || message.type !== REQUEST) return;
    try {
      worker.send({ type: RESPONSE, id: message.id, text: await aggregator.clusterMetrics() });
    } catch (error) {
      worker.send({ type: RESPONSE, id: message.id, error: String(error) });
    }
  });
}

export const metricsContentType = metricsRegistry.contentType;

/** The metrics to answer a scrape with: the whole cluster's in a worker, else this process's. */
export async function gatherMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) return metricsRegistry.metrics();
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new AppError("busy", message("common:metrics.timedOut")));
    }, ASK_TIMEOUT_MS);
    const onMessage = (reply: unknown) => {
      if (!isMetricsMessage(reply) || reply.type !== RESPONSE || reply.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (reply.text !== undefined) resolve(reply.text);
      else reject(new AppError("busy", message("common:metrics.notGathered", { error: reply.error })));
    };
    process.on("message", onMessage);
    process.send?.({ type: REQUEST, id });
  });
}
