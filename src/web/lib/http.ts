import { z } from "zod";
import { apiErrorSchema } from "../../shared/contracts/errors";
import { currentLanguage, i18next } from "./i18n";

/**
 * Raised on the window when the server refuses a call because the signed-in student's dashboard is
 * locked: the shell then takes them to the page that explains it (see features/integrity/lockout.ts).
 */
export const DASHBOARD_LOCKED_EVENT = "dashboard-locked";

/** A failed API call, carrying the server's readable message. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly retryAfterSeconds?: number,
    /** The fields a 400 is about, each with its problem in the shown language. */
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

/**
 * Calls the JSON API with the session cookie and parses the answer with its contract. A non-OK
 * answer with a JSON error body is rethrown with the server's message; otherwise with its text.
 */
export async function apiFetch<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<z.output<Schema>> {
  return (await apiAnswer(path, schema, init)).data;
}

/** As apiFetch, with the answer's HTTP status beside its parsed body (for the API consoles). */
export async function apiAnswer<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<{ status: number; data: z.output<Schema> }> {
  const method = init.method ?? (init.body === undefined ? "GET" : "POST");
  // A form with a file goes as multipart, its type (with the boundary) set by the browser; the
  // server takes that type only on the upload paths that expect it.
  const isForm = init.body instanceof FormData;
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    // The server refuses a state-changing request that does not say JSON, body or not: an HTML
    // form on another site cannot say it, which is part of the defence against forged requests.
    // Its messages come in the language the page is shown in.
    headers: {
      "Accept-Language": currentLanguage(),
      ...(method !== "GET" && !isForm && { "Content-Type": "application/json" }),
    },
    body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
    signal: init.signal,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = apiErrorSchema.safeParse(json);
    if (error.success) {
      if (response.status === 403 && error.data.code === "dashboard_locked")
        globalThis.dispatchEvent?.(new Event(DASHBOARD_LOCKED_EVENT));
      throw new ApiRequestError(
        error.data.message,
        response.status,
        error.data.code,
        error.data.retryAfterSeconds,
        error.data.issues,
      );
    }
    throw new ApiRequestError(
      text || response.statusText || i18next.t("common:requestFailed", { status: response.status }),
      response.status,
      "http_error",
    );
  }
  return { status: response.status, data: schema.parse(json) };
}

/**
 * An answer taken as its contract's type without checking it again: for the server's own
 * contracts, which it builds from its schemas.
 */
export function answerOf<Shape>() {
  return z.custom<Shape>(() => true);
}

/** A query string of the filters that are set (empty text and undefined are left out). */
export function searchParamsOf(
  filters: Record<string, string | number | boolean | undefined>,
): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters))
    if (value !== undefined && value !== "" && value !== false) params.set(name, String(value));
  return params;
}
