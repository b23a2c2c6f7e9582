import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { MAX_EVENTS_PER_REQUEST, MAX_METRICS_STUDENTS } from "./contracts/activity";
import {
  COMPONENT_SORTS,
  COURSE_SORTS,
  ENROLLMENT_ROLES,
  ENROLLMENT_SORTS,
  GRADES,
  MAX_PAGE_SIZE,
} from "./contracts/courses";
import { MAX_CLASSES, MAX_GUARDIANS } from "./contracts/onboarding";
import { CLASS_SORTS, ORG_SORTS, PEOPLE_SORTS, USER_SORTS } from "./contracts/people";
import { RETENTION_RULES } from "./contracts/privacy";
import {
  GRANT_KINDS,
  LEDGER_KINDS,
  MAX_MANUAL_ALPHAS,
  MAX_PRICE,
  REDEMPTION_STATUSES,
} from "./contracts/rewards";
import english from "./locales/en.json";
import spanish from "./locales/es.json";
import { PASSWORD_MAX_LENGTH } from "./password-policy";
import { DASH_ROLES } from "./roles";

/**
 * The shared schemas name their messages by a key of the `validation` catalogue (`invalid("key")`),
 * so the server and the web app can say them in the reader's language: none writes English of its own.
 */

const CONTRACTS_DIR = path.join(import.meta.dirname, "contracts");
const contractFiles = readdirSync(CONTRACTS_DIR)
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => ({ file, source: readFileSync(path.join(CONTRACTS_DIR, file), "utf8") }));

/** zod's schemas and checks whose string arguments are the message of the issue they raise. */
const MESSAGE_TAKING = new Set([
  "string",
  "number",
  "boolean",
  "bigint",
  "date",
  "email",
  "url",
  "uuid",
  "datetime",
  "int",
  "min",
  "max",
  "length",
  "gt",
  "gte",
  "lt",
  "lte",
  "positive",
  "negative",
  "nonnegative",
  "nonpositive",
  "multipleOf",
  "nonempty",
  "regex",
  "refine",
  "enum",
  "literal",
  "array",
  "object",
  "strictObject",
  "record",
  "union",
  "discriminatedUnion",
  "tuple",
]);

/** Arguments that are values, not messages: `z.literal("new")`, the discriminator of a union. */
const VALUE_ARGUMENTS: Record<string, number> = { literal: 0, discriminatedUnion: 0 };

const isText = (node: ts.Node) =>
  ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);

