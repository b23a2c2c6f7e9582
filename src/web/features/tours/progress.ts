import type { TourName } from "../../../shared/contracts/tours";

/**
 * What this browser remembers of a person's tours, under their own key (a school's shared laptop
 * serves several students): the step reached in a tour under way (`index` and the page's `path`)
 * and, per tour, whether it is done (`studentTourCompleted`, `teacherTourCompleted`, …).
 */
export interface TourProgress {
  index: number;
  path: string;
}

type CompletedFlag = `${TourName}TourCompleted`;
type TourRecord = { progress?: Partial<Record<TourName, TourProgress>> } & Partial<
  Record<CompletedFlag, true>
>;

const keyOf = (userId: string) => `dash-tour:${userId}`;
const completedFlag = (tour: TourName): CompletedFlag => `${tour}TourCompleted`;

function read(userId: string): TourRecord {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(keyOf(userId)) ?? "{}");
    return value && typeof value === "object" ? (value as TourRecord) : {};
  } catch {
    return {};
  }
}

function write(userId: string, record: TourRecord) {
  try {
    localStorage.setItem(keyOf(userId), JSON.stringify(record));
  } catch {
    // Storage full or refused (a private window): the tour still runs, it is only not remembered.
  }
}

export function isCompletedHere(userId: string, tour: TourName): boolean {
  return read(userId)[completedFlag(tour)] === true;
}

/** The step to resume at, if the tour is under way and not done. */
export function savedProgress(userId: string, tour: TourName): TourProgress | null {
  const record = read(userId);
  const progress = record.progress?.[tour];
  if (record[completedFlag(tour)] || !progress) return null;
  return Number.isInteger(progress.index) && progress.index >= 0 && typeof progress.path === "string"
    ? progress
    : null;
}

export function saveProgress(userId: string, tour: TourName, progress: TourProgress) {
  const record = read(userId);
  write(userId, { ...record, progress: { ...record.progress, [tour]: progress } });
}

/** Done: remembered as completed, its saved step forgotten. */
export function markCompletedHere(userId: string, tour: TourName) {
  const { progress, ...record } = read(userId);
  const { [tour]: _ended, ...others } = progress ?? {};
  write(userId, { ...record, progress: others, [completedFlag(tour)]: true });
}

/** Taken again from the start: neither done nor under way. */
export function forgetTour(userId: string, tour: TourName) {
  const { progress, [completedFlag(tour)]: _done, ...record } = read(userId);
  const { [tour]: _ended, ...others } = progress ?? {};
  write(userId, { ...record, progress: others });
}
