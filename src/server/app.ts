import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ONEROSTER_BASE_PATH } from "../shared/contracts/api-clients";
import type { Health, PublicConfig } from "../shared/contracts/config";
import { pingDatabase } from "./db/client";
import { flowRoutes } from "./domains/activity/flow-routes";
import { activityRoutes, ingestRoutes } from "./domains/activity/routes";
import { analyticsAdminRoutes, analyticsCollectorRoutes } from "./domains/analytics/routes";
import { apiDocsRoutes } from "./domains/api-docs/routes";
import { PLACEMENT_UPLOAD_PATHS } from "./domains/assessment/placement-routes";
import { assessmentRoutes, MAP_IMPORT_PATH } from "./domains/assessment/routes";
import { athleticsRoutes } from "./domains/athletics/routes";
import { authRoutes, passwordAdminRoutes } from "./domains/auth/routes";
import { clockRoutes } from "./domains/clock/routes";
import {
  QTI_IMPORT_BODY_TYPES,
  QTI_IMPORT_PATHS,
  qtiPublicRoutes,
  qtiRoutes,
} from "./domains/content/qti-routes";
import { contentRoutes } from "./domains/content/routes";
import {
  CREDENTIAL_IMPORT_PATH,
  credentialAdminRoutes,
  credentialRoutes,
} from "./domains/credentials/routes";
import { familiesRoutes } from "./domains/families/routes";
import { goalsRoutes } from "./domains/goals/routes";
import { refuseLockedStudents } from "./domains/integrity/lockout";
import { INCIDENT_INTAKE_PATH, integrityIntakeRoutes, integrityRoutes } from "./domains/integrity/routes";
import { leaderboardsRoutes } from "./domains/leaderboards/routes";
import { MESSAGE_SEND_PATH, messagingRoutes } from "./domains/messaging/routes";
import { notificationsRoutes } from "./domains/notifications/routes";
import { apiClientRoutes, oauthRoutes } from "./domains/oauth/routes";
import { privacyAdminRoutes, privacyFamilyRoutes } from "./domains/privacy/routes";
import { reportsRoutes } from "./domains/reports/routes";
import { rewardsRoutes } from "./domains/rewards/routes";
import { rosterAdminRoutes } from "./domains/rostering/admin-routes";
import { ROSTER_IMPORT_PATH, rosterBulkRoutes } from "./domains/rostering/bulk/routes";
import { courseRoutes } from "./domains/rostering/course-routes";
import { oneRosterRoutes } from "./domains/rostering/oneroster/routes";
import { rosteringRoutes } from "./domains/rostering/routes";
import { surveysRoutes } from "./domains/surveys/routes";
import { toursRoutes } from "./domains/tours/routes";
import { webhookRoutes } from "./domains/webhooks/routes";
import { loadSession, requireSession } from "./lib/auth";
import { limitBody } from "./lib/body-limit";
import { compressJson } from "./lib/compress-json";
import type { AppDeps, AppEnv } from "./lib/context";
import { AppError } from "./lib/errors";
import { languageOfRequest, message, translate } from "./lib/i18n";
import { guardStateChangingRequests } from "./lib/request-guard";
import { requestLog } from "./lib/request-log";
import { securityHeaders } from "./lib/security-headers";
import { rejectUnstorableUrlText, requestLanguage } from "./lib/validation";
import { emailPublicRoutes, UNSUBSCRIBE_BODY_TYPES, UNSUBSCRIBE_PATH } from "./platform/email/routes";
import { jobAdminRoutes } from "./platform/jobs/routes";
import { liveRoutes } from "./platform/live/routes";
import { httpMetrics, metricsHandler } from "./platform/metrics/http";
import { webRoutes } from "./web";

