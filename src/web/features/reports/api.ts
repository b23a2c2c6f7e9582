import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { type ReportId, type ReportSearch, reportResponseSchema } from "../../../shared/contracts/reports";
import { apiFetch } from "../../lib/http";
import { currentLanguage } from "../../lib/i18n";

/** The address search of a report as its API's query: the values set, nothing else. */
export function reportParams(
  search: Partial<ReportSearch>,
  omit: readonly (keyof ReportSearch)[] = [],
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === "" || omit.includes(key as keyof ReportSearch))
      continue;
    params.set(key, String(value));
  }
  return params.toString();
}

export const reportQuery = (id: ReportId, search: Partial<ReportSearch>) =>
  queryOptions({
    queryKey: ["reports", id, reportParams(search)],
    queryFn: ({ signal }) =>
      apiFetch(`/api/reports/${id}?${reportParams(search)}`, reportResponseSchema, { signal }),
    select: (response) => response.data,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** A report's file: every row (no page), in the language the app shows. */
export function reportDownload(
  id: ReportId,
  kind: "csv" | "pdf",
  search: Partial<ReportSearch>,
  table?: string,
): string {
  const query = reportParams(
    { ...search, ...(table ? { table } : {}), lang: currentLanguage() } as Partial<ReportSearch>,
    ["page"],
  );
  return `/api/reports/${id}/${kind}?${query}`;
}
