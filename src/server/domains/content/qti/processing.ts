import type { Element } from "@xmldom/xmldom";
import type { QtiAreaMapping, QtiMapping } from "../../../../shared/contracts/content";
import {
  booleanValue,
  type Cardinality,
  cardinalityOf,
  coerce,
  isNull,
  isNumericBaseType,
  NULL_VALUE,
  numberOf,
  parseScalar,
  pointOf,
  type QtiValue,
  type Scalar,
  sameValues,
  single,
  valueFromTexts,
} from "./values";
import { childElements, nameOf, textOf } from "./xml";

/**
 * Runs QTI response and template processing: the rules (conditions, set-outcome-value…) and the
 * expressions they evaluate, over an item's variables. A construct this does not know stops the
 * run with UnsupportedProcessing, so an item is never scored by rules only half understood.
 */

export class UnsupportedProcessing extends Error {
  constructor(readonly element: string) {
    super(`QTI processing element not supported: ${element}`);
    this.name = "UnsupportedProcessing";
  }
}

/** A declared variable: its type, and for responses the correct response and mappings. */
export interface Declaration {
  identifier: string;
  cardinality: Cardinality;
  baseType: string | null;
  defaultValue: QtiValue;
  correct: QtiValue;
  mapping: QtiMapping | null;
  areaMapping: QtiAreaMapping | null;
  /** A numeric outcome's `normal-maximum`, when given. */
  normalMaximum: number | null;
  externalScored: boolean;
}

export interface ProcessingState {
  declarations: Map<string, Declaration>;
  /** Responses, outcomes and template variables by identifier (QTI keeps them in one namespace). */
  variables: Map<string, QtiValue>;
  /** Uniform numbers in [0, 1): seeded for template processing, so that a seed always gives the same item. */
  random: () => number;
}

/** Thrown by qti-exit-response / qti-exit-template: ends the processing, keeping what was set. */
class ExitProcessing extends Error {}
/** Thrown when a template constraint fails: template processing starts again. */
export class ConstraintFailed extends Error {}

const variableValue = (state: ProcessingState, identifier: string) =>
  state.variables.get(identifier) ?? NULL_VALUE;

/** An attribute that may be a number or the identifier of a variable holding one (`{A}` or `A`). */
function numberAttribute(element: Element, name: string, state: ProcessingState, fallback: number): number {
  const text = element.getAttribute(name)?.trim();
  if (!text) return fallback;
  const direct = numberOf(text);
  if (direct !== null) return direct;
  const reference = text.replace(/^\{(.*)\}$/, "$1");
  return numberOf(variableValue(state, reference).values[0]) ?? fallback;
}

const numbersOf = (value: QtiValue) => value.values.map((scalar) => numberOf(scalar) ?? Number.NaN);

function numericResult(result: number, operands: QtiValue[]): QtiValue {
  if (!Number.isFinite(result) && !Number.isNaN(result)) return single("float", result);
  if (Number.isNaN(result)) return NULL_VALUE;
  const allInteger = operands.every((operand) => operand.baseType === "integer");
  return single(allInteger && Number.isInteger(result) ? "integer" : "float", result);
}

/** The operands of an operator: each child expression's value. */
const operandsOf = (element: Element, state: ProcessingState) =>
  childElements(element).map((child) => evaluate(child, state));

function firstNumber(value: QtiValue | undefined): number | null {
  return value && !isNull(value) ? numberOf(value.values[0]) : null;
}

/** The value of a numeric operator over two numbers, NULL when either is missing. */
function binary(element: Element, state: ProcessingState, operate: (a: number, b: number) => number | null) {
  const operands = operandsOf(element, state);
  const a = firstNumber(operands[0]);
  const b = firstNumber(operands[1]);
  if (a === null || b === null) return NULL_VALUE;
  const result = operate(a, b);
  return result === null ? NULL_VALUE : numericResult(result, operands);
}

function compare(element: Element, state: ProcessingState, test: (a: number, b: number) => boolean) {
  const operands = operandsOf(element, state);
  const a = firstNumber(operands[0]);
  const b = firstNumber(operands[1]);
  return a === null || b === null ? NULL_VALUE : booleanValue(test(a, b));
}