/** Every message a contract file writes in words instead of naming a catalogue key: `file:line text`. */
function writtenMessages(file: string, source: string): string[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  // Constants holding text (`const NOTHING_TO_CHANGE = "…"`), to see through `.refine(f, NOTHING_TO_CHANGE)`.
  const texts = new Set<string>();
  const collect = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      isText(node.initializer)
    )
      texts.add(node.name.text);
    ts.forEachChild(node, collect);
  };
  collect(sourceFile);
  const isWords = (node: ts.Node) => isText(node) || (ts.isIdentifier(node) && texts.has(node.text));

  const found: string[] = [];
  const report = (node: ts.Node) => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${file}:${line + 1} ${node.getText()}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : ts.isIdentifier(callee)
          ? callee.text
          : "";
      if (MESSAGE_TAKING.has(name))
        node.arguments.forEach((argument, index) => {
          if (isWords(argument) && VALUE_ARGUMENTS[name] !== index) report(argument);
        });
      // ctx.addIssue("…")
      if (name === "addIssue" && node.arguments[0] && isWords(node.arguments[0])) report(node.arguments[0]);
    }
    // { message: "…" } and { error: "…" }: a schema's options, a refinement's, an added issue's.
    if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      ["message", "error"].includes(node.name.text) &&
      isWords(node.initializer)
    )
      report(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

describe("the shared schemas' messages", () => {
  it("are catalogue keys, not English written in the schema", () => {
    const written = contractFiles.flatMap(({ file, source }) => writtenMessages(file, source));
    expect(written).toEqual([]);
  });

  it("the check finds English written in each place a schema can write a message", () => {
    const examples = [
      'z.string().min(1, "Choose a student")',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal
      "z.string().max(MAX, `At most ${MAX}`)",
      'z.enum(GRADES, { message: "Choose a grade" })',
      'z.enum(GRADES, "Choose a grade")',
      'z.string().refine(isIsoDate, "must be a date")',
      'z.object({}).refine((value) => value, { message: "Nothing", path: ["a"] })',
      'z.object({}).superRefine((value, ctx) => ctx.addIssue({ code: "custom", message: "Twice" }))',
      'z.number({ error: "A number" })',
      'z.url("Give an address")',
      'z.string().regex(/a/, "Only a")',
      'z.discriminatedUnion("kind", [a, b], "New or existing")',
      'const NOTHING = "Nothing to change"; const x = y.refine(f, NOTHING);',
    ];
    for (const example of examples) expect(writtenMessages("example.ts", example), example).toHaveLength(1);
    const fine = [
      'z.enum(GRADES, { message: invalid("chooseGrade") })',
      'z.literal("new")',
      'z.string().default("")',
      'z.discriminatedUnion("kind", [a, b], { message: invalid("guardianKind") })',
      "z.object({ error: z.string().nullable() })",
      'const LABELS = { impersonation: "Viewed Dash as them" };',
    ];
    for (const example of fine) expect(writtenMessages("example.ts", example), example).toEqual([]);
  });

  // The server's own schemas name keys of the same catalogue.
  const serverDir = path.join(import.meta.dirname, "../server");
  const serverFiles = (readdirSync(serverDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => ({ file, source: readFileSync(path.join(serverDir, file), "utf8") }));

  it("name only keys the English catalogue has", () => {
    const used = [...contractFiles, ...serverFiles].flatMap(({ source }) =>
      [...source.matchAll(/\binvalid\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((match) => match[1] ?? ""),
    );
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((key) => !(key in english))).toEqual([]);
  });

  it("are each used by a schema", () => {
    const sources = [...contractFiles, ...serverFiles].map(({ source }) => source).join("\n");
    expect(Object.keys(english).filter((key) => !sources.includes(`invalid("${key}")`))).toEqual([]);
  });

  it("are said in English exactly as written but for the rule's bounds, and Spanish has every one", () => {
    const withBounds = (text: string) => text.replace("{minimum}", "1").replace("{maximum}", "2");
    for (const [key, text] of Object.entries(english))
      expect(new IntlMessageFormat(text, "en").format({ minimum: 1, maximum: 2 }), key).toBe(
        withBounds(text),
      );
    expect(Object.keys(spanish).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(spanish))
      expect(String(new IntlMessageFormat(text, "es").format({ minimum: 1, maximum: 2 })), key).not.toBe("");
  });

  it("say the constants they name as the constants are now", () => {
    const sortsOf = (sorts: readonly string[]) => `sort is one of ${sorts.join(", ")}`;
    const expected: Record<string, string> = {
      sendAtMostEvents: `Send at most ${MAX_EVENTS_PER_REQUEST} events per request`,
      nameAtMostStudents: `name at most ${MAX_METRICS_STUDENTS} students`,
      limitAbove500: `limit is at most ${MAX_PAGE_SIZE}`,
      courseSortOneOf: sortsOf(COURSE_SORTS),
      enrollmentSortOneOf: sortsOf(ENROLLMENT_SORTS),
      componentSortOneOf: sortsOf(COMPONENT_SORTS),
      orgSortOneOf: sortsOf(ORG_SORTS),
      classSortOneOf: sortsOf(CLASS_SORTS),
      peopleSortOneOf: sortsOf(PEOPLE_SORTS),
      userSortOneOf: sortsOf(USER_SORTS),
      gradesAreCeds: `Grades are CEDS levels: ${GRADES.join(", ")}`,
      enrollmentRoleOneOf: `role is one of ${ENROLLMENT_ROLES.join(", ")}`,
      dashRoleOneOf: `role is one of ${DASH_ROLES.join(", ")}`,
      alphasTooLarge: `At most ${MAX_MANUAL_ALPHAS} Alphas at a time`,
      priceTooLarge: `A price is at most ${MAX_PRICE} Alphas`,
      ledgerKindOneOf: `kind is one of ${LEDGER_KINDS.join(", ")}`,
      redemptionStatusOneOf: `status is one of ${REDEMPTION_STATUSES.join(", ")}`,
      grantKindOneOf: `kind is ${GRANT_KINDS.slice(0, -1).join(", ")} or ${GRANT_KINDS.at(-1)}`,
      tooManyGuardians: `Add at most ${MAX_GUARDIANS} parents or guardians`,
      tooManyClasses: `Choose at most ${MAX_CLASSES} classes`,
      newPasswordTooLong: `Choose a shorter password: at most ${PASSWORD_MAX_LENGTH} characters`,
    };
    const retentionKeys = {
      activity_events: "activityEvents",
      incident_evidence: "incidentEvidence",
      analytics: "analytics",
      webhook_deliveries: "webhookDeliveries",
      audit_logs: "auditLogs",
    } as const;
    for (const [kind, rule] of Object.entries(RETENTION_RULES)) {
      const key = retentionKeys[kind as keyof typeof retentionKeys];
      expected[`${key}Retention`] = `${rule.label}: a whole number of days, or keep`;
      expected[`${key}RetentionWhole`] = `${rule.label}: a whole number of days`;
      expected[`${key}RetentionTooShort`] = `${rule.label}: at least ${rule.minDays} days`;
      expected[`${key}RetentionTooLong`] = `${rule.label}: at most ${rule.maxDays} days`;
    }
    const catalogue: Record<string, string> = english;
    for (const [key, text] of Object.entries(expected)) expect(catalogue[key], key).toBe(text);
  });
});
