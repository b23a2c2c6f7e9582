import { type SQL, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ONEROSTER_BASE_PATH, ONEROSTER_SCOPES } from "../../../../shared/contracts/api-clients";
import { isHttps } from "../../../lib/auth";
import type { AppDeps, AppEnv } from "../../../lib/context";
import { createRateLimiter } from "../../../lib/rate-limit";
import { createTtlCache } from "../../../lib/ttl-cache";
import { authenticateAccessToken, type TokenHolder } from "../../oauth/clients";
import { OneRosterError } from "./errors";
import { pageLinks, readCollectionQuery, readFields, selectFields } from "./query";
import {
  academicSessionResource,
  classResource,
  courseResource,
  demographicsResource,
  enrollmentResource,
  holdsRole,
  orgResource,
  type Resource,
  refMaker,
  userResource,
} from "./resources";
import { type CollectionView, type Count, getRecord, listRecords } from "./service";

/**
 * The OneRoster 1.2 rostering REST binding (read only) for student information systems and other
 * apps, mounted at ONEROSTER_BASE_PATH (/ims/oneroster/rostering/v1p2). Callers are OAuth 2.0 clients with a bearer token
 * from /oauth/token; each endpoint needs one of the scopes the 1EdTech OpenAPI file lists for it.
 */

/** Requests per client and minute: far above a full sync (100,000 users are 34 requests of 3,000). */
export const ONEROSTER_RATE_LIMIT = { name: "oneroster", limit: 10_000, windowMs: 60_000 };

/**
 * How long a collection's total is reused for the same records, filter and search. Counting a
 * large roster costs more than reading a page of it; a client paging through a collection gets
 * one count, and X-Total-Count lags a roster change by at most this long.
 */
export const ONEROSTER_COUNT_CACHE_MS = 10_000;

const CORE = [ONEROSTER_SCOPES.core, ONEROSTER_SCOPES.full];
const FULL = [ONEROSTER_SCOPES.full];
const DEMOGRAPHICS = [ONEROSTER_SCOPES.demographics];

type OneRosterEnv = AppEnv & { Variables: { tokenHolder: TokenHolder } };
type Params = Record<string, string>;

const BEARER_REALM = 'Bearer realm="OneRoster"';

// Conditions naming each resource's alias: o orgs, s academicSessions, k classes, c courses, e enrollments, u users.
const isSchool = sql`lower(o.type) = 'school'`;
const hasSessionType = (type: string) => sql`s.type = ${type}`;
const enrolledIn = (classId: string, role: string) =>
  sql`u.sourced_id in (select e.user_sourced_id from enrollments e
    where e.class_sourced_id = ${classId} and lower(e.role) = ${role})`;
const rolesAt = (orgId: string, role: string) =>
  sql`exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id
    and r.org_sourced_id = ${orgId} and lower(r.role) = ${role})`;
const classesOf = (userId: string, role?: string) =>
  sql`k.sourced_id in (select e.class_sourced_id from enrollments e where e.user_sourced_id = ${userId}
    ${role ? sql`and lower(e.role) = ${role}` : sql``})`;

const parents = {
  school: (id: string) => ({
    exists: sql`exists (select 1 from orgs o where o.sourced_id = ${id} and ${isSchool})`,
    description: `No school has the sourcedId ${id}`,
  }),
  classOfSchool: (schoolId: string, classId: string) => ({
    exists: sql`exists (select 1 from classes k where k.sourced_id = ${classId} and k.school_sourced_id = ${schoolId})`,
    description: `No class with the sourcedId ${classId} belongs to the school ${schoolId}`,
  }),
  class: (id: string) => ({
    exists: sql`exists (select 1 from classes k where k.sourced_id = ${id})`,
    description: `No class has the sourcedId ${id}`,
  }),
  course: (id: string) => ({
    exists: sql`exists (select 1 from courses c where c.sourced_id = ${id})`,
    description: `No course has the sourcedId ${id}`,
  }),
  user: (id: string, role?: string) => ({
    exists: sql`exists (select 1 from users u where u.sourced_id = ${id} ${role ? sql`and ${holdsRole(role)}` : sql``})`,
    description: `No ${role ?? "user"} has the sourcedId ${id}`,
  }),
  term: (id: string) => ({
    exists: sql`exists (select 1 from academic_sessions s where s.sourced_id = ${id} and ${hasSessionType("term")})`,
    description: `No term has the sourcedId ${id}`,
  }),
};

