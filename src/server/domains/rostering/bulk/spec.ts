/**
 * What a OneRoster bulk CSV set may hold: its files, their columns (1.1 and 1.2) and the
 * vocabularies of its enumerated fields.
 */
import { GRADES } from "../../../../shared/contracts/courses";
import {
  CLASS_TYPES,
  ENROLLMENT_ROLES,
  ORG_TYPES,
  SESSION_TYPES,
  SEXES,
  USER_ROLES,
} from "../oneroster/vocabulary";

/** The files Dash stores, in the order they are checked and applied: each refers only to earlier ones (or itself). */
export const STORED_FILES = [
  "orgs",
  "academicSessions",
  "courses",
  "classes",
  "users",
  "roles",
  "demographics",
  "enrollments",
] as const;
export type StoredFile = (typeof STORED_FILES)[number];

/** Files of the standard that Dash reads past: gradebook, resources and user profiles. */
export const SKIPPED_FILES = [
  "userProfiles",
  "categories",
  "classResources",
  "courseResources",
  "resources",
  "userResources",
  "lineItems",
  "results",
  "scoreScales",
  "lineItemScoreScales",
  "resultScoreScales",
  "lineItemLearningObjectiveIds",
  "resultLearningObjectiveIds",
] as const;
export type RosterFile = StoredFile | (typeof SKIPPED_FILES)[number];

export const fileNameOf = (file: RosterFile) => `${file}.csv`;

const BASE = ["sourcedId", "status", "dateLastModified"] as const;

/**
 * The columns of each stored file, in the 1.2 order that the export writes. users.csv also knows
 * the 1.1 columns `orgSourcedIds` and `role` (1.2 moved them to roles.csv).
 */
export const COLUMNS: Record<StoredFile, readonly string[]> = {
  orgs: [...BASE, "name", "type", "identifier", "parentSourcedId"],
  academicSessions: [...BASE, "title", "type", "startDate", "endDate", "parentSourcedId", "schoolYear"],
  courses: [
    ...BASE,
    "schoolYearSourcedId",
    "title",
    "courseCode",
    "grades",
    "orgSourcedId",
    "subjects",
    "subjectCodes",
  ],
  classes: [
    ...BASE,
    "title",
    "grades",
    "courseSourcedId",
    "classCode",
    "classType",
    "location",
    "schoolSourcedId",
    "termSourcedIds",
    "subjects",
    "subjectCodes",
    "periods",
  ],
  users: [
    ...BASE,
    "enabledUser",
    "username",
    "userIds",
    "givenName",
    "familyName",
    "middleName",
    "identifier",
    "email",
    "sms",
    "phone",
    "agentSourcedIds",
    "grades",
    "password",
    "userMasterIdentifier",
    "preferredGivenName",
    "preferredMiddleName",
    "preferredFamilyName",
    "primaryOrgSourcedId",
    "pronouns",
  ],
  roles: [
    ...BASE,
    "userSourcedId",
    "roleType",
    "role",
    "beginDate",
    "endDate",
    "orgSourcedId",
    "userProfileSourcedId",
  ],
  demographics: [
    ...BASE,
    "birthDate",
    "sex",
    "americanIndianOrAlaskaNative",
    "asian",
    "blackOrAfricanAmerican",
    "nativeHawaiianOrOtherPacificIslander",
    "white",
    "demographicRaceTwoOrMoreRaces",
    "hispanicOrLatinoEthnicity",
    "countryOfBirthCode",
    "stateOfBirthAbbreviation",
    "cityOfBirth",
    "publicSchoolResidenceStatus",
  ],
  enrollments: [
    ...BASE,
    "classSourcedId",
    "schoolSourcedId",
    "userSourcedId",
    "role",
    "primary",
    "beginDate",
    "endDate",
  ],
};

/** OneRoster 1.1 users.csv columns that 1.2 moved to roles.csv. */
export const USERS_V1P1_COLUMNS = ["orgSourcedIds", "role"] as const;

/** The columns a header must have. users.csv in the 1.1 shape (with `role`) also needs `orgSourcedIds`. */
export const REQUIRED_COLUMNS: Record<StoredFile, readonly string[]> = {
  orgs: ["sourcedId", "name", "type"],
  academicSessions: ["sourcedId", "title", "type", "startDate", "endDate", "schoolYear"],
  courses: ["sourcedId", "title", "orgSourcedId"],
  classes: ["sourcedId", "title", "courseSourcedId", "classType", "schoolSourcedId", "termSourcedIds"],
  users: ["sourcedId", "enabledUser", "givenName", "familyName"],
  roles: ["sourcedId", "userSourcedId", "roleType", "role", "orgSourcedId"],
  demographics: ["sourcedId"],
  enrollments: ["sourcedId", "classSourcedId", "schoolSourcedId", "userSourcedId", "role"],
};

/** Columns of userProfiles.csv: only used to say what a misnamed file seems to hold. */
export const USER_PROFILE_COLUMNS = [
  ...BASE,
  "userSourcedId",
  "profileType",
  "vendorId",
  "applicationId",
  "description",
  "credentialType",
  "username",
  "password",
] as const;

/** Extension columns the standard allows: `metadata.<name>`, kept in the record's metadata. */
export const METADATA_PREFIX = "metadata.";

export const VOCABULARY = {
  status: ["active", "tobedeleted"],
  fileMode: ["bulk", "delta", "absent"],
  orgType: ORG_TYPES,
  sessionType: SESSION_TYPES,
  classType: CLASS_TYPES,
  roleType: ["primary", "secondary"],
  enrollmentRole: ENROLLMENT_ROLES,
  /** 1.1 and 1.2 user roles together: exports of both kinds are read alike. */
  userRole: ["administrator", ...USER_ROLES],
  sex: SEXES,
  grade: GRADES,
} as const satisfies Record<string, readonly string[]>;
export type Vocabulary = keyof typeof VOCABULARY;

/** `ext:` values extend most 1.2 vocabularies. */
export const EXTENSION_VALUE = /^ext:[a-zA-Z0-9.\-_]+$/;

/** The manifest properties of 1.1 and 1.2 besides `file.*`. */
export const MANIFEST_PROPERTIES = [
  "manifest.version",
  "oneroster.version",
  "source.systemName",
  "source.systemCode",
] as const;

/** Edit distance, to suggest the name a misspelt header or file probably meant. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The candidate closest to `name` when it is close enough to be a likely misspelling, else null. */
export function closestName<Name extends string>(name: string, candidates: readonly Name[]): Name | null {
  const lower = name.toLowerCase();
  let best: { candidate: Name; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return null;
  const allowed = Math.max(1, Math.min(3, Math.floor(best.candidate.length / 4)));
  return best.distance <= allowed ? best.candidate : null;
}
