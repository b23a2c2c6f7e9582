import { IntlMessageFormat } from "intl-messageformat";

/** Checks of message catalogues, shared by the web app's and the server's catalogue tests. */

export type Catalogue = { [key: string]: string | Catalogue };

/** `{ a: { b: "…" } }` → `a.b` → "…". */
export function flattenCatalogue(catalogue: Catalogue, prefix = ""): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === "string") flat.set(prefix + key, value);
    else for (const [inner, text] of flattenCatalogue(value, `${prefix}${key}.`)) flat.set(inner, text);
  }
  return flat;
}

/** Each namespace's catalogue, flattened: namespace → key → message. */
export function flattenNamespaces(
  byNamespace: Iterable<[string, Catalogue]>,
): Map<string, Map<string, string>> {
  return new Map([...byNamespace].map(([namespace, catalogue]) => [namespace, flattenCatalogue(catalogue)]));
}

/** The argument names of an ICU message, sorted; throws when the message is not valid ICU. */
export function messageArguments(message: string, language: string): string[] {
  const names = new Set<string>();
  const visit = (elements: ReturnType<IntlMessageFormat["getAst"]>) => {
    for (const element of elements) {
      if ("value" in element && typeof element.value === "string" && element.type !== 0)
        names.add(element.value);
      if ("options" in element)
        for (const option of Object.values(element.options))
          visit((option as { value: typeof elements }).value);
      if ("children" in element) visit(element.children);
    }
  };
  visit(new IntlMessageFormat(message, language).getAst());
  return [...names].sort();
}

/**
 * What keeps a translation from matching English, namespace by namespace: keys missing, empty,
 * extra or with other ICU arguments, and namespaces without English.
 */
export function translationProblems(
  english: Map<string, Map<string, string>>,
  translated: Map<string, Map<string, string>>,
  language: string,
): string[] {
  const problems: string[] = [];
  for (const [namespace, englishKeys] of english) {
    const keys = translated.get(namespace) ?? new Map<string, string>();
    for (const [key, message] of englishKeys) {
      const translation = keys.get(key);
      if (translation === undefined) problems.push(`${namespace}:${key} is missing`);
      else if (translation.trim() === "") problems.push(`${namespace}:${key} is empty`);
      else if (messageArguments(translation, language).join() !== messageArguments(message, "en").join())
        problems.push(`${namespace}:${key} has other arguments than in English`);
    }
    for (const key of keys.keys())
      if (!englishKeys.has(key)) problems.push(`${namespace}:${key} is not in English`);
  }
  for (const namespace of translated.keys())
    if (!english.has(namespace)) problems.push(`the namespace ${namespace} has no English`);
  return problems;
}