/** Terms of a school: held by the school or an org above it, or given to one of its classes. */
const termsOfSchool = (schoolId: string) => sql`${hasSessionType("term")} and (
  s.org_sourced_id in (
    with recursive up(id) as (
      select ${schoolId}::text
      union select o.parent_sourced_id from orgs o join up on o.sourced_id = up.id where o.parent_sourced_id is not null
    ) select id from up)
  or s.sourced_id in (select unnest(k.term_sourced_ids) from classes k where k.school_sourced_id = ${schoolId}))`;

/** The records each collection endpoint lists, from its path parameters. */
const collections: [path: string, scopes: string[], view: (p: Params) => CollectionView][] = [
  ["/orgs", CORE, () => ({ resource: orgResource, where: sql`true` })],
  ["/schools", CORE, () => ({ resource: orgResource, where: isSchool })],
  [
    "/schools/:schoolId/classes",
    FULL,
    (p) => ({
      resource: classResource,
      where: sql`k.school_sourced_id = ${p.schoolId}`,
      parent: parents.school(p.schoolId as string),
    }),
  ],
  [
    "/schools/:schoolId/classes/:classId/enrollments",
    FULL,
    (p) => ({
      resource: enrollmentResource,
      where: sql`e.class_sourced_id = ${p.classId}`,
      parent: parents.classOfSchool(p.schoolId as string, p.classId as string),
    }),
  ],
  [
    "/schools/:schoolId/classes/:classId/students",
    FULL,
    (p) => ({
      resource: userResource,
      where: enrolledIn(p.classId as string, "student"),
      parent: parents.classOfSchool(p.schoolId as string, p.classId as string),
    }),
  ],
  [
    "/schools/:schoolId/classes/:classId/teachers",
    FULL,
    (p) => ({
      resource: userResource,
      where: enrolledIn(p.classId as string, "teacher"),
      parent: parents.classOfSchool(p.schoolId as string, p.classId as string),
    }),
  ],
  [
    "/schools/:schoolId/courses",
    FULL,
    (p) => ({
      resource: courseResource,
      where: sql`(c.org_sourced_id = ${p.schoolId}
        or c.sourced_id in (select k.course_sourced_id from classes k where k.school_sourced_id = ${p.schoolId}))`,
      parent: parents.school(p.schoolId as string),
    }),
  ],
  [
    "/schools/:schoolId/enrollments",
    FULL,
    (p) => ({
      resource: enrollmentResource,
      where: sql`e.school_sourced_id = ${p.schoolId}`,
      parent: parents.school(p.schoolId as string),
    }),
  ],
  [
    "/schools/:schoolId/students",
    FULL,
    (p) => ({
      resource: userResource,
      where: rolesAt(p.schoolId as string, "student"),
      parent: parents.school(p.schoolId as string),
    }),
  ],
  [
    "/schools/:schoolId/teachers",
    FULL,
    (p) => ({
      resource: userResource,
      where: rolesAt(p.schoolId as string, "teacher"),
      parent: parents.school(p.schoolId as string),
    }),
  ],
  [
    "/schools/:schoolId/terms",
    FULL,
    (p) => ({
      resource: academicSessionResource,
      where: termsOfSchool(p.schoolId as string),
      parent: parents.school(p.schoolId as string),
    }),
  ],
  ["/users", CORE, () => ({ resource: userResource, where: sql`true` })],
  [
    "/users/:userId/classes",
    FULL,
    (p) => ({
      resource: classResource,
      where: classesOf(p.userId as string),
      parent: parents.user(p.userId as string),
    }),
  ],
  ["/students", CORE, () => ({ resource: userResource, where: holdsRole("student") })],
  [
    "/students/:studentId/classes",
    FULL,
    (p) => ({
      resource: classResource,
      where: classesOf(p.studentId as string, "student"),
      parent: parents.user(p.studentId as string, "student"),
    }),
  ],
  ["/teachers", CORE, () => ({ resource: userResource, where: holdsRole("teacher") })],
  [
    "/teachers/:teacherId/classes",
    FULL,
    (p) => ({
      resource: classResource,
      where: classesOf(p.teacherId as string, "teacher"),
      parent: parents.user(p.teacherId as string, "teacher"),
    }),
  ],
  ["/classes", CORE, () => ({ resource: classResource, where: sql`true` })],
  [
    "/classes/:classId/students",
    FULL,
    (p) => ({
      resource: userResource,
      where: enrolledIn(p.classId as string, "student"),
      parent: parents.class(p.classId as string),
    }),
  ],
  [
    "/classes/:classId/teachers",
    FULL,
    (p) => ({
      resource: userResource,
      where: enrolledIn(p.classId as string, "teacher"),
      parent: parents.class(p.classId as string),
    }),
  ],
  ["/courses", CORE, () => ({ resource: courseResource, where: sql`true` })],
  [
    "/courses/:courseId/classes",
    FULL,
    (p) => ({
      resource: classResource,
      where: sql`k.course_sourced_id = ${p.courseId}`,
      parent: parents.course(p.courseId as string),
    }),
  ],
  ["/enrollments", CORE, () => ({ resource: enrollmentResource, where: sql`true` })],
  ["/academicSessions", CORE, () => ({ resource: academicSessionResource, where: sql`true` })],
  ["/terms", CORE, () => ({ resource: academicSessionResource, where: hasSessionType("term") })],
  [
    "/terms/:termId/classes",
    FULL,
    (p) => ({
      resource: classResource,
      where: sql`${p.termId} = any(k.term_sourced_ids)`,
      parent: parents.term(p.termId as string),
    }),
  ],
  [
    "/terms/:termId/gradingPeriods",
    FULL,
    (p) => ({
      resource: academicSessionResource,
      where: sql`${hasSessionType("gradingPeriod")} and s.parent_sourced_id = ${p.termId}`,
      parent: parents.term(p.termId as string),
    }),
  ],
  [
    "/gradingPeriods",
    CORE,
    () => ({ resource: academicSessionResource, where: hasSessionType("gradingPeriod") }),
  ],
  ["/demographics", DEMOGRAPHICS, () => ({ resource: demographicsResource, where: sql`true` })],
];

