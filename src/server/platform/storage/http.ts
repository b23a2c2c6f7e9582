import { Readable } from "node:stream";
import { KINDS } from "./content";
import type { StoredFile } from "./storage";

/**
 * A stored file never runs as a page of Dash: no scripts, no plugins, no framing, and a sandbox
 * for the browser that opens it on its own anyway.
 */
const FILE_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";
// Files are about people: only the browser of the person who may see them keeps a copy, briefly.
const FILE_CACHE_CONTROL = "private, max-age=300";

/** A name safe in a quoted header parameter, with the full name in RFC 5987 form beside it. */
function dispositionOf(kind: "inline" | "attachment", fileName: string): string {
  const cleaned = fileName.replace(/[\p{Cc}/\\]/gu, "_").slice(0, 200) || "file";
  const ascii = cleaned.replace(/[^\x20-\x7e]/g, "_").replace(/["%;]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(cleaned)}`;
}

/**
 * The HTTP answer that hands a stored file to the browser: its own content type with `nosniff`,
 * images inline (for <img>) and everything else as a download, and a private cache (evidence asks
 * for none at all). Its body
 * streams from the storage.
 */
export function fileResponse(
  file: StoredFile,
  options: { fileName?: string; download?: boolean; cacheControl?: string } = {},
): Response {
  const info = KINDS[file.kind];
  const fileName = options.fileName ?? file.key.slice(file.key.lastIndexOf("/") + 1);
  const disposition = info.isImage && !options.download ? "inline" : "attachment";
  return new Response(Readable.toWeb(file.body) as ReadableStream<Uint8Array>, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Content-Disposition": dispositionOf(disposition, fileName),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": FILE_POLICY,
      "Cache-Control": options.cacheControl ?? FILE_CACHE_CONTROL,
    },
  });
}
