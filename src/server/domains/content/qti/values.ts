/**
 * QTI values: a cardinality, a base type and the values themselves, NULL being no value at all (an
 * empty container and an empty string are NULL too, as QTI says). Every base type is kept in a
 * form whose equality is plain `===`: numbers as numbers (so "3" equals "3.0"), an unordered pair
 * with its two identifiers sorted, a point as "x y" of normalised numbers.
 */

export type Cardinality = "single" | "multiple" | "ordered" | "record";
export type Scalar = string | number | boolean;

export interface QtiValue {
  cardinality: Cardinality;
  baseType: string | null;
  values: Scalar[];
}

export const NULL_VALUE: QtiValue = { cardinality: "single", baseType: null, values: [] };

export const isNull = (value: QtiValue) => value.values.length === 0;

export const single = (baseType: string | null, scalar: Scalar): QtiValue => ({
  cardinality: "single",
  baseType,
  values: [scalar],
});

export const booleanValue = (truth: boolean) => single("boolean", truth);

export function cardinalityOf(text: string | null | undefined): Cardinality {
  return text === "multiple" || text === "ordered" || text === "record" ? text : "single";
}

const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NUMERIC_BASE_TYPES = new Set(["integer", "float", "duration"]);

export const isNumericBaseType = (baseType: string | null) =>
  baseType !== null && NUMERIC_BASE_TYPES.has(baseType);

function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "INF") return Number.POSITIVE_INFINITY;
  if (trimmed === "-INF") return Number.NEGATIVE_INFINITY;
  return FLOAT.test(trimmed) ? Number(trimmed) : null;
}

/** A point's "x y", as numbers; null when the text is not one. */
export function pointOf(scalar: Scalar): [number, number] | null {
  const parts = String(scalar).trim().split(/\s+/);
  if (parts.length !== 2) return null;
  const x = parseNumber(parts[0] as string);
  const y = parseNumber(parts[1] as string);
  return x === null || y === null ? null : [x, y];
}

/**
 * One value of a base type from its text, or null when the text is empty or not of that type (a
 * learner's "abc" for a number never matches anything, so it counts as no answer).
 */
export function parseScalar(text: string, baseType: string | null): Scalar | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  switch (baseType) {
    case "integer": {
      if (INTEGER.test(trimmed)) return Number(trimmed);
      // A whole number written as a float ("3.0") is still that integer.
      const number = parseNumber(trimmed);
      return number !== null && Number.isInteger(number) ? number : null;
    }
    case "float":
    case "duration":
      return parseNumber(trimmed);
    case "boolean":
      if (trimmed === "true" || trimmed === "1") return true;
      if (trimmed === "false" || trimmed === "0") return false;
      return null;
    case "pair":
    case "directedPair": {
      const parts = trimmed.split(/\s+/);
      if (parts.length !== 2) return null;
      // A pair is unordered: "B A" is the pair "A B".
      return baseType === "pair" ? parts.sort().join(" ") : parts.join(" ");
    }
    case "point": {
      const point = pointOf(trimmed);
      return point && `${point[0]} ${point[1]}`;
    }
    default:
      return trimmed;
  }
}

/** A value read from texts (a declaration's qti-value elements, or a learner's answer). */
export function valueFromTexts(
  texts: readonly string[],
  cardinality: Cardinality,
  baseType: string | null,
): QtiValue {
  const values: Scalar[] = [];
  for (const text of texts) {
    const scalar = parseScalar(text, baseType);
    if (scalar !== null) values.push(scalar);
  }
  return { cardinality, baseType, values: cardinality === "single" ? values.slice(0, 1) : values };
}

/** A number from a scalar, or null. */
export function numberOf(scalar: Scalar | undefined): number | null {
  if (typeof scalar === "number") return scalar;
  if (typeof scalar === "boolean" || scalar === undefined) return null;
  return parseNumber(scalar);
}

/** The text QTI writes a scalar as (a qti-value's content). */
export function textOfScalar(scalar: Scalar): string {
  if (typeof scalar === "number") {
    if (scalar === Number.POSITIVE_INFINITY) return "INF";
    if (scalar === Number.NEGATIVE_INFINITY) return "-INF";
    return String(scalar);
  }
  return String(scalar);
}

/** The same value in another base type, as a declaration asks for when a value is set. */
export function coerce(value: QtiValue, baseType: string | null, cardinality: Cardinality): QtiValue {
  if (isNull(value)) return { cardinality, baseType, values: [] };
  const values = value.values.flatMap((scalar) => {
    if (baseType === "integer") {
      const number = numberOf(scalar);
      return number === null ? [] : [Math.trunc(number)];
    }
    if (baseType === "float" || baseType === "duration") {
      const number = numberOf(scalar);
      return number === null ? [] : [number];
    }
    if (baseType === "boolean") return typeof scalar === "boolean" ? [scalar] : [];
    if (typeof scalar === "string" || baseType === null) return [scalar];
    const parsed = parseScalar(textOfScalar(scalar), baseType);
    return parsed === null ? [] : [parsed];
  });
  return { cardinality, baseType, values: cardinality === "single" ? values.slice(0, 1) : values };
}

/** Whether two containers hold the same values: in order for ordered ones, as multisets otherwise. */
export function sameValues(a: QtiValue, b: QtiValue): boolean {
  if (a.values.length !== b.values.length) return false;
  if (a.cardinality === "ordered" || b.cardinality === "ordered")
    return a.values.every((scalar, index) => scalar === b.values[index]);
  const left = [...a.values];
  for (const scalar of b.values) {
    const at = left.indexOf(scalar);
    if (at === -1) return false;
    left.splice(at, 1);
  }
  return true;
}
