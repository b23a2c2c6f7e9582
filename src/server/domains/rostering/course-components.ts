import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import {
  type ComponentCreate,
  type ComponentListQuery,
  type ComponentUpdate,
  type CourseComponent,
  DEFAULT_COMPONENT_FILTER,
} from "../../../shared/contracts/courses";
import { type Database, queryRows } from "../../db/client";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { containsPattern, type FilterFields, filterToSql } from "./filter";
import { direction, isoInstant, type ListPage, pageOf } from "./list";

/**
 * A course's components (units and their parts). Listed by sortOrder, components without one
 * last, then by title. Removing a component marks it `tobedeleted` so the roster keeps its history.
 */

const componentColumns = sql`m.sourced_id as "sourcedId", m.status, ${isoInstant(sql`m.date_last_modified`)} as "dateLastModified",
  m.course_sourced_id as "courseSourcedId", m.parent_component_sourced_id as "parentComponentSourcedId",
  m.title, m.sort_order as "sortOrder", m.metadata`;

const componentFilterFields: FilterFields = {
  sourcedId: { column: sql`m.sourced_id`, kind: "text" },
  status: { column: sql`m.status`, kind: "text" },
  dateLastModified: { column: sql`m.date_last_modified`, kind: "timestamp" },
  title: { column: sql`m.title`, kind: "text" },
  sortOrder: { column: sql`m.sort_order`, kind: "number" },
  parentComponentSourcedId: { column: sql`m.parent_component_sourced_id`, kind: "text" },
};

/** Whatever the sort, components without a sortOrder stay after those with one. */
function componentOrder(query: ComponentListQuery): SQL {
  const way = direction(query.orderBy);
  switch (query.sort) {
    case "sortOrder":
      return sql`m.sort_order ${way} nulls last, lower(m.title), m.sourced_id`;
    case "title":
      return sql`lower(m.title) ${way}, m.sourced_id`;
    case "dateLastModified":
      return sql`m.date_last_modified ${way}, m.sourced_id`;
  }
}

export async function listComponents(
  db: Database,
  courseId: string,
  query: ComponentListQuery,
): Promise<ListPage<CourseComponent>> {
  const pattern = containsPattern(query.search);
  const where = sql`m.course_sourced_id = ${courseId}
    and ${filterToSql(query.filter ?? DEFAULT_COMPONENT_FILTER, componentFilterFields)}
    and (${query.search} = '' or m.title ilike ${pattern})`;
  return pageOf<CourseComponent>(db, {
    rows: sql`select ${componentColumns} from course_components m
      where ${where} order by ${componentOrder(query)} limit ${query.limit} offset ${query.offset}`,
    count: sql`select count(*) as total from course_components m where ${where}`,
  });
}

async function getComponent(db: Database, courseId: string, componentId: string): Promise<CourseComponent> {
  const [component] = await queryRows<CourseComponent>(
    db,
    sql`select ${componentColumns} from course_components m
      where m.sourced_id = ${componentId} and m.course_sourced_id = ${courseId} and m.status = 'active'`,
  );
  if (!component) throw new AppError("not_found", message("rostering:components.notFound"));
  return component;
}

