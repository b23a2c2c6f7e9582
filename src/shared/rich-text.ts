import createDOMPurify, { type WindowLike } from "dompurify";

/**
 * Rich text as Dash stores and shows it: every piece of stored HTML goes through `sanitizeHtml`
 * on the server when it is written and again in the browser when it is shown. The rules are the
 * product's: non-breaking space entities become plain spaces, markup that is well-formed XML is
 * read as XML (so `<span/>` and MathML from QTI authoring tools keep their meaning), and DOMPurify
 * removes anything that can run code, with a short allow-list for style attributes.
 */

/** CSS properties a style attribute may keep; anything else is dropped. */
export const ALLOWED_STYLE_PROPERTIES: ReadonlySet<string> = new Set([
  "color",
  "background-color",
  "font-size",
  "font-family",
  "font-weight",
  "text-align",
  "margin",
  "padding",
  "border",
  "width",
  "height",
  "display",
  "position",
  "top",
  "left",
  "right",
  "bottom",
  "transform",
  "opacity",
  "z-index",
  "vertical-align",
]);

// A value that could run code or fetch something: script URLs, IE's expression() and
// behaviours, Firefox's bindings, any url() or @import, and CSS escapes that could spell them.
const UNSAFE_CSS = /(?:java|vb)script\s*:|expression\s*\(|url\s*\(|@import|behavior\s*:|-moz-binding|\\|<|>/i;
const NBSP = /&nbsp;|&#0*160;|&#x0*a0;|\u00a0/gi;
const XHTML = "http://www.w3.org/1999/xhtml";

/** Turns non-breaking space entities (and the character itself) into plain spaces. */
export function withPlainSpaces(text: string): string {
  return text.replace(NBSP, " ");
}

/** Keeps the allowed declarations of a style attribute whose values are safe; "" when none is. */
export function cleanStyleAttribute(style: string): string {
  return style
    .split(";")
    .flatMap((declaration) => {
      const colon = declaration.indexOf(":");
      if (colon < 0) return [];
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim();
      if (!ALLOWED_STYLE_PROPERTIES.has(property) || value === "" || UNSAFE_CSS.test(value)) return [];
      return [`${property}: ${value}`];
    })
    .join("; ");
}

// A declaration whose value could run code or load something, and the properties that always do.
const UNSAFE_DECLARATION =
  /[\w-]+\s*:[^;{}]*(?:(?:java|vb)script\s*:|expression\s*\(|url\s*\(|\\)[^;{}]*;?/gi;
const CODE_PROPERTY = /(?:behavior|-moz-binding)\s*:[^;{}]*;?/gi;

/** A style element's text without imports, and without the declarations that can run code or load files. */
export function cleanStyleSheet(css: string): string {
  return css
    .replace(/@import[^;]*;?/gi, "")
    .replace(CODE_PROPERTY, "")
    .replace(UNSAFE_DECLARATION, "")
    .replace(/<\/?\s*script[^>]*>/gi, "");
}

/**
 * The markup of rich text as HTML: when it is well-formed XML it is read as XHTML and written
 * out as HTML (so `<span/>` stays an empty span instead of swallowing what follows); otherwise
 * it is taken as HTML.
 */
export function richTextToHtml(text: string, window: WindowLike & typeof globalThis): string {
  const plain = withPlainSpaces(text);
  if (!/[<&]/.test(plain)) return plain;
  let xml: Document;
  try {
    xml = new window.DOMParser().parseFromString(
      `<rich-text xmlns="${XHTML}">${plain}</rich-text>`,
      "application/xml",
    );
  } catch {
    return plain;
  }
  if (xml.getElementsByTagName("parsererror").length > 0 || !xml.documentElement) return plain;
  const container = window.document.createElement("div");
  for (const node of Array.from(xml.documentElement.childNodes))
    container.append(window.document.importNode(node, true));
  return container.innerHTML;
}

/** A sanitiser bound to a window: the browser's, or a server-side DOM's. */
export function createHtmlSanitizer(window: WindowLike & typeof globalThis): (html: string) => string {
  const purify = createDOMPurify(window);
  purify.addHook("uponSanitizeAttribute", (_node, event) => {
    if (event.attrName !== "style") return;
    event.attrValue = cleanStyleAttribute(event.attrValue);
    if (event.attrValue === "") event.keepAttr = false;
  });
  purify.addHook("uponSanitizeElement", (node, event) => {
    if (event.tagName === "style" && node.textContent) node.textContent = cleanStyleSheet(node.textContent);
  });
  purify.addHook("afterSanitizeAttributes", (node) => {
    // A link that opens elsewhere must not hand that page a handle on this one.
    if (!node.hasAttribute("target")) return;
    if (node.tagName === "A" && node.getAttribute("target") === "_blank")
      node.setAttribute("rel", "noopener noreferrer");
    else node.removeAttribute("target");
  });
  return (html) =>
    purify.sanitize(richTextToHtml(html, window), {
      FORBID_TAGS: ["form", "input", "button", "textarea", "select", "option"],
      ADD_ATTR: ["target"],
      FORBID_ATTR: ["formaction", "srcset"],
      ALLOW_DATA_ATTR: false,
    });
}
