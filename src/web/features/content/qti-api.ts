import { type QueryClient, queryOptions } from "@tanstack/react-query";
import type { QtiDocument } from "../../../shared/contracts/content";
import { ApiRequestError, answerOf, apiFetch } from "../../lib/http";
import { loadQtiLibrary } from "./qti-runtime";

/** The QTI bank as the player reads it: one item or one shared stimulus with its raw XML. */
const documentAnswer = answerOf<QtiDocument>();

/** An item or stimulus does not change under a learner's eyes; a new import shows on the next visit. */
const DOCUMENT_STALE_MS = 5 * 60_000;

const noRetryOnRefusal = (failures: number, error: Error) =>
  !(error instanceof ApiRequestError && error.status < 500) && failures < 2;

export const qtiKeys = {
  item: (identifier: string) => ["qti", "item", identifier] as const,
  stimulus: (identifier: string) => ["qti", "stimulus", identifier] as const,
};

/** GET /api/qti/items/:identifier: anyone for a public item, a signed-in user otherwise (404 if not). */
export const qtiItemQuery = (identifier: string) =>
  queryOptions({
    queryKey: qtiKeys.item(identifier),
    queryFn: ({ signal }) =>
      apiFetch(`/api/qti/items/${encodeURIComponent(identifier)}`, documentAnswer, { signal }),
    staleTime: DOCUMENT_STALE_MS,
    retry: noRetryOnRefusal,
  });

/** GET /api/qti/stimuli/:identifier, with the same rule as items. */
export const qtiStimulusQuery = (identifier: string) =>
  queryOptions({
    queryKey: qtiKeys.stimulus(identifier),
    queryFn: ({ signal }) =>
      apiFetch(`/api/qti/stimuli/${encodeURIComponent(identifier)}`, documentAnswer, { signal }),
    staleTime: DOCUMENT_STALE_MS,
    retry: noRetryOnRefusal,
  });

/** Whether a failed read means the document is missing or not shown to this visitor. */
export function isUnavailable(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 404 || error.status === 403);
}

/** The item embed's loader: the item and the player library download side by side with the page. */
export function prefetchQtiItem(queryClient: QueryClient, identifier: string) {
  void queryClient.prefetchQuery(qtiItemQuery(identifier));
  loadQtiLibrary().catch(() => {});
}

/** The stimulus embed's loader fetches the passage's raw XML while the page and the library load. */
export function prefetchQtiStimulus(queryClient: QueryClient, identifier: string) {
  void queryClient.prefetchQuery(qtiStimulusQuery(identifier));
  loadQtiLibrary().catch(() => {});
}
