import type { Context } from "hono";
import { stream } from "hono/streaming";

/**
 * A CSV file as a download, written as it is made: a spreadsheet of a whole school's rows never
 * sits in memory at once.
 */
export function csvDownload(c: Context, fileName: string, chunks: AsyncIterable<string> | Iterable<string>) {
  c.header("Content-Type", "text/csv; charset=utf-8");
  c.header("Content-Disposition", `attachment; filename="${fileName}"`);
  return stream(c, async (out) => {
    for await (const chunk of chunks) await out.write(chunk);
  });
}
