import { queryOptions } from "@tanstack/react-query";
import { type AnalyticsReportQuery, analyticsReportSchema } from "../../../shared/contracts/analytics";
import { apiFetch } from "../../lib/http";

export const analyticsKeys = {
  report: (query: AnalyticsReportQuery) => ["analytics", "report", query] as const,
};

/** How Dash is used and where it breaks, for administrators. */
export const analyticsReportQuery = (query: AnalyticsReportQuery) =>
  queryOptions({
    queryKey: analyticsKeys.report(query),
    queryFn: ({ signal }) => {
      const search = new URLSearchParams(
        Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      );
      const suffix = search.size > 0 ? `?${search}` : "";
      return apiFetch(`/api/admin/analytics${suffix}`, analyticsReportSchema, { signal });
    },
  });
