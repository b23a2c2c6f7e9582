import type { ApiError } from "../../shared/contracts/errors";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/languages";
import { type Message, translate } from "./i18n";

const STATUS_BY_CODE = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  // A student whose dashboard is locked, asking for anything but the locked page's few calls.
  dashboard_locked: 403,
  not_found: 404,
  conflict: 409,
  // The Alphas' refusals, each a 409 a client can tell apart.
  insufficient_balance: 409,
  out_of_stock: 409,
  limit_reached: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  busy: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;
export type ErrorStatus = (typeof STATUS_BY_CODE)[ErrorCode];

/** A field's problem: a catalogue message or a text already in the reader's language. */
export interface FieldIssue {
  path: string;
  message: string | Message;
}

/**
 * An error whose message is safe to show to the user as it is: a catalogue message, answered in
 * the language of the request (`message` holds the English, for the log), or a text as it is.
 */
export class AppError extends Error {
  readonly status: ErrorStatus;

  constructor(
    readonly code: ErrorCode,
    private readonly said: string | Message,
    readonly details: { issues?: FieldIssue[]; retryAfterSeconds?: number } = {},
  ) {
    super(translate(said, DEFAULT_LANGUAGE));
    this.name = "AppError";
    this.status = STATUS_BY_CODE[code];
  }

  toBody(language: Language = DEFAULT_LANGUAGE): ApiError {
    const { issues, ...rest } = this.details;
    const body: ApiError = { code: this.code, message: translate(this.said, language), ...rest };
    if (issues)
      body.issues = issues.map((issue) => ({
        path: issue.path,
        message: translate(issue.message, language),
      }));
    return body;
  }
}
