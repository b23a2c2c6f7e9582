import { DEFAULT_REWARD_SETTINGS } from "../../../shared/contracts/rewards";
import { i18next } from "../../lib/i18n";
import { newIdempotencyKey } from "../../lib/idempotency";

/** The rewards API's JSON calls (see server/domains/rewards/routes.ts), for the API console. */

export interface Endpoint {
  method: "GET" | "POST" | "PUT" | "PATCH";
  /** With `{name}` for each path parameter. */
  path: string;
  /** A query string to start from, for calls that take one. */
  query?: string;
  /** An example body, made when the call is chosen (so each gets its own idempotency key). */
  body?: () => unknown;
}

export const REWARDS_API_BASE = "/api/rewards/";

/** An example's words, in the language the console is shown in. */
const example = (key: string) => i18next.t(`rewards:debug.api.examples.${key}`);

const TODAY = () => new Date().toISOString().slice(0, 10);
const WEEK_AGO = () => new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

export const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: "/api/rewards/students", query: "search=&offset=0&limit=50" },
  { method: "GET", path: "/api/rewards/students/{studentId}/account" },
  { method: "GET", path: "/api/rewards/students/{studentId}/ledger", query: "offset=0&limit=20" },
  { method: "GET", path: "/api/rewards/students/{studentId}/bonuses" },
  {
    method: "POST",
    path: "/api/rewards/students/{studentId}/transfers",
    body: () => ({ toSavings: 10, idempotencyKey: newIdempotencyKey() }),
  },
  {
    method: "POST",
    path: "/api/rewards/students/{studentId}/payouts",
    body: () => ({ amount: 100, reward: example("reward"), idempotencyKey: newIdempotencyKey() }),
  },
  { method: "GET", path: "/api/rewards/students/{studentId}/reconciliation" },
  { method: "GET", path: "/api/rewards/items", query: "includeInactive=true" },
  {
    method: "POST",
    path: "/api/rewards/items",
    body: () => ({
      name: example("itemName"),
      description: example("itemDescription"),
      price: 40,
      stock: 50,
      category: example("category"),
      sortOrder: null,
      audience: { kind: "district" },
      imageUrl: null,
    }),
  },
  { method: "PATCH", path: "/api/rewards/items/{itemId}", body: () => ({ price: 45 }) },
  {
    method: "PUT",
    path: "/api/rewards/items/{itemId}/image",
    body: () => ({ contentType: "image/png", data: TINY_PNG }),
  },
  { method: "GET", path: "/api/rewards/redemptions", query: "status=pending&offset=0&limit=50" },
  {
    method: "POST",
    path: "/api/rewards/redemptions",
    body: () => ({ itemId: "", idempotencyKey: newIdempotencyKey() }),
  },
  { method: "POST", path: "/api/rewards/redemptions/{redemptionId}/{action}", body: () => ({ note: "" }) },
  {
    method: "POST",
    path: "/api/rewards/grants",
    body: () => ({
      studentId: "",
      kind: "award",
      amount: 10,
      reason: example("awardReason"),
      idempotencyKey: newIdempotencyKey(),
    }),
  },
  { method: "GET", path: "/api/rewards/budget" },
  { method: "GET", path: "/api/rewards/settings" },
  { method: "PUT", path: "/api/rewards/settings", body: () => DEFAULT_REWARD_SETTINGS },
  { method: "GET", path: "/api/rewards/ledger", query: "offset=0&limit=20" },
  {
    method: "POST",
    path: "/api/rewards/ledger/{entryId}/reverse",
    body: () => ({ reason: example("reversalReason") }),
  },
  {
    method: "POST",
    path: "/api/rewards/bounty-runs",
    body: () => ({ from: WEEK_AGO(), to: TODAY(), dryRun: true }),
  },
  { method: "GET", path: "/api/rewards/monitor" },
];

/** The names of a path's `{parameters}`, in order. */
export const pathParameters = (path: string): string[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);

/**
 * The address to call, parameters filled in, or null when it would leave the rewards API: the
 * browser resolves "..", so the check is made on the resolved path.
 */
export function resolvedPath(endpoint: Endpoint, parameters: Record<string, string>, query: string) {
  const filled = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(parameters[name]?.trim() ?? ""),
  );
  const search = query.trim().replace(/^\?/, "");
  const url = new URL(search ? `${filled}?${search}` : filled, window.location.origin);
  if (url.origin !== window.location.origin || !url.pathname.startsWith(REWARDS_API_BASE)) return null;
  return `${url.pathname}${url.search}`;
}
