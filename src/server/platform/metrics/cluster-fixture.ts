// Two worker processes that each answered one request, and one of them scraped: run by cluster.test.ts.
import cluster from "node:cluster";
import { answerClusterMetricsRequests, gatherMetrics } from "./cluster";
import { httpRequestDuration } from "./metrics";

const WORKERS = 2;

if (cluster.isPrimary) {
  answerClusterMetricsRequests();
  const workers = Array.from({ length: WORKERS }, () => cluster.fork());
  let ready = 0;
  cluster.on("message", (_worker, message: unknown) => {
    if (message === "ready" && ++ready === WORKERS) workers[0]?.send("scrape");
    if (typeof message === "object" && message !== null && "scraped" in message) {
      process.stdout.write(String(message.scraped));
      for (const worker of workers) worker.kill();
    }
  });
} else {
  httpRequestDuration.observe({ method: "GET", route: "/api/health", status_class: "2xx" }, 0.002);
  process.on("message", async (message) => {
    if (message === "scrape") process.send?.({ scraped: await gatherMetrics() });
  });
  process.send?.("ready");
}