const MATH_FUNCTIONS: Record<string, (values: number[]) => number> = {
  sin: ([x = Number.NaN]) => Math.sin(x),
  cos: ([x = Number.NaN]) => Math.cos(x),
  tan: ([x = Number.NaN]) => Math.tan(x),
  sec: ([x = Number.NaN]) => 1 / Math.cos(x),
  csc: ([x = Number.NaN]) => 1 / Math.sin(x),
  cot: ([x = Number.NaN]) => 1 / Math.tan(x),
  asin: ([x = Number.NaN]) => Math.asin(x),
  acos: ([x = Number.NaN]) => Math.acos(x),
  atan: ([x = Number.NaN]) => Math.atan(x),
  atan2: ([y = Number.NaN, x = Number.NaN]) => Math.atan2(y, x),
  asec: ([x = Number.NaN]) => Math.acos(1 / x),
  acsc: ([x = Number.NaN]) => Math.asin(1 / x),
  acot: ([x = Number.NaN]) => Math.atan(1 / x),
  sinh: ([x = Number.NaN]) => Math.sinh(x),
  cosh: ([x = Number.NaN]) => Math.cosh(x),
  tanh: ([x = Number.NaN]) => Math.tanh(x),
  sech: ([x = Number.NaN]) => 1 / Math.cosh(x),
  csch: ([x = Number.NaN]) => 1 / Math.sinh(x),
  coth: ([x = Number.NaN]) => 1 / Math.tanh(x),
  log: ([x = Number.NaN]) => Math.log10(x),
  ln: ([x = Number.NaN]) => Math.log(x),
  exp: ([x = Number.NaN]) => Math.exp(x),
  abs: ([x = Number.NaN]) => Math.abs(x),
  signum: ([x = Number.NaN]) => Math.sign(x),
  floor: ([x = Number.NaN]) => Math.floor(x),
  ceil: ([x = Number.NaN]) => Math.ceil(x),
  toDegrees: ([x = Number.NaN]) => (x * 180) / Math.PI,
  toRadians: ([x = Number.NaN]) => (x * Math.PI) / 180,
};

function statistic(name: string, values: number[]): number | null {
  const count = values.length;
  if (count === 0) return null;
  const mean = values.reduce((total, x) => total + x, 0) / count;
  const squares = values.reduce((total, x) => total + (x - mean) ** 2, 0);
  switch (name) {
    case "mean":
      return mean;
    case "sampleVariance":
      return count > 1 ? squares / (count - 1) : null;
    case "sampleSD":
      return count > 1 ? Math.sqrt(squares / (count - 1)) : null;
    case "popVariance":
      return squares / count;
    case "popSD":
      return Math.sqrt(squares / count);
    default:
      return null;
  }
}

const gcdOf = (a: number, b: number): number => {
  let [x, y] = [Math.abs(a), Math.abs(b)];
  while (y) [x, y] = [y, x % y];
  return x;
};

/** QTI's rounding: to the nearest, halves up (what Math.round does). */
function roundTo(value: number, mode: string, figures: number): number {
  if (mode === "decimalPlaces") {
    const factor = 10 ** figures;
    return Math.round(value * factor) / factor;
  }
  if (value === 0) return 0;
  return Number(value.toPrecision(Math.max(1, figures)));
}

/** Whether a point lies in a QTI shape (`circle`, `rect`, `poly`, `ellipse`, `default`). */
function insideShape(point: [number, number], shape: string, coords: string): boolean {
  const c = coords.split(",").map((part) => Number(part.trim()));
  const [x, y] = point;
  switch (shape) {
    case "circle": {
      const [cx = 0, cy = 0, r = 0] = c;
      return (x - cx) ** 2 + (y - cy) ** 2 <= r ** 2;
    }
    case "rect": {
      const [left = 0, top = 0, right = 0, bottom = 0] = c;
      return (
        x >= Math.min(left, right) &&
        x <= Math.max(left, right) &&
        y >= Math.min(top, bottom) &&
        y <= Math.max(top, bottom)
      );
    }
    case "ellipse": {
      const [cx = 0, cy = 0, rx = 0, ry = 0] = c;
      return rx > 0 && ry > 0 && (x - cx) ** 2 / rx ** 2 + (y - cy) ** 2 / ry ** 2 <= 1;
    }
    case "poly": {
      let inside = false;
      const corners: [number, number][] = [];
      for (let at = 0; at + 1 < c.length; at += 2) corners.push([c[at] as number, c[at + 1] as number]);
      for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
        const [xi, yi] = corners[i] as [number, number];
        const [xj, yj] = corners[j] as [number, number];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    }
    case "default":
      return true;
    default:
      return false;
  }
}

