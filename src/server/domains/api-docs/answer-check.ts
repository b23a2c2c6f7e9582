import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { apiDocument } from "./document";

/**
 * For the API tests (test/harness.ts): checks each JSON answer of a documented operation against
 * the document's schema for its status (or `default`), so the document cannot drift from what the
 * handlers answer. Validators are compiled once per test process, each when first needed.
 */

const DOCUMENT_ID = "urn:dash:openapi";

interface Matcher {
  method: string;
  path: string;
  pattern: RegExp;
  statuses: Set<string>;
}

const pointerPart = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");

let checker: { ajv: Ajv2020; matchers: Matcher[] } | undefined;
const compiled = new Map<string, ValidateFunction | null>();
let checkedAnswers = 0;

function checkerOf() {
  if (checker) return checker;
  const document = apiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  const matchers = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replaceAll(".", "\\.").replaceAll(/\{[^}]+\}/g, "[^/]+")}$`),
      statuses: new Set(Object.keys(operation.responses)),
    })),
  );
  // A literal path wins over one with a parameter in the same place (`/deliveries/replay` over `/deliveries/{id}/replay`).
  matchers.sort((a, b) => a.path.split("{").length - b.path.split("{").length);
  checker = { ajv, matchers };
  return checker;
}

function validatorOf(ajv: Ajv2020, matcher: Matcher, status: string): ValidateFunction | null {
  const key = `${matcher.method} ${matcher.path} ${status}`;
  if (!compiled.has(key)) {
    const response = apiDocument().paths[matcher.path]?.[matcher.method.toLowerCase()]?.responses[status];
    const pointer = ["paths", matcher.path, matcher.method.toLowerCase(), "responses", status]
      .concat("content", "application/json", "schema")
      .map(pointerPart)
      .join("/");
    compiled.set(
      key,
      response?.content?.["application/json"] ? (ajv.getSchema(`${DOCUMENT_ID}#/${pointer}`) ?? null) : null,
    );
  }
  return compiled.get(key) ?? null;
}

/** How many answers were checked so far in this process. */
export function answersChecked(): number {
  return checkedAnswers;
}

/** Says how many answers this test file's apps gave that were checked (the harness calls it when an app closes). */
export function reportAnswersChecked(): void {
  if (checkedAnswers === 0) return;
  console.info(`openapi: ${checkedAnswers} answers validated against /api/openapi.json`);
  checkedAnswers = 0;
}

/**
 * Throws when `response` is the JSON answer of a documented operation and does not match the
 * document. The response is cloned: the caller reads it as usual.
 */
export async function checkAnswerAgainstDocument(method: string, url: string, response: Response) {
  const path = new URL(url, "http://dash.test").pathname;
  const { ajv, matchers } = checkerOf();
  const matcher = matchers.find((candidate) => candidate.method === method && candidate.pattern.test(path));
  if (!matcher || !response.headers.get("content-type")?.includes("application/json")) return;
  const status = String(response.status);
  const validate = validatorOf(ajv, matcher, matcher.statuses.has(status) ? status : "default");
  if (!validate)
    throw new Error(
      `${method} ${path} answered ${status} with JSON, and the API document gives that status no body`,
    );
  const body: unknown = await response.clone().json();
  if (!validate(body))
    throw new Error(
      `${method} ${path} answered ${status} with a body that does not match the API document (${matcher.path}): ${ajv.errorsText(validate.errors, { dataVar: "body" })}`,
    );
  checkedAnswers += 1;
}
