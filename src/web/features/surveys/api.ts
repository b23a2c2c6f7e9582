import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import {
  type Answers,
  type Audience,
  audienceCountSchema,
  audienceOptionsSchema,
  draftSavedSchema,
  mySurveysSchema,
  type ResultGrouping,
  type SurveyInput,
  submittedSchema,
  surveyDetailSchema,
  surveyFormSchema,
  surveyListSchema,
  surveyResultsSchema,
} from "../../../shared/contracts/surveys";
import { apiFetch, searchParamsOf } from "../../lib/http";
import { currentLanguage } from "../../lib/i18n";

/** Pulse surveys: query keys, fetchers and changes. */

export const surveyKeys = {
  all: ["surveys"] as const,
  mine: ["surveys", "mine"] as const,
  form: (surveyId: string) => ["surveys", "form", surveyId] as const,
  list: (archived: boolean) => ["surveys", "list", archived] as const,
  detail: (surveyId: string) => ["surveys", "detail", surveyId] as const,
  options: ["surveys", "audience-options"] as const,
  results: (surveyId: string, round: number | null, groupBy: ResultGrouping | null) =>
    ["surveys", "results", surveyId, round, groupBy] as const,
};

const path = (surveyId: string, rest = "") => `/api/surveys/${encodeURIComponent(surveyId)}${rest}`;

/** Whether a failed request was a refusal (4xx) rather than a hiccup: asking again changes nothing. */
export function isRefusal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500;
}

const retryUnlessRefused = (count: number, error: Error) => count < 2 && !isRefusal(error);

/** The open surveys that ask the signed-in person. */
export const mySurveysQuery = queryOptions({
  queryKey: surveyKeys.mine,
  queryFn: ({ signal }) => apiFetch("/api/surveys/mine", mySurveysSchema, { signal }),
  staleTime: 30_000,
});

/** A survey as its person answers it, with their draft. */
export const surveyFormQuery = (surveyId: string) =>
  queryOptions({
    queryKey: surveyKeys.form(surveyId),
    queryFn: ({ signal }) => apiFetch(path(surveyId, "/form"), surveyFormSchema, { signal }),
    retry: retryUnlessRefused,
    // The page keeps its own answers while open; a reload reads the saved draft.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

export const surveyListQuery = (archived: boolean) =>
  queryOptions({
    queryKey: surveyKeys.list(archived),
    queryFn: ({ signal }) =>
      apiFetch(`/api/surveys?${searchParamsOf({ archived, limit: 200 })}`, surveyListSchema, { signal }),
  });

export const surveyDetailQuery = (surveyId: string) =>
  queryOptions({
    queryKey: surveyKeys.detail(surveyId),
    queryFn: ({ signal }) => apiFetch(path(surveyId), surveyDetailSchema, { signal }),
    retry: retryUnlessRefused,
  });

export const audienceOptionsQuery = queryOptions({
  queryKey: surveyKeys.options,
  queryFn: ({ signal }) => apiFetch("/api/surveys/audience-options", audienceOptionsSchema, { signal }),
  staleTime: 5 * 60_000,
});

export const surveyResultsQuery = (surveyId: string, round: number | null, groupBy: ResultGrouping | null) =>
  queryOptions({
    queryKey: surveyKeys.results(surveyId, round, groupBy),
    queryFn: ({ signal }) =>
      apiFetch(
        path(
          surveyId,
          `/results?${searchParamsOf({ round: round ?? undefined, groupBy: groupBy ?? undefined })}`,
        ),
        surveyResultsSchema,
        { signal },
      ),
    retry: retryUnlessRefused,
  });

/** Where the answers download as CSV: one round's, or every round's that may be shown. */
export const responsesCsvUrl = (surveyId: string, round: number | null) =>
  path(surveyId, `/responses.csv${round ? `?round=${round}` : ""}`);

const created = z.object({ id: z.string() });
const nothing = z.unknown();

export const createSurvey = (input: SurveyInput) => apiFetch("/api/surveys", created, { body: input });
export const saveSurvey = (surveyId: string, input: SurveyInput) =>
  apiFetch(path(surveyId), nothing, { method: "PUT", body: input });
export const deleteSurvey = (surveyId: string) => apiFetch(path(surveyId), nothing, { method: "DELETE" });
export const surveyAction = (surveyId: string, action: "publish" | "close" | "archive") =>
  apiFetch(path(surveyId, `/${action}`), nothing, { method: "POST" });
export const countAudience = (audience: Audience, signal?: AbortSignal) =>
  apiFetch("/api/surveys/audience-count", audienceCountSchema, { body: { audience }, signal });

export const saveDraft = (surveyId: string, answers: Answers) =>
  apiFetch(path(surveyId, "/draft"), draftSavedSchema, { method: "PUT", body: { answers } });
export const submitAnswers = (surveyId: string, answers: Answers) =>
  apiFetch(path(surveyId, "/responses"), submittedSchema, { body: { answers } });

/**
 * Saves a draft as the page goes away (a tab closed, the browser sent to the background): a
 * `keepalive` request outlives the page, which an ordinary call would not.
 */
export function saveDraftOnLeave(surveyId: string, answers: Answers): void {
  void fetch(path(surveyId, "/draft"), {
    method: "PUT",
    keepalive: true,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "Accept-Language": currentLanguage() },
    body: JSON.stringify({ answers }),
  }).catch(() => {});
}
