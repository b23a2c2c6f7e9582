import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { es } from "zod/locales";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/languages";
import { AppError, type FieldIssue } from "./errors";
import { languageOfRequest, message, translate } from "./i18n";

const zodSpanish = es().localeError;

/** zod's own messages ("Too small: expected…") in a language; English is zod's default. */
function zodErrorsIn(language: Language): z.core.$ZodErrorMap | undefined {
  return language === "es" ? zodSpanish : undefined;
}

/** "Invalid request: email: …; grade: …", in the reader's language. */
function summaryOf(issues: FieldIssue[], language: Language): string {
  const details = issues
    .map((issue) => {
      const text = translate(issue.message, language);
      return issue.path ? `${issue.path}: ${text}` : text;
    })
    .join("; ");
  return translate(message("common:invalidRequest", { details }), language);
}

/** A 400 naming each field's problem, said in the language of whoever reads it. */
class InvalidRequest extends AppError {
  constructor(private readonly issues: FieldIssue[]) {
    super("validation_failed", summaryOf(issues, DEFAULT_LANGUAGE), { issues });
  }

  override toBody(language: Language = DEFAULT_LANGUAGE) {
    return { ...super.toBody(language), message: summaryOf(this.issues, language) };
  }
}

/**
 * Turns zod issues into the API's `{ path, message }` list. A schema's own message is a key of the
 * shared `validation` catalogue (see shared/validation-messages.ts); zod's own are already in the
 * language the input was parsed for.
 */
export function validationError(error: z.ZodError): AppError {
  return new InvalidRequest(
    error.issues.map((issue) => {
      const path = issue.path.map(String).join(".");
      if (!issue.message.startsWith("validation:")) return { path, message: issue.message };
      const { minimum, maximum } = issue as { minimum?: unknown; maximum?: unknown };
      return { path, message: message(issue.message, { minimum, maximum }) };
    }),
  );
}

/** A 400 about fields that passed the schema but not a rule checked against the data (a reference that does not exist…). */
export function invalidFields(issues: FieldIssue[]): AppError {
  return new InvalidRequest(issues);
}

// Half of a UTF-16 surrogate pair without its other half.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a text cannot be taken, or null when it can. PostgreSQL stores neither NUL nor a lone
 * surrogate (it has no UTF-8 form), so such text would fail deep in a query instead of here.
 */
export function unstorableTextReason(text: string): string | null {
  if (text.includes("\0")) return "must not contain a NUL character";
  if (LONE_SURROGATE.test(text)) return "must be valid Unicode text";
  return null;
}

/**
 * The first string in a parsed input (keys included) that cannot be stored, with its path. Walks
 * with its own stack, so deeply nested input cannot overflow the call stack.
 */
export function findUnstorableText(
  value: unknown,
  path: string[] = [],
): { path: string; message: string } | null {
  const pending: { value: unknown; path: string[] }[] = [{ value, path }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    if (typeof item.value === "string") {
      const message = unstorableTextReason(item.value);
      if (message) return { path: item.path.join("."), message };
    } else if (typeof item.value === "object" && item.value !== null) {
      // Arrays too: their entries are keyed by index.
      for (const [key, child] of Object.entries(item.value)) {
        const keyMessage = unstorableTextReason(key);
        if (keyMessage) return { path: item.path.join("."), message: `a field name ${keyMessage}` };
        pending.push({ value: child, path: [...item.path, key] });
      }
    }
  }
  return null;
}

/** The same as one readable sentence ("subject: must not contain a NUL character"), or null. */
export function unstorableTextIn(value: unknown): string | null {
  const found = findUnstorableText(value);
  return found && `${found.path || "event"}: ${found.message}`;
}

/** Refuses input with text that cannot be stored, naming the field. */
export function assertStorableText(input: unknown, pathPrefix: string[] = []): void {
  const found = findUnstorableText(input, pathPrefix);
  if (found) throw invalidFields([found]);
}

/** Parses input for a request in `language` (the request's: see `requestLanguage`). */
export function parseWith<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  language: Language = DEFAULT_LANGUAGE,
): z.output<Schema> {
  assertStorableText(input);
  const parsed = schema.safeParse(input, { error: zodErrorsIn(language) });
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/**
 * Reads and validates a JSON body: malformed JSON and wrong shapes are both a 400.
 * `checkEachItem` is for batches whose items are judged one by one (ingestion): one bad item
 * must not refuse the others, so text is left to the item's own validation. `mayBeEmpty` reads
 * an empty body as `{}`.
 */
export async function readJsonBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
  options: { checkEachItem?: boolean; mayBeEmpty?: boolean } = {},
): Promise<z.output<Schema>> {
  let body: unknown;
  try {
    // A step with nothing to add (approve, cancel) may come without a body: it reads as `{}`.
    const text = await c.req.text();
    body = options.mayBeEmpty && text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", message("common:invalidJson"));
  }
  const language = requestLanguage(c);
  if (options.checkEachItem) {
    const parsed = schema.safeParse(body, { error: zodErrorsIn(language) });
    if (!parsed.success) throw validationError(parsed.error);
    return parsed.data;
  }
  return parseWith(schema, body, language);
}

export function readQuery<Schema extends z.ZodType>(c: Context, schema: Schema): z.output<Schema> {
  return parseWith(schema, c.req.query(), requestLanguage(c));
}

/** The path parameters of a request, validated. */
export function readParams<Schema extends z.ZodType>(c: Context, schema: Schema): z.output<Schema> {
  return parseWith(schema, c.req.param(), requestLanguage(c));
}

/** The language a request is answered in. */
export function requestLanguage(c: Context): Language {
  return languageOfRequest(c.req.header("accept-language"));
}

/** Decodes one percent-encoded URL part, or null when its bytes are not UTF-8. */
function decodeUrlPart(part: string): string | null {
  try {
    return decodeURIComponent(part.replaceAll("+", " "));
  } catch {
    return null;
  }
}

/**
 * Refuses a request whose path or query string carries text that cannot be stored: every
 * route reads its path parameters and query through the URL, so one check here covers them all.
 */
export const rejectUnstorableUrlText: MiddlewareHandler = async (c, next) => {
  const url = c.req.url;
  const queryStart = url.indexOf("?");
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const rawPath = url.slice(pathStart, queryStart < 0 ? undefined : queryStart);
  const issues: { path: string; message: string }[] = [];
  for (const segment of rawPath.split("/")) {
    const decoded = decodeUrlPart(segment);
    const message = decoded === null ? "must be valid UTF-8" : unstorableTextReason(decoded);
    if (message) {
      issues.push({ path: "path", message });
      break;
    }
  }
  if (queryStart >= 0) {
    for (const pair of url.slice(queryStart + 1).split("&")) {
      const [rawName = "", rawValue = ""] = pair.split(/=(.*)/s);
      const name = decodeUrlPart(rawName);
      const value = decodeUrlPart(rawValue);
      const message =
        name === null || value === null
          ? "must be valid UTF-8"
          : (unstorableTextReason(name) ?? unstorableTextReason(value));
      if (message) {
        const readableName = name && !unstorableTextReason(name) ? name : "query";
        issues.push({ path: readableName, message });
        break;
      }
    }
  }
  if (issues.length) throw invalidFields(issues);
  await next();
};