export async function requireCourse(db: Database, courseId: string): Promise<void> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select exists (select 1 from courses where sourced_id = ${courseId}) as found`,
  );
  if (!row?.found) throw new AppError("not_found", message("rostering:courses.notFound"));
}

/**
 * Refuses a parent that is not an active component of the same course, or one that would put the
 * component inside itself.
 */
async function checkParent(
  db: Database,
  courseId: string,
  parentId: string,
  componentId: string | null,
): Promise<void> {
  const [row] = await queryRows<{ inCourse: boolean; makesCycle: boolean }>(
    db,
    sql`with recursive ancestors(id, depth) as (
        select ${parentId}::text, 0
        union all
        select m.parent_component_sourced_id, a.depth + 1 from course_components m join ancestors a on m.sourced_id = a.id
        where m.parent_component_sourced_id is not null and a.depth < 100
      )
      select exists (select 1 from course_components where sourced_id = ${parentId}
          and course_sourced_id = ${courseId} and status = 'active') as "inCourse",
        exists (select 1 from ancestors where id = ${componentId}) as "makesCycle"`,
  );
  const fail = (problem: Message) => invalidFields([{ path: "parentComponentSourcedId", message: problem }]);
  if (!row?.inCourse) throw fail(message("rostering:components.parentNotInCourse"));
  if (row.makesCycle) throw fail(message("rostering:components.insideItself"));
}

export async function createComponent(
  db: Database,
  courseId: string,
  input: ComponentCreate,
  now: Date,
): Promise<CourseComponent> {
  await requireCourse(db, courseId);
  if (input.parentComponentSourcedId) await checkParent(db, courseId, input.parentComponentSourcedId, null);
  const sourcedId = randomUUID();
  await db.execute(
    sql`insert into course_components (sourced_id, status, date_last_modified, course_sourced_id,
        parent_component_sourced_id, title, sort_order, metadata)
      values (${sourcedId}, 'active', ${now.toISOString()}, ${courseId}, ${input.parentComponentSourcedId},
        ${input.title}, ${input.sortOrder}, ${input.metadata === null ? null : JSON.stringify(input.metadata)}::jsonb)`,
  );
  return getComponent(db, courseId, sourcedId);
}

export async function updateComponent(
  db: Database,
  courseId: string,
  componentId: string,
  changes: ComponentUpdate,
  now: Date,
): Promise<CourseComponent> {
  await getComponent(db, courseId, componentId);
  if (changes.parentComponentSourcedId)
    await checkParent(db, courseId, changes.parentComponentSourcedId, componentId);
  const assignments: SQL[] = [sql`date_last_modified = ${now.toISOString()}`];
  if (changes.title !== undefined) assignments.push(sql`title = ${changes.title}`);
  if (changes.sortOrder !== undefined) assignments.push(sql`sort_order = ${changes.sortOrder}`);
  if (changes.parentComponentSourcedId !== undefined)
    assignments.push(sql`parent_component_sourced_id = ${changes.parentComponentSourcedId}`);
  if (changes.metadata !== undefined)
    assignments.push(
      sql`metadata = ${changes.metadata === null ? null : JSON.stringify(changes.metadata)}::jsonb`,
    );
  await db.execute(
    sql`update course_components set ${sql.join(assignments, sql`, `)} where sourced_id = ${componentId}`,
  );
  return getComponent(db, courseId, componentId);
}

/** Marks a component removed; one that still holds active parts is refused. */
export async function removeComponent(
  db: Database,
  courseId: string,
  componentId: string,
  now: Date,
): Promise<void> {
  await getComponent(db, courseId, componentId);
  const [row] = await queryRows<{ parts: number }>(
    db,
    sql`select count(*)::int as parts from course_components
      where parent_component_sourced_id = ${componentId} and status = 'active'`,
  );
  if (row && row.parts > 0) throw new AppError("conflict", message("rostering:components.stillHasParts"));
  await db.execute(
    sql`update course_components set status = 'tobedeleted', date_last_modified = ${now.toISOString()}
      where sourced_id = ${componentId}`,
  );
}

/** Gives the listed components sortOrder 1, 2, 3… in the order listed, in one transaction. */
export async function reorderComponents(
  db: Database,
  courseId: string,
  componentIds: string[],
  now: Date,
): Promise<void> {
  await requireCourse(db, courseId);
  await db.transaction(async (tx) => {
    const found = await queryRows<{ sourcedId: string }>(
      tx as unknown as Database,
      sql`select sourced_id as "sourcedId" from course_components
        where course_sourced_id = ${courseId} and status = 'active'
          and sourced_id in (${sql.join(
            componentIds.map((id) => sql`${id}`),
            sql`, `,
          )})
        for update`,
    );
    if (found.length !== componentIds.length) {
      const known = new Set(found.map((row) => row.sourcedId));
      const unknown = componentIds.filter((id) => !known.has(id));
      throw invalidFields([
        {
          path: "componentIds",
          message: message("rostering:components.notInCourse", { ids: unknown.join(", ") }),
        },
      ]);
    }
    const positions = componentIds.map((id, index) => sql`(${id}::text, ${index + 1}::int)`);
    await tx.execute(
      sql`update course_components m set sort_order = p.position, date_last_modified = ${now.toISOString()}
        from (values ${sql.join(positions, sql`, `)}) as p(id, position)
        where m.sourced_id = p.id and m.course_sourced_id = ${courseId}`,
    );
  });
}
