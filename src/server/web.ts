import { readFileSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { isEmbedPath, isPublicPath, loginUrlFor } from "../shared/redirect";
import type { AppEnv } from "./lib/context";
import { contentSecurityPolicy } from "./lib/security-headers";

const EMBED_POLICY = contentSecurityPolicy({ frameAncestors: "*" });

/**
 * Serves the built single-page app: files by their path, every other page as index.html.
 * Pages need a session, except the public ones; a visitor without one goes to the sign-in page
 * with the way back in `redirect`.
 */
export function webRoutes(webRoot: string) {
  const indexHtml = readFileSync(path.join(webRoot, "index.html"), "utf8");
  const assets = serveStatic<AppEnv>({
    root: webRoot,
    // The build writes .br and .gz beside its text files; they go out as they are.
    precompressed: true,
    onFound: (file, c) => {
      // Vite puts a content hash in every file name under assets/, so they never change.
      if (file.includes(`${path.sep}assets${path.sep}`))
        c.header("Cache-Control", "public, max-age=31536000, immutable");
    },
  });

  return new Hono<AppEnv>()
    .get("/", (c) => c.redirect(c.get("actor") ? "/app" : "/login", 302))
    .get("*", async (c, next) => {
      // A last path segment with a dot names a file; everything else is a page of the app. An
      // embed's last segment is a QTI identifier, which may hold a dot.
      if (!/\.[a-z0-9]+$/i.test(c.req.path) || isEmbedPath(c.req.path)) return next();
      const served = await assets(c, async () => {});
      if (!served) return c.text("Not Found", 404);
      // Vite puts a content hash in every file name under assets/, so they never change.
      if (c.req.path.startsWith("/assets/"))
        served.headers.set("Cache-Control", "public, max-age=31536000, immutable");
      return served;
    })
    .get("*", (c) => {
      const url = new URL(c.req.url);
      if (!c.get("actor") && !isPublicPath(url.pathname)) {
        return c.redirect(loginUrlFor(`${url.pathname}${url.search}`), 302);
      }
      c.header("Cache-Control", "no-store");
      // The address of this page carries a one-time token: no request from it may pass it on.
      if (url.pathname === "/reset-password") c.header("Referrer-Policy", "no-referrer");
      // The QTI embeds are made for other sites' iframes; every other page refuses to be framed.
      if (isEmbedPath(url.pathname)) c.header("Content-Security-Policy", EMBED_POLICY);
      return c.html(indexHtml);
    });
}
