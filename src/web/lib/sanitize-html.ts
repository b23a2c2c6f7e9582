import { createHtmlSanitizer } from "../../shared/rich-text";

/** Cleans stored HTML again before the browser shows it (the rules: src/shared/rich-text.ts). */
export const sanitizeHtml = createHtmlSanitizer(window);
