import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import i18next, { type Resource } from "i18next";
import ICU from "i18next-icu";
import {
  acceptedLanguages,
  DEFAULT_LANGUAGE,
  firstSpoken,
  LANGUAGES,
  type Language,
} from "../../shared/languages";

/**
 * The server's words, in the language of whoever reads them: one catalogue per domain and language
 * (`domains/<domain>/locales/<language>.json`, namespace `<domain>`), the platform's own
 * (`lib/locales`, namespace `common`) and the shared schemas' (`shared/locales`, namespace
 * `validation`), in ICU MessageFormat as the web app's are.
 */

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every catalogue of the server, by language and namespace. */
export function readServerCatalogues(): Resource {
  const folders: [string, string][] = [
    ["common", path.join(SERVER_DIR, "lib/locales")],
    ["validation", path.join(SERVER_DIR, "../shared/locales")],
  ];
  const domains = path.join(SERVER_DIR, "domains");
  for (const domain of readdirSync(domains)) folders.push([domain, path.join(domains, domain, "locales")]);
  const resources: Resource = {};
  for (const language of LANGUAGES) {
    resources[language] = {};
    for (const [namespace, folder] of folders) {
      const file = path.join(folder, `${language}.json`);
      if (existsSync(file)) resources[language][namespace] = JSON.parse(readFileSync(file, "utf8"));
    }
  }
  return resources;
}

const resources = readServerCatalogues();
const translator = i18next.createInstance();
void translator.use(ICU).init({
  resources,
  initAsync: false,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: Object.keys(resources[DEFAULT_LANGUAGE] ?? {}),
  defaultNS: "common",
  interpolation: { escapeValue: false },
});

/** What to tell a person, said in their language when it reaches them: a catalogue key and its values. */
export interface Message {
  key: string;
  values?: Record<string, unknown>;
}

/** `message("common:internal", { requestId })`: the key with its namespace, and the message's values. */
export function message(key: string, values?: Record<string, unknown>): Message {
  return { key, values };
}

/** A message in `language`; a value that is itself a message is said in the same language. */
export function translate(text: string | Message, language: Language): string {
  if (typeof text === "string") return text;
  const values = Object.fromEntries(
    Object.entries(text.values ?? {}).map(([name, value]) => [
      name,
      isMessage(value) ? translate(value, language) : value,
    ]),
  );
  return translator.t(text.key, { ...values, lng: language });
}

function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && typeof (value as Message).key === "string";
}

/** The language a request asks for (the web app sends the one it shows), else English. */
export function languageOfRequest(acceptLanguage: string | undefined): Language {
  return firstSpoken(acceptedLanguages(acceptLanguage)) ?? DEFAULT_LANGUAGE;
}
