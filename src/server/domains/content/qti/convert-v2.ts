import { DOMImplementation, type Document, type Element } from "@xmldom/xmldom";
import { message } from "../../../lib/i18n";
import { nameOf, positionOf, QTI3_NAMESPACE, QtiXmlError } from "./xml";

/**
 * QTI 2.2 to QTI 3: the same model under new names. QTI elements take the `qti-` kebab-case
 * name of their camelCase one (choiceInteraction → qti-choice-interaction), their camelCase
 * attributes the kebab-case one (responseIdentifier → response-identifier); the XHTML content
 * stays as it is; the response processing templates move to their QTI 3 addresses; feedback,
 * rubric and template blocks get the qti-content-body QTI 3 wraps their content in. An element
 * this cannot place (an unknown name, or another vocabulary such as APIP) refuses the item,
 * naming the element and its line, rather than storing an item no QTI 3 player understands.
 */

const QTI22_NAMESPACE = "http://www.imsglobal.org/xsd/imsqti_v2p2";
/** The QTI 2 roots, by namespace of their version (2.2 converts; older ones are named in the refusal). */
const QTI2_ROOTS = new Set(["assessmentItem", "assessmentStimulus", "assessmentTest"]);
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";
const XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/";
/** Vocabularies QTI 3 embeds unchanged. */
const FOREIGN_KEPT = new Set([
  "http://www.w3.org/1998/Math/MathML",
  "http://www.w3.org/2001/10/synthesis",
  "http://www.w3.org/XML/1998/namespace",
]);

const SCHEMA_LOCATIONS: Record<string, string> = {
  assessmentItem: "https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
  assessmentStimulus: "https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_stimulusv3p0_v1p0.xsd",
  assessmentTest: "https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd",
};

/** The standard response processing templates, by their name in any QTI 2 address. */
const TEMPLATES = new Set(["match_correct", "map_response", "map_response_point"]);
const templateAddress = (name: string) => `https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/${name}.xml`;

/** The XHTML (and HTML5) elements QTI 2.2 content may hold: kept as they are. */
const HTML_ELEMENTS = new Set(
  (
    "a abbr acronym address article aside audio b bdi bdo big blockquote br caption cite code col colgroup " +
    "dd del details dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 header hr i img ins kbd " +
    "label li mark nav object ol p param picture pre q rb rp rt rtc ruby s samp section small source span " +
    "strong sub summary sup table tbody td tfoot th thead tr track tt u ul var video wbr"
  ).split(" "),
);

/** The QTI 2.2 elements, each of which has a QTI 3 twin under its `qti-` kebab-case name. */
const QTI2_ELEMENTS = new Set(
  // Items, stimuli and their declarations
  (
    "assessmentItem assessmentStimulus responseDeclaration outcomeDeclaration templateDeclaration " +
    "contextDeclaration correctResponse defaultValue value mapping mapEntry areaMapping areaMapEntry " +
    "matchTable matchTableEntry interpolationTable interpolationTableEntry stylesheet itemBody " +
    "stimulusBody rubricBlock modalFeedback feedbackBlock feedbackInline templateBlock templateInline " +
    "printedVariable prompt assessmentStimulusRef infoControl " +
    // Interactions and their choices
    "choiceInteraction orderInteraction associateInteraction matchInteraction gapMatchInteraction " +
    "inlineChoiceInteraction textEntryInteraction extendedTextInteraction hottextInteraction " +
    "hotspotInteraction selectPointInteraction graphicOrderInteraction graphicAssociateInteraction " +
    "graphicGapMatchInteraction positionObjectInteraction positionObjectStage sliderInteraction " +
    "mediaInteraction drawingInteraction uploadInteraction customInteraction endAttemptInteraction " +
    "simpleChoice simpleAssociableChoice simpleMatchSet gapText gapImg gap inlineChoice hottext " +
    "hotspotChoice associableHotspot " +
    // Response, template and outcome processing
    "responseProcessing responseCondition responseIf responseElseIf responseElse setOutcomeValue " +
    "lookupOutcomeValue exitResponse responseProcessingFragment templateProcessing templateCondition " +
    "templateIf templateElseIf templateElse setTemplateValue setCorrectResponse setDefaultValue " +
    "exitTemplate templateConstraint outcomeProcessing outcomeCondition outcomeIf outcomeElseIf " +
    "outcomeElse exitTest outcomeProcessingFragment " +
    // Expressions
    "baseValue variable correct default mapResponse mapResponsePoint mathConstant null randomInteger " +
    "randomFloat multiple ordered containerSize isNull index fieldValue random member delete contains " +
    "substring not and or anyN match stringMatch patternMatch equal equalRounded inside lt gt lte gte " +
    "durationLT durationGTE sum product subtract divide power integerDivide integerModulus truncate " +
    "round roundTo integerToFloat customOperator mathOperator statsOperator max min gcd lcm repeat " +
    "numberCorrect numberIncorrect numberPresented numberResponded numberSelected outcomeMinimum " +
    "outcomeMaximum testVariables " +
    // Tests
    "assessmentTest testPart assessmentSection assessmentSectionRef assessmentItemRef itemSessionControl " +
    "timeLimits selection ordering preCondition branchRule weight variableMapping templateDefault testFeedback"
  ).split(" "),
);

