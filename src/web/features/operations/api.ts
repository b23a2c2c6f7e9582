import { queryOptions } from "@tanstack/react-query";
import { jobListResponseSchema, runJobResponseSchema } from "../../../shared/contracts/jobs";
import { apiFetch } from "../../lib/http";

/** Query keys and fetchers of the Operations page. */

export const operationsKeys = { jobs: ["operations", "jobs"] as const };

export const jobsQuery = queryOptions({
  queryKey: operationsKeys.jobs,
  queryFn: ({ signal }) => apiFetch("/api/admin/jobs", jobListResponseSchema, { signal }),
});

export function runJobNow(name: string) {
  return apiFetch(`/api/admin/jobs/${encodeURIComponent(name)}/run`, runJobResponseSchema, {
    method: "POST",
  });
}
