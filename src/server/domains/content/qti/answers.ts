import type { QtiResponseValue } from "../../../../shared/contracts/content";
import { readQtiDocument } from "./qti-document";
import { descendants, nameOf, parseXml, serializeXml } from "./xml";

/**
 * Parts of an item that tell or work out its answers, or react to them: the player only collects
 * responses (the server scores them), so none of them needs to reach the browser. The template's
 * processing goes too: its values are already fixed, and running it again would change them.
 */
const ANSWER_PARTS = new Set([
  "qti-correct-response",
  "qti-mapping",
  "qti-area-mapping",
  "qti-response-processing",
  "qti-template-processing",
  "qti-modal-feedback",
  "qti-feedback-block",
  "qti-feedback-inline",
]);

/** Removes the answer parts (above) from an item's XML: what a learner may see of a private item. */
export function withoutAnswers(rawXml: string): string {
  const document = parseXml(rawXml);
  const root = document.documentElement;
  if (!root) return rawXml;
  for (const element of descendants(root))
    if (ANSWER_PARTS.has(nameOf(element))) element.parentNode?.removeChild(element);
  return serializeXml(document);
}

/** The correct responses an item declares, as the browser player would report them. */
export function correctResponsesOf(rawXml: string): Record<string, QtiResponseValue> {
  const responses: Record<string, QtiResponseValue> = {};
  for (const declaration of readQtiDocument(rawXml).responseDeclarations)
    if (declaration.correctResponse)
      responses[declaration.identifier] =
        declaration.cardinality === "single"
          ? (declaration.correctResponse[0] ?? null)
          : declaration.correctResponse;
  return responses;
}
