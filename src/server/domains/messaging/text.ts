import { sanitizeHtml } from "../../lib/sanitize-html";

/**
 * The rich text of messages and announcements: cleaned before it is stored, and read as plain text
 * for previews, emails and the check that a message says something.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Stored HTML as plain text: paragraphs and list items on lines of their own, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\b[^>]*>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "• ")
    .replace(/<\/(p|h[1-6]|blockquote|ul|ol)>/gi, "\n\n")
    .replace(/<\/li>/gi, "\n")
    .replace(/<[^>]*>?/g, "")
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (entity, code: string) => {
      if (code[0] !== "#") return NAMED_ENTITIES[code.toLowerCase()] ?? entity;
      const point =
        code[1]?.toLowerCase() === "x" ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
      return Number.isInteger(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : entity;
    })
    .replace(/[^\S\n]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A message's text on one line, shortened for a list. */
export function previewOf(html: string, length = 140): string {
  const text = htmlToText(html).replace(/\s+/g, " ");
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}

/** Whether stored HTML says anything: some text once the markup is gone. */
export function hasText(html: string): boolean {
  return previewOf(html, 10).length > 0;
}

/** Elements that load something from elsewhere when shown: a picture or sound from any server could tell who read it. */
const REMOTE_MEDIA = /<\/?(img|picture|source|video|audio|track)\b[^>]*>/gi;

/**
 * Rich text of a message or announcement, as it is stored: sanitised, and without media elements
 * (pictures travel as attachments, kept by Dash; the editor makes none of these).
 */
export function cleanMessageHtml(html: string): string {
  return sanitizeHtml(html).replace(REMOTE_MEDIA, "");
}
