import { promisify } from "node:util";
import { gzip, gzipSync } from "node:zlib";
import type { MiddlewareHandler } from "hono";

/** Smaller answers go as they are: gzip saves a few hundred bytes at most there. */
const MIN_BYTES = 1024;
/** Larger answers are compressed on libuv's threads, so the server's thread goes on meanwhile. */
const OFF_THREAD_ABOVE_BYTES = 256 * 1024;
/** Fast, and within a few per cent of the default level's size on JSON. */
const LEVEL = 4;

const gzipOffThread = promisify(gzip);

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const quality = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/**
 * Gzips JSON answers in one pass over the finished body. Hono's `compress` pipes every answer
 * through a CompressionStream: on small JSON answers its web streams cost more than the
 * compression itself, and together they were a fifth of a busy server's time. JSON answers are
 * built whole (never streamed), so reading them whole costs nothing more. Other types (files,
 * exports, progress lines) pass untouched.
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const response = c.res;
    const type = response.headers.get("Content-Type");
    if (
      !response.body ||
      c.req.method === "HEAD" ||
      response.status === 206 ||
      response.headers.has("Content-Encoding") ||
      !type?.startsWith("application/json")
    )
      return;
    const vary = response.headers.get("Vary");
    if (!vary) response.headers.set("Vary", "Accept-Encoding");
    else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) && vary !== "*")
      response.headers.set("Vary", `${vary}, Accept-Encoding`);
    if (!acceptsGzip(c.req.header("Accept-Encoding"))) return;

    const body = Buffer.from(await response.arrayBuffer());
    const headers = new Headers(response.headers);
    // Hono's setter merges into the old answer and wraps the new body in a stream again, which
    // loses the server's fast path for whole bodies: the old answer is let go first.
    const answer = (content: Buffer) => {
      c.res = undefined as unknown as Response;
      c.res = new Response(content as Uint8Array<ArrayBuffer>, {
        status: response.status,
        headers,
      });
    };
    if (body.byteLength < MIN_BYTES) return answer(body);
    const zipped =
      body.byteLength > OFF_THREAD_ABOVE_BYTES
        ? await gzipOffThread(body, { level: LEVEL })
        : gzipSync(body, { level: LEVEL });
    headers.set("Content-Encoding", "gzip");
    headers.set("Content-Length", String(zipped.byteLength));
    const etag = headers.get("ETag");
    if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
    answer(zipped);
  };
}
