import { readFileSync } from "node:fs";

/** One of the project's own QTI test documents (test-items/), as text. */
export function readTestItem(name: string): string {
  return readFileSync(new URL(`./test-items/${name}`, import.meta.url), "utf8");
}
