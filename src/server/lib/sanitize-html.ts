import { JSDOM } from "jsdom";
import { createHtmlSanitizer } from "../../shared/rich-text";

let sanitize: ((html: string) => string) | null = null;

/** Cleans HTML before it is stored (src/shared/rich-text.ts has the rules); one DOM serves every call. */
export function sanitizeHtml(html: string): string {
  sanitize ??= createHtmlSanitizer(new JSDOM("").window as unknown as Window & typeof globalThis);
  return sanitize(html);
}
