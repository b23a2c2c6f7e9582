/**
 * Roster values as the OneRoster 1.2 vocabularies spell them. Dash keeps values as the source
 * wrote them (`Student`, the 1.1 role `administrator`…); the REST binding answers with the 1.2
 * spelling of a known value and the `ext:` form of anything else, so every answer is valid 1.2.
 */

export const ORG_TYPES = ["department", "district", "local", "national", "school", "state"] as const;
export const SESSION_TYPES = ["gradingPeriod", "semester", "schoolYear", "term"] as const;
export const CLASS_TYPES = ["homeroom", "scheduled"] as const;
export const ENROLLMENT_ROLES = ["administrator", "proctor", "student", "teacher"] as const;
export const SEXES = ["male", "female", "unspecified", "other"] as const;
export const USER_ROLES = [
  "aide",
  "counselor",
  "districtAdministrator",
  "guardian",
  "parent",
  "principal",
  "proctor",
  "relative",
  "siteAdministrator",
  "student",
  "systemAdministrator",
  "teacher",
] as const;

/** `ext:` followed by the value with the characters the standard allows there. */
function extension(value: string): string {
  const name = value.replace(/^ext:/i, "").replace(/[^A-Za-z0-9.\-_]/g, "_");
  return `ext:${name || "unknown"}`;
}

// Each vocabulary by its lower-case spellings, built on first use: values are looked up per record.
const lookups = new WeakMap<readonly string[], Map<string, string>>();

/** The vocabulary's own spelling of a value (compared case-insensitively), else its `ext:` form. */
export function vocabularyValue(value: string, vocabulary: readonly string[]): string {
  let lookup = lookups.get(vocabulary);
  if (!lookup) {
    lookup = new Map(vocabulary.map((entry) => [entry.toLowerCase(), entry]));
    lookups.set(vocabulary, lookup);
  }
  const trimmed = value.trim();
  return lookup.get(trimmed.toLowerCase()) ?? extension(trimmed);
}

/**
 * A user's role in 1.2 terms. OneRoster 1.1's `administrator` became two roles in 1.2: a
 * district administrator when the role is held at a district, else a site administrator.
 */
export function userRoleName(role: string, orgType: string | null): string {
  if (role.trim().toLowerCase() === "administrator") {
    return orgType?.toLowerCase() === "district" ? "districtAdministrator" : "siteAdministrator";
  }
  return vocabularyValue(role, USER_ROLES);
}

/** Only `active` and `tobedeleted` exist in 1.2; 1.1's `inactive` is on its way out too. */
export function recordStatus(status: string): "active" | "tobedeleted" {
  return status.trim().toLowerCase() === "active" ? "active" : "tobedeleted";
}
