import { queryOptions } from "@tanstack/react-query";
import type { PulseNote, PulseNoteInput, PulseResponse } from "../../../shared/contracts/families";
import { answerOf, apiFetch } from "../../lib/http";
import { isRefusal } from "../goals/api";

/** The weekly pulse's queries, under the families key so a family page's refresh reaches them too. */
export const pulseKeys = {
  all: ["families", "pulse"] as const,
  /** No week: the one running now. */
  week: (childId: string, week: string | undefined) => ["families", "pulse", childId, week ?? ""] as const,
};

/** A week's pulse is built when asked for while it runs; read again each few minutes, it stays current. */
const PULSE_REFRESH_MS = 5 * 60_000;

export const pulseQuery = (childId: string, week?: string) =>
  queryOptions({
    queryKey: pulseKeys.week(childId, week),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/families/pulse?${new URLSearchParams({ childId, ...(week && { week }) })}`,
        answerOf<PulseResponse>(),
        { signal },
      ),
    staleTime: PULSE_REFRESH_MS,
    retry: (count, error) => count < 2 && !isRefusal(error),
  });

export const savePulseNote = (input: PulseNoteInput) =>
  apiFetch("/api/families/pulse/note", answerOf<PulseNote>(), { method: "PUT", body: input });
