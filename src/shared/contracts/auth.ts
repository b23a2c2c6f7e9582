import { z } from "zod";
import { LANGUAGES } from "../languages";
import { DASH_ROLES } from "../roles";
import { invalid } from "../validation-messages";

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, invalid("emailRequired")).max(320, invalid("emailTooLong")),
  password: z.string().min(1, invalid("passwordRequired")).max(1024, invalid("passwordTooLong")),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const orgRefSchema = z.object({
  sourcedId: z.string(),
  type: z.string(),
  name: z.string(),
});

export const userRoleSchema = z.object({
  role: z.enum(DASH_ROLES),
  roleType: z.enum(["primary", "secondary"]),
  org: orgRefSchema,
});
export type UserRole = z.infer<typeof userRoleSchema>;

/** The signed-in user in the spec's shape. */
export const authUserSchema = z.object({
  sourcedId: z.string(),
  email: z.string().nullable(),
  givenName: z.string(),
  familyName: z.string(),
  roles: z.array(userRoleSchema),
  primaryOrg: z.object({ sourcedId: z.string() }).nullable(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const impersonationInfoSchema = z.object({
  reason: z.string(),
  startedAt: z.string(),
  expiresAt: z.string(),
});

/** What decides the language of the person who signed in, besides their browser. */
export const languageSettingsSchema = z.object({
  /** The language they chose; null follows their browser. */
  own: z.enum(LANGUAGES).nullable(),
  /** Their school's default, for a browser that asks for no language Dash speaks. */
  school: z.enum(LANGUAGES).nullable(),
});
export type LanguageSettings = z.infer<typeof languageSettingsSchema>;

/** `PUT /api/auth/me/language`: null goes back to following the browser. */
export const setLanguageSchema = z.strictObject({ language: z.enum(LANGUAGES).nullable() });

export const meResponseSchema = z.discriminatedUnion("isAuthenticated", [
  z.object({
    isAuthenticated: z.literal(true),
    /** The person who signed in. */
    user: authUserSchema,
    /** Whose view applies while an administrator or Guide views Dash as someone else. */
    impersonatedUser: authUserSchema.optional(),
    impersonation: impersonationInfoSchema.optional(),
    /** The active role: every permission check of the server uses it. */
    selectedRole: z.enum(DASH_ROLES).nullable(),
    availableRoles: z.array(z.enum(DASH_ROLES)),
    /** Of the person who signed in, whomever they view as. */
    language: languageSettingsSchema,
  }),
  z.object({ isAuthenticated: z.literal(false), user: z.null() }),
]);
export type MeResponse = z.infer<typeof meResponseSchema>;

export const demoAccountsResponseSchema = z.object({
  accounts: z.array(z.object({ email: z.string(), name: z.string(), description: z.string() })),
  password: z.string().nullable(),
});
export type DemoAccountsResponse = z.infer<typeof demoAccountsResponseSchema>;

export const startImpersonationSchema = z.object({
  userId: z.string().trim().min(1, invalid("chooseWhomToViewAs")).max(255, invalid("notAUserId")),
  reason: z.string().trim().min(3, invalid("reasonTooShort")).max(500, invalid("reasonTooLong")),
});
export type StartImpersonation = z.infer<typeof startImpersonationSchema>;

/**
 * `start`, `stop` (by the viewer or at sign-out), `expire` (time is up), `revoke` (the viewer lost
 * the relationship that allowed it) and `refuse` (an attempt that was not allowed).
 */
export const impersonationAuditActionSchema = z.enum(["start", "stop", "expire", "revoke", "refuse"]);
export type ImpersonationAuditAction = z.infer<typeof impersonationAuditActionSchema>;

/** The role a person views Dash as someone else in. */
export type ImpersonationViewerRole = "administrator" | "teacher";

export const impersonationAuditEntrySchema = z.object({
  id: z.string(),
  action: impersonationAuditActionSchema,
  actor: z.object({ sourcedId: z.string(), name: z.string() }),
  target: z.object({ sourcedId: z.string(), name: z.string() }),
  reason: z.string().nullable(),
  detail: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
});

export const impersonationAuditResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(impersonationAuditEntrySchema),
  total: z.number(),
});

// New passwords are checked against the password policy on the server, which answers in plain
// words; the schema only bounds the body.
const newPasswordField = z.string().max(1024, invalid("newPasswordTooLong"));

/** `POST /api/auth/password`: a signed-in person changes their own password. */
export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, invalid("enterCurrentPassword")).max(1024, invalid("passwordTooLong")),
  newPassword: newPasswordField,
});
export type ChangePassword = z.infer<typeof changePasswordSchema>;

/** `POST /api/auth/password-reset`: a one-time link's token and the password chosen with it. */
export const passwordResetSchema = z.object({
  token: z.string().trim().min(1, invalid("linkTokenMissing")).max(200, invalid("linkTokenTooLong")),
  newPassword: newPasswordField,
});
export type PasswordReset = z.infer<typeof passwordResetSchema>;

/** The answer to `POST /api/admin/users/:userId/password-reset`: the link, shown once. */
export const passwordResetLinkSchema = z.object({
  /** A path on this Dash (`/reset-password?token=…`); the page puts the origin in front. */
  link: z.string(),
  expiresAt: z.string(),
});
export type PasswordResetLink = z.infer<typeof passwordResetLinkSchema>;

/** `GET /api/auth/session`: when the caller's session began and when it ends. */
export const sessionExpirySchema = z.object({
  signedInAt: z.string(),
  /** The fixed end, however much the session is used. */
  expiresAt: z.string(),
  /** A session unused this long ends earlier. */
  idleMinutes: z.number(),
  /** When it ends if no further request comes. */
  endsWithoutUseAt: z.string(),
});
export type SessionExpiry = z.infer<typeof sessionExpirySchema>;
