import type { Language } from "../../../shared/languages";

/**
 * Links in mail are written as `appUrl("/app/...")`: the sending job makes them absolute with
 * PUBLIC_URL, so what is queued does not depend on where the server runs.
 */
export const APP_URL_MARKER = "%DASH_PUBLIC_URL%";

/** A page of Dash as a mail links it: `appUrl("/app/notifications")`. */
export function appUrl(path: string): string {
  return `${APP_URL_MARKER}${path.startsWith("/") ? path : `/${path}`}`;
}

/** Makes the app links of a mail's text or HTML absolute. */
export function resolveAppUrls(body: string, publicUrl: string): string {
  return body.split(APP_URL_MARKER).join(publicUrl.replace(/\/+$/, ""));
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** Plain text as HTML paragraphs: blank lines part paragraphs, single line breaks stay. */
export function paragraphsHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p style="margin:0 0 16px">${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

/** A link that looks like a button (table-free, so it reads in every client). */
export function buttonHtml(label: string, href: string): string {
  return `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>`;
}

/** Where the sending job puts the footer of the HTML part. */
export const FOOTER_SLOT = "<!--dash-footer-->";

/** A whole HTML mail around its content, with the slot for the footer. */
export function emailHtml(options: { language: Language; title: string; bodyHtml: string }): string {
  return `<!doctype html>
<html lang="${options.language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(options.title)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;color:#18181b;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">
<div style="max-width:600px;margin:0 auto;padding:24px 16px">
<div style="background:#ffffff;border-radius:12px;padding:24px">
${options.bodyHtml}
</div>
${FOOTER_SLOT}
</div>
</body>
</html>
`;
}

/** Puts the footer in its slot, else before `</body>`, else at the end (HTML from elsewhere). */
export function withFooterHtml(html: string, footerHtml: string): string {
  if (html.includes(FOOTER_SLOT)) return html.replace(FOOTER_SLOT, footerHtml);
  const bodyEnd = html.toLowerCase().lastIndexOf("</body>");
  if (bodyEnd >= 0) return `${html.slice(0, bodyEnd)}${footerHtml}${html.slice(bodyEnd)}`;
  return `${html}\n${footerHtml}`;
}
