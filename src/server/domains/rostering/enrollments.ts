import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import {
  DEFAULT_ENROLLMENT_FILTER,
  type Enrollment,
  type EnrollmentCreate,
  type EnrollmentListQuery,
} from "../../../shared/contracts/courses";
import { dashRoleOf } from "../../../shared/roles";
import { addDays } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { containsPattern, type FilterFields, filterToSql } from "./filter";
import { direction, isoDay, isoInstant, type ListPage, pageCarryingTotal, pageOf } from "./list";
import { classIdsInGuideReach } from "./scope";

/**
 * Enrollments: who is in which class, in which role, from when to when. Administrators see and
 * change every enrollment; a Guide sees those of the classes they teach. Ending an enrollment keeps
 * it, with its end date and the status `tobedeleted`.
 */

const enrollmentFilterFields: FilterFields = {
  sourcedId: { column: sql`e.sourced_id`, kind: "text" },
  status: { column: sql`e.status`, kind: "text" },
  dateLastModified: { column: sql`e.date_last_modified`, kind: "timestamp" },
  role: { column: sql`e.role`, kind: "text" },
  primary: { column: sql`e.primary`, kind: "boolean" },
  beginDate: { column: sql`e.begin_date`, kind: "date" },
  endDate: { column: sql`e.end_date`, kind: "date" },
  userSourcedId: { column: sql`e.user_sourced_id`, kind: "text" },
  classSourcedId: { column: sql`e.class_sourced_id`, kind: "text" },
  schoolSourcedId: { column: sql`e.school_sourced_id`, kind: "text" },
  courseSourcedId: { column: sql`k.course_sourced_id`, kind: "text" },
};

const enrollmentSortColumns: Record<Exclude<EnrollmentListQuery["sort"], "userName">, SQL> = {
  beginDate: sql`e.begin_date`,
  endDate: sql`e.end_date`,
  classTitle: sql`lower(k.title)`,
  role: sql`e.role`,
  status: sql`e.status`,
  dateLastModified: sql`e.date_last_modified`,
};

function enrollmentOrder(query: EnrollmentListQuery): SQL {
  const way = direction(query.orderBy);
  if (query.sort === "userName")
    return sql`lower(u.family_name) ${way} nulls last, lower(u.given_name) ${way}, e.sourced_id`;
  return sql`${enrollmentSortColumns[query.sort]} ${way} nulls last, e.sourced_id`;
}

/** The person, class, course and school of enrollments `e`. */
const enrollmentDetails = sql`left join users u on u.sourced_id = e.user_sourced_id
  left join classes k on k.sourced_id = e.class_sourced_id
  left join courses c on c.sourced_id = k.course_sourced_id
  left join orgs s on s.sourced_id = e.school_sourced_id`;

const enrollmentColumns = sql`e.sourced_id as "sourcedId", e.status, e.role, e.primary,
  ${isoDay(sql`e.begin_date`)} as "beginDate", ${isoDay(sql`e.end_date`)} as "endDate",
  ${isoInstant(sql`e.date_last_modified`)} as "dateLastModified",
  e.user_sourced_id as "userSourcedId", u.given_name as "givenName", u.family_name as "familyName", u.email,
  e.class_sourced_id as "classSourcedId", k.title as "classTitle", k.class_code as "classCode",
  c.sourced_id as "courseSourcedId", c.title as "courseTitle",
  e.school_sourced_id as "schoolSourcedId", s.name as "schoolName"`;

interface EnrollmentRow {
  sourcedId: string;
  status: string;
  role: string;
  primary: boolean;
  beginDate: string | null;
  endDate: string | null;
  dateLastModified: string;
  userSourcedId: string;
  givenName: string | null;
  familyName: string | null;
  email: string | null;
  classSourcedId: string;
  classTitle: string | null;
  classCode: string | null;
  courseSourcedId: string | null;
  courseTitle: string | null;
  schoolSourcedId: string;
  schoolName: string | null;
}

function toEnrollment(row: EnrollmentRow): Enrollment {
  return {
    sourcedId: row.sourcedId,
    status: row.status,
    role: row.role,
    primary: row.primary,
    beginDate: row.beginDate,
    endDate: row.endDate,
    dateLastModified: row.dateLastModified,
    // An enrollment may name a person the roster does not hold (yet): it still shows, by id.
    user: {
      sourcedId: row.userSourcedId,
      givenName: row.givenName ?? "",
      familyName: row.familyName ?? row.userSourcedId,
      email: row.email,
    },
    class: { sourcedId: row.classSourcedId, title: row.classTitle, classCode: row.classCode },
    course:
      row.courseSourcedId && row.courseTitle !== null
        ? { sourcedId: row.courseSourcedId, title: row.courseTitle }
        : null,
    school: { sourcedId: row.schoolSourcedId, name: row.schoolName },
  };
}

