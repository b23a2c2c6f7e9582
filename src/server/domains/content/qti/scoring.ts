import { createHash } from "node:crypto";
import { DOMParser, type Document, type Element } from "@xmldom/xmldom";
import type { QtiItemScore, QtiMapping, QtiResponseValue } from "../../../../shared/contracts/content";
import {
  ConstraintFailed,
  type Declaration,
  declarationOf,
  type ProcessingState,
  runProcessing,
  type TemplateEffects,
  UnsupportedProcessing,
} from "./processing";
import { type ParsedQti, parseQti, responseDeclarationsOf } from "./qti-document";
import {
  isNull,
  NULL_VALUE,
  numberOf,
  type QtiValue,
  sameValues,
  textOfScalar,
  valueFromTexts,
} from "./values";
import { childElements, childNamed, childrenNamed, nameOf, serializeXml } from "./xml";

/**
 * Scoring QTI items on the server, and fixing a template item's random values for one learner.
 *
 * scoreItem runs the item's response processing (a standard template or its own rules) over the
 * learner's responses as the browser player reports them. instantiateTemplate runs the item's
 * template processing from a seed and writes the results into the item, so the player shows the
 * same values scoreItem scores against.
 */

export type ItemScore = QtiItemScore;

const UNSCORED: ItemScore = { score: 0, maxScore: 0, scored: false };
/** Template processing starts again when a constraint fails, this many times at most (QTI asks for "at least 100"). */
const MAX_CONSTRAINT_TRIES = 100;

type StandardTemplate = "match_correct" | "map_response" | "map_response_point";

/** The standard response processing templates, as the rules they stand for. */
const STANDARD_TEMPLATES: Record<StandardTemplate, string> = {
  match_correct: `<qti-response-processing>
    <qti-response-condition>
      <qti-response-if>
        <qti-match><qti-variable identifier="RESPONSE"/><qti-correct identifier="RESPONSE"/></qti-match>
        <qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">1</qti-base-value></qti-set-outcome-value>
      </qti-response-if>
      <qti-response-else>
        <qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">0</qti-base-value></qti-set-outcome-value>
      </qti-response-else>
    </qti-response-condition>
  </qti-response-processing>`,
  map_response: `<qti-response-processing>
    <qti-response-condition>
      <qti-response-if>
        <qti-is-null><qti-variable identifier="RESPONSE"/></qti-is-null>
        <qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">0</qti-base-value></qti-set-outcome-value>
      </qti-response-if>
      <qti-response-else>
        <qti-set-outcome-value identifier="SCORE"><qti-map-response identifier="RESPONSE"/></qti-set-outcome-value>
      </qti-response-else>
    </qti-response-condition>
  </qti-response-processing>`,
  map_response_point: `<qti-response-processing>
    <qti-response-condition>
      <qti-response-if>
        <qti-is-null><qti-variable identifier="RESPONSE"/></qti-is-null>
        <qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">0</qti-base-value></qti-set-outcome-value>
      </qti-response-if>
      <qti-response-else>
        <qti-set-outcome-value identifier="SCORE"><qti-map-response-point identifier="RESPONSE"/></qti-set-outcome-value>
      </qti-response-else>
    </qti-response-condition>
  </qti-response-processing>`,
};

const templateRules = new Map<StandardTemplate, Element[]>();
function rulesOfTemplate(name: StandardTemplate): Element[] {
  let rules = templateRules.get(name);
  if (!rules) {
    const root = new DOMParser().parseFromString(STANDARD_TEMPLATES[name], "application/xml").documentElement;
    rules = root ? childElements(root) : [];
    templateRules.set(name, rules);
  }
  return rules;
}

/** The standard template a `template` address names (by its last part, whatever the host or version). */
function standardTemplateOf(address: string | null): StandardTemplate | null {
  const name = /([a-z_]+)(\.xml)?\s*$/.exec(address ?? "")?.[1];
  return name === "match_correct" || name === "map_response" || name === "map_response_point" ? name : null;
}

/** An item's declarations and processing, read once per call. */
interface ItemModel {
  root: Element;
  declarations: Map<string, Declaration>;
  responses: Declaration[];
  templates: Declaration[];
  outcomes: Declaration[];
}