/** The single-record endpoints: `/{collection}/{sourcedId}`, with what the record must be. */
const singles: [path: string, scopes: string[], resource: Resource, where: SQL, what: string][] = [
  ["/orgs/:id", CORE, orgResource, sql`true`, "org"],
  ["/schools/:id", CORE, orgResource, isSchool, "school"],
  ["/users/:id", CORE, userResource, sql`true`, "user"],
  ["/students/:id", CORE, userResource, holdsRole("student"), "student"],
  ["/teachers/:id", CORE, userResource, holdsRole("teacher"), "teacher"],
  ["/classes/:id", CORE, classResource, sql`true`, "class"],
  ["/courses/:id", CORE, courseResource, sql`true`, "course"],
  ["/enrollments/:id", CORE, enrollmentResource, sql`true`, "enrollment"],
  ["/academicSessions/:id", CORE, academicSessionResource, sql`true`, "academic session"],
  ["/terms/:id", CORE, academicSessionResource, hasSessionType("term"), "term"],
  ["/gradingPeriods/:id", CORE, academicSessionResource, hasSessionType("gradingPeriod"), "grading period"],
  ["/demographics/:id", DEMOGRAPHICS, demographicsResource, sql`true`, "demographics record"],
];

function requireScope(c: Context<OneRosterEnv>, accepted: string[]) {
  const granted = c.get("tokenHolder").scopes;
  if (!accepted.some((scope) => granted.includes(scope))) {
    throw new OneRosterError(
      403,
      "forbidden",
      `This endpoint needs one of the scopes: ${accepted.join(" ")}`,
      {
        "WWW-Authenticate": `${BEARER_REALM}, error="insufficient_scope", scope="${accepted.join(" ")}"`,
      },
    );
  }
}

