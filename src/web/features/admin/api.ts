import { queryOptions } from "@tanstack/react-query";
import { passwordResetLinkSchema } from "../../../shared/contracts/auth";
import {
  guardianSearchResponseSchema,
  type OnboardingRequest,
  onboardingClassesResponseSchema,
  onboardingResponseSchema,
  onboardingSchoolsResponseSchema,
} from "../../../shared/contracts/onboarding";
import {
  type AddRole,
  type CreateSchool,
  guardianLinkRequestsResponseSchema,
  orgClassesResponseSchema,
  orgDetailResponseSchema,
  orgListResponseSchema,
  orgMutationResponseSchema,
  orgPeopleResponseSchema,
  orgSummaryResponseSchema,
  orgTreeResponseSchema,
  type Relationship,
  type RoleAtOrg,
  relationshipsResponseSchema,
  rosterChangesResponseSchema,
  type UpdateOrg,
  userListResponseSchema,
  userResponseSchema,
} from "../../../shared/contracts/people";
import type { DashRole } from "../../../shared/roles";
import { apiFetch } from "../../lib/http";

/** Query keys and fetchers of the roster pages: organisations, roles, parent links, onboarding. */

export const rosterKeys = {
  all: ["roster"] as const,
  orgs: (search: string) => ["roster", "orgs", search] as const,
  org: (orgId: string) => ["roster", "org", orgId] as const,
  orgTree: (orgId: string) => ["roster", "org", orgId, "tree"] as const,
  orgSummary: (orgId: string) => ["roster", "org", orgId, "summary"] as const,
  orgClasses: (orgId: string, search: string, offset: number) =>
    ["roster", "org", orgId, "classes", search, offset] as const,
  orgPeople: (orgId: string, search: string, role: string, offset: number) =>
    ["roster", "org", orgId, "people", search, role, offset] as const,
  users: (search: string, role: string, offset: number) => ["roster", "users", search, role, offset] as const,
  user: (userId: string) => ["roster", "user", userId] as const,
  relationships: (userId: string) => ["roster", "relationships", userId] as const,
  linkRequests: ["roster", "link-requests"] as const,
  changes: (offset: number) => ["roster", "changes", offset] as const,
  onboardingSchools: ["roster", "onboarding", "schools"] as const,
  onboardingClasses: (schoolId: string, grade: string) =>
    ["roster", "onboarding", "classes", schoolId, grade] as const,
  guardians: (search: string) => ["roster", "onboarding", "guardians", search] as const,
};

const withQuery = (path: string, query: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};
const orgPath = (orgId: string, rest = "") => `/api/admin/orgs/${encodeURIComponent(orgId)}${rest}`;
const userPath = (userId: string, rest = "") => `/api/admin/users/${encodeURIComponent(userId)}${rest}`;

// ---------------------------------------------------------------- organisations

export const orgsQuery = (search: string) =>
  queryOptions({
    queryKey: rosterKeys.orgs(search),
    queryFn: ({ signal }) =>
      apiFetch(withQuery("/api/admin/orgs", { search, limit: 500 }), orgListResponseSchema, { signal }),
    staleTime: 30_000,
  });

export const orgQuery = (orgId: string) =>
  queryOptions({
    queryKey: rosterKeys.org(orgId),
    queryFn: ({ signal }) => apiFetch(orgPath(orgId), orgDetailResponseSchema, { signal }),
    staleTime: 30_000,
    retry: false,
  });

export const orgTreeQuery = (orgId: string) =>
  queryOptions({
    queryKey: rosterKeys.orgTree(orgId),
    queryFn: ({ signal }) => apiFetch(orgPath(orgId, "/tree"), orgTreeResponseSchema, { signal }),
    staleTime: 30_000,
    retry: false,
  });

export const orgSummaryQuery = (orgId: string) =>
  queryOptions({
    queryKey: rosterKeys.orgSummary(orgId),
    queryFn: ({ signal }) => apiFetch(orgPath(orgId, "/summary"), orgSummaryResponseSchema, { signal }),
    staleTime: 30_000,
    retry: false,
  });

export const ORG_PAGE_SIZE = 25;

export const orgClassesQuery = (orgId: string, search: string, offset: number) =>
  queryOptions({
    queryKey: rosterKeys.orgClasses(orgId, search, offset),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery(orgPath(orgId, "/classes"), { search, offset, limit: ORG_PAGE_SIZE }),
        orgClassesResponseSchema,
        { signal },
      ),
    staleTime: 30_000,
  });