function itemModel(root: Element): ItemModel {
  const mappings = new Map(
    responseDeclarationsOf(root).map((declaration) => [
      declaration.identifier,
      { mapping: declaration.mapping, areaMapping: declaration.areaMapping },
    ]),
  );
  const read = (localName: string) =>
    childrenNamed(root, localName).map((element) =>
      declarationOf(
        element,
        mappings.get(element.getAttribute("identifier")?.trim() ?? "") ?? {
          mapping: null,
          areaMapping: null,
        },
      ),
    );
  const responses = read("qti-response-declaration");
  const outcomes = read("qti-outcome-declaration");
  const templates = read("qti-template-declaration");
  const declarations = new Map<string, Declaration>();
  for (const declaration of [...responses, ...outcomes, ...templates])
    declarations.set(declaration.identifier, declaration);
  return { root, declarations, responses, templates, outcomes };
}

/** Uniform numbers in [0, 1) from a seed: sfc32 seeded with the seed's SHA-256. */
export function seededRandom(seed: string): () => number {
  const digest = createHash("sha256").update(seed).digest();
  let [a, b, c, d] = [0, 4, 8, 12].map((offset) => digest.readUInt32LE(offset)) as [
    number,
    number,
    number,
    number,
  ];
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // The first outputs of a fresh sfc32 are weakly mixed.
  for (let round = 0; round < 12; round++) next();
  return next;
}

function stateOf(model: ItemModel, random: () => number, responses: Map<string, QtiValue>): ProcessingState {
  const variables = new Map<string, QtiValue>();
  for (const declaration of [...model.templates, ...model.outcomes])
    variables.set(declaration.identifier, declaration.defaultValue);
  for (const declaration of model.responses)
    variables.set(declaration.identifier, responses.get(declaration.identifier) ?? NULL_VALUE);
  return { declarations: model.declarations, variables, random };
}

/**
 * Runs an item's template processing on its model (declarations get their computed correct
 * responses and defaults), answering the template variables' values. A failed constraint starts
 * again with the next random numbers.
 */
function runTemplateProcessing(model: ItemModel, seed: string, effects: TemplateEffects | null) {
  const processing = childNamed(model.root, "qti-template-processing");
  const random = seededRandom(seed);
  const originals = new Map(
    [...model.declarations.values()].map((declaration) => [declaration.identifier, { ...declaration }]),
  );
  let state = stateOf(model, random, new Map());
  if (!processing) return state.variables;
  for (let attempt = 1; ; attempt++) {
    // Effects reach the caller only from the run that stands, not from one a constraint threw out.
    const changes: (() => void)[] = [];
    const recording: TemplateEffects = {
      setCorrectResponse: (identifier, value) =>
        changes.push(() => effects?.setCorrectResponse(identifier, value)),
      setDefaultValue: (identifier, value) => changes.push(() => effects?.setDefaultValue(identifier, value)),
    };
    try {
      runProcessing(childElements(processing), state, recording);
    } catch (error) {
      if (!(error instanceof ConstraintFailed)) throw error;
      // After enough tries QTI goes on with the values of the last one.
      if (attempt < MAX_CONSTRAINT_TRIES) {
        for (const [identifier, original] of originals)
          Object.assign(model.declarations.get(identifier) as Declaration, original);
        state = stateOf(model, random, new Map());
        continue;
      }
    }
    for (const change of changes) change();
    return state.variables;
  }
}

/** A learner's answer as a QTI value of the response's declared type. */
function learnerValue(declaration: Declaration, response: QtiResponseValue | undefined): QtiValue {
  const { cardinality, baseType } = declaration;
  if (response === null || response === undefined || cardinality === "record")
    return { cardinality, baseType, values: [] };
  // A single response reported as a list (a select-point click comes as ["x y"]) is its first value.
  return valueFromTexts(typeof response === "string" ? [response] : response, cardinality, baseType);
}

interface Processing {
  rules: Element[];
  template: StandardTemplate | null;
}

/**
 * The rules an item is scored by: its standard template, its own rules, or, when it has no
 * response processing but declares every response's correct answer, match_correct for all of them.
 */
