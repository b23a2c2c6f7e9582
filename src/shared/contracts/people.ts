import { z } from "zod";
import { LANGUAGES } from "../languages";
import { DASH_ROLES } from "../roles";
import { invalid, type ValidationMessage } from "../validation-messages";
import { orgRefSchema } from "./auth";
import { changesOf } from "./fields";
import { personSummarySchema } from "./rostering";

/**
 * Organisations, people's roles, parent and guardian links and the log of roster changes: the
 * administrators' and Guides' roster pages.
 */

const dashRole = z.enum(DASH_ROLES, { message: invalid("dashRoleOneOf") });
const id = (required: ValidationMessage) => z.string().trim().min(1, required).max(200);

/**
 * The query of every list: paging, a whitelisted sort, a search text and a OneRoster filter.
 * `sortMessage` lists the sorts (`sort is one of …`).
 */
export function listQuerySchema<const Sorts extends readonly [string, ...string[]]>(
  sorts: Sorts,
  defaultSort: Sorts[number],
  sortMessage: ValidationMessage,
  defaultLimit = 50,
) {
  return z.object({
    offset: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(500, invalid("limitAbove500")).default(defaultLimit),
    sort: z.enum(sorts, { message: sortMessage }).default(defaultSort),
    orderBy: z.enum(["asc", "desc"], { message: invalid("orderByAscOrDesc") }).default("asc"),
    search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
    filter: z.string().trim().max(2000, invalid("filterTooLong")).optional(),
  });
}

/** A list answer in the shape every Dash list uses. */
function listResponse<Item extends z.ZodType>(item: Item) {
  return z.object({ success: z.literal(true), data: z.array(item), total: z.number(), error: z.null() });
}

// ---------------------------------------------------------------- organisations

export type OrgRef = z.infer<typeof orgRefSchema>;

export const orgCountsSchema = z.object({
  students: z.number(),
  guides: z.number(),
  classes: z.number(),
  schools: z.number(),
});
export type OrgCounts = z.infer<typeof orgCountsSchema>;

export const orgSchema = z.object({
  sourcedId: z.string(),
  name: z.string(),
  type: z.string(),
  identifier: z.string().nullable(),
  /** The language its people see Dash in unless they or their browser choose one; null: the district's. */
  defaultLanguage: z.enum(LANGUAGES).nullable(),
  status: z.string(),
  dateLastModified: z.string(),
  parent: orgRefSchema.nullable(),
  /** People and classes of the organisation and everything under it. */
  counts: orgCountsSchema,
});
export type Org = z.infer<typeof orgSchema>;

export const ORG_SORTS = ["name", "type", "identifier", "dateLastModified"] as const;
export const orgListQuerySchema = listQuerySchema(ORG_SORTS, "name", invalid("orgSortOneOf"), 100);
export const orgListResponseSchema = listResponse(orgSchema).extend({
  /** Whether the caller may edit organisations and add schools (administrators). */
  canEdit: z.boolean(),
});

export const orgDetailResponseSchema = z.object({
  success: z.literal(true),
  data: orgSchema.extend({
    /** From the top of the hierarchy down to the parent. */
    ancestors: z.array(orgRefSchema),
    children: z.array(orgSchema),
  }),
  canEdit: z.boolean(),
});
export type OrgDetail = z.infer<typeof orgDetailResponseSchema>["data"];

const orgName = z.string().trim().min(2, invalid("orgNameTooShort")).max(200, invalid("orgNameTooLong"));
const orgIdentifier = z
  .string()
  .trim()
  .max(100, invalid("identifierTooLong"))
  .regex(/^[\w .\-/]*$/, invalid("identifierCharacters"))
  .transform((value) => value || null);

export const updateOrgSchema = changesOf({
  name: orgName,
  identifier: orgIdentifier.nullable(),
  defaultLanguage: z.enum(LANGUAGES).nullable(),
});
export type UpdateOrg = z.input<typeof updateOrgSchema>;

export const createSchoolSchema = z.object({
  parentSourcedId: id(invalid("parentSourcedIdRequired")),
  name: orgName,
  identifier: orgIdentifier.nullable().default(null),
});
export type CreateSchool = z.input<typeof createSchoolSchema>;

export const orgMutationResponseSchema = z.object({ success: z.literal(true), data: orgSchema });

export interface OrgTreeNode {
  kind: "org" | "class";
  sourcedId: string;
  name: string;
  /** The org's type (district, school…) or, for a class, "class". */
  type: string;
  identifier: string | null;
  counts: { students: number; guides: number; classes: number };
  children: OrgTreeNode[];
}
export const orgTreeNodeSchema: z.ZodType<OrgTreeNode> = z.lazy(() =>
  z.object({
    kind: z.enum(["org", "class"]),
    sourcedId: z.string(),
    name: z.string(),
    type: z.string(),
    identifier: z.string().nullable(),
    counts: z.object({ students: z.number(), guides: z.number(), classes: z.number() }),
    children: z.array(orgTreeNodeSchema),
  }),
);
export const orgTreeResponseSchema = z.object({ success: z.literal(true), data: orgTreeNodeSchema });

export const orgSummaryResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    org: orgRefSchema,
    totals: orgCountsSchema.extend({ families: z.number() }),
    /** Students per grade, in the order of the grades (K before 1); "" is a student with no grade. */
    studentsPerGrade: z.array(z.object({ grade: z.string(), students: z.number() })),
  }),
});
export type OrgSummary = z.infer<typeof orgSummaryResponseSchema>["data"];

