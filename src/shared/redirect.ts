/** Paths reachable without a session: sign-in, choosing a password with a link, the stand-alone QTI embeds. */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === "/login" ||
    pathname === "/reset-password" ||
    pathname.startsWith("/api/") ||
    /^\/qti-(stimulus-)?embed(\/|$)/.test(pathname)
  );
}

/**
 * The path to return to after sign-in, or null when `target` is not a same-origin path.
 * Refuses absolute URLs, protocol-relative `//host` and `/\host` forms, and the login page itself.
 */
export function safeRedirectPath(target: string | null | undefined): string | null {
  if (!target?.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return null;
  // Browsers drop tabs and newlines inside URLs, which would turn "/\t/evil.example" into "//evil.example".
  if ([...target].some((char) => char.charCodeAt(0) < 0x20)) return null;
  const base = "http://dash.invalid";
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return null;
  }
  if (url.origin !== base || url.pathname === "/login") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in URL that brings the user back to `pathWithSearch`, keeping `schoolId` and `role`. */
export function loginUrlFor(pathWithSearch: string): string {
  const original = new URL(pathWithSearch, "http://dash.invalid");
  const params = new URLSearchParams();
  const back = safeRedirectPath(pathWithSearch);
  if (back && back !== "/" && back !== "/app") params.set("redirect", back);
  for (const key of ["schoolId", "role"]) {
    const value = original.searchParams.get(key);
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return query ? `/login?${query}` : "/login";
}
