import type { HttpBindings } from "@hono/node-server";
import type { AuthUser } from "../../shared/contracts/auth";
import type { DashRole } from "../../shared/roles";
import type { Database, DatabaseKind } from "../db/client";
import type { AppKeys } from "../domains/activity/apps";
import type { AuthService, SignedInSession } from "../domains/auth/service";
import type { Env } from "../env";
import type { EventBus } from "../platform/events/bus";
import type { JobRunner } from "../platform/jobs/runner";
import type { LiveHub } from "../platform/live/hub";
import type { FileStorage } from "../platform/storage";
import type { Logger } from "./logger";
import type { SecretBox } from "./secret-box";

/** What the app is built from: passed in, never imported, so tests can build their own. */
export interface AppDeps {
  db: Database;
  /** For reads that tolerate a second of lag: a replica when configured (see DatabaseHandle). */
  readDb: Database;
  dbKind: DatabaseKind;
  env: Env;
  logger: Logger;
  auth: AuthService;
  /** Messages to every server process: cache invalidations, live updates. */
  bus: EventBus;
  /** The live update streams open in this process (`GET /api/live`). */
  live: LiveHub;
  /** Encrypts the secrets Dash must read back, under DASH_SECRET_KEY. */
  secretBox: SecretBox;
  /** Images, evidence and attachments: a folder under DATA_DIR or an S3-compatible bucket. */
  storage: FileStorage;
  /** The keys learning apps and monitoring agents report with. */
  appKeys: AppKeys;
  /** Queued and scheduled background jobs. */
  jobs: JobRunner;
  /** The folder of the built SPA; without it only the API is served. */
  webRoot?: string;
}

/** The caller of a request: who signed in, whose view applies, and in which role. */
export interface Actor {
  session: SignedInSession;
  /** The person who signed in. */
  realUser: AuthUser;
  /** Whose data and roles apply: the impersonated user while impersonating, else the real user. */
  user: AuthUser;
  availableRoles: DashRole[];
  /** The role every permission check uses. */
  activeRole: DashRole | null;
}

export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    actor: Actor | null;
  };
};
