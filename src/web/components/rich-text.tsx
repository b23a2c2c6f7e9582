import { useMemo } from "react";
import { sanitizeHtml } from "../lib/sanitize-html";

/** Stored rich text (an article, a lesson's description), sanitised here as well as when it was saved. */
export function RichText({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML has just been through DOMPurify.
  return <div className={`rich-text ${className ?? ""}`} dangerouslySetInnerHTML={{ __html: clean }} />;
}
