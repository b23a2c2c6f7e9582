import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import IntlMessageFormat from "intl-messageformat";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  type Catalogue,
  flattenNamespaces,
  messageArguments,
  translationProblems,
} from "../shared/catalogues";
import { LANGUAGES } from "../shared/languages";
import { englishOfSharedTables, isPlainMessage } from "./lib/i18n";

/**
 * The catalogues are whole and the components take their words from them: every language has
 * every key, every message is valid ICU with the same arguments, every key a component asks for
 * exists, and no component writes English of its own.
 */

const WEB = path.join(process.cwd(), "src/web");

function filesUnder(dir: string, accept: (file: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(file, accept);
    return accept(file) ? [file] : [];
  });
}

/** `features/home/locales/es.json` → namespace `home`; `components/locales` → `common`. */
function readCatalogues(): Map<string, Map<string, Catalogue>> {
  const byLanguage = new Map<string, Map<string, Catalogue>>();
  for (const file of filesUnder(WEB, (f) => /[\\/]locales[\\/][a-z]+\.json$/.test(f))) {
    const match = /(?:features[\\/]([^\\/]+)|components)[\\/]locales[\\/]([a-z]+)\.json$/.exec(file);
    if (!match?.[2]) throw new Error(`a catalogue out of place: ${file}`);
    const language = match[2];
    const namespaces = byLanguage.get(language) ?? new Map<string, Catalogue>();
    namespaces.set(match[1] ?? "common", JSON.parse(readFileSync(file, "utf8")));
    byLanguage.set(language, namespaces);
  }
  return byLanguage;
}

const catalogues = readCatalogues();
const english = flattenNamespaces(
  [...(catalogues.get("en") ?? [])].map(([namespace, catalogue]): [string, Catalogue] => [
    namespace,
    namespace === "common" ? { ...catalogue, ...(englishOfSharedTables() as Catalogue) } : catalogue,
  ]),
);

describe("the catalogues", () => {
  it("exist for every language Dash speaks, and only for those", () => {
    expect([...catalogues.keys()].sort()).toEqual([...LANGUAGES].sort());
  });

  for (const language of LANGUAGES.filter((l) => l !== "en")) {
    it(`in ${language} have exactly the keys of English, each with the same arguments`, () => {
      const translated = flattenNamespaces(catalogues.get(language) ?? []);
      expect(translationProblems(english, translated, language)).toEqual([]);
    });
  }

  it("hold valid ICU messages in English", () => {
    const invalid: string[] = [];
    for (const [namespace, keys] of english)
      for (const [key, message] of keys) {
        try {
          messageArguments(message, "en");
        } catch (error) {
          invalid.push(`${namespace}:${key}: ${(error as Error).message}`);
        }
      }
    expect(invalid).toEqual([]);
  });

  it("answer a message taken as plain text exactly as ICU would, in every language", () => {
    expect(isPlainMessage("It''s done")).toBe(false);
    expect(isPlainMessage("{count} days")).toBe(false);
    expect(isPlainMessage("It's done")).toBe(true);
    let plain = 0;
    const different: string[] = [];
    for (const language of LANGUAGES) {
      const messages = language === "en" ? english : flattenNamespaces(catalogues.get(language) ?? []);
      for (const [namespace, keys] of messages)
        for (const [key, message] of keys) {
          if (!isPlainMessage(message)) continue;
          plain++;
          const formatted = new IntlMessageFormat(message, language, undefined, { ignoreTag: true }).format();
          if (formatted !== message) different.push(`${language} ${namespace}:${key}`);
        }
    }
    expect(different).toEqual([]);
    expect(plain).toBeGreaterThan(1000);
  });
});

// ---------------------------------------------------------------------------------------------
// The components

/**
 * Files not yet taken to the catalogues. The list only shrinks: a file on it that has no English
 * of its own left fails the test, so it is taken off.
 */
const NOT_YET_TRANSLATED = new Set<string>([]);

/** Attributes whose words people read or hear. */
const TEXT_ATTRIBUTES = new Set([
  "aria-label",
  "aria-roledescription",
  "aria-valuetext",
  "alt",
  "caption",
  "description",
  "emptyText",
  "heading",
  "hint",
  "label",
  "message",
  "placeholder",
  "summary",
  "title",
]);
/** Object properties that hold words people read, as in `{ label: "Classes" }`. */
const TEXT_PROPERTIES = new Set([
  "label",
  "title",
  "description",
  "message",
  "hint",
  "heading",
  "summary",
  "text",
]);
/** Several words, the first capitalised: a sentence or a label, not a class list or a key. */
const PROSE = /^\p{Lu}[\p{Ll}'’]+(?:[,.;:!?…—–-]*\s+[\p{L}\d]+)+/u;
const HAS_LETTER = /\p{L}/u;

interface Finding {
  line: number;
  text: string;
}

function sourceOf(file: string) {
  return ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
}

/** Whether a string sits where it reaches the page: directly in `{…}`, through `?:`, `&&`, `??`, `||`. */
function isRenderedDirectly(node: ts.Node): boolean {
  let current = node.parent;
  while (
    ts.isConditionalExpression(current) ||
    ts.isParenthesizedExpression(current) ||
    (ts.isBinaryExpression(current) &&
      [
        ts.SyntaxKind.AmpersandAmpersandToken,
        ts.SyntaxKind.BarBarToken,
        ts.SyntaxKind.QuestionQuestionToken,
      ].includes(current.operatorToken.kind))
  )
    current = current.parent;
  return ts.isJsxExpression(current) && !ts.isJsxAttribute(current.parent);
}

function isInsideCall(node: ts.Node, names: RegExp): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (ts.isCallExpression(current) || ts.isNewExpression(current)) {
      if (names.test(current.expression.getText())) return true;
    }
    if (ts.isFunctionLike(current)) return false;
  }
  return false;
}

