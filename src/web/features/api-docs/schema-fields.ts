import type { JsonSchema } from "../../../shared/contracts/api-docs";

/**
 * A JSON Schema of the API document read as a table of fields: dotted names for nested objects
 * (`[]` for an array's items), components followed through their `$ref`, a readable type and the
 * limits a caller must keep.
 */

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
  limits: string[];
}

export type Components = Record<string, JsonSchema>;

const COMPONENT_PATH = "#/components/schemas/";
/** Deep enough for every body of the API; guards a schema that refers to itself. */
const MAX_DEPTH = 5;
/** JavaScript's largest safe integer: zod's bound of an integer without one of its own. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export const componentNameOf = (schema: JsonSchema): string | null =>
  typeof schema.$ref === "string" && schema.$ref.startsWith(COMPONENT_PATH)
    ? schema.$ref.slice(COMPONENT_PATH.length)
    : null;

export function resolve(schema: JsonSchema, components: Components): JsonSchema {
  const name = componentNameOf(schema);
  return name ? (components[name] ?? {}) : schema;
}

const asSchemas = (value: unknown): JsonSchema[] => (Array.isArray(value) ? (value as JsonSchema[]) : []);
const variantsOf = (schema: JsonSchema) => [...asSchemas(schema.anyOf), ...asSchemas(schema.oneOf)];

/** "string", "integer or null", "array of ActivityFact", "one of: queued, failed". */
export function typeOf(schema: JsonSchema, components: Components): string {
  const name = componentNameOf(schema);
  if (name) return name;
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map(String).join(", ")}`;
  if ("const" in schema) return JSON.stringify(schema.const);
  const variants = variantsOf(schema);
  if (variants.length > 0) return variants.map((variant) => typeOf(variant, components)).join(" or ");
  if (schema.type === "array") {
    const items = (schema.items ?? {}) as JsonSchema;
    return `array of ${typeOf(items, components)}`;
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (schema.type as string | undefined);
  const format = typeof schema.format === "string" ? ` (${schema.format})` : "";
  return type ? `${type}${format}` : "any JSON";
}

/** The bounds of a value as short phrases ("1–1000 items", "at most 200 characters", "default 50"). */
export function limitsOf(schema: JsonSchema): string[] {
  const limits: string[] = [];
  const range = (low: unknown, high: unknown, unit: string) => {
    const hasLow = typeof low === "number";
    const hasHigh = typeof high === "number" && high < UNBOUNDED;
    if (hasLow && hasHigh) limits.push(`${low}–${high}${unit}`);
    else if (hasLow && low > Number.MIN_SAFE_INTEGER) limits.push(`at least ${low}${unit}`);
    else if (hasHigh) limits.push(`at most ${high}${unit}`);
  };
  range(schema.minLength, schema.maxLength, " characters");
  range(schema.minimum, schema.maximum, "");
  range(schema.minItems, schema.maxItems, " items");
  if (typeof schema.exclusiveMinimum === "number") limits.push(`above ${schema.exclusiveMinimum}`);
  if (typeof schema.pattern === "string" && typeof schema.format !== "string")
    limits.push(`pattern ${schema.pattern}`);
  if ("default" in schema) limits.push(`default ${JSON.stringify(schema.default)}`);
  return limits;
}

function rowsInto(
  rows: FieldRow[],
  schema: JsonSchema,
  components: Components,
  prefix: string,
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  const object = resolve(schema, components);
  if (object.type === "array") {
    rowsInto(rows, (object.items ?? {}) as JsonSchema, components, `${prefix}[]`, depth + 1);
    return;
  }
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(object.required) ? (object.required as string[]) : []);
  for (const [key, property] of Object.entries(properties)) {
    const name = prefix ? `${prefix}.${key}` : key;
    const target = resolve(property, components);
    rows.push({
      name,
      type: typeOf(property, components),
      required: required.has(key),
      description: typeof property.description === "string" ? property.description : "",
      limits: limitsOf(target),
    });
    const nested = target.type === "array" ? resolve((target.items ?? {}) as JsonSchema, components) : target;
    if (nested.properties) rowsInto(rows, target, components, name, depth + 1);
  }
}

/** The fields of an object schema, nested ones included. */
export function fieldsOf(schema: JsonSchema, components: Components): FieldRow[] {
  const rows: FieldRow[] = [];
  rowsInto(rows, schema, components, "", 0);
  return rows;
}

/** A body that is one of several shapes, each with its name (or its place) and fields. */
export function shapesOf(
  schema: JsonSchema,
  components: Components,
): { name: string | null; fields: FieldRow[] }[] {
  const resolved = resolve(schema, components);
  const variants = variantsOf(resolved);
  if (variants.length === 0) return [{ name: componentNameOf(schema), fields: fieldsOf(schema, components) }];
  return variants.map((variant) => ({
    name: componentNameOf(variant),
    fields: fieldsOf(variant, components),
  }));
}