export const orgPeopleQuery = (orgId: string, search: string, role: DashRole | "", offset: number) =>
  queryOptions({
    queryKey: rosterKeys.orgPeople(orgId, search, role, offset),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery(orgPath(orgId, "/people"), { search, role, offset, limit: ORG_PAGE_SIZE }),
        orgPeopleResponseSchema,
        { signal },
      ),
    staleTime: 30_000,
  });

export function updateOrg(orgId: string, changes: UpdateOrg) {
  return apiFetch(orgPath(orgId), orgMutationResponseSchema, { method: "PATCH", body: changes });
}

export function createSchool(input: CreateSchool) {
  return apiFetch("/api/admin/orgs", orgMutationResponseSchema, { body: input });
}

// ---------------------------------------------------------------- people, roles, parent links

export const USER_PAGE_SIZE = 10;

/** People found by name or email, narrowed to some roles ("parent,guardian"). */
export const usersQuery = (search: string, role: string, offset: number) =>
  queryOptions({
    queryKey: rosterKeys.users(search, role, offset),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery("/api/admin/users", { search, role, offset, limit: USER_PAGE_SIZE }),
        userListResponseSchema,
        {
          signal,
        },
      ),
    staleTime: 15_000,
  });

export const userQuery = (userId: string) =>
  queryOptions({
    queryKey: rosterKeys.user(userId),
    queryFn: ({ signal }) => apiFetch(userPath(userId), userResponseSchema, { signal }),
  });

export function addRole(userId: string, input: AddRole) {
  return apiFetch(userPath(userId, "/roles"), userResponseSchema, { body: input });
}

export function removeRole(userId: string, input: RoleAtOrg) {
  return apiFetch(withQuery(userPath(userId, "/roles"), input), userResponseSchema, { method: "DELETE" });
}

export function issuePasswordResetLink(userId: string) {
  return apiFetch(userPath(userId, "/password-reset"), passwordResetLinkSchema, { method: "POST" });
}

export function makeRolePrimary(userId: string, input: RoleAtOrg) {
  return apiFetch(userPath(userId, "/primary-role"), userResponseSchema, { method: "PUT", body: input });
}

export const relationshipsQuery = (userId: string) =>
  queryOptions({
    queryKey: rosterKeys.relationships(userId),
    queryFn: ({ signal }) =>
      apiFetch(userPath(userId, "/relationships"), relationshipsResponseSchema, { signal }),
  });

export function linkAgent(input: Relationship) {
  return apiFetch("/api/admin/relationships", relationshipsResponseSchema, { body: input });
}

export function unlinkAgent(input: Relationship) {
  return apiFetch(withQuery("/api/admin/relationships", input), relationshipsResponseSchema, {
    method: "DELETE",
  });
}

export const guardianLinkRequestsQuery = queryOptions({
  queryKey: rosterKeys.linkRequests,
  queryFn: ({ signal }) =>
    apiFetch("/api/admin/guardian-link-requests", guardianLinkRequestsResponseSchema, { signal }),
});

export function decideGuardianLinkRequest(requestId: string, decision: "approve" | "refuse") {
  return apiFetch(
    `/api/admin/guardian-link-requests/${encodeURIComponent(requestId)}`,
    guardianLinkRequestsResponseSchema,
    { body: { decision } },
  );
}

export const CHANGES_PAGE_SIZE = 10;

export const rosterChangesQuery = (offset: number) =>
  queryOptions({
    queryKey: rosterKeys.changes(offset),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery("/api/admin/roster-changes", { offset, limit: CHANGES_PAGE_SIZE }),
        rosterChangesResponseSchema,
        { signal },
      ),
  });

// ---------------------------------------------------------------- onboarding

export const onboardingSchoolsQuery = queryOptions({
  queryKey: rosterKeys.onboardingSchools,
  queryFn: ({ signal }) =>
    apiFetch("/api/admin/onboarding/schools", onboardingSchoolsResponseSchema, { signal }),
  staleTime: 60_000,
});

export const onboardingClassesQuery = (schoolSourcedId: string, grade: string) =>
  queryOptions({
    queryKey: rosterKeys.onboardingClasses(schoolSourcedId, grade),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery("/api/admin/onboarding/classes", { schoolSourcedId, grade }),
        onboardingClassesResponseSchema,
        { signal },
      ),
    staleTime: 30_000,
  });

export const guardianSearchQuery = (search: string) =>
  queryOptions({
    queryKey: rosterKeys.guardians(search),
    queryFn: ({ signal }) =>
      apiFetch(
        withQuery("/api/admin/onboarding/guardians", { search, limit: 10 }),
        guardianSearchResponseSchema,
        {
          signal,
        },
      ),
    staleTime: 15_000,
  });

export function submitOnboarding(input: OnboardingRequest) {
  return apiFetch("/api/admin/onboarding", onboardingResponseSchema, { body: input });
}