const MAX_BODY_BYTES = 1024 * 1024;
/** Learning apps post under here with their key: no session, no cookie. */
const INGEST_PATHS = "/api/ingest/";
/** Paths whose uploads are measured by their own, larger limits. */
/** The paths whose state-changing requests send another body than JSON, and which type. */
export const UPLOAD_BODY_TYPES: Record<string, readonly string[]> = {
  [ROSTER_IMPORT_PATH]: ["application/zip"],
  [MAP_IMPORT_PATH]: ["multipart/form-data"],
  [CREDENTIAL_IMPORT_PATH]: ["multipart/form-data"],
  ...Object.fromEntries(PLACEMENT_UPLOAD_PATHS.map((path) => [path, ["multipart/form-data"]])),
  ...Object.fromEntries(QTI_IMPORT_PATHS.map((path) => [path, QTI_IMPORT_BODY_TYPES])),
  [UNSUBSCRIBE_PATH]: UNSUBSCRIBE_BODY_TYPES,
};
const OWN_BODY_LIMITS = new Set([
  ROSTER_IMPORT_PATH,
  INCIDENT_INTAKE_PATH,
  MAP_IMPORT_PATH,
  CREDENTIAL_IMPORT_PATH,
  MESSAGE_SEND_PATH,
  ...QTI_IMPORT_PATHS,
]);

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requestLog(deps.logger));
  app.use("*", httpMetrics());
  app.use(
    "*",
    securityHeaders({ trustProxy: deps.env.TRUST_PROXY, uncacheablePrefixes: [ONEROSTER_BASE_PATH] }),
  );
  // JSON answers only: the built files come precompressed, and the roster import's progress
  // lines (x-ndjson) must reach the browser as they are written, not when a gzip block fills.
  app.use("*", compressJson());
  app.use("*", rejectUnstorableUrlText);
  app.use(
    "/api/*",
    guardStateChangingRequests({
      trustProxy: deps.env.TRUST_PROXY,
      bodyTypes: UPLOAD_BODY_TYPES,
      bearerOnlyPrefixes: [INGEST_PATHS],
    }),
  );
  app.use("*", loadSession(deps.auth));

  app.onError((error, c) => {
    const language = languageOfRequest(c.req.header("accept-language"));
    if (error instanceof AppError) {
      if (error.details.retryAfterSeconds) c.header("Retry-After", String(error.details.retryAfterSeconds));
      return c.json(error.toBody(language), error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      const text = error.message || translate(message("common:badRequest"), language);
      return c.json({ code: "bad_request", message: text }, error.status);
    }
    // Details go to the log under the request id; the caller gets the id, never a stack or SQL.
    const requestId = c.get("requestId");
    deps.logger.error("unhandled error", {
      requestId,
      error: error instanceof Error ? error.stack : String(error),
    });
    return c.json(
      { code: "internal", message: translate(message("common:internal", { requestId }), language) },
      500,
    );
  });

  const limitJsonBody = limitBody({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AppError("payload_too_large", message("common:bodyTooLarge"));
    },
  });
  const api = new Hono<AppEnv>()
    // Only requests that carry a body are measured: checking a GET costs a full request object.
    // The roster import's .zip and the agent's screenshots have limits of their own.
    .use("*", (c, next) =>
      c.req.method === "GET" || c.req.method === "HEAD" || OWN_BODY_LIMITS.has(c.req.path)
        ? next()
        : limitJsonBody(c, next),
    )
    .get("/health", async (c) => {
      try {
        await pingDatabase(deps.db);
      } catch {
        return c.json({ ok: false, db: deps.dbKind } satisfies Health, 503);
      }
      return c.json({ ok: true, db: deps.dbKind } satisfies Health);
    })
    .get("/config", (c) =>
      c.json({
        supportUrl: deps.env.SUPPORT_URL,
        classLeaderboardOrgId: deps.env.CLASS_LEADERBOARD_ORG,
        impersonationMinutes: deps.env.IMPERSONATION_MINUTES,
      } satisfies PublicConfig),
    )
    .route("/auth", authRoutes(deps))
    .route("/ingest", ingestRoutes(deps))
    // The monitoring agent posts incidents with its key; only that one route is matched here.
    .route("/integrity", integrityIntakeRoutes(deps))
    // QTI embeds read public items, stimuli and package media without a session.
    .route("/qti", qtiPublicRoutes(deps))
    // An email's unsubscribe link works without signing in (its token is signed).
    .route("/email", emailPublicRoutes(deps))
    // The browser reports page use and errors signed in or not (the sign-in page too).
    .route("/analytics", analyticsCollectorRoutes(deps))
    // The API's description for integrators, readable before any system has a session or key.
    .route("/", apiDocsRoutes())
    // Everything below needs a session: without one the answer is 401, even for unknown paths.
    .use("*", requireSession)
    .use("*", refuseLockedStudents)
    .route("/live", liveRoutes(deps))
    .route("/", rosteringRoutes(deps))
    .route("/", courseRoutes(deps))
    .route("/admin", rosterAdminRoutes(deps))
    .route("/admin", passwordAdminRoutes(deps))
    .route("/", activityRoutes(deps))
    .route("/flow", flowRoutes(deps))
    .route("/rewards", rewardsRoutes(deps))
    .route("/admin/app-credentials", credentialAdminRoutes(deps))
    .route("/app-credentials", credentialRoutes(deps))
    .route("/assessment", assessmentRoutes(deps))
    .route("/qti", qtiRoutes(deps))
    .route("/content", contentRoutes(deps))
    .route("/goals", goalsRoutes(deps))
    .route("/athletics", athleticsRoutes(deps))
    .route("/time", clockRoutes(deps))
    .route("/leaderboards", leaderboardsRoutes(deps))
    .route("/integrity", integrityRoutes(deps))
    .route("/admin/api-clients", apiClientRoutes(deps))
    .route("/admin/roster", rosterBulkRoutes(deps))
    .route("/admin/privacy", privacyAdminRoutes(deps))
    .route("/privacy", privacyFamilyRoutes(deps))
    .route("/admin/jobs", jobAdminRoutes(deps))
    .route("/admin/analytics", analyticsAdminRoutes(deps))
    .route("/notifications", notificationsRoutes(deps))
    .route("/families", familiesRoutes(deps))
    .route("/surveys", surveysRoutes(deps))
    .route("/messaging", messagingRoutes(deps))
    .route("/admin", webhookRoutes(deps))
    .route("/tours", toursRoutes(deps))
    .route("/reports", reportsRoutes(deps))
    .all("*", (c) => {
      const said = message("common:noApiRoute", { method: c.req.method, path: c.req.path });
      return c.json({ code: "not_found", message: translate(said, requestLanguage(c)) }, 404);
    });

  app.route("/api", api);
  // For other systems, with OAuth 2.0 bearer tokens instead of sessions.
  app.route("/oauth", oauthRoutes(deps));
  app.route(ONEROSTER_BASE_PATH, oneRosterRoutes(deps));
  // For Prometheus, with METRICS_TOKEN; without it the path answers 404, never the web app.
  app.get("/metrics", metricsHandler(deps.env.METRICS_TOKEN));
  if (deps.webRoot) app.route("/", webRoutes(deps.webRoot));
  app.notFound((c) => c.text("Not Found", 404));
  return app;
}

export type App = ReturnType<typeof createApp>;
