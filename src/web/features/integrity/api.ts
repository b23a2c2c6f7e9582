import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  type IncidentGroup,
  type IntegritySettings,
  incidentDetailSchema,
  incidentListSchema,
  incidentRecordSchema,
  integritySettingsSchema,
  integritySummarySchema,
  lockoutStatusSchema,
  type ReviewDecision,
  studentIntegritySchema,
} from "../../../shared/contracts/integrity";
import { ApiRequestError, apiFetch } from "../../lib/http";

/**
 * The integrity API: focus incidents and their review, strikes, the dashboard lockout and the
 * rules. Queries share the `integrity` key, so a decision refreshes every figure shown with
 * `invalidateQueries({ queryKey: integrityKeys.all })`.
 */

const BASE = "/api/integrity";

/** The spec's lockout check runs every 30 seconds for students. */
export const LOCKOUT_POLL_MS = 30_000;
/** Queues move as the agent reports and other reviewers decide. */
const QUEUE_REFRESH_MS = 60_000;

export interface IncidentFilters {
  group: IncidentGroup;
  studentId?: string;
  classId?: string;
  page?: number;
}

export const integrityKeys = {
  all: ["integrity"] as const,
  incidents: (filters: IncidentFilters) => ["integrity", "incidents", filters] as const,
  incident: (incidentId: string) => ["integrity", "incident", incidentId] as const,
  summary: ["integrity", "summary"] as const,
  lockout: ["integrity", "lockout"] as const,
  student: (studentId: string) => ["integrity", "student", studentId] as const,
  settings: ["integrity", "settings"] as const,
};

const withQuery = (path: string, query: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== "") search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
};

/** A refusal (not yours to see, not found) does not change by asking again. */
const retryUnlessRefused = (failures: number, error: Error) =>
  !(error instanceof ApiRequestError && error.status < 500) && failures < 2;

/** The filters without their empty parts: a stable query key. */
function filtersOf(filters: IncidentFilters): IncidentFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== ""),
  ) as unknown as IncidentFilters;
}

/** A page of incidents of one group (pending, confirmed strikes, resolved). */
export const incidentsQuery = (filters: IncidentFilters) => {
  const asked = filtersOf(filters);
  return queryOptions({
    queryKey: integrityKeys.incidents(asked),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery(`${BASE}/incidents`, {
          status: asked.group,
          studentId: asked.studentId,
          classId: asked.classId,
          page: asked.page && asked.page > 1 ? asked.page : undefined,
        }),
        incidentListSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    refetchInterval: QUEUE_REFRESH_MS,
    retry: retryUnlessRefused,
  });
};

/** One incident with the student's other recent incidents and their strikes against the threshold. */
export const incidentDetailQuery = (incidentId: string) =>
  queryOptions({
    queryKey: integrityKeys.incident(incidentId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/incidents/${encodeURIComponent(incidentId)}`, incidentDetailSchema, { signal }),
    staleTime: 15_000,
    retry: retryUnlessRefused,
  });

/** Counts per student and class for reviewers: the homes' notices and the queue's filters. */
export const summaryQuery = queryOptions({
  queryKey: integrityKeys.summary,
  queryFn: ({ signal }) => apiFetch(`${BASE}/summary`, integritySummarySchema, { signal }),
  staleTime: 30_000,
  refetchInterval: QUEUE_REFRESH_MS,
  retry: retryUnlessRefused,
});

/** Whether the signed-in student's dashboard is locked, asked again every 30 seconds. */
export const lockoutQuery = queryOptions({
  queryKey: integrityKeys.lockout,
  queryFn: ({ signal }) => apiFetch(`${BASE}/lockout`, lockoutStatusSchema, { signal }),
  staleTime: LOCKOUT_POLL_MS - 1_000,
  refetchInterval: LOCKOUT_POLL_MS,
  // A poll goes on in a tab in the background too: the lock must reach a student who comes back.
  refetchIntervalInBackground: true,
  retry: retryUnlessRefused,
});

/** One student's strikes and lockout, for whoever may see that student. */
export const studentIntegrityQuery = (studentId: string) =>
  queryOptions({
    queryKey: integrityKeys.student(studentId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}/students/${encodeURIComponent(studentId)}`, studentIntegritySchema, { signal }),
    staleTime: 30_000,
    refetchInterval: QUEUE_REFRESH_MS,
    retry: retryUnlessRefused,
  });

/** The rules of the review and the lockout (administrators). */
export const settingsQuery = queryOptions({
  queryKey: integrityKeys.settings,
  queryFn: ({ signal }) => apiFetch(`${BASE}/settings`, integritySettingsSchema, { signal }),
  staleTime: 60_000,
  retry: retryUnlessRefused,
});

export const reviewIncident = (incidentId: string, decision: ReviewDecision, note: string) =>
  apiFetch(`${BASE}/incidents/${encodeURIComponent(incidentId)}/review`, incidentRecordSchema, {
    body: { decision, note },
  });

export const appealIncident = (incidentId: string, note: string) =>
  apiFetch(`${BASE}/incidents/${encodeURIComponent(incidentId)}/appeal`, incidentRecordSchema, {
    body: { note },
  });

export const unlockStudent = (studentId: string, note: string, code?: string) =>
  apiFetch(`${BASE}/students/${encodeURIComponent(studentId)}/unlock`, studentIntegritySchema, {
    body: code ? { note, code } : { note },
  });

export const saveSettings = (settings: IntegritySettings) =>
  apiFetch(`${BASE}/settings`, integritySettingsSchema, { method: "PUT", body: settings });
