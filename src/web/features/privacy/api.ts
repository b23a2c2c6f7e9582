import { queryOptions } from "@tanstack/react-query";
import {
  ACCESS_LOG_PAGE_SIZE,
  type AnonymiseRequest,
  accessLogResponseSchema,
  anonymiseResponseSchema,
  type RetentionSettings,
  retentionResponseSchema,
} from "../../../shared/contracts/privacy";
import { apiFetch } from "../../lib/http";

/** Query keys and fetchers of the privacy centre. */

export const privacyKeys = {
  all: ["privacy"] as const,
  accessLog: (personId: string | null, offset: number) =>
    ["privacy", "access-log", personId, offset] as const,
  retention: ["privacy", "retention"] as const,
};

const studentPath = (studentId: string, action: string) =>
  `/api/admin/privacy/students/${encodeURIComponent(studentId)}/${action}`;

/** Where an administrator downloads a student's .zip; the browser saves it. */
export const studentExportUrl = (studentId: string) => studentPath(studentId, "export");

/** Where a parent or guardian downloads their child's .zip. */
export const childExportUrl = (childId: string) =>
  `/api/privacy/children/${encodeURIComponent(childId)}/export`;

export const accessLogQuery = (personId: string | null, offset: number) =>
  queryOptions({
    queryKey: privacyKeys.accessLog(personId, offset),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ offset: String(offset), limit: String(ACCESS_LOG_PAGE_SIZE) });
      if (personId) query.set("personId", personId);
      return apiFetch(`/api/admin/privacy/access-log?${query}`, accessLogResponseSchema, { signal });
    },
  });

export const retentionQuery = queryOptions({
  queryKey: privacyKeys.retention,
  queryFn: ({ signal }) => apiFetch("/api/admin/privacy/retention", retentionResponseSchema, { signal }),
});

export function saveRetention(settings: RetentionSettings) {
  return apiFetch("/api/admin/privacy/retention", retentionResponseSchema, { method: "PUT", body: settings });
}

export function anonymiseStudent(studentId: string, input: AnonymiseRequest) {
  return apiFetch(studentPath(studentId, "anonymise"), anonymiseResponseSchema, { body: input });
}
