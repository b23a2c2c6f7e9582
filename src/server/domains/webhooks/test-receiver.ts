import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** What a receiver got: the raw body as sent, its headers, and whether the signature checked out. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Checks a delivery as a subscriber would: the HMAC-SHA256 of the raw body with the shared secret. */
export function isSignedBy(received: Received, secret: string): boolean {
  const given = String(received.headers["x-dash-signature"] ?? "");
  const expected = `sha256=${createHmac("sha256", secret).update(received.body, "utf8").digest("hex")}`;
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/**
 * A webhook receiver on 127.0.0.1 for tests and the benchmark: it keeps what it got and answers
 * each path with the status `statusOf` says (200 by default), after `delayMs`.
 */
export async function startReceiver(
  options: { statusOf?: (path: string) => number; delayMs?: number; keep?: boolean } = {},
) {
  const received: Received[] = [];
  let count = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      count += 1;
      const path = request.url ?? "/";
      if (options.keep !== false)
        received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = () => {
        response.statusCode = options.statusOf?.(path) ?? 200;
        response.end(response.statusCode < 300 ? "ok" : "refused by the test receiver");
      };
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    /** Requests answered, kept or not. */
    count: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