/** The QTI 2.2 elements whose content QTI 3 holds in a qti-content-body. */
const CONTENT_BODY_HOLDERS = new Set([
  "modalFeedback",
  "feedbackBlock",
  "rubricBlock",
  "templateBlock",
  "testFeedback",
]);

/** camelCase (durationLT, mapResponsePoint) to kebab-case (duration-lt, map-response-point). */
function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();
}

const unconvertible = (element: Element, reason: "element" | "namespace" | "template", detail: string) =>
  new QtiXmlError(
    message("content:qti.convert.unsupported", { reason, detail, ...positionOf(element) }),
    positionOf(element),
  );

/** The QTI 3 twin of a QTI 2.2 document; throws a QtiXmlError naming what has none. */
export function convertQti2(source: Document): Document {
  const root = source.documentElement as Element;
  const target = new DOMImplementation().createDocument(
    QTI3_NAMESPACE,
    `qti-${kebabCase(nameOf(root))}`,
    null,
  );
  const newRoot = target.documentElement as Element;
  copyAttributes(root, newRoot, true);
  copyChildren(root, newRoot, target);
  return target;
}

function copyAttributes(from: Element, to: Element, isQti: boolean): void {
  for (let index = 0; index < from.attributes.length; index++) {
    const attribute = from.attributes.item(index);
    if (!attribute) continue;
    const { name, namespaceURI, value } = attribute;
    // The default namespace is the new document's; other declarations (MathML's prefix…) stay.
    if (name === "xmlns") continue;
    if (namespaceURI === XMLNS_NAMESPACE) {
      to.setAttributeNS(XMLNS_NAMESPACE, name, value);
    } else if (namespaceURI === XSI_NAMESPACE && attribute.localName === "schemaLocation") {
      to.setAttributeNS(XSI_NAMESPACE, name, `${QTI3_NAMESPACE} ${SCHEMA_LOCATIONS[nameOf(from)] ?? ""}`);
    } else if (namespaceURI) {
      to.setAttributeNS(namespaceURI, name, value);
    } else if (isQti && name === "template" && nameOf(from) === "responseProcessing") {
      to.setAttribute("template", convertedTemplate(from, value));
    } else if (isQti && name === "templateLocation") {
    } else {
      to.setAttribute(isQti ? kebabCase(name) : name, value);
    }
  }
}

function convertedTemplate(element: Element, address: string): string {
  const name = /([a-z_]+)(\.xml)?$/.exec(address.trim())?.[1] ?? "";
  if (!TEMPLATES.has(name)) throw unconvertible(element, "template", address);
  return templateAddress(name);
}

function copyChildren(from: Element, to: Element, target: Document): void {
  const holder = CONTENT_BODY_HOLDERS.has(nameOf(from))
    ? (to.appendChild(target.createElementNS(QTI3_NAMESPACE, "qti-content-body")) as Element)
    : to;
  for (let child = from.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== 1) {
      holder.appendChild(target.importNode(child, false));
      continue;
    }
    const element = child as Element;
    const namespace = element.namespaceURI;
    if (namespace && FOREIGN_KEPT.has(namespace)) {
      holder.appendChild(target.importNode(element, true));
      continue;
    }
    if (namespace !== from.namespaceURI) throw unconvertible(element, "namespace", element.tagName);
    const name = nameOf(element);
    let copy: Element;
    if (HTML_ELEMENTS.has(name)) {
      copy = target.createElementNS(QTI3_NAMESPACE, name);
      copyAttributes(element, copy, false);
    } else if (QTI2_ELEMENTS.has(name)) {
      copy = target.createElementNS(QTI3_NAMESPACE, `qti-${kebabCase(name)}`);
      copyAttributes(element, copy, true);
    } else {
      throw unconvertible(element, "element", name);
    }
    holder.appendChild(copy);
    copyChildren(element, copy, target);
  }
}

/** Whether a root in a QTI 2 namespace is one this converts, and which version it is. */
export function qti2VersionOf(root: Element): "2.2" | "other" | null {
  if (!QTI2_ROOTS.has(nameOf(root))) return null;
  const namespace = root.namespaceURI ?? "";
  if (namespace === QTI22_NAMESPACE) return "2.2";
  return /imsqti_v2p\d/.test(namespace) ? "other" : null;
}