/** The sum of a response's mapped values (each key once), within the mapping's bounds. */
function mapResponse(value: QtiValue, mapping: QtiMapping): number {
  const seen = new Set<string>();
  let total = 0;
  for (const scalar of value.values) {
    const text = String(scalar);
    const entry = mapping.entries.find((candidate) =>
      candidate.caseSensitive
        ? candidate.mapKey === text
        : candidate.mapKey.toLowerCase() === text.toLowerCase(),
    );
    const key = entry ? entry.mapKey : `\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    total += entry ? entry.mappedValue : mapping.defaultValue;
  }
  return bounded(total, mapping);
}

function mapResponsePoint(value: QtiValue, mapping: QtiAreaMapping): number {
  const used = new Set<number>();
  let total = 0;
  for (const scalar of value.values) {
    const point = pointOf(scalar);
    const index = point
      ? mapping.entries.findIndex((entry) => insideShape(point, entry.shape, entry.coords))
      : -1;
    if (index === -1) total += mapping.defaultValue;
    else if (!used.has(index)) {
      used.add(index);
      total += mapping.entries[index]?.mappedValue ?? 0;
    }
  }
  return bounded(total, mapping);
}

function bounded(total: number, bounds: { lowerBound: number | null; upperBound: number | null }): number {
  let result = total;
  if (bounds.lowerBound !== null) result = Math.max(result, bounds.lowerBound);
  if (bounds.upperBound !== null) result = Math.min(result, bounds.upperBound);
  return result;
}

function container(values: QtiValue[], cardinality: Cardinality): QtiValue {
  const present = values.filter((value) => !isNull(value));
  return {
    cardinality,
    baseType: present[0]?.baseType ?? null,
    values: present.flatMap((value) => value.values),
  };
}

function equalWithTolerance(element: Element, state: ProcessingState, a: number, b: number): boolean {
  const mode = element.getAttribute("tolerance-mode")?.trim() ?? "exact";
  if (mode === "exact") return a === b;
  const tolerances = (element.getAttribute("tolerance") ?? "0").trim().split(/\s+/);
  const resolve = (text: string | undefined) => {
    if (text === undefined) return null;
    const direct = numberOf(text);
    return direct ?? numberOf(variableValue(state, text.replace(/^\{(.*)\}$/, "$1")).values[0]);
  };
  const t0 = resolve(tolerances[0]) ?? 0;
  const t1 = resolve(tolerances[1]) ?? t0;
  const low = mode === "absolute" ? a - t0 : a * (1 - t0 / 100);
  const high = mode === "absolute" ? a + t1 : a * (1 + t1 / 100);
  const includeLow = element.getAttribute("include-lower-bound")?.trim() !== "false";
  const includeHigh = element.getAttribute("include-upper-bound")?.trim() !== "false";
  return (includeLow ? b >= low : b > low) && (includeHigh ? b <= high : b < high);
}

/** Translates an XML Schema pattern to a JavaScript one matching the whole text. */
function patternOf(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, "u");
  } catch {
    return null;
  }
}

/** Evaluates one QTI expression. */
export function evaluate(element: Element, state: ProcessingState): QtiValue {
  const name = nameOf(element);
  switch (name) {
    case "qti-base-value": {
      const baseType = element.getAttribute("base-type")?.trim() ?? null;
      const scalar = parseScalar(element.textContent ?? "", baseType);
      return scalar === null ? NULL_VALUE : single(baseType, scalar);
    }
    case "qti-variable":
      return variableValue(state, element.getAttribute("identifier")?.trim() ?? "");
    case "qti-correct":
      return state.declarations.get(element.getAttribute("identifier")?.trim() ?? "")?.correct ?? NULL_VALUE;
    case "qti-default":
      return (
        state.declarations.get(element.getAttribute("identifier")?.trim() ?? "")?.defaultValue ?? NULL_VALUE
      );
    case "qti-null":
      return NULL_VALUE;
    case "qti-multiple":
      return container(operandsOf(element, state), "multiple");
    case "qti-ordered":
      return container(operandsOf(element, state), "ordered");
    case "qti-repeat": {
      const times = Math.max(0, Math.trunc(numberAttribute(element, "number-repeats", state, 1)));
      const values: QtiValue[] = [];
      for (let round = 0; round < Math.min(times, 10_000); round++)
        values.push(...operandsOf(element, state));
      return container(values, "ordered");
    }
    case "qti-container-size": {
      const [operand] = operandsOf(element, state);
      return single("integer", operand ? operand.values.length : 0);
    }
    case "qti-is-null": {
      const [operand] = operandsOf(element, state);
      return booleanValue(!operand || isNull(operand));
    }
    case "qti-index": {
      const [operand] = operandsOf(element, state);
      const n = Math.trunc(numberAttribute(element, "n", state, 0));
      const scalar = operand?.values[n - 1];
      return operand && scalar !== undefined ? single(operand.baseType, scalar) : NULL_VALUE;
    }
    case "qti-random": {
      const [operand] = operandsOf(element, state);
      if (!operand || isNull(operand)) return NULL_VALUE;
      const at = Math.floor(state.random() * operand.values.length);
      return single(operand.baseType, operand.values[at] as Scalar);
    }
    case "qti-random-integer": {
      const min = Math.trunc(numberAttribute(element, "min", state, 0));
      const max = Math.trunc(numberAttribute(element, "max", state, min));
      const step = Math.max(1, Math.trunc(numberAttribute(element, "step", state, 1)));
      if (max < min) return NULL_VALUE;
      const choices = Math.floor((max - min) / step) + 1;
      return single("integer", min + Math.floor(state.random() * choices) * step);
    }
    case "qti-random-float": {
      const min = numberAttribute(element, "min", state, 0);
      const max = numberAttribute(element, "max", state, min);
      return single("float", min + state.random() * (max - min));
    }
    case "qti-math-constant": {
      const constant = element.getAttribute("name")?.trim();
      return single("float", constant === "e" ? Math.E : Math.PI);
    }
    case "qti-member": {
      const [item, group] = operandsOf(element, state);
      if (!item || !group || isNull(item) || isNull(group)) return NULL_VALUE;
      return booleanValue(group.values.includes(item.values[0] as Scalar));
    }
    case "qti-delete": {
      const [item, group] = operandsOf(element, state);
      if (!item || !group || isNull(item) || isNull(group)) return NULL_VALUE;
      return { ...group, values: group.values.filter((scalar) => scalar !== item.values[0]) };
    }
    case "qti-contains": {
      const [whole, part] = operandsOf(element, state);
      if (!whole || !part || isNull(whole) || isNull(part)) return NULL_VALUE;
      if (whole.cardinality === "ordered") {
        const size = part.values.length;
        for (let start = 0; start + size <= whole.values.length; start++)
          if (part.values.every((scalar, index) => whole.values[start + index] === scalar))
            return booleanValue(true);
        return booleanValue(false);
      }
      const left = [...whole.values];
      for (const scalar of part.values) {
        const at = left.indexOf(scalar);
        if (at === -1) return booleanValue(false);
        left.splice(at, 1);
      }
      return booleanValue(true);
    }
    case "qti-substring": {
      const [part, whole] = operandsOf(element, state);
      if (!part || !whole || isNull(part) || isNull(whole)) return NULL_VALUE;
      const caseSensitive = element.getAttribute("case-sensitive")?.trim() !== "false";
      const [a, b] = [String(part.values[0]), String(whole.values[0])];
      return booleanValue(caseSensitive ? b.includes(a) : b.toLowerCase().includes(a.toLowerCase()));
    }
    case "qti-not": {
      const [operand] = operandsOf(element, state);
      return !operand || isNull(operand) ? NULL_VALUE : booleanValue(operand.values[0] !== true);
    }
    case "qti-and": {
      let sawNull = false;
      for (const operand of operandsOf(element, state)) {
        if (isNull(operand)) sawNull = true;
        else if (operand.values[0] !== true) return booleanValue(false);
      }
      return sawNull ? NULL_VALUE : booleanValue(true);
    }
    case "qti-or": {
      let sawNull = false;
      for (const operand of operandsOf(element, state)) {
        if (isNull(operand)) sawNull = true;
        else if (operand.values[0] === true) return booleanValue(true);
      }
      return sawNull ? NULL_VALUE : booleanValue(false);
    }
    case "qti-any-n": {
      const operands = operandsOf(element, state);
      const trues = operands.filter((operand) => operand.values[0] === true).length;
      const nulls = operands.filter(isNull).length;
      const min = numberAttribute(element, "min", state, 0);
      const max = numberAttribute(element, "max", state, operands.length);
      if (trues > max || trues + nulls < min) return booleanValue(false);
      if (trues >= min && trues + nulls <= max) return booleanValue(true);
      return NULL_VALUE;
    }
    case "qti-match": {
      const [a, b] = operandsOf(element, state);
      if (!a || !b || isNull(a) || isNull(b)) return NULL_VALUE;
      return booleanValue(sameValues(a, b));
    }
    case "qti-string-match": {
      const [a, b] = operandsOf(element, state);
      if (!a || !b || isNull(a) || isNull(b)) return NULL_VALUE;
      const caseSensitive = element.getAttribute("case-sensitive")?.trim() !== "false";
      const [x, y] = [String(a.values[0]), String(b.values[0])];
      return booleanValue(caseSensitive ? x === y : x.toLowerCase() === y.toLowerCase());
    }
    case "qti-pattern-match": {
      const [operand] = operandsOf(element, state);
      if (!operand || isNull(operand)) return NULL_VALUE;
      const pattern = patternOf(element.getAttribute("pattern") ?? "");
      return pattern ? booleanValue(pattern.test(String(operand.values[0]))) : NULL_VALUE;
    }
    case "qti-equal": {
      const operands = operandsOf(element, state);
      const a = firstNumber(operands[0]);
      const b = firstNumber(operands[1]);
      return a === null || b === null ? NULL_VALUE : booleanValue(equalWithTolerance(element, state, a, b));
    }
    case "qti-equal-rounded": {
      const operands = operandsOf(element, state);
      const a = firstNumber(operands[0]);
      const b = firstNumber(operands[1]);
      if (a === null || b === null) return NULL_VALUE;
      const mode = element.getAttribute("rounding-mode")?.trim() ?? "significantFigures";
      const figures = Math.trunc(numberAttribute(element, "figures", state, 1));
      return booleanValue(roundTo(a, mode, figures) === roundTo(b, mode, figures));
    }
    case "qti-round-to": {
      const [operand] = operandsOf(element, state);
      const value = firstNumber(operand);
      if (value === null) return NULL_VALUE;
      const mode = element.getAttribute("rounding-mode")?.trim() ?? "significantFigures";
      const figures = Math.trunc(numberAttribute(element, "figures", state, 1));
      return single("float", roundTo(value, mode, figures));
    }
    case "qti-inside": {
      const [operand] = operandsOf(element, state);
      if (!operand || isNull(operand)) return NULL_VALUE;
      const shape = element.getAttribute("shape")?.trim() ?? "default";
      const coords = element.getAttribute("coords") ?? "";
      return booleanValue(
        operand.values.some((scalar) => {
          const point = pointOf(scalar);
          return point !== null && insideShape(point, shape, coords);
        }),
      );
    }
    case "qti-lt":
    case "qti-duration-lt":
      return compare(element, state, (a, b) => a < b);
    case "qti-gt":
      return compare(element, state, (a, b) => a > b);
    case "qti-lte":
      return compare(element, state, (a, b) => a <= b);
    case "qti-gte":
    case "qti-duration-gte":
      return compare(element, state, (a, b) => a >= b);
    case "qti-sum":
    case "qti-product": {
      const operands = operandsOf(element, state);
      if (operands.length === 0 || operands.some(isNull)) return NULL_VALUE;
      const numbers = operands.flatMap(numbersOf);
      const result =
        name === "qti-sum"
          ? numbers.reduce((total, x) => total + x, 0)
          : numbers.reduce((total, x) => total * x, 1);
      return numericResult(result, operands);
    }
    case "qti-subtract":
      return binary(element, state, (a, b) => a - b);
    case "qti-divide":
      return binary(element, state, (a, b) => (b === 0 ? null : a / b));
    case "qti-power":
      return binary(element, state, (a, b) => a ** b);
    case "qti-integer-divide":
      return binary(element, state, (a, b) => (b === 0 ? null : Math.floor(a / b)));
    case "qti-integer-modulus":
      return binary(element, state, (a, b) => (b === 0 ? null : a - b * Math.floor(a / b)));
    case "qti-truncate":
    case "qti-round":
    case "qti-integer-to-float": {
      const [operand] = operandsOf(element, state);
      const value = firstNumber(operand);
      if (value === null) return NULL_VALUE;
      if (name === "qti-integer-to-float") return single("float", value);
      return single("integer", name === "qti-round" ? Math.round(value) : Math.trunc(value));
    }
    case "qti-min":
    case "qti-max": {
      const operands = operandsOf(element, state);
      if (operands.length === 0 || operands.some(isNull)) return NULL_VALUE;
      const numbers = operands.flatMap(numbersOf);
      if (numbers.some(Number.isNaN)) return NULL_VALUE;
      return numericResult(name === "qti-min" ? Math.min(...numbers) : Math.max(...numbers), operands);
    }
    case "qti-gcd":
    case "qti-lcm": {
      const operands = operandsOf(element, state);
      if (operands.length === 0 || operands.some(isNull)) return NULL_VALUE;
      const numbers = operands.flatMap(numbersOf).map(Math.trunc);
      if (numbers.some(Number.isNaN)) return NULL_VALUE;
      const result =
        name === "qti-gcd"
          ? numbers.reduce(gcdOf, 0)
          : numbers.reduce((a, b) => (a === 0 || b === 0 ? 0 : Math.abs(a * b) / gcdOf(a, b)), 1);
      return single("integer", result);
    }
    case "qti-math-operator": {
      const operands = operandsOf(element, state);
      const fn = MATH_FUNCTIONS[element.getAttribute("name")?.trim() ?? ""];
      if (!fn) throw new UnsupportedProcessing(`${name} ${element.getAttribute("name")}`);
      if (operands.some(isNull)) return NULL_VALUE;
      const result = fn(operands.map((operand) => firstNumber(operand) ?? Number.NaN));
      return Number.isNaN(result) ? NULL_VALUE : single("float", result);
    }
    case "qti-stats-operator": {
      const [operand] = operandsOf(element, state);
      if (!operand || isNull(operand)) return NULL_VALUE;
      const numbers = numbersOf(operand);
      if (numbers.some(Number.isNaN)) return NULL_VALUE;
      const result = statistic(element.getAttribute("name")?.trim() ?? "", numbers);
      return result === null ? NULL_VALUE : single("float", result);
    }
    case "qti-map-response": {
      const identifier = element.getAttribute("identifier")?.trim() ?? "";
      const mapping = state.declarations.get(identifier)?.mapping;
      if (!mapping) return NULL_VALUE;
      const value = variableValue(state, identifier);
      return single("float", isNull(value) ? mapping.defaultValue : mapResponse(value, mapping));
    }
    case "qti-map-response-point": {
      const identifier = element.getAttribute("identifier")?.trim() ?? "";
      const mapping = state.declarations.get(identifier)?.areaMapping;
      if (!mapping) return NULL_VALUE;
      const value = variableValue(state, identifier);
      return single("float", isNull(value) ? mapping.defaultValue : mapResponsePoint(value, mapping));
    }
    default:
      throw new UnsupportedProcessing(name);
  }
}

/** True only for a boolean true: NULL and false both fail a condition. */
const holds = (element: Element | undefined, state: ProcessingState) =>
  element !== undefined && evaluate(element, state).values[0] === true;

/** Sets a variable to a value in the type its declaration gives. */
function assign(state: ProcessingState, identifier: string, value: QtiValue): void {
  const declaration = state.declarations.get(identifier);
  state.variables.set(
    identifier,
    declaration ? coerce(value, declaration.baseType, declaration.cardinality) : value,
  );
}

/** Hears the template rules' effects on declarations (a computed correct response, a default value). */
export interface TemplateEffects {
  setCorrectResponse(identifier: string, value: QtiValue): void;
  setDefaultValue(identifier: string, value: QtiValue): void;
}

function runRule(rule: Element, state: ProcessingState, effects: TemplateEffects | null): void {
  const name = nameOf(rule);
  switch (name) {
    case "qti-response-condition":
    case "qti-template-condition":
    case "qti-outcome-condition": {
      for (const branch of childElements(rule)) {
        const isElse = nameOf(branch).endsWith("-else");
        const [condition, ...body] = childElements(branch);
        if (isElse) {
          runRules(childElements(branch), state, effects);
          return;
        }
        if (holds(condition, state)) {
          runRules(body, state, effects);
          return;
        }
      }
      return;
    }
    case "qti-set-outcome-value":
    case "qti-set-template-value": {
      const [expression] = childElements(rule);
      if (expression)
        assign(state, rule.getAttribute("identifier")?.trim() ?? "", evaluate(expression, state));
      return;
    }
    case "qti-set-correct-response":
    case "qti-set-default-value": {
      const [expression] = childElements(rule);
      const identifier = rule.getAttribute("identifier")?.trim() ?? "";
      const declaration = state.declarations.get(identifier);
      if (!expression || !declaration) return;
      const value = coerce(evaluate(expression, state), declaration.baseType, declaration.cardinality);
      if (name === "qti-set-correct-response") {
        declaration.correct = value;
        effects?.setCorrectResponse(identifier, value);
      } else {
        declaration.defaultValue = value;
        effects?.setDefaultValue(identifier, value);
      }
      return;
    }
    case "qti-template-constraint": {
      const [condition] = childElements(rule);
      if (!holds(condition, state)) throw new ConstraintFailed();
      return;
    }
    case "qti-exit-response":
    case "qti-exit-template":
      throw new ExitProcessing();
    case "qti-response-processing-fragment":
      runRules(childElements(rule), state, effects);
      return;
    default:
      throw new UnsupportedProcessing(name);
  }
}

function runRules(rules: Element[], state: ProcessingState, effects: TemplateEffects | null): void {
  for (const rule of rules) runRule(rule, state, effects);
}

/** Runs processing rules to the end or to an exit rule. */
export function runProcessing(
  rules: Element[],
  state: ProcessingState,
  effects: TemplateEffects | null = null,
) {
  try {
    runRules(rules, state, effects);
  } catch (error) {
    if (!(error instanceof ExitProcessing)) throw error;
  }
}

/** A declaration read from its element (response, outcome or template declaration). */
export function declarationOf(
  element: Element,
  mappings: { mapping: QtiMapping | null; areaMapping: QtiAreaMapping | null },
): Declaration {
  const cardinality = cardinalityOf(element.getAttribute("cardinality")?.trim());
  const baseType = element.getAttribute("base-type")?.trim() || null;
  const valuesIn = (holderName: string): QtiValue => {
    const holder = childElements(element).find((child) => nameOf(child) === holderName);
    const texts = holder
      ? childElements(holder)
          .filter((child) => nameOf(child) === "qti-value")
          .map(textOf)
      : [];
    return valueFromTexts(texts, cardinality, baseType);
  };
  const normalMaximum = numberOf(element.getAttribute("normal-maximum") ?? undefined);
  const defaultValue = valuesIn("qti-default-value");
  // A numeric outcome without a default starts at 0, as QTI says.
  const isNumericOutcome = nameOf(element) === "qti-outcome-declaration" && isNumericBaseType(baseType);
  return {
    identifier: element.getAttribute("identifier")?.trim() ?? "",
    cardinality,
    baseType,
    defaultValue:
      isNull(defaultValue) && isNumericOutcome && cardinality === "single"
        ? single(baseType, 0)
        : defaultValue,
    correct: valuesIn("qti-correct-response"),
    mapping: mappings.mapping,
    areaMapping: mappings.areaMapping,
    normalMaximum,
    externalScored: Boolean(element.getAttribute("external-scored")?.trim()),
  };
}
