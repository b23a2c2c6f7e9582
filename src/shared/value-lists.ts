/**
 * Closed lists of values that the route table's search parameters share with the contracts. They
 * live apart from the contracts' schemas so that the route table, in every page's first download,
 * does not carry them.
 */

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

export const COURSE_SORTS = ["title", "courseCode", "orgName", "status", "dateLastModified"] as const;
export type CourseSort = (typeof COURSE_SORTS)[number];

export const ENROLLMENT_SORTS = [
  "beginDate",
  "endDate",
  "userName",
  "classTitle",
  "role",
  "status",
  "dateLastModified",
] as const;
export type EnrollmentSort = (typeof ENROLLMENT_SORTS)[number];

/** OneRoster 1.2 enrollment roles. */
export const ENROLLMENT_ROLES = ["student", "teacher", "administrator", "proctor"] as const;
export type EnrollmentRole = (typeof ENROLLMENT_ROLES)[number];

/** OneRoster 1.2 statuses. An ended enrollment is kept, marked `tobedeleted`, with its end date. */
export const ROSTER_STATUSES = ["active", "tobedeleted"] as const;
export type RosterStatus = (typeof ROSTER_STATUSES)[number];

/** The kinds of movement in the Alphas ledger. */
export const LEDGER_KINDS = [
  "earn",
  "award",
  "parent_bonus",
  "parent_debit",
  "hold",
  "release",
  "spend",
  "refund",
  "transfer",
  "interest",
  "payout",
  "reversal",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** The growth windows NWEA reports, from the start term's season to the end term's. */
export const GROWTH_WINDOWS = [
  "fallToFall",
  "fallToWinter",
  "fallToSpring",
  "winterToWinter",
  "winterToSpring",
  "springToSpring",
] as const;
export type GrowthWindow = (typeof GROWTH_WINDOWS)[number];
