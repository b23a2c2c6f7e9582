/** The stand-alone QTI pages (/qti-embed…, /qti-stimulus-embed…): public, and the only ones other sites may frame. */
export function isEmbedPath(pathname: string): boolean {
  return /^\/qti-(stimulus-)?embed(\/|$)/.test(pathname);
}

/** Paths reachable without a session: sign-in, choosing a password with a link, the stand-alone QTI embeds. */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === "/login" ||
    pathname === "/reset-password" ||
    pathname.startsWith("/api/") ||
    isEmbedPath(pathname)
  );
}

/** Decodes percent-escapes once, or null when they are malformed. */
function decodeOnce(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

// Two slashes or backslashes in a row at the start make a URL that names another host.
const HOST_PREFIX = /^[/\\]{2}/;

/**
 * The path to return to after sign-in, or null when `target` is not a same-origin path.
 * Refuses absolute URLs, protocol-relative `//host` and `/\host` forms however they are dressed
 * up (dot segments `/.//host`, escapes `/%2F%2Fhost`, tabs and newlines browsers drop), and the
 * login page itself. What it answers is checked again after parsing, so it is never such a form.
 */
export function safeRedirectPath(target: string | null | undefined): string | null {
  if (!target?.startsWith("/")) return null;
  const decoded = decodeOnce(target);
  if (decoded === null) return null;
  let url: URL | null = null;
  // The target as given and as a router that decodes it would read it must both stay on this origin.
  for (const form of [decoded, target]) {
    url = sameOriginUrl(form);
    if (!url) return null;
  }
  if (!url || url.pathname === "/login") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

const BASE = "http://dash.invalid";

/** `path` parsed against this origin, or null when it could lead anywhere else. */
function sameOriginUrl(path: string): URL | null {
  // Browsers drop tabs and newlines inside URLs, which would turn "/\t/evil.example" into "//evil.example".
  const hasControl = [...path].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
  if (hasControl || path.includes("\\") || HOST_PREFIX.test(path)) return null;
  let url: URL;
  try {
    url = new URL(path, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || HOST_PREFIX.test(url.pathname)) return null;
  return url;
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
