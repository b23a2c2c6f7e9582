import type englishValidation from "./locales/en.json";

/**
 * The messages of the shared schemas, said in the reader's language. A schema names its message
 * by a key of the `validation` catalogue (`shared/locales/<language>.json`), which both the server
 * (answering a request) and the web app (checking a form) translate; a message may use the
 * `{minimum}` and `{maximum}` of the rule it belongs to.
 *
 *   grade: z.enum(GRADES, { message: invalid("chooseGrade") })
 */
export type ValidationKey = keyof typeof englishValidation;

/** What a schema writes as its message: `validation:<key>`. */
export type ValidationMessage = `validation:${ValidationKey}`;

export const invalid = (key: ValidationKey): ValidationMessage => `validation:${key}`;
