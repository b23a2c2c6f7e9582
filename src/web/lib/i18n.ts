import i18next, { type BackendModule, type ResourceKey } from "i18next";
import ICU from "i18next-icu";
import IntlMessageFormat from "intl-messageformat";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../../shared/languages";
import { ROLE_DISPLAY_NAMES } from "../../shared/roles";
import { NAV_GROUPS, type PageRoute, routes } from "../../shared/routes";

/**
 * The web app's strings: one catalogue per feature and language (`features/<feature>/locales/
 * <language>.json`, namespace `<feature>`), and the shared components' (`components/locales`,
 * namespace `common`). Messages use ICU MessageFormat (`{count, plural, one {# day} other {# days}}`).
 * The shell's English is part of the app's first download; every other catalogue loads with the
 * first page that asks for its namespace (see pages.tsx), and another language's when it is first used.
 *
 * The shared tables hold their own English (page titles and summaries, the sidebar's groups, role
 * names): the `common` catalogue takes it from them, and other languages translate it under the
 * same keys (`pages.<path>.title`, `navGroups.<group>`, `roles.<role>`).
 */

type Catalogue = Record<string, unknown>;
/** What every screen shows before a page's own catalogue arrives: the shell, sign-in and the shared parts. */
const firstDownload = import.meta.glob<Catalogue>(
  [
    "../features/shell/locales/en.json",
    "../features/auth/locales/en.json",
    "../components/locales/en.json",
    "../../shared/locales/en.json",
  ],
  { eager: true, import: "default" },
);
const onDemand = import.meta.glob<Catalogue>(
  [
    "../features/*/locales/*.json",
    "../components/locales/*.json",
    "../../shared/locales/*.json",
    "!../features/shell/locales/en.json",
    "!../features/auth/locales/en.json",
    "!../components/locales/en.json",
    "!../../shared/locales/en.json",
  ],
  { import: "default" },
);

/**
 * `../features/home/locales/es.json` → ["home", "es"]; the shared components' namespace is
 * `common`, the shared schemas' `validation` (see shared/validation-messages.ts).
 */
function namespaceAndLanguage(file: string): [string, string] {
  const match = /\/(?:features\/([^/]+)|(components)|(shared))\/locales\/([a-z]+)\.json$/.exec(file);
  if (!match?.[4]) throw new Error(`not a catalogue: ${file}`);
  return [match[1] ?? (match[2] ? "common" : "validation"), match[4]];
}

/** The English of the shared tables, under the keys of the `common` catalogue. */
export function englishOfSharedTables(): Catalogue {
  return {
    pages: Object.fromEntries(
      (routes as readonly PageRoute[]).map((route) => [
        route.path,
        { title: route.title, summary: route.summary },
      ]),
    ),
    navGroups: Object.fromEntries(NAV_GROUPS.map((group) => [group, group])),
    roles: { ...ROLE_DISPLAY_NAMES },
  };
}

const englishByNamespace: Record<string, ResourceKey> = {};
for (const [file, catalogue] of Object.entries(firstDownload))
  englishByNamespace[namespaceAndLanguage(file)[0]] = catalogue;
englishByNamespace.common = { ...(englishByNamespace.common as Catalogue), ...englishOfSharedTables() };
const FIRST_NAMESPACES = Object.keys(englishByNamespace);

const loaders = new Map<string, () => Promise<Catalogue>>();
for (const [file, load] of Object.entries(onDemand)) loaders.set(namespaceAndLanguage(file).join("/"), load);

const lazyCatalogues: BackendModule = {
  type: "backend",
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    const load = loaders.get(`${namespace}/${language}`);
    if (!load) return callback(null, {});
    load().then(
      (catalogue) => callback(null, catalogue),
      (error: Error) => callback(error, null),
    );
  },
};

// The message compiler looks each message's locale up in the browser's locale data afresh, which
// costs about a millisecond a message on a first render; the languages are two, so keep the answers.
const resolveLocale = IntlMessageFormat.resolveLocale;
const resolvedLocales = new Map<string, Intl.Locale | undefined>();
IntlMessageFormat.resolveLocale = (locales) => {
  const key = String(locales);
  if (!resolvedLocales.has(key)) resolvedLocales.set(key, resolveLocale(locales));
  return resolvedLocales.get(key);
};

/**
 * Most messages are plain text: with no braces and no doubled apostrophe, ICU would answer the
 * message itself, so it is not compiled (about 70 ms of the first render's messages).
 */
export function isPlainMessage(message: unknown): message is string {
  return typeof message === "string" && !/[{}]|''/.test(message);
}

type Parse = (message: unknown, ...rest: unknown[]) => unknown;
const messageFormat = new ICU() as InstanceType<typeof ICU> & { parse: Parse };
const compileAndFormat = messageFormat.parse.bind(messageFormat);
messageFormat.parse = (message, ...rest) =>
  isPlainMessage(message) ? message : compileAndFormat(message, ...rest);

/** Readies the strings in `language` before the app first renders, so no other language flashes. */
export function startI18n(language: Language) {
  return i18next
    .use(messageFormat)
    .use(lazyCatalogues)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: FIRST_NAMESPACES,
      defaultNS: "common",
      resources: { [DEFAULT_LANGUAGE]: englishByNamespace },
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      returnNull: false,
      // A component whose catalogue is still on its way waits in the page's Suspense boundary.
      react: { useSuspense: true },
    });
}

/** A shared schema's message about a field, in the shown language (see shared/validation-messages.ts). */
export function schemaMessage(issue: { message: string; minimum?: unknown; maximum?: unknown }): string {
  if (!issue.message.startsWith("validation:")) return issue.message;
  return i18next.t(issue.message, { minimum: issue.minimum, maximum: issue.maximum });
}

/** Loads the catalogues of the given namespaces in the shown language (a page's, beside its code). */
export function loadCatalogues(namespaces: readonly string[]) {
  return i18next.loadNamespaces([...namespaces]);
}

/** The language the app is shown in now. */
export function currentLanguage(): Language {
  return (i18next.resolvedLanguage ?? DEFAULT_LANGUAGE) as Language;
}

export function showLanguage(language: Language) {
  if (language !== i18next.language) return i18next.changeLanguage(language);
}

export { i18next };
