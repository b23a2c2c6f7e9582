import { z } from "zod";

/**
 * Building blocks of the URL search schemas. The router hands values over already JSON-parsed
 * (`?p=2` arrives as the number 2, `?x=true` as a boolean), so each block accepts both forms.
 * Every block falls back to "absent" (or its default) on a bad value: a bad URL never breaks a page.
 */

const asText = (value: unknown) =>
  typeof value === "number" || typeof value === "boolean" ? String(value) : value;

/** Any non-empty text (ids, names). */
export const text = () => z.preprocess(asText, z.string().trim().min(1)).optional().catch(undefined);

/** One of the listed values. */
export const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.preprocess(asText, z.enum(values)).optional().catch(undefined);

/** One of the listed values, with a default. */
export const oneOfOr = <const Values extends readonly [string, ...string[]]>(
  values: Values,
  fallback: Values[number],
) => z.preprocess(asText, z.enum(values)).catch(fallback).default(fallback);

/** True when `yyyy-MM-dd` has three numeric parts that make a real calendar date. */
export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A `yyyy-MM-dd` date. */
export const isoDate = () => z.string().refine(isIsoDate).optional().catch(undefined);

/** A time of day, `HH:mm` (24 h). */
export const timeOfDay = () =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
    .optional()
    .catch(undefined);

/** `0`, `1`, `false` or `true` as a boolean. */
export const flag = () =>
  z
    .preprocess(asText, z.enum(["0", "1", "false", "true"]))
    .transform((value) => value === "1" || value === "true")
    .optional()
    .catch(undefined);

/** `1` or `true` only, as true. */
export const onlyTrue = () =>
  z
    .preprocess(asText, z.enum(["1", "true"]))
    .transform(() => true as const)
    .optional()
    .catch(undefined);

/** A comma-separated list of ids. */
export const idList = () =>
  z
    .preprocess(asText, z.string())
    .transform((value) =>
      value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string()).min(1))
    .optional()
    .catch(undefined);

/** An integer at least `min` (and at most `max`), with a default. */
export const integerOr = (min: number, fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(asText, z.coerce.number().int().min(min).max(max)).catch(fallback).default(fallback);

/** An integer at least `min`, or absent. */
export const integerAtLeast = (min: number) =>
  z.preprocess(asText, z.coerce.number().int().min(min)).optional().catch(undefined);

/** Text with a default (a search box, a sort field). */
export const textOr = (fallback: string) =>
  z.preprocess(asText, z.string()).catch(fallback).default(fallback);