/** A string that names rather than says: a property's key, a type, a `case`, a comparison's operand. */
function isKeyOrComparison(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent)) && parent.name === node) ||
    ts.isLiteralTypeNode(parent) ||
    ts.isCaseClause(parent) ||
    ts.isElementAccessExpression(parent) ||
    (ts.isBinaryExpression(parent) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.InKeyword,
      ].includes(parent.operatorToken.kind))
  );
}

function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join("…");
  return null;
}

/** English written in a component, where the catalogue's words belong. */
function hardCodedEnglish(file: string): Finding[] {
  const source = sourceOf(file);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string) =>
    findings.push({
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      text: text.trim(),
    });
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && HAS_LETTER.test(node.text)) report(node, node.text);
    const text = literalText(node);
    if (
      text !== null &&
      HAS_LETTER.test(text) &&
      !isKeyOrComparison(node) &&
      !isInsideCall(node, /(^|\.)(t|Error|log|warn|error|info|debug)$/)
    ) {
      const parent = node.parent;
      const attribute = ts.isJsxAttribute(parent)
        ? parent
        : ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent)
          ? parent.parent
          : null;
      if (attribute) {
        if (TEXT_ATTRIBUTES.has(attribute.name.getText())) report(node, text);
      } else if (ts.isPropertyAssignment(parent) && parent.initializer === node) {
        if (TEXT_PROPERTIES.has(parent.name.getText()) || PROSE.test(text)) report(node, text);
      } else if (isRenderedDirectly(node) || PROSE.test(text)) {
        if (!ts.isImportDeclaration(parent) && !ts.isExportDeclaration(parent)) report(node, text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

const componentFiles = filesUnder(
  WEB,
  (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts"),
).map((file) => path.relative(process.cwd(), file));

/** The namespace of a `useTranslation("…")` call, if `node` is one. */
function namespaceOfCall(node: ts.Node): string | null {
  if (!ts.isCallExpression(node) || node.expression.getText() !== "useTranslation") return null;
  const [first] = node.arguments;
  return first && ts.isStringLiteral(first) ? first.text : "common";
}

/**
 * The namespace `t` reads at a call: the `useTranslation("…")` of the nearest enclosing function
 * that has one (a file may hold components of two namespaces), else the file's, else `common`.
 */
function namespaceAt(node: ts.Node, fileNamespace: string): string {
  for (let scope: ts.Node | undefined = node.parent; scope; scope = scope.parent) {
    if (!ts.isFunctionLike(scope)) continue;
    // A helper handed the component's `t`: `t: TFunction<"home">`.
    const typed = scope.parameters
      .map((parameter) => /TFunction<"([^"]+)">/.exec(parameter.type?.getText() ?? "")?.[1])
      .find(Boolean);
    if (typed) return typed;
    let found: string | null = null;
    const look = (child: ts.Node) => {
      if (found || (ts.isFunctionLike(child) && child !== scope)) return;
      found = namespaceOfCall(child);
      if (!found) ts.forEachChild(child, look);
    };
    ts.forEachChild(scope, look);
    if (found) return found;
  }
  return fileNamespace;
}

/** The namespace a file's `t` reads outside its components: its `useTranslation("…")`, else `common`. */
function defaultNamespaceOf(source: ts.SourceFile): string {
  let namespace = "common";
  const visit = (node: ts.Node) => {
    namespace = namespaceOfCall(node) ?? namespace;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return namespace;
}

/** The keys a file asks for: `t("key")`, `t("namespace:key")`, `i18next.t(…)`. */
function keysAskedFor(file: string): { line: number; key: string }[] {
  const source = sourceOf(file);
  const namespace = defaultNamespaceOf(source);
  const asked: { line: number; key: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && /(^|\.)t$/.test(node.expression.getText())) {
      const [first] = node.arguments;
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        const key = first.text.includes(":") ? first.text : `${namespaceAt(node, namespace)}:${first.text}`;
        asked.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, key });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return asked;
}

describe("the components", () => {
  it("write no English of their own: their words come from the catalogues", () => {
    const found: string[] = [];
    for (const file of componentFiles) {
      if (NOT_YET_TRANSLATED.has(file)) continue;
      for (const finding of hardCodedEnglish(file)) found.push(`${file}:${finding.line} "${finding.text}"`);
    }
    expect(found).toEqual([]);
  });

  it("leave no file on the list of those not yet translated once it is", () => {
    const done = [...NOT_YET_TRANSLATED].filter((file) => hardCodedEnglish(file).length === 0);
    expect(done).toEqual([]);
  });

  it("ask only for keys the English catalogue has", () => {
    const missing: string[] = [];
    for (const file of componentFiles)
      for (const { line, key } of keysAskedFor(file)) {
        const [namespace = "", name = ""] = key.split(/:(.*)/s);
        if (!english.get(namespace)?.has(name)) missing.push(`${file}:${line} ${key}`);
      }
    expect(missing).toEqual([]);
  });
});
