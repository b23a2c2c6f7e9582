import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type CreateScheduleBody,
  type ReportId,
  type ReportSchedule,
  type ReportSearch,
  SCHEDULE_FILTERS,
  type ScheduleFilters,
  type StaffMember,
} from "../../../shared/contracts/reports";
import { answerOf, apiFetch } from "../../lib/http";

const BASE = "/api/reports/schedules";
const listSchema = z.object({ success: z.literal(true), data: answerOf<ReportSchedule[]>() });
const oneSchema = z.object({ success: z.literal(true), data: answerOf<ReportSchedule>() });
const staffSchema = z.object({ success: z.literal(true), data: answerOf<StaffMember[]>() });
const doneSchema = z.object({ success: z.literal(true) });

export const scheduleKeys = {
  all: ["reports", "schedules"] as const,
  ofReport: (reportId: ReportId) => ["reports", "schedules", reportId] as const,
  staff: (q: string) => ["reports", "schedules", "staff", q] as const,
};

export const reportSchedulesQuery = (reportId: ReportId) =>
  queryOptions({
    queryKey: scheduleKeys.ofReport(reportId),
    queryFn: ({ signal }) =>
      apiFetch(`${BASE}?reportId=${encodeURIComponent(reportId)}`, listSchema, { signal }),
    select: (response) => response.data,
  });

export const staffQuery = (q: string) =>
  queryOptions({
    queryKey: scheduleKeys.staff(q),
    queryFn: ({ signal }) => apiFetch(`${BASE}/staff?q=${encodeURIComponent(q)}`, staffSchema, { signal }),
    select: (response) => response.data,
    // The list stays while the next name's answer comes, instead of flashing empty.
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** The filters of a report's address a schedule keeps: no dates, paging or sorting. */
export function scheduleFiltersOf(search: Partial<ReportSearch>): ScheduleFilters {
  const filters: ScheduleFilters = {};
  for (const key of SCHEDULE_FILTERS) {
    const value = search[key];
    if (value) filters[key] = value;
  }
  return filters;
}

export const createSchedule = (body: CreateScheduleBody) =>
  apiFetch(BASE, oneSchema, { method: "POST", body }).then((response) => response.data);

export const deleteSchedule = (id: string) =>
  apiFetch(`${BASE}/${encodeURIComponent(id)}`, doneSchema, { method: "DELETE" });
