import { Counter, collectDefaultMetrics, Gauge, Histogram, register } from "prom-client";

/**
 * The process's metrics, in prom-client's default registry: what other pieces register with
 * prom-client directly lands there too, and several processes behind one port add up through
 * prom-client's cluster support (see cluster.ts).
 */
export const metricsRegistry = register;

collectDefaultMetrics({ register: metricsRegistry, prefix: "dash_" });

export const httpRequestDuration = new Histogram({
  name: "dash_http_request_duration_seconds",
  help: "HTTP requests by method, route pattern and status class, and how long they took (its _count is the number of requests)",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const databaseQueryDuration = new Histogram({
  name: "dash_db_query_duration_seconds",
  help: "Database queries and how long each took, queueing behind other queries included",
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

export const ingestedEvents = new Counter({
  name: "dash_ingested_events_total",
  help: "Activity events learning apps posted, by outcome: accepted, held for review, rejected, duplicate",
  labelNames: ["outcome"] as const,
});

/**
 * A gauge whose value is read when metrics are collected, for other pieces (the job runner's
 * queue depth). Several processes read the same shared state, so their values are not added up
 * but the largest is kept.
 */
export function registerGauge(name: string, help: string, collect: () => number | Promise<number>): void {
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    aggregator: "max",
    async collect() {
      this.set(await collect());
    },
  });
}
