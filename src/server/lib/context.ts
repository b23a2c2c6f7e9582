import type { HttpBindings } from "@hono/node-server";
import type { Database, DatabaseKind } from "../db/client";
import type { AuthService, SignedInSession } from "../domains/auth/service";
import type { Env } from "../env";
import type { Logger } from "./logger";

/** What the app is built from: passed in, never imported, so tests can build their own. */
export interface AppDeps {
  db: Database;
  dbKind: DatabaseKind;
  env: Env;
  logger: Logger;
  auth: AuthService;
  /** The folder of the built SPA; without it only the API is served. */
  webRoot?: string;
}

export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    session: SignedInSession | null;
  };
};
