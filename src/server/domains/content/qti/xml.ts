import { DOMParser, type Document, type Element, type Node, XMLSerializer } from "@xmldom/xmldom";
import { DEFAULT_LANGUAGE, type Language } from "../../../../shared/languages";
import { AppError } from "../../../lib/errors";
import { type Message, message } from "../../../lib/i18n";
import { formatBytes } from "../../../lib/uploads";

/**
 * Reading QTI XML safely: text only as UTF-8, at most MAX_QTI_DOCUMENT_BYTES, no DOCTYPE (so no
 * entity declarations to expand), elements nested at most MAX_QTI_DEPTH deep, and every
 * well-formedness problem refused with its line and column.
 */

export const QTI3_NAMESPACE = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0";
export const MAX_QTI_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** Real items nest a few dozen levels at most (tables in feedback in interactions). */
export const MAX_QTI_DEPTH = 100;

export interface XmlPosition {
  line: number;
  column: number;
}

/**
 * A 400 about an XML document; when the problem has a place, the answer carries it as
 * `details: { line, column }` beside the message that names it too.
 */
export class QtiXmlError extends AppError {
  constructor(
    /** Why, for a package's list of refused files too. */
    readonly reason: Message,
    readonly position: XmlPosition | null = null,
    code: "bad_request" | "payload_too_large" = "bad_request",
  ) {
    super(code, reason);
  }

  override toBody(language: Language = DEFAULT_LANGUAGE) {
    const body = super.toBody(language);
    return this.position ? { ...body, details: { ...this.position } } : body;
  }
}

const tooLarge = (bytes: number) =>
  new QtiXmlError(
    message("content:qti.xml.tooLarge", {
      size: formatBytes(bytes),
      limit: formatBytes(MAX_QTI_DOCUMENT_BYTES),
    }),
    null,
    "payload_too_large",
  );

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The text of an uploaded XML file: UTF-8 only (a byte order mark is dropped), within the size limit. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes.length > MAX_QTI_DOCUMENT_BYTES) throw tooLarge(bytes.length);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new QtiXmlError(message("content:qti.xml.notUtf8"));
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Line and column (both from 1) of a character of `source`. */
function positionAt(source: string, index: number): XmlPosition {
  let line = 1;
  let lineStart = 0;
  for (let at = source.indexOf("\n"); at !== -1 && at < index; at = source.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: index - lineStart + 1 };
}

/** Where a parsed node starts in its source (xmldom's locator); line 1, column 1 when unknown. */
export function positionOf(node: Node): XmlPosition {
  return { line: node.lineNumber || 1, column: node.columnNumber || 1 };
}

interface Locator {
  lineNumber?: number;
  columnNumber?: number;
}

/**
 * Parses an XML document. Warnings count as errors: a lenient parse would store XML that other
 * QTI tools refuse.
 */
export function parseXml(source: string): Document {
  // A character takes at least one byte: only long texts need measuring.
  if (source.length * 3 > MAX_QTI_DOCUMENT_BYTES && Buffer.byteLength(source) > MAX_QTI_DOCUMENT_BYTES)
    throw tooLarge(Buffer.byteLength(source));
  const doctype = /<!DOCTYPE/i.exec(source);
  if (doctype) {
    const position = positionAt(source, doctype.index);
    throw new QtiXmlError(message("content:qti.xml.doctype", { ...position }), position);
  }
  if (source.trim() === "") throw new QtiXmlError(message("content:qti.xml.empty"), { line: 1, column: 1 });
  checkAmpersands(source);
  let problem: { detail: string; position: XmlPosition } | null = null;
  let document: Document;
  try {
    document = new DOMParser({
      onError(_level, detail, context: { locator?: Locator } | undefined) {
        const locator = context?.locator;
        problem ??= {
          detail: detail.trim(),
          position: { line: locator?.lineNumber || 1, column: locator?.columnNumber || 1 },
        };
        throw new Error(detail);
      },
    }).parseFromString(source, "application/xml");
  } catch (error) {
    const found = problem ?? { detail: (error as Error).message, position: { line: 1, column: 1 } };
    throw new QtiXmlError(
      message("content:qti.xml.malformed", { ...found.position, detail: found.detail }),
      found.position,
    );
  }
  const root = document.documentElement;
  if (!root) throw new QtiXmlError(message("content:qti.xml.empty"), { line: 1, column: 1 });
  checkDepth(root);
  return document;
}

/** Comments, CDATA sections and processing instructions: text where a bare & is allowed. */
const LITERAL_SECTIONS = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g;
const BARE_AMPERSAND = /&(?!(?:[A-Za-z_][\w.-]*|#\d+|#x[0-9a-fA-F]+);)/g;

/**
 * Refuses a & that starts no entity reference ("Fish & chips"): xmldom lets it pass, but browsers'
 * XML parsers, and so QTI players, refuse the whole item.
 */
function checkAmpersands(source: string): void {
  if (!source.includes("&")) return;
  // Blanked out with spaces of the same length, so that positions stay those of the source.
  const scanned = source.replace(LITERAL_SECTIONS, (section) => section.replace(/[^\n]/g, " "));
  const bare = BARE_AMPERSAND.exec(scanned);
  BARE_AMPERSAND.lastIndex = 0;
  if (!bare) return;
  const position = positionAt(source, bare.index);
  throw new QtiXmlError(message("content:qti.xml.bareAmpersand", { ...position }), position);
}

/** Refuses nesting past MAX_QTI_DEPTH, with its own stack so that the check itself cannot overflow. */
function checkDepth(root: Element): void {
  const pending: [Element, number][] = [[root, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [element, depth] = next;
    if (depth > MAX_QTI_DEPTH)
      throw new QtiXmlError(
        message("content:qti.xml.tooDeep", { max: MAX_QTI_DEPTH, ...positionOf(element) }),
        positionOf(element),
      );
    for (const child of childElements(element)) pending.push([child, depth + 1]);
  }
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** The XML of a node; a whole document starts with its XML declaration. */
export function serializeXml(node: Document | Element): string {
  const text = new XMLSerializer().serializeToString(node);
  return node.nodeType === 9 && !text.startsWith("<?xml") ? `${XML_DECLARATION}\n${text}` : text;
}

/** An element's name without its prefix. */
export function nameOf(element: Element): string {
  return element.localName ?? element.nodeName;
}

/** The child elements of an element, in order. */
export function childElements(element: Element): Element[] {
  const children: Element[] = [];
  for (let child = element.firstChild; child; child = child.nextSibling)
    if (child.nodeType === 1) children.push(child as Element);
  return children;
}

/** The first child element with this local name. */
export function childNamed(element: Element, localName: string): Element | undefined {
  return childElements(element).find((child) => nameOf(child) === localName);
}

export function childrenNamed(element: Element, localName: string): Element[] {
  return childElements(element).filter((child) => nameOf(child) === localName);
}

/** Every element below `root` (itself left out), in document order. */
export function descendants(root: Element): Element[] {
  const found: Element[] = [];
  const pending = childElements(root).reverse();
  for (let next = pending.pop(); next; next = pending.pop()) {
    found.push(next);
    pending.push(...childElements(next).reverse());
  }
  return found;
}

/** An element's text with surrounding blanks trimmed. */
export function textOf(element: Element): string {
  return (element.textContent ?? "").trim();
}
