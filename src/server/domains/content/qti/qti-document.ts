import type { Document, Element } from "@xmldom/xmldom";
import type {
  QtiAreaMapping,
  QtiKind,
  QtiMapping,
  QtiResponseDeclaration,
  QtiSourceVersion,
} from "../../../../shared/contracts/content";
import { QTI_IDENTIFIER_PATTERN } from "../../../../shared/contracts/content";
import { message } from "../../../lib/i18n";
import { convertQti2, qti2VersionOf } from "./convert-v2";
import {
  childElements,
  childNamed,
  childrenNamed,
  descendants,
  nameOf,
  parseXml,
  positionOf,
  QtiXmlError,
  serializeXml,
  textOf,
} from "./xml";

/**
 * A QTI document as the bank keeps it: its kind and identifier, its XML (QTI 3), and what lists,
 * searches and lessons need to know without parsing it again.
 */
export interface QtiDocumentRecord {
  kind: QtiKind;
  identifier: string;
  title: string;
  rawXml: string;
  interactions: string[];
  responseDeclarations: QtiResponseDeclaration[];
  references: string[];
  sourceVersion: QtiSourceVersion;
}

const KIND_OF_ROOT: Record<string, QtiKind> = {
  "qti-assessment-item": "item",
  "qti-assessment-stimulus": "stimulus",
  "qti-assessment-test": "test",
};
const MAX_TITLE_LENGTH = 500;

/** A parsed document, QTI 3 whatever it came as, with what it came as. */
export interface ParsedQti {
  document: Document;
  root: Element;
  kind: QtiKind;
  sourceVersion: QtiSourceVersion;
}

/** Parses XML as a QTI 3 document, converting QTI 2.2; refuses any other root with its name and place. */
export function parseQti(source: string): ParsedQti {
  const parsed = parseXml(source);
  const original = parsed.documentElement as Element;
  const version = qti2VersionOf(original);
  if (version === "other")
    throw new QtiXmlError(
      message("content:qti.xml.otherVersion", { namespace: original.namespaceURI, ...positionOf(original) }),
      positionOf(original),
    );
  const document = version === "2.2" ? convertQti2(parsed) : parsed;
  const root = document.documentElement as Element;
  const kind = KIND_OF_ROOT[nameOf(root)];
  if (!kind)
    throw new QtiXmlError(
      message("content:qti.xml.unknownRoot", { root: original.tagName, ...positionOf(original) }),
      positionOf(original),
    );
  identifierOf(root);
  return { document, root, kind, sourceVersion: version === "2.2" ? "2.2" : "3.0" };
}

function identifierOf(root: Element): string {
  const identifier = root.getAttribute("identifier")?.trim() ?? "";
  if (!identifier)
    throw new QtiXmlError(
      message("content:qti.xml.noIdentifier", { root: root.tagName, ...positionOf(root) }),
      positionOf(root),
    );
  if (!QTI_IDENTIFIER_PATTERN.test(identifier))
    throw new QtiXmlError(
      message("content:qti.xml.badIdentifier", { identifier: identifier.slice(0, 200), ...positionOf(root) }),
      positionOf(root),
    );
  return identifier;
}

export interface RecordOptions {
  /** The text as it came, stored as it is when nothing was converted or rewritten. */
  source?: string;
  /** Whether the document was changed after parsing (package references rewritten). */
  changed?: boolean;
  /** The bank identifier of an item a test refers to (a package's href resolves to its item's own identifier). */
  resolveItemRef?: (ref: { identifier: string; href: string | null }) => string;
}

/** What the bank keeps of a parsed document. */
export function recordOf(parsed: ParsedQti, options: RecordOptions = {}): QtiDocumentRecord {
  const { root, kind, sourceVersion } = parsed;
  const identifier = identifierOf(root);
  const title = (root.getAttribute("title")?.trim() || identifier).slice(0, MAX_TITLE_LENGTH);
  const keepSource = options.source !== undefined && !options.changed && sourceVersion === "3.0";
  return {
    kind,
    identifier,
    title,
    rawXml: keepSource ? (options.source as string) : serializeXml(parsed.document),
    interactions: kind === "item" ? interactionsOf(root) : [],
    responseDeclarations: kind === "item" ? responseDeclarationsOf(root) : [],
    references: referencesOf(root, kind, options.resolveItemRef),
    sourceVersion,
  };
}

