import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { apiFetch } from "../../lib/http";

const flowEventSchema = z.object({
  id: z.string(),
  subject: z.string(),
  activityName: z.string().nullable(),
  appName: z.string().nullable(),
  start: z.string(),
  end: z.string(),
  xp: z.number(),
  accuracy: z.number().nullable(),
});

const flowDaySchema = z.object({
  success: z.literal(true),
  data: z.object({
    date: z.string(),
    students: z.array(
      z.object({
        sourcedId: z.string(),
        givenName: z.string(),
        familyName: z.string(),
        timezone: z.string(),
        events: z.array(flowEventSchema),
      }),
    ),
  }),
});
export type FlowDay = z.infer<typeof flowDaySchema>["data"];
export type FlowStudentDay = FlowDay["students"][number];

const classesSchema = z.object({
  success: z.literal(true),
  data: z.array(
    z.object({
      sourcedId: z.string(),
      title: z.string(),
      schoolName: z.string().nullable(),
      students: z.number(),
    }),
  ),
});

export const flowDayQuery = (filter: { date?: string; classId?: string; studentId?: string }) => {
  const params = new URLSearchParams(
    Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  return queryOptions({
    queryKey: ["flow", "day", filter],
    queryFn: ({ signal }) => apiFetch(`/api/flow/day?${params}`, flowDaySchema, { signal }),
    staleTime: 60_000,
  });
};

export const myClassesQuery = queryOptions({
  queryKey: ["classes", "mine"],
  queryFn: ({ signal }) => apiFetch("/api/classes/mine", classesSchema, { signal }),
  staleTime: 5 * 60_000,
});
