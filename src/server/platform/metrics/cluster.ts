import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry } from "prom-client";
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
      reject(new Error("the primary process did not answer with the cluster's metrics"));
    }, ASK_TIMEOUT_MS);
    const onMessage = (message: unknown) => {
      if (!isMetricsMessage(message) || message.type !== RESPONSE || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(message.error ?? "no metrics"));
    };
    process.on("message", onMessage);
    process.send?.({ type: REQUEST, id });
  });
}
