import { Hono } from "hono";
import type { AppEnv } from "../../lib/context";
import { revalidateEachTime } from "../../lib/revalidate";
import { apiDocument } from "./document";

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 description of the API for integrators. Public: it
 * holds no one's data, and a system being set up has no session. The same for everyone, so the
 * browser keeps it and revalidates it by its ETag.
 */
export function apiDocsRoutes() {
  return new Hono<AppEnv>().get("/openapi.json", revalidateEachTime, (c) => c.json(apiDocument()));
}
