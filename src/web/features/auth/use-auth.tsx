import { createContext, type ReactNode, useContext } from "react";
import type { AuthState } from "./auth-state";

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ auth, children }: { auth: AuthState; children: ReactNode }) {
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}

/** The signed-in caller; only inside the signed-in area. */
export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error("useAuth is used outside the signed-in area");
  return auth;
}
