import { z } from "zod";
import { DASH_ROLES } from "../roles";

export const loginRequestSchema = z.object({
  email: z.string().trim().min(1, "Email is required").max(320, "Email is too long"),
  password: z.string().min(1, "Password is required").max(1024, "Password is too long"),
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

export const meResponseSchema = z.discriminatedUnion("isAuthenticated", [
  z.object({
    isAuthenticated: z.literal(true),
    user: authUserSchema,
    impersonatedUser: authUserSchema.optional(),
  }),
  z.object({ isAuthenticated: z.literal(false), user: z.null() }),
]);
export type MeResponse = z.infer<typeof meResponseSchema>;

export const demoAccountsResponseSchema = z.object({
  accounts: z.array(z.object({ email: z.string(), name: z.string(), description: z.string() })),
  password: z.string().nullable(),
});
export type DemoAccountsResponse = z.infer<typeof demoAccountsResponseSchema>;
