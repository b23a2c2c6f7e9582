// Named apart from the bundle's own `createRequire` (build-server.ts puts one at its top).
import { createRequire as requireFrom } from "node:module";
import type * as Jsdom from "jsdom";
import { createHtmlSanitizer } from "../../shared/rich-text";

let sanitize: ((html: string) => string) | null = null;

/**
 * Cleans HTML before it is stored (src/shared/rich-text.ts has the rules). The DOM it needs is
 * loaded on first use, not at start, and one serves every call.
 */
export function sanitizeHtml(html: string): string {
  if (!sanitize) {
    const { JSDOM } = requireFrom(import.meta.url)("jsdom") as typeof Jsdom;
    sanitize = createHtmlSanitizer(new JSDOM("").window as unknown as Window & typeof globalThis);
  }
  return sanitize(html);
}