function processingOf(model: ItemModel): Processing | null {
  const element = childNamed(model.root, "qti-response-processing");
  if (element) {
    const ownRules = childElements(element);
    if (ownRules.length > 0) return { rules: ownRules, template: null };
    const template = standardTemplateOf(element.getAttribute("template"));
    return template ? { rules: rulesOfTemplate(template), template } : null;
  }
  if (model.responses.length === 0 || model.responses.some((declaration) => isNull(declaration.correct)))
    return null;
  return { rules: [], template: "match_correct" };
}

function scoreOf(model: ItemModel, processing: Processing, responses: Map<string, QtiValue>): number {
  const state = stateOf(model, () => 0.5, responses);
  if (processing.rules.length > 0) {
    runProcessing(processing.rules, state);
    return numberOf(state.variables.get("SCORE")?.values[0]) ?? 0;
  }
  // No rules of its own: every response must match its correct response.
  const allCorrect = model.responses.every((declaration) => {
    const given = responses.get(declaration.identifier);
    return given !== undefined && !isNull(given) && sameValues(given, declaration.correct);
  });
  return allCorrect ? 1 : 0;
}

/** The most a mapping can give: the best entry for a single response, the positive entries for a container. */
function mappingMaximum(
  entries: { mappedValue: number }[],
  bounds: Pick<QtiMapping, "upperBound">,
  isSingle: boolean,
): number {
  const positive = entries.map((entry) => entry.mappedValue).filter((value) => value > 0);
  const best = isSingle ? Math.max(0, ...positive) : positive.reduce((total, value) => total + value, 0);
  return bounds.upperBound === null ? best : Math.min(best, bounds.upperBound);
}

/** The responses a perfect learner gives: the correct ones, or the best mapped keys where none is given. */
function idealResponses(model: ItemModel): Map<string, QtiValue> {
  const ideal = new Map<string, QtiValue>();
  for (const declaration of model.responses) {
    if (!isNull(declaration.correct)) {
      ideal.set(declaration.identifier, declaration.correct);
      continue;
    }
    const mapping = declaration.mapping;
    if (!mapping) continue;
    const positive = [...mapping.entries]
      .filter((entry) => entry.mappedValue > 0)
      .sort((a, b) => b.mappedValue - a.mappedValue);
    const keys = declaration.cardinality === "single" ? positive.slice(0, 1) : positive;
    ideal.set(
      declaration.identifier,
      learnerValue(
        declaration,
        keys.map((entry) => entry.mapKey),
      ),
    );
  }
  return ideal;
}

/**
 * The most an item gives: the SCORE outcome's normal-maximum, else a MAXSCORE outcome's default,
 * else the mapping's upper bound or best total (map_response, map_response_point), else the score
 * of the correct responses, else 1.
 */
function maxScoreOf(model: ItemModel, processing: Processing): number {
  const score = model.declarations.get("SCORE");
  if (score?.normalMaximum && score.normalMaximum > 0) return score.normalMaximum;
  const declaredMax = numberOf(model.declarations.get("MAXSCORE")?.defaultValue.values[0]);
  if (declaredMax !== null && declaredMax > 0) return declaredMax;
  const response = model.declarations.get("RESPONSE");
  if (processing.template === "map_response" && response?.mapping)
    return mappingMaximum(response.mapping.entries, response.mapping, response.cardinality === "single");
  if (processing.template === "map_response_point" && response?.areaMapping)
    return mappingMaximum(
      response.areaMapping.entries,
      response.areaMapping,
      response.cardinality === "single",
    );
  const ideal = scoreOf(model, processing, idealResponses(model));
  return ideal > 0 ? ideal : 1;
}

const tidy = (value: number) => Math.round(value * 1e6) / 1e6;

function itemRootOf(rawXml: string): ParsedQti {
  const parsed = parseQti(rawXml);
  if (parsed.kind !== "item") throw new Error(`scoring needs a qti-assessment-item, not a ${parsed.kind}`);
  return parsed;
}

/**
 * What a learner's responses are worth, between 0 and the item's maximum. Items no machine can
 * mark (extended text, uploads, essays: no correct response, no mapping, or a SCORE scored by a
 * person) are `scored: false` and count 0 of 0. Give it the instantiated XML of a template item
 * (instantiateTemplate); one that still holds its template processing is run with an empty seed.
 */
