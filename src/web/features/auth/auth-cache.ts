/**
 * A small record of who is signed in, kept in localStorage so the app knows at once on load
 * (before the server answers) whether someone was signed in here. It expires after 24 hours.
 */
export const AUTH_CACHE_KEY = "dash-auth";
export const AUTH_CACHE_MAX_AGE_MS = 86_400_000;

export interface AuthCacheRecord {
  onerosterId: string;
  isImpersonated: boolean;
  lastUpdated: number;
}

export function writeAuthCache(record: Omit<AuthCacheRecord, "lastUpdated">, now = Date.now()): void {
  try {
    localStorage.setItem(AUTH_CACHE_KEY, JSON.stringify({ ...record, lastUpdated: now }));
  } catch {
    // Storage can be full or blocked (private mode); the cache is only a hint.
  }
}

export function readAuthCache(now = Date.now()): AuthCacheRecord | null {
  try {
    const record = JSON.parse(localStorage.getItem(AUTH_CACHE_KEY) ?? "null") as AuthCacheRecord | null;
    if (!record || typeof record.onerosterId !== "string" || typeof record.lastUpdated !== "number")
      return null;
    if (now - record.lastUpdated > AUTH_CACHE_MAX_AGE_MS) {
      clearAuthCache();
      return null;
    }
    return record;
  } catch {
    return null;
  }
}

export function clearAuthCache(): void {
  try {
    localStorage.removeItem(AUTH_CACHE_KEY);
  } catch {
    // See writeAuthCache.
  }
}
