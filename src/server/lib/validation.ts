import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "./errors";

/** Turns zod issues into the API's readable `{ path, message }` list and one summary sentence. */
export function validationError(error: z.ZodError): AppError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  const summary = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
  return new AppError("validation_failed", `Invalid request: ${summary.join("; ")}`, { issues });
}

/** A 400 about fields that passed the schema but not a rule checked against the data (a reference that does not exist…). */
export function invalidFields(issues: { path: string; message: string }[]): AppError {
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`);
  return new AppError("validation_failed", `Invalid request: ${summary.join("; ")}`, { issues });
}

export function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** Reads and validates a JSON body: malformed JSON and wrong shapes are both a 400. */
export async function readJsonBody<Schema extends z.ZodType>(
  c: Context,
  schema: Schema,
): Promise<z.output<Schema>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new AppError("invalid_json", "The request body must be valid JSON");
  }
  return parseWith(schema, body);
}

export function readQuery<Schema extends z.ZodType>(c: Context, schema: Schema): z.output<Schema> {
  return parseWith(schema, c.req.query());
}