export function scoreItem(rawXml: string, responses: Record<string, QtiResponseValue>): ItemScore {
  const model = itemModel(itemRootOf(rawXml).root);
  const score = model.declarations.get("SCORE");
  if (!score || score.externalScored) return UNSCORED;
  const hasAnswerKey = model.responses.some(
    (declaration) => !isNull(declaration.correct) || declaration.mapping || declaration.areaMapping,
  );
  const processing = processingOf(model);
  if (!processing || !hasAnswerKey) return UNSCORED;
  try {
    const templateValues = runTemplateProcessing(model, "", null);
    for (const declaration of model.templates)
      declaration.defaultValue = templateValues.get(declaration.identifier) ?? NULL_VALUE;
    const given = new Map(
      model.responses.map((declaration) => [
        declaration.identifier,
        learnerValue(
          declaration,
          Object.hasOwn(responses, declaration.identifier) ? responses[declaration.identifier] : undefined,
        ),
      ]),
    );
    const maxScore = tidy(maxScoreOf(model, processing));
    if (maxScore <= 0) return UNSCORED;
    const earned = tidy(scoreOf(model, processing, given));
    return { score: Math.min(maxScore, Math.max(0, earned)), maxScore, scored: true };
  } catch (error) {
    if (error instanceof UnsupportedProcessing) return UNSCORED;
    throw error;
  }
}

/** Replaces a declaration's `holder` (qti-default-value or qti-correct-response) with these values. */
function writeValues(declaration: Element, holderName: string, value: QtiValue): void {
  for (const old of childrenNamed(declaration, holderName)) declaration.removeChild(old);
  if (isNull(value)) return;
  const document = declaration.ownerDocument as Document;
  const namespace = declaration.namespaceURI;
  const holder = document.createElementNS(namespace, holderName);
  for (const scalar of value.values) {
    const element = document.createElementNS(namespace, "qti-value");
    element.appendChild(document.createTextNode(textOfScalar(scalar)));
    holder.appendChild(element);
  }
  // The schema's order: qti-default-value, then qti-correct-response, then the mappings.
  const children = childElements(declaration);
  const before =
    holderName === "qti-default-value"
      ? children[0]
      : children.find((child) => nameOf(child) !== "qti-default-value");
  declaration.insertBefore(holder, before ?? null);
}

/**
 * The item with its template variables fixed for `seed`: each template declaration gets its value
 * as qti-default-value, responses get the correct responses and defaults the processing computed,
 * and qti-template-processing is gone. The same seed always gives the same item; an item without
 * templates comes back as it is.
 */
export function instantiateTemplate(rawXml: string, seed: string): string {
  const parsed = itemRootOf(rawXml);
  const { root } = parsed;
  const processing = childNamed(root, "qti-template-processing");
  if (!processing && childrenNamed(root, "qti-template-declaration").length === 0) return rawXml;
  const model = itemModel(root);
  const declarationElements = new Map(
    ["qti-response-declaration", "qti-outcome-declaration", "qti-template-declaration"].flatMap((name) =>
      childrenNamed(root, name).map(
        (element) => [element.getAttribute("identifier")?.trim() ?? "", element] as const,
      ),
    ),
  );
  const corrections = new Map<string, QtiValue>();
  const defaults = new Map<string, QtiValue>();
  const variables = runTemplateProcessing(model, seed, {
    setCorrectResponse: (identifier, value) => corrections.set(identifier, value),
    setDefaultValue: (identifier, value) => defaults.set(identifier, value),
  });
  for (const declaration of model.templates) {
    const element = declarationElements.get(declaration.identifier);
    if (element)
      writeValues(element, "qti-default-value", variables.get(declaration.identifier) ?? NULL_VALUE);
  }
  for (const [identifier, value] of defaults) {
    const element = declarationElements.get(identifier);
    if (element) writeValues(element, "qti-default-value", value);
  }
  for (const [identifier, value] of corrections) {
    const element = declarationElements.get(identifier);
    if (element?.localName === "qti-response-declaration")
      writeValues(element, "qti-correct-response", value);
  }
  if (processing) root.removeChild(processing);
  return serializeXml(parsed.document);
}