export const orgClassSchema = z.object({
  sourcedId: z.string(),
  title: z.string(),
  classCode: z.string().nullable(),
  school: orgRefSchema.pick({ sourcedId: true, name: true }),
  grades: z.array(z.string()),
  subjects: z.array(z.string()),
  guides: z.array(z.object({ sourcedId: z.string(), name: z.string() })),
  students: z.number(),
});
export type OrgClass = z.infer<typeof orgClassSchema>;
export const CLASS_SORTS = ["title", "classCode", "students"] as const;
export const orgClassesQuerySchema = listQuerySchema(CLASS_SORTS, "title", invalid("classSortOneOf"));
export const orgClassesResponseSchema = listResponse(orgClassSchema);

export const PEOPLE_SORTS = ["familyName", "givenName", "email"] as const;
export const orgPeopleQuerySchema = listQuerySchema(
  PEOPLE_SORTS,
  "familyName",
  invalid("peopleSortOneOf"),
).extend({
  role: dashRole.optional(),
});
export const orgPeopleResponseSchema = listResponse(personSummarySchema);

// ---------------------------------------------------------------- people and their roles

export const userRoleEntrySchema = z.object({
  /** The Dash role it grants, or null for a roster role that grants nothing in Dash (aide…). */
  role: dashRole.nullable(),
  /** The role as the roster holds it (OneRoster 1.1 or 1.2 name). */
  rosterRole: z.string(),
  roleType: z.enum(["primary", "secondary"]),
  org: orgRefSchema,
  beginDate: z.string().nullable(),
  endDate: z.string().nullable(),
});
export type UserRoleEntry = z.infer<typeof userRoleEntrySchema>;

export const managedUserSchema = z.object({
  sourcedId: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  preferredFirstName: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  status: z.string(),
  grades: z.array(z.string()),
  primaryOrg: orgRefSchema.nullable(),
  roles: z.array(userRoleEntrySchema),
  dateLastModified: z.string(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;

export const USER_SORTS = ["familyName", "givenName", "email", "dateLastModified"] as const;
export const userListQuerySchema = listQuerySchema(
  USER_SORTS,
  "familyName",
  invalid("userSortOneOf"),
  25,
).extend({
  /** Only people holding one of these Dash roles: one role or a comma list (parent,guardian). */
  role: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.split(",").map((part) => part.trim()) : []))
    .pipe(z.array(dashRole)),
});
export const userListResponseSchema = listResponse(managedUserSchema);
export const userResponseSchema = z.object({ success: z.literal(true), data: managedUserSchema });

export const addRoleSchema = z.object({
  role: dashRole,
  orgSourcedId: id(invalid("orgSourcedIdRequired")),
  /** Make it the person's primary role (their primary organisation follows). */
  isPrimary: z.boolean().default(false),
});
export type AddRole = z.input<typeof addRoleSchema>;

export const roleAtOrgSchema = z.object({
  role: dashRole,
  orgSourcedId: id(invalid("orgSourcedIdRequired")),
});
export type RoleAtOrg = z.infer<typeof roleAtOrgSchema>;

// ---------------------------------------------------------------- parents and guardians

export const relationshipsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    person: managedUserSchema,
    /** The person's parents and guardians. */
    agents: z.array(personSummarySchema),
    /** The students the person is a parent or guardian of. */
    children: z.array(personSummarySchema),
  }),
});
export type Relationships = z.infer<typeof relationshipsResponseSchema>["data"];

export const relationshipSchema = z.object({
  studentSourcedId: id(invalid("studentSourcedIdRequired")),
  agentSourcedId: id(invalid("agentSourcedIdRequired")),
});
export type Relationship = z.infer<typeof relationshipSchema>;

const namedRef = z.object({ sourcedId: z.string(), name: z.string() });

/** A Guide's request, made when onboarding, to link an existing parent or guardian to a student. */
export const guardianLinkRequestSchema = z.object({
  id: z.string(),
  student: namedRef,
  agent: namedRef,
  requestedBy: namedRef,
  requestedAt: z.string(),
});
export type GuardianLinkRequest = z.infer<typeof guardianLinkRequestSchema>;

export const guardianLinkRequestsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(guardianLinkRequestSchema),
});

export const guardianLinkDecisionSchema = z.object({ decision: z.enum(["approve", "refuse"]) });
export const guardianLinkRequestParamsSchema = z.object({
  requestId: z.uuid(invalid("notALinkRequestId")),
});

// ---------------------------------------------------------------- the log of changes

export const ROSTER_CHANGE_ACTIONS = [
  "role.add",
  "role.remove",
  "role.primary",
  "agent.link",
  "agent.unlink",
  "org.update",
  "org.create",
  "onboarding",
  // Account actions are logged here too, so administrators read them beside the roster's.
  "password.reset_link",
  "password.reset",
  "password.change",
] as const;
export type RosterChangeAction = (typeof ROSTER_CHANGE_ACTIONS)[number];

export const rosterChangeSchema = z.object({
  id: z.string(),
  action: z.enum(ROSTER_CHANGE_ACTIONS),
  actor: z.object({ sourcedId: z.string(), name: z.string() }),
  target: z.object({ sourcedId: z.string(), name: z.string() }).nullable(),
  summary: z.string(),
  createdAt: z.string(),
});
export type RosterChange = z.infer<typeof rosterChangeSchema>;
export const rosterChangesQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  userId: z.string().trim().min(1).max(200).optional(),
});
export const rosterChangesResponseSchema = listResponse(rosterChangeSchema);
