import { z } from "zod";
import { OneRosterError } from "./errors";

/** Paging, sorting, filtering and field selection of a OneRoster collection request. */

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 3000;

const wholeNumber = (name: string, min: number, max?: number) => {
  const base = z
    .string()
    .regex(/^\d+$/, `${name} is a whole number`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `${name} is at least ${min}`)
        .max(Number.MAX_SAFE_INTEGER, `${name} is at most ${Number.MAX_SAFE_INTEGER}`),
    );
  return max === undefined ? base : base.pipe(z.number().max(max, `${name} is at most ${max}`));
};

const collectionQuerySchema = z.object({
  limit: wholeNumber("limit", 1, MAX_LIMIT).default(DEFAULT_LIMIT),
  offset: wholeNumber("offset", 0).default(0),
  sort: z.string().trim().optional(),
  orderBy: z.enum(["asc", "desc"], "orderBy is asc or desc").default("asc"),
  filter: z.string().optional(),
  fields: z.string().optional(),
  search: z.string().trim().max(200, "search is at most 200 characters").default(""),
});

export type CollectionQuery = Omit<z.output<typeof collectionQuerySchema>, "fields"> & {
  /** The top-level fields to keep in each record, or null for all of them. */
  fields: string[] | null;
};

/** The fields a client asked for, each one a field of the record, or an invalid_selection_field error. */
export function readFields(input: string | undefined, known: readonly string[]): string[] | null {
  if (input === undefined) return null;
  const names = input
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return null;
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new OneRosterError(
      400,
      "invalid_selection_field",
      `Unknown field${unknown.length > 1 ? "s" : ""} in fields: ${unknown.join(", ")}. Known fields: ${known.join(", ")}`,
    );
  }
  return [...new Set(names)];
}

export function readCollectionQuery(
  params: Record<string, string>,
  knownFields: readonly string[],
): CollectionQuery {
  const parsed = collectionQuerySchema.safeParse(params);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message);
    throw new OneRosterError(400, "invaliddata", `Invalid request: ${problems.join("; ")}`);
  }
  return { ...parsed.data, fields: readFields(params.fields, knownFields) };
}

/** Keeps only the selected top-level fields of a record. */
export function selectFields(
  record: Record<string, unknown>,
  fields: string[] | null,
): Record<string, unknown> {
  if (!fields) return record;
  return Object.fromEntries(fields.filter((name) => name in record).map((name) => [name, record[name]]));
}

/**
 * RFC 5988 links to the first, previous, next and last pages: the request's own URL with only
 * offset and limit changed, so filters, sorting and fields carry over.
 */
export function pageLinks(
  requestUrl: string,
  page: { offset: number; limit: number; total: number },
): string {
  const link = (offset: number, rel: string) => {
    const url = new URL(requestUrl);
    url.searchParams.set("limit", String(page.limit));
    url.searchParams.set("offset", String(offset));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const lastOffset = page.total > 0 ? Math.floor((page.total - 1) / page.limit) * page.limit : 0;
  const links: string[] = [];
  if (page.offset + page.limit < page.total) links.push(link(page.offset + page.limit, "next"));
  links.push(link(lastOffset, "last"), link(0, "first"));
  if (page.offset > 0) links.push(link(Math.max(0, page.offset - page.limit), "prev"));
  return links.join(", ");
}