/** The enrollments (alias `e`) the caller may see: all for an administrator, their classes' for a Guide. */
function enrollmentScope(actor: Actor): SQL {
  if (actor.activeRole === "administrator") return sql`true`;
  if (actor.activeRole === "teacher") return sql`e.class_sourced_id in (${classIdsInGuideReach(actor)})`;
  throw new AppError("forbidden", message("rostering:enrollments.forbiddenToList"));
}

export async function findEnrollments(
  db: Database,
  actor: Actor,
  query: EnrollmentListQuery,
): Promise<ListPage<Enrollment>> {
  const scope = enrollmentScope(actor);
  const pattern = containsPattern(query.search);
  const narrowing: SQL[] = [];
  if (query.classId) narrowing.push(sql`e.class_sourced_id = ${query.classId}`);
  if (query.courseId) narrowing.push(sql`k.course_sourced_id = ${query.courseId}`);
  if (query.schoolId) narrowing.push(sql`e.school_sourced_id = ${query.schoolId}`);
  if (query.userId) narrowing.push(sql`e.user_sourced_id = ${query.userId}`);
  const where = sql`${scope} and ${filterToSql(query.filter ?? DEFAULT_ENROLLMENT_FILTER, enrollmentFilterFields)}
    ${narrowing.length ? sql`and ${sql.join(narrowing, sql` and `)}` : sql``}
    ${
      query.search
        ? sql`and (coalesce(u.given_name, '') || ' ' || coalesce(u.family_name, '') ilike ${pattern}
            or coalesce(u.email, '') ilike ${pattern} or coalesce(k.title, '') ilike ${pattern})`
        : sql``
    }`;
  // Only what the conditions and the order need is joined while the page is chosen; the page's
  // rows are then completed with their people, classes, courses and schools.
  const needsUsers = query.search !== "" || query.sort === "userName";
  const from = sql`from enrollments e left join classes k on k.sourced_id = e.class_sourced_id
    ${needsUsers ? sql`left join users u on u.sourced_id = e.user_sourced_id` : sql``}`;
  const order = enrollmentOrder(query);
  const count = sql`select count(*) as total ${from} where ${where}`;
  const choose = (columns: SQL) =>
    sql`select ${columns} ${from} where ${where} order by ${order} limit ${query.limit} offset ${query.offset}`;
  /** The chosen page's enrollments with their details, in order; `extra` adds columns. */
  const complete = (
    extra: SQL,
  ) => sql`select ${enrollmentColumns} ${extra} from enrollments e ${enrollmentDetails}
    where e.sourced_id = any(array(select sourced_id from page)) order by ${order}`;
  const page = query.search
    ? // Searching tests every row's texts: one pass finds the matches, counts and orders them.
      await pageCarryingTotal<EnrollmentRow>(
        db,
        {
          rows: sql`with page as (${choose(sql`e.sourced_id, count(*) over () as total`)})
            ${complete(sql`, (select total from page limit 1) as total`)}`,
          count,
        },
        query.offset,
      )
    : await pageOf<EnrollmentRow>(db, {
        rows: sql`with page as (${choose(sql`e.sourced_id`)}) ${complete(sql``)}`,
        count,
      });
  return { total: page.total, data: page.data.map(toEnrollment) };
}

async function getEnrollment(db: Database, enrollmentId: string): Promise<Enrollment> {
  const [row] = await queryRows<EnrollmentRow>(
    db,
    sql`select ${enrollmentColumns} from enrollments e ${enrollmentDetails} where e.sourced_id = ${enrollmentId}`,
  );
  if (!row) throw new AppError("not_found", message("rostering:enrollments.notFound"));
  return toEnrollment(row);
}

const refused = (path: string, problem: Message) => invalidFields([{ path, message: problem }]);

/** The UTC day of `now`: an enrollment's dates are calendar days. */
const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Enrolls a person in a class. They must hold the role at the class's school or an organisation
 * above it; an active enrollment of the same person, class and role is a conflict (409).
 */
