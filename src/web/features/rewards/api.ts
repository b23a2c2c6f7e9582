import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  accountSchema,
  type BountyRunResult,
  bonusAllowanceSchema,
  bountyRunResultSchema,
  type CreateItem,
  type GrantRequest,
  guideBudgetSchema,
  itemListSchema,
  itemSchema,
  type LedgerKind,
  ledgerListSchema,
  monitorSchema,
  movementResultSchema,
  type PayoutRequest,
  type RedemptionAction,
  type RedemptionStatus,
  type RewardSettings,
  reconciliationSchema,
  redemptionListSchema,
  redemptionSchema,
  rewardSettingsSchema,
  studentBalanceListSchema,
  type TransferRequest,
  type UpdateItem,
} from "../../../shared/contracts/rewards";
import { apiAnswer, apiFetch } from "../../lib/http";

/**
 * The rewards API for every rewards page: one query or mutation per endpoint. Queries share the
 * `rewards` key, so a mutation refreshes every figure shown with `invalidateQueries(rewardKeys.all)`.
 */

const BASE = "/api/rewards";
const withQuery = (path: string, query: Record<string, string | number | boolean | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

export const rewardKeys = {
  all: ["rewards"] as const,
  account: (studentId: string) => ["rewards", "account", studentId] as const,
  ledger: (studentId: string, offset: number, limit: number) =>
    ["rewards", "ledger", studentId, offset, limit] as const,
  wholeLedger: (filters: LedgerFilters) => ["rewards", "whole-ledger", filters] as const,
  items: (childId?: string, includeInactive?: boolean) =>
    ["rewards", "items", childId ?? "", includeInactive ?? false] as const,
  redemptions: (filters: RedemptionFilters) => ["rewards", "redemptions", filters] as const,
  students: (search: string, offset: number, limit: number) =>
    ["rewards", "students", search, offset, limit] as const,
  budget: ["rewards", "budget"] as const,
  settings: ["rewards", "settings"] as const,
  monitor: ["rewards", "monitor"] as const,
  reconciliation: (studentId: string) => ["rewards", "reconciliation", studentId] as const,
  bonuses: (studentId: string) => ["rewards", "bonuses", studentId] as const,
};

/**
 * How long an answer counts as fresh: a page that mounts just after the home asked ahead (see
 * home/api.ts prefetchHome) reads it instead of asking again. Every change the page makes refreshes it.
 */
const JUST_ASKED_MS = 10_000;

export const accountQuery = (studentId: string) =>
  queryOptions({
    queryKey: rewardKeys.account(studentId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/students/${encodeURIComponent(studentId)}/account`, accountSchema, { signal }),
    staleTime: JUST_ASKED_MS,
  });

export const ledgerQuery = (studentId: string, offset = 0, limit = 20) =>
  queryOptions({
    queryKey: rewardKeys.ledger(studentId, offset, limit),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery(`${BASE}/students/${encodeURIComponent(studentId)}/ledger`, { offset, limit }),
        ledgerListSchema,
        {
          signal,
        },
      ),
  });

export interface LedgerFilters {
  studentId?: string;
  kind?: LedgerKind;
  from?: string;
  to?: string;
  offset: number;
  limit: number;
}

export const wholeLedgerQuery = (filters: LedgerFilters) =>
  queryOptions({
    queryKey: rewardKeys.wholeLedger(filters),
    queryFn: ({ signal }) =>
      apiFetch(withQuery(`${BASE}/ledger`, { ...filters }), ledgerListSchema, { signal }),
  });

/** Where the browser downloads the filtered ledger as CSV. */
export const ledgerCsvUrl = (filters: Omit<LedgerFilters, "offset" | "limit">) =>
  withQuery(`${BASE}/ledger.csv`, { ...filters });

export const itemsQuery = (childId?: string, includeInactive?: boolean) =>
  queryOptions({
    queryKey: rewardKeys.items(childId, includeInactive),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery(`${BASE}/items`, { childId, includeInactive: includeInactive ? "true" : undefined }),
        itemListSchema,
        {
          signal,
        },
      ),
    select: (response) => response.data,
  });

export interface RedemptionFilters {
  status?: RedemptionStatus;
  studentId?: string;
  offset?: number;
  limit?: number;
}

export const redemptionsQuery = (filters: RedemptionFilters = {}) =>
  queryOptions({
    queryKey: rewardKeys.redemptions(filters),
    queryFn: ({ signal }) =>
      apiFetch(withQuery(`${BASE}/redemptions`, { ...filters }), redemptionListSchema, { signal }),
    staleTime: JUST_ASKED_MS,
  });

export const studentBalancesQuery = (search = "", offset = 0, limit = 50) =>
  queryOptions({
    queryKey: rewardKeys.students(search, offset, limit),
    queryFn: ({ signal }) =>
      apiFetch(withQuery(`${BASE}/students`, { search, offset, limit }), studentBalanceListSchema, {
        signal,
      }),
  });

export const budgetQuery = queryOptions({
  queryKey: rewardKeys.budget,
  queryFn: ({ signal }) => apiFetch(`${BASE}/budget`, guideBudgetSchema, { signal }),
});

/** The weekly bonuses a child has had from their family this school year, and those left. */
export const bonusesQuery = (studentId: string) =>
  queryOptions({
    queryKey: rewardKeys.bonuses(studentId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/students/${encodeURIComponent(studentId)}/bonuses`, bonusAllowanceSchema, { signal }),
  });

export const settingsQuery = queryOptions({
  queryKey: rewardKeys.settings,
  queryFn: ({ signal }) => apiFetch(`${BASE}/settings`, rewardSettingsSchema, { signal }),
});

export const monitorQuery = queryOptions({
  queryKey: rewardKeys.monitor,
  queryFn: ({ signal }) => apiFetch(`${BASE}/monitor`, monitorSchema, { signal }),
});

export const reconciliationQuery = (studentId: string) =>
  queryOptions({
    queryKey: rewardKeys.reconciliation(studentId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/students/${encodeURIComponent(studentId)}/reconciliation`, reconciliationSchema, {
        signal,
      }),
  });

export const requestItem = (itemId: string, idempotencyKey: string) =>
  apiFetch(`${BASE}/redemptions`, redemptionSchema, { body: { itemId, idempotencyKey } });

export const decideRequest = (id: string, action: RedemptionAction, note?: string) =>
  apiFetch(`${BASE}/redemptions/${id}/${action}`, redemptionSchema, { body: note ? { note } : {} });

export const grantAlphas = (grant: GrantRequest) =>
  apiFetch(`${BASE}/grants`, movementResultSchema, { body: grant });

export const transferAlphas = (studentId: string, transfer: TransferRequest) =>
  apiFetch(`${BASE}/students/${encodeURIComponent(studentId)}/transfers`, movementResultSchema, {
    body: transfer,
  });

export const recordPayout = (studentId: string, payout: PayoutRequest) =>
  apiFetch(`${BASE}/students/${encodeURIComponent(studentId)}/payouts`, movementResultSchema, {
    body: payout,
  });

export const createItem = (item: CreateItem) => apiFetch(`${BASE}/items`, itemSchema, { body: item });

export const updateItem = (id: string, changes: UpdateItem) =>
  apiFetch(`${BASE}/items/${id}`, itemSchema, { method: "PATCH", body: changes });

/** Uploads a picture file (PNG, JPEG or WebP) for an item. */
export async function uploadItemImage(id: string, file: File) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return apiFetch(`${BASE}/items/${id}/image`, itemSchema, {
    method: "PUT",
    body: { contentType: file.type, data: btoa(binary) },
  });
}

export const saveSettings = (settings: RewardSettings) =>
  apiFetch(`${BASE}/settings`, rewardSettingsSchema, { method: "PUT", body: settings });

export const reverseEntry = (entryId: number, reason: string) =>
  apiFetch(`${BASE}/ledger/${entryId}/reverse`, movementResultSchema, { body: { reason } });

export const runBounty = (run: { from: string; to: string; dryRun: boolean }): Promise<BountyRunResult> =>
  apiFetch(`${BASE}/bounty-runs`, bountyRunResultSchema, { body: run });

/** For the API debugger: any rewards call, answered as it came. */
export async function callRewardsApi(method: string, path: string, body?: unknown) {
  return apiAnswer(path, z.unknown(), { method, body });
}
