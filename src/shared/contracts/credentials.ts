import { z } from "zod";
import { invalid } from "../validation-messages";
import { pageFields } from "./fields";

/**
 * Students' sign-ins to their learning apps, kept by the school. The password is stored encrypted
 * and only one answer ever carries it: the decrypt of one credential, which is audited.
 */

const id = (required: Parameters<typeof invalid>[0], tooLong: Parameters<typeof invalid>[0]) =>
  z
    .string({ message: invalid(required) })
    .trim()
    .min(1, invalid(required))
    .max(200, invalid(tooLong));

export const APP_LOGIN_USERNAME_MAX = 200;
export const APP_LOGIN_PASSWORD_MAX = 500;

export const appLoginUsername = z
  .string({ message: invalid("appLoginUsernameRequired") })
  .trim()
  .min(1, invalid("appLoginUsernameRequired"))
  .max(APP_LOGIN_USERNAME_MAX, invalid("appLoginUsernameTooLong"));

/** Kept as typed: a password's spaces may matter. */
export const appLoginPassword = z
  .string({ message: invalid("appLoginPasswordRequired") })
  .min(1, invalid("appLoginPasswordRequired"))
  .max(APP_LOGIN_PASSWORD_MAX, invalid("appLoginPasswordTooLong"));

/** `POST /api/admin/app-credentials`: a student's login to one app, added or replaced. */
export const appCredentialInputSchema = z.object({
  studentId: id("studentIdRequired", "userIdTooLong"),
  appId: z.uuid({ message: invalid("chooseLearningApp") }),
  username: appLoginUsername,
  password: appLoginPassword,
});
export type AppCredentialInput = z.infer<typeof appCredentialInputSchema>;

const optionalId = z.string().trim().min(1).max(200, invalid("userIdTooLong")).optional();

/** `GET /api/admin/app-credentials`: filters, and a page of at most 200. */
export const appCredentialListQuerySchema = z.object({
  studentId: optionalId,
  appId: z.uuid({ message: invalid("chooseLearningApp") }).optional(),
  classId: optionalId,
  schoolId: optionalId,
  search: z.string().trim().max(200, invalid("searchTooLong")).optional(),
  ...pageFields(50),
});
export type AppCredentialListQuery = z.output<typeof appCredentialListQuerySchema>;

const person = z.object({ id: z.string(), name: z.string() });
const app = z.object({ id: z.string(), name: z.string() });

/** A credential as lists show it: never its password. */
export const appCredentialSchema = z.object({
  id: z.string(),
  student: person,
  app,
  username: z.string(),
  /** Who last set it (added or changed) and when. */
  changedBy: person.nullable(),
  changedAt: z.string(),
});
export type AppCredential = z.infer<typeof appCredentialSchema>;

export const appCredentialListSchema = z.object({
  credentials: z.array(appCredentialSchema),
  total: z.number().int(),
});
export type AppCredentialList = z.infer<typeof appCredentialListSchema>;

export const appCredentialSavedSchema = z.object({
  credential: appCredentialSchema,
  /** False when a login the student had for the app was replaced. */
  created: z.boolean(),
});

/** `GET /api/app-credentials/mine`: a student's own logins, to launch their apps. */
export const myAppCredentialsSchema = z.object({
  credentials: z.array(
    z.object({
      id: z.string(),
      app: app.extend({ launchUrl: z.string().nullable() }),
      username: z.string(),
    }),
  ),
});
export type MyAppCredentials = z.infer<typeof myAppCredentialsSchema>;

/** `POST /api/app-credentials/:id/decrypt`: the one answer that carries a password. */
export const decryptedCredentialSchema = z.object({
  id: z.string(),
  username: z.string(),
  password: z.string(),
});
export type DecryptedCredential = z.infer<typeof decryptedCredentialSchema>;

/** `GET /api/admin/app-credentials/decrypts`: the audit, newest first. */
export const credentialDecryptsQuerySchema = z.object({
  studentId: optionalId,
  appId: z.uuid({ message: invalid("chooseLearningApp") }).optional(),
  ...pageFields(50),
});
export type CredentialDecryptsQuery = z.output<typeof credentialDecryptsQuerySchema>;

export const credentialDecryptSchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Who saw the password, and in which role. */
  by: person,
  role: z.string(),
  student: person,
  app,
});
export type CredentialDecrypt = z.infer<typeof credentialDecryptSchema>;

export const credentialDecryptListSchema = z.object({
  decrypts: z.array(credentialDecryptSchema),
  total: z.number().int(),
});

/** How a login changed: saved from the tab (added, or replacing one), removed, or saved by a CSV import. */
export const CREDENTIAL_CHANGE_ACTIONS = ["added", "changed", "removed", "imported"] as const;
export type CredentialChangeAction = (typeof CREDENTIAL_CHANGE_ACTIONS)[number];

/** `GET /api/admin/app-credentials/changes`: the history of students' logins, newest first. */
export const credentialChangesQuerySchema = z.object({
  studentId: optionalId,
  ...pageFields(50),
});
export type CredentialChangesQuery = z.output<typeof credentialChangesQuerySchema>;

/** One change: who made it, to which student's login of which app, and when; never a username or password. */
export const credentialChangeSchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.enum(CREDENTIAL_CHANGE_ACTIONS),
  by: person,
  student: person,
  app,
});
export type CredentialChange = z.infer<typeof credentialChangeSchema>;

export const credentialChangeListSchema = z.object({
  changes: z.array(credentialChangeSchema),
  total: z.number().int(),
});
export type CredentialChangeList = z.infer<typeof credentialChangeListSchema>;

/** The columns of a credentials CSV, by header name (case and spaces do not matter). */
export const CREDENTIAL_CSV_COLUMNS = ["student", "app", "username", "password"] as const;

/** `POST /api/admin/app-credentials/import`: all rows are saved, or none and the problems are listed. */
export const credentialImportReportSchema = z.object({
  applied: z.boolean(),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type CredentialImportReport = z.infer<typeof credentialImportReportSchema>;
