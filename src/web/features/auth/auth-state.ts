import type { AuthUser, MeResponse } from "../../../shared/contracts/auth";
import type { PublicConfig } from "../../../shared/contracts/config";
import type { DashRole } from "../../../shared/roles";
import type { AccessSubject } from "../../../shared/routes";

type SignedInMe = Extract<MeResponse, { isAuthenticated: true }>;

/** What the pages need to know about the caller, derived from `me` (the server decides the role). */
export interface AuthState {
  /** The person who signed in. */
  realUser: AuthUser;
  /** Whose view applies: the impersonated user while impersonating. */
  user: AuthUser;
  isImpersonating: boolean;
  impersonation: SignedInMe["impersonation"];
  activeRole: DashRole | null;
  availableRoles: DashRole[];
  config: PublicConfig;
}

export function toAuthState(me: SignedInMe, config: PublicConfig): AuthState {
  return {
    realUser: me.user,
    user: me.impersonatedUser ?? me.user,
    isImpersonating: Boolean(me.impersonatedUser),
    impersonation: me.impersonation,
    activeRole: me.selectedRole,
    availableRoles: me.availableRoles,
    config,
  };
}

export function accessSubjectOf(auth: AuthState): AccessSubject {
  return {
    activeRole: auth.activeRole,
    primaryOrgId: auth.user.primaryOrg?.sourcedId ?? null,
    classLeaderboardOrgId: auth.config.classLeaderboardOrgId,
  };
}

export function fullName(user: Pick<AuthUser, "givenName" | "familyName">): string {
  return `${user.givenName} ${user.familyName}`.trim();
}
