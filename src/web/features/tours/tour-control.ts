/**
 * How the menus ask for a tour: from its first step, or from the first step on the page in view.
 * A tiny store the shell's menus write and the tour host reads, so neither knows the other.
 */
export type TourStart = "beginning" | "this-page";

type Listener = (start: TourStart) => void;
const listeners = new Set<Listener>();

export function requestTour(start: TourStart) {
  for (const listener of listeners) listener(start);
}

export function onTourRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
