/**
 * The languages Dash speaks, and how one is picked: the person's own choice, then the languages
 * their browser asks for, then their school's default.
 */
export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Each language named in itself, as a language switcher shows it whatever the page's language. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", es: "Español" };

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The first of these language tags (`es-MX`, `en`) that Dash speaks, in their order. */
export function firstSpoken(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split("-")[0];
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/** The language tags of an `Accept-Language` header, most wanted first; `*` and weight 0 left out. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 1_000)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const weight = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const quality = weight ? Number(weight.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter(({ tag, quality }) => tag !== "" && tag !== "*" && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ tag }) => tag);
}

/** The language a person sees: their own choice, else their browser's, else the school's. */
export function chooseLanguage(choice: {
  own: Language | null;
  browser: readonly string[];
  school: Language | null;
}): Language {
  return choice.own ?? firstSpoken(choice.browser) ?? choice.school ?? DEFAULT_LANGUAGE;
}