/** Reads one XML document into what the bank keeps; refusals are QtiXmlErrors. */
export function readQtiDocument(source: string): QtiDocumentRecord {
  return recordOf(parseQti(source), { source });
}

const INTERACTION = /^qti-(.+)-interaction$/;

/** The interaction types of an item, in the order they first appear (`choice`, `text-entry`…). */
function interactionsOf(root: Element): string[] {
  const found = new Set<string>();
  for (const element of descendants(root)) {
    const type = INTERACTION.exec(nameOf(element))?.[1];
    if (type) found.add(type);
  }
  return [...found];
}

const numberOr = <Fallback>(text: string | null, fallback: Fallback): number | Fallback => {
  if (text === null || text.trim() === "") return fallback;
  const value = Number(text);
  return Number.isFinite(value) ? value : fallback;
};

function mappingOf(element: Element | undefined): QtiMapping | null {
  if (!element) return null;
  return {
    defaultValue: numberOr(element.getAttribute("default-value"), 0),
    lowerBound: numberOr(element.getAttribute("lower-bound"), null),
    upperBound: numberOr(element.getAttribute("upper-bound"), null),
    entries: childrenNamed(element, "qti-map-entry").map((entry) => ({
      mapKey: (entry.getAttribute("map-key") ?? "").trim(),
      mappedValue: numberOr(entry.getAttribute("mapped-value"), 0),
      // QTI matches map keys case-sensitively unless an entry says otherwise.
      caseSensitive: entry.getAttribute("case-sensitive")?.trim() !== "false",
    })),
  };
}

function areaMappingOf(element: Element | undefined): QtiAreaMapping | null {
  if (!element) return null;
  return {
    defaultValue: numberOr(element.getAttribute("default-value"), 0),
    lowerBound: numberOr(element.getAttribute("lower-bound"), null),
    upperBound: numberOr(element.getAttribute("upper-bound"), null),
    entries: childrenNamed(element, "qti-area-map-entry").map((entry) => ({
      shape: (entry.getAttribute("shape") ?? "").trim(),
      coords: (entry.getAttribute("coords") ?? "").trim(),
      mappedValue: numberOr(entry.getAttribute("mapped-value"), 0),
    })),
  };
}

export function responseDeclarationsOf(root: Element): QtiResponseDeclaration[] {
  return childrenNamed(root, "qti-response-declaration").map((declaration) => {
    const correct = childNamed(declaration, "qti-correct-response");
    return {
      identifier: (declaration.getAttribute("identifier") ?? "").trim(),
      cardinality: (declaration.getAttribute("cardinality") ?? "single").trim(),
      baseType: declaration.getAttribute("base-type")?.trim() || null,
      correctResponse: correct ? childrenNamed(correct, "qti-value").map(textOf) : null,
      mapping: mappingOf(childNamed(declaration, "qti-mapping")),
      areaMapping: areaMappingOf(childNamed(declaration, "qti-area-mapping")),
    };
  });
}

/** The shared stimuli an item refers to, or the items a test holds (in order, each once). */
function referencesOf(
  root: Element,
  kind: QtiKind,
  resolveItemRef: RecordOptions["resolveItemRef"],
): string[] {
  const found = new Set<string>();
  if (kind === "item") {
    for (const ref of childElements(root))
      if (nameOf(ref) === "qti-assessment-stimulus-ref") {
        const identifier = ref.getAttribute("identifier")?.trim();
        if (identifier) found.add(identifier);
      }
  } else if (kind === "test") {
    for (const ref of descendants(root))
      if (nameOf(ref) === "qti-assessment-item-ref") {
        const identifier = ref.getAttribute("identifier")?.trim() ?? "";
        const href = ref.getAttribute("href")?.trim() || null;
        const resolved = resolveItemRef ? resolveItemRef({ identifier, href }) : identifier;
        if (resolved) found.add(resolved);
      }
  }
  return [...found];
}
