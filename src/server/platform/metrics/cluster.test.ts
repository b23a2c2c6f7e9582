import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { gatherMetrics } from "./cluster";
import { httpRequestDuration } from "./metrics";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "cluster-fixture.ts");

describe("metrics of several processes behind one port", () => {
  it("a scrape that reaches one worker counts the requests of every worker", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", fixture], {
      timeout: 60_000,
    });
    const labels = 'method="GET",route="/api/health",status_class="2xx"';
    expect(stdout).toContain(`dash_http_request_duration_seconds_count{${labels}} 2\n`);
    expect(stdout).toContain(`dash_http_request_duration_seconds_bucket{le="0.005",${labels}} 2\n`);
  }, 90_000);

  it("a single process answers with its own metrics", async () => {
    httpRequestDuration.observe({ method: "GET", route: "/api/config", status_class: "2xx" }, 0.002);
    expect(await gatherMetrics()).toContain(
      'dash_http_request_duration_seconds_count{method="GET",route="/api/config",status_class="2xx"} 1\n',
    );
  });
});
