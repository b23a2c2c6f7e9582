import { z } from "zod";
import { DASH_ROLES } from "../roles";
import { invalid } from "../validation-messages";

export const viewableUsersQuerySchema = z.object({
  search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  offset: z.coerce.number().int().min(0).default(0),
});

export const personSummarySchema = z.object({
  sourcedId: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  email: z.string().nullable(),
  roles: z.array(z.enum(DASH_ROLES)),
  grades: z.array(z.string()),
});
export type PersonSummary = z.infer<typeof personSummarySchema>;

export const viewableUsersResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(personSummarySchema),
  total: z.number(),
});

/** A Guide's student and the parents and guardians linked to them, each of whom the Guide may view Dash as. */
export const studentWithFamilySchema = personSummarySchema.extend({
  families: z.array(personSummarySchema),
});
export type StudentWithFamily = z.infer<typeof studentWithFamilySchema>;

export const studentsWithFamiliesResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(studentWithFamilySchema),
  total: z.number(),
});

export const childrenResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(personSummarySchema),
  error: z.string().nullable(),
});
