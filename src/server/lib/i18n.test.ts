import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Catalogue,
  flattenNamespaces,
  messageArguments,
  translationProblems,
} from "../../shared/catalogues";
import { LANGUAGES } from "../../shared/languages";
import { createTestApp, type TestApp } from "../test/harness";
import { readServerCatalogues } from "./i18n";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signedOutMessage = async (acceptLanguage?: string) => {
  const response = await t.request("/api/auth/me/language", {
    method: "PUT",
    json: { language: "es" },
    headers: acceptLanguage ? { "accept-language": acceptLanguage } : {},
  });
  expect(response.status).toBe(401);
  return (await response.json()).message;
};

describe("the server's messages", () => {
  it.each([
    [undefined, "Sign in to continue"],
    ["es", "Inicie sesión para continuar"],
    ["es-MX,es;q=0.9,en;q=0.8", "Inicie sesión para continuar"],
    ["fr-FR, es;q=0.5", "Inicie sesión para continuar"],
    ["en-US,es;q=0.9", "Sign in to continue"],
    ["fr, de;q=0.9", "Sign in to continue"],
    ["es;q=0, en", "Sign in to continue"],
    ["*;q=0.1,,;;q=x", "Sign in to continue"],
  ])("with Accept-Language %j say %j", async (acceptLanguage, expected) => {
    expect(await signedOutMessage(acceptLanguage)).toBe(expected);
  });

  const byLanguage = readServerCatalogues();
  const flat = (language: string) =>
    flattenNamespaces(Object.entries(byLanguage[language] ?? {}) as [string, Catalogue][]);
  const english = flat("en");

  for (const language of LANGUAGES.filter((l) => l !== "en"))
    it(`have every English key in ${language}, with the same arguments`, () => {
      expect(translationProblems(english, flat(language), language)).toEqual([]);
    });

  it("are valid ICU in English", () => {
    for (const keys of english.values()) for (const text of keys.values()) messageArguments(text, "en");
  });

  it("are asked for only by keys the English catalogues have", () => {
    const serverDir = path.join(process.cwd(), "src/server");
    const files = (readdirSync(serverDir, { recursive: true }) as string[]).filter(
      (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
    );
    const missing: string[] = [];
    for (const file of files) {
      const source = readFileSync(path.join(serverDir, file), "utf8");
      for (const [, key = ""] of source.matchAll(/\bmessage\(\s*"([^"]+)"/g)) {
        const [namespace = "", name = ""] = key.split(/:(.*)/s);
        if (!english.get(namespace)?.has(name)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