/** The request's URL as the client sees it (https behind a trusted proxy). */
function publicUrl(c: Context<OneRosterEnv>, trustProxy: boolean): URL {
  const url = new URL(c.req.url);
  if (isHttps(c, trustProxy)) url.protocol = "https:";
  return url;
}

export function oneRosterRoutes(deps: AppDeps, options = { rateLimit: ONEROSTER_RATE_LIMIT }) {
  const { db, auth, env, logger } = deps;
  const limiter = createRateLimiter(db, options.rateLimit);
  const counts = createTtlCache<Count>({ ttlMs: ONEROSTER_COUNT_CACHE_MS, maxEntries: 1_000 });
  const refsFor = (c: Context<OneRosterEnv>) =>
    refMaker(`${publicUrl(c, env.TRUST_PROXY).origin}${ONEROSTER_BASE_PATH}`);

  const app = new Hono<OneRosterEnv>();
  app.onError((error, c) => {
    if (error instanceof OneRosterError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(error.toBody(), error.status);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(new OneRosterError(400, "invaliddata", error.message || "Bad request").toBody(), 400);
    }
    const requestId = c.get("requestId");
    logger.error("unhandled error", {
      requestId,
      error: error instanceof Error ? error.stack : String(error),
    });
    return c.json(
      new OneRosterError(
        500,
        "internal_server_error",
        `Something went wrong on our side. Reference: ${requestId}`,
      ).toBody(),
      500,
    );
  });

  app.use("*", async (c, next) => {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (!token) {
      throw new OneRosterError(
        401,
        "unauthorisedrequest",
        "Send an access token from /oauth/token as `Authorization: Bearer <token>`",
        {
          "WWW-Authenticate": BEARER_REALM,
        },
      );
    }
    const holder = await authenticateAccessToken(db, token, auth.now());
    if (!holder) {
      throw new OneRosterError(
        401,
        "unauthorisedrequest",
        "The access token is unknown, expired or revoked",
        {
          "WWW-Authenticate": `${BEARER_REALM}, error="invalid_token"`,
        },
      );
    }
    const verdict = await limiter.hit(holder.apiClientId, auth.now());
    if (!verdict.allowed) {
      throw new OneRosterError(
        429,
        "server_busy",
        `Too many requests: try again in ${verdict.retryAfterSeconds} s`,
        {
          "Retry-After": String(verdict.retryAfterSeconds),
        },
      );
    }
    c.set("tokenHolder", holder);
    await next();
  });

  for (const [path, scopes, viewOf] of collections) {
    app.get(path, async (c) => {
      requireScope(c, scopes);
      const view = viewOf(c.req.param() as Params);
      const query = readCollectionQuery(c.req.query(), view.resource.fields);
      const countKey = JSON.stringify([path, c.req.param(), query.filter ?? "", query.search]);
      const { total, records } = await listRecords(db, view, query, refsFor(c), (compute) =>
        counts.remember(countKey, auth.now(), compute),
      );
      c.header("X-Total-Count", String(total));
      c.header("Link", pageLinks(publicUrl(c, env.TRUST_PROXY).toString(), { ...query, total }));
      return c.json({
        [view.resource.collection]: records.map((record) => selectFields(record, query.fields)),
      });
    });
  }

  for (const [path, scopes, resource, where, what] of singles) {
    app.get(path, async (c) => {
      requireScope(c, scopes);
      const fields = readFields(c.req.query("fields"), resource.fields);
      const id = c.req.param("id") as string;
      const record = await getRecord(db, resource, where, id, refsFor(c));
      if (!record) throw new OneRosterError(404, "unknownobject", `No ${what} has the sourcedId ${id}`);
      return c.json({ [resource.single]: selectFields(record, fields) });
    });
  }

  app.all("*", (c) => {
    if (c.req.method !== "GET") {
      c.header("Allow", "GET");
      throw new OneRosterError(405, "invaliddata", "This OneRoster service is read only: use GET");
    }
    throw new OneRosterError(404, "unknownobject", `No OneRoster endpoint ${c.req.path}`);
  });
  return app;
}
