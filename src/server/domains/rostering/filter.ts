import { type SQL, sql } from "drizzle-orm";
import { isIsoDate } from "../../../shared/search";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";

/**
 * OneRoster filter strings (`status='active' AND role='student'`) turned into parameterised SQL.
 * Grammar: predicate (AND|OR predicate)*, predicate = field op 'value', op one of
 * = != > >= < <= ~ (contains, case-insensitive). AND binds tighter than OR. A quote inside a value
 * is written twice (''). Fields are only those a caller declares, so nothing a client writes ever
 * becomes SQL text: values are always bound parameters.
 */

const MAX_FILTER_NUMBER = 2_147_483_647;
// An ISO 8601 date-time: to the minute at least, with an optional zone.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

export const FILTER_OPERATORS = ["=", "!=", ">", ">=", "<", "<=", "~"] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** How one filterable field becomes SQL: a plain column of a kind, or a builder of its own. */
export type FilterField =
  | { column: SQL; kind: "text" | "date" | "timestamp" | "boolean" | "number" | "textArray" }
  | { build: (operator: FilterOperator, value: string) => SQL };

export type FilterFields = Record<string, FilterField>;

/** A filter that cannot be read (`syntax`) or names a field the endpoint does not offer (`field`). */
export class FilterError extends AppError {
  constructor(
    readonly reason: "syntax" | "field",
    said: string | Message,
  ) {
    super("bad_request", said);
  }
}

export interface FilterPredicate {
  field: string;
  operator: FilterOperator;
  value: string;
}

/** Predicates grouped as OR of ANDs. */
export type ParsedFilter = FilterPredicate[][];

const MAX_FILTER_LENGTH = 2000;
const MAX_PREDICATES = 20;

/** Reads a filter string into OR-groups of AND-ed predicates, or throws a FilterError. */
export function readFilter(input: string): ParsedFilter {
  if (input.length > MAX_FILTER_LENGTH)
    throw new FilterError("syntax", message("rostering:filter.tooLong", { max: String(MAX_FILTER_LENGTH) }));
  const groups: ParsedFilter = [[]];
  let position = 0;
  let count = 0;
  const skipSpaces = () => {
    while (position < input.length && /\s/.test(input[position] as string)) position++;
  };
  /** Where the reading stopped, for "Invalid filter at character 12: …". */
  const here = () => ({ position: String(position + 1) });
  const fail = (problem: Message): never => {
    throw new FilterError("syntax", problem);
  };

  for (;;) {
    skipSpaces();
    const field = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(input.slice(position))?.[0];
    if (!field) fail(message("rostering:filter.expectedField", here()));
    position += (field as string).length;
    skipSpaces();
    const operator = (["!=", ">=", "<=", "=", ">", "<", "~"] as const).find((op) =>
      input.startsWith(op, position),
    );
    if (!operator)
      fail(
        message("rostering:filter.expectedOperator", {
          ...here(),
          operators: FILTER_OPERATORS.join(" "),
          field,
        }),
      );
    position += (operator as string).length;
    skipSpaces();
    if (input[position] !== "'") fail(message("rostering:filter.expectedValue", here()));
    position++;
    let value = "";
    for (;;) {
      if (position >= input.length) fail(message("rostering:filter.unclosedValue", here()));
      const char = input[position] as string;
      if (char === "'") {
        if (input[position + 1] === "'") {
          value += "'";
          position += 2;
          continue;
        }
        position++;
        break;
      }
      value += char;
      position++;
    }
    if (++count > MAX_PREDICATES)
      fail(message("rostering:filter.tooManyConditions", { ...here(), max: String(MAX_PREDICATES) }));
    (groups.at(-1) as FilterPredicate[]).push({
      field: field as string,
      operator: operator as FilterOperator,
      value,
    });
    skipSpaces();
    if (position >= input.length) return groups;
    const joiner = /^(AND|OR)(?=\s|$)/i.exec(input.slice(position))?.[1]?.toUpperCase();
    if (!joiner) fail(message("rostering:filter.expectedJoiner", here()));
    position += (joiner as string).length;
    if (joiner === "OR") groups.push([]);
  }
}

export const comparison: Record<Exclude<FilterOperator, "~">, SQL> = {
  "=": sql.raw("="),
  "!=": sql.raw("<>"),
  ">": sql.raw(">"),
  ">=": sql.raw(">="),
  "<": sql.raw("<"),
  "<=": sql.raw("<="),
};

/** `value` contains the search text, case-insensitively, with LIKE's wildcards taken literally. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

function columnCondition(
  field: Extract<FilterField, { column: SQL }>,
  name: string,
  operator: FilterOperator,
  value: string,
): SQL {
  const { column, kind } = field;
  if (operator === "~") {
    if (kind === "textArray")
      return sql`exists (select 1 from unnest(${column}) as item where item ilike ${containsPattern(value)})`;
    return sql`${column}::text ilike ${containsPattern(value)}`;
  }
  const op = comparison[operator];
  switch (kind) {
    case "text":
      return sql`${column} ${op} ${value}`;
    case "textArray":
      if (operator === "=") return sql`${value} = any(${column})`;
      if (operator === "!=") return sql`not (${value} = any(${column}))`;
      throw new FilterError("syntax", message("rostering:filter.listOperators", { field: name }));
    case "boolean":
      if (value !== "true" && value !== "false")
        throw new FilterError("syntax", message("rostering:filter.notBoolean", { field: name, value }));
      if (operator !== "=" && operator !== "!=")
        throw new FilterError("syntax", message("rostering:filter.booleanOperators", { field: name }));
      return sql`${column} ${op} ${value === "true"}`;
    case "number": {
      // The columns are 32-bit integers: a larger number would fail in the database, not here.
      if (!/^-?\d+(\.\d+)?$/.test(value) || Math.abs(Number(value)) > MAX_FILTER_NUMBER)
        throw new FilterError(
          "syntax",
          message("rostering:filter.notNumber", { field: name, max: String(MAX_FILTER_NUMBER), value }),
        );
      return sql`${column} ${op} ${Number(value)}`;
    }
    case "date":
    case "timestamp": {
      // The date part must exist on the calendar: PostgreSQL refuses 2024-02-30 with an error.
      const isRealDay = isIsoDate(value.slice(0, 10));
      const isDate = isRealDay && value.length === 10;
      const isInstant = isRealDay && INSTANT.test(value) && !Number.isNaN(Date.parse(value));
      if (!isDate && !isInstant)
        throw new FilterError("syntax", message("rostering:filter.notDate", { field: name, value }));
      if (kind === "date") return sql`${column} ${op} ${value.slice(0, 10)}::date`;
      return sql`${column} ${op} ${value}::timestamptz`;
    }
  }
}

/** The SQL condition of a filter over the declared fields; an empty filter is `true`. */
export function filterToSql(input: string | undefined, fields: FilterFields): SQL {
  const text = input?.trim();
  if (!text) return sql`true`;
  const groups = readFilter(text);
  const orParts = groups.map((predicates) => {
    const andParts = predicates.map(({ field, operator, value }) => {
      const declared = Object.hasOwn(fields, field) ? fields[field] : undefined;
      if (!declared)
        throw new FilterError(
          "field",
          message("rostering:filter.unknownField", { field, known: Object.keys(fields).join(", ") }),
        );
      return "build" in declared
        ? declared.build(operator, value)
        : columnCondition(declared, field, operator, value);
    });
    return sql`(${sql.join(andParts, sql` and `)})`;
  });
  return sql`(${sql.join(orParts, sql` or `)})`;
}
