import { z } from "zod";
import { isIsoDate } from "../search";
import { invalid, type ValidationMessage } from "../validation-messages";

/** Field schemas the contracts share, so each rule is written once. */

/** A `yyyy-MM-dd` date that exists on the calendar: `2024-02-30` and `2024-99-99` are refused. */
export const calendarDate = () => z.string().refine(isIsoDate, invalid("realDate"));

export const NOTHING_TO_CHANGE = invalid("nothingToChange");

/** A `true` or `false` in a query or form field, `false` when absent. */
export const flag = (message: ValidationMessage) =>
  z
    .enum(["true", "false"], message)
    .default("false")
    .transform((value) => value === "true");

/**
 * The body of a PATCH: any of these fields, at least one of them given. Unknown fields are
 * dropped, so a body of only unknown fields has nothing to change either.
 */
export function changesOf<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .object(shape)
    .partial()
    .refine((changes) => Object.values(changes).some((value) => value !== undefined), NOTHING_TO_CHANGE);
}

/** `offset` and `limit` of a paged list (at most 200 a page), spread into its query schema. */
export const pageFields = (defaultLimit: number) => ({
  offset: z.coerce.number().int().min(0, invalid("offsetNegative")).default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1, invalid("limitTooSmall"))
    .max(200, invalid("limitAbove200"))
    .default(defaultLimit),
});
