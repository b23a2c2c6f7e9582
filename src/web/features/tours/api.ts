import { queryOptions } from "@tanstack/react-query";
import {
  type TourName,
  type TourOutcome,
  tourCompletionSchema,
  tourCompletionsSchema,
} from "../../../shared/contracts/tours";
import { answerOf, apiFetch } from "../../lib/http";

export const tourKeys = { completions: ["tours", "completions"] as const };

/** The tours the signed-in person has done, on any device. */
export const completedToursQuery = () =>
  queryOptions({
    queryKey: tourKeys.completions,
    queryFn: ({ signal }) => apiFetch("/api/tours", tourCompletionsSchema, { signal }),
    staleTime: 5 * 60_000,
  });

export function recordTourEnd(tour: TourName, outcome: TourOutcome) {
  return apiFetch(`/api/tours/${tour}`, tourCompletionSchema, { method: "PUT", body: { outcome } });
}

/** The tour counts as not done again, on every device. */
export function restartTourOnServer(tour: TourName) {
  return apiFetch(`/api/tours/${tour}`, answerOf<null>(), { method: "DELETE" });
}