export async function addEnrollment(db: Database, input: EnrollmentCreate, now: Date): Promise<Enrollment> {
  const sourcedId = randomUUID();
  await db.transaction(async (tx) => {
    const run = tx as unknown as Database;
    // Locking the class row makes concurrent enrollments in one class take turns, so the
    // duplicate check below cannot be raced.
    const [klass] = await queryRows<{ status: string; schoolSourcedId: string; schoolName: string | null }>(
      run,
      sql`select k.status, k.school_sourced_id as "schoolSourcedId", o.name as "schoolName"
        from classes k left join orgs o on o.sourced_id = k.school_sourced_id
        where k.sourced_id = ${input.classSourcedId} for update of k`,
    );
    if (!klass) throw refused("classSourcedId", message("rostering:enrollments.noClass"));
    if (klass.status !== "active")
      throw refused("classSourcedId", message("rostering:enrollments.classInactive"));
    const [person] = await queryRows<{
      name: string;
      status: string;
      roles: { role: string; orgSourcedId: string }[];
    }>(
      run,
      sql`with recursive above(id, depth) as (
          select ${klass.schoolSourcedId}::text, 0
          union all
          select o.parent_sourced_id, a.depth + 1 from orgs o join above a on o.sourced_id = a.id
          where o.parent_sourced_id is not null and a.depth < 20
        )
        select u.given_name || ' ' || u.family_name as name, u.status,
          coalesce((select json_agg(json_build_object('role', r.role, 'orgSourcedId', r.org_sourced_id))
            from user_roles r where r.user_sourced_id = u.sourced_id and r.org_sourced_id in (select id from above)),
            '[]'::json) as roles
        from users u where u.sourced_id = ${input.userSourcedId}`,
    );
    if (!person) throw refused("userSourcedId", message("rostering:enrollments.noPerson"));
    if (person.status !== "active")
      throw refused(
        "userSourcedId",
        message("rostering:enrollments.personInactive", { person: person.name }),
      );
    if (!person.roles.some((entry) => dashRoleOf(entry.role) === input.role)) {
      throw refused(
        "role",
        klass.schoolName === null
          ? message("rostering:enrollments.roleNotHeldAtClassSchool", {
              person: person.name,
              role: input.role,
            })
          : message("rostering:enrollments.roleNotHeld", {
              person: person.name,
              role: input.role,
              school: klass.schoolName,
            }),
      );
    }
    const beginDate = input.beginDate ?? dayOf(now);
    const [duplicate] = await queryRows<{ sourcedId: string }>(
      run,
      sql`select sourced_id as "sourcedId" from enrollments
        where user_sourced_id = ${input.userSourcedId} and class_sourced_id = ${input.classSourcedId}
          and role = ${input.role} and status = 'active' limit 1`,
    );
    if (duplicate)
      throw new AppError(
        "conflict",
        message("rostering:enrollments.alreadyEnrolled", { person: person.name, role: input.role }),
      );
    await run.execute(
      sql`insert into enrollments (sourced_id, status, date_last_modified, user_sourced_id, class_sourced_id,
          school_sourced_id, role, "primary", begin_date)
        values (${sourcedId}, 'active', ${now.toISOString()}, ${input.userSourcedId}, ${input.classSourcedId},
          ${klass.schoolSourcedId}, ${input.role}, ${input.primary}, ${beginDate}::date)`,
    );
  });
  return getEnrollment(db, sourcedId);
}

/**
 * Ends an active enrollment on a day (default today): it stays in the roster with that end date
 * and the status `tobedeleted`. The day cannot precede its begin date nor lie in the future
 * (a day's grace covers schools ahead of UTC).
 */
export async function endEnrollment(
  db: Database,
  enrollmentId: string,
  endDate: string | undefined,
  now: Date,
): Promise<Enrollment> {
  const current = await getEnrollment(db, enrollmentId);
  if (current.status !== "active")
    throw new AppError("conflict", message("rostering:enrollments.alreadyEnded"));
  const day = endDate ?? dayOf(now);
  if (day > addDays(dayOf(now), 1)) throw refused("endDate", message("rostering:enrollments.endInFuture"));
  if (current.beginDate && day < current.beginDate)
    throw refused(
      "endDate",
      message("rostering:enrollments.endBeforeBegin", { beginDate: current.beginDate }),
    );
  const ended = await queryRows<{ sourcedId: string }>(
    db,
    sql`update enrollments set status = 'tobedeleted', end_date = ${day}::date, date_last_modified = ${now.toISOString()}
      where sourced_id = ${enrollmentId} and status = 'active' returning sourced_id as "sourcedId"`,
  );
  // Someone else ended it between the read and the write.
  if (ended.length === 0) throw new AppError("conflict", message("rostering:enrollments.alreadyEnded"));
  return getEnrollment(db, enrollmentId);
}
