import { type SQL, sql } from "drizzle-orm";
import {
  type LessonCreate,
  type LessonSettings,
  MAX_QTI_ITEMS_PER_RESOURCE,
  type ResourceCreate,
  type ResourceInput,
  type SyllabusChange,
  type SyllabusHistoryAction,
  type SyllabusMove,
  type SyllabusTargetKind,
  type UnitChanges,
  type UnitInput,
} from "../../../shared/contracts/content";
import { type Database, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";
import { sanitizeHtml } from "../../lib/sanitize-html";
import { invalidFields } from "../../lib/validation";
import {
  createComponent,
  removeComponent,
  reorderComponents,
  updateComponent,
} from "../rostering/course-components";
import { textArray } from "../rostering/courses";
import { courseNotFound, editableCourses, getSyllabus } from "./syllabus";

/**
 * Edits of a course's syllabus. Units and lessons are course components, created, renamed, moved
 * and removed through rostering/course-components.ts; a lesson's settings and resources are
 * Dash's own tables. Each edit runs in one transaction that first locks the course row (so two
 * edits of one syllabus never interleave) and checks in the same statement that the caller may
 * edit it, then answers the syllabus as it now is.
 */

interface Edit {
  tx: Database;
  courseId: string;
  /** Who made the change: the person signed in, even while viewing Dash as someone else. */
  by: string;
  now: Date;
}

/** What an edit did, for the syllabus's history; `id` is what the caller gets back. */
interface Done {
  action: SyllabusHistoryAction;
  targetKind: SyllabusTargetKind;
  targetId: string;
  details?: Record<string, unknown>;
  id: string | null;
}

async function editSyllabus(
  db: Database,
  actor: Actor,
  courseId: string,
  now: Date,
  change: (edit: Edit) => Promise<Done>,
): Promise<SyllabusChange> {
  const editable = editableCourses(actor);
  if (!editable)
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("content:syllabus.actions.edit") }),
    );
  const id = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [course] = await queryRows<{ sourcedId: string }>(
      tx,
      sql`select c.sourced_id as "sourcedId" from courses c
        where c.sourced_id = ${courseId} and ${editable} for update of c`,
    );
    if (!course) throw courseNotFound();
    const by = actor.realUser.sourcedId;
    const done = await change({ tx, courseId, by, now });
    await tx.execute(
      sql`insert into syllabus_changes (course_sourced_id, actor_sourced_id, action, target_kind, target_id, details, at)
        values (${courseId}, ${by}, ${done.action}, ${done.targetKind}, ${done.targetId},
          ${JSON.stringify(done.details ?? {})}::jsonb, ${now.toISOString()})`,
    );
    return done.id;
  });
  return { syllabus: await getSyllabus(db, actor, courseId), id };
}

// ---- what an id names, within the course

const notFound = (what: "unit" | "lesson" | "resource") =>
  new AppError("not_found", message(`content:syllabus.${what}NotFound`));

/** Active units of the course among `ids`. */
async function unitsAmong(edit: Edit, ids: readonly string[]): Promise<Set<string>> {
  const rows = await queryRows<{ id: string }>(
    edit.tx,
    sql`select u.sourced_id as id from course_components u
      where u.sourced_id = any(${textArray(ids)}) and u.course_sourced_id = ${edit.courseId}
        and u.parent_component_sourced_id is null and u.status = 'active'`,
  );
  return new Set(rows.map((row) => row.id));
}

/** Active lessons of the course among `ids`, with their unit. */
async function lessonsAmong(edit: Edit, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await queryRows<{ id: string; unitId: string }>(
    edit.tx,
    sql`select l.sourced_id as id, u.sourced_id as "unitId" from course_components l
      join course_components u on u.sourced_id = l.parent_component_sourced_id
      where l.sourced_id = any(${textArray(ids)}) and l.course_sourced_id = ${edit.courseId} and l.status = 'active'
        and u.course_sourced_id = ${edit.courseId} and u.parent_component_sourced_id is null and u.status = 'active'`,
  );
  return new Map(rows.map((row) => [row.id, row.unitId]));
}

/** Resources (not removed) of the course's active lessons among `ids`, with their lesson and kind. */
async function resourcesAmong(
  edit: Edit,
  ids: readonly string[],
): Promise<Map<string, { lessonId: string; kind: ResourceInput["kind"] }>> {
  // Resource ids are uuids: other text names no resource.
  const uuids = ids.filter((id) => UUID.test(id));
  if (uuids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; lessonId: string; kind: ResourceInput["kind"] }>(
    edit.tx,
    sql`select r.id::text as id, r.lesson_id as "lessonId", r.kind from lesson_resources r
      where r.id = any(${textArray(uuids)}::uuid[]) and r.removed_at is null
        and r.lesson_id in (select l.sourced_id from course_components l
          join course_components u on u.sourced_id = l.parent_component_sourced_id
          where l.course_sourced_id = ${edit.courseId} and l.status = 'active'
            and u.course_sourced_id = ${edit.courseId} and u.parent_component_sourced_id is null and u.status = 'active')`,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function requireUnit(edit: Edit, unitId: string): Promise<void> {
  if (!(await unitsAmong(edit, [unitId])).has(unitId)) throw notFound("unit");
}

async function requireLesson(edit: Edit, lessonId: string): Promise<void> {
  if (!(await lessonsAmong(edit, [lessonId])).has(lessonId)) throw notFound("lesson");
}

async function requireResource(edit: Edit, resourceId: string): Promise<{ kind: ResourceInput["kind"] }> {
  const resource = (await resourcesAmong(edit, [resourceId])).get(resourceId);
  if (!resource) throw notFound("resource");
  return resource;
}

/** The course's active components under a parent (null: its units), as the condition of a query of course_components. */
const componentsUnder = (edit: Edit, parentId: string | null) =>
  sql`course_sourced_id = ${edit.courseId} and status = 'active'
    and ${parentId === null ? sql`parent_component_sourced_id is null` : sql`parent_component_sourced_id = ${parentId}`}`;

/** The sortOrder that puts a new entry after its siblings (a query of their `sort_order`). */
async function nextSortOrder(edit: Edit, siblingOrders: SQL): Promise<number> {
  const [row] = await queryRows<{ next: number }>(
    edit.tx,
    sql`select coalesce(max(s.sort_order), 0)::int + 1 as next from (${siblingOrders}) s`,
  );
  return row?.next ?? 1;
}

const componentOrders = (edit: Edit, parentId: string | null) =>
  sql`select sort_order from course_components where ${componentsUnder(edit, parentId)}`;
const componentIds = (edit: Edit, parentId: string | null) =>
  sql`select sourced_id from course_components where ${componentsUnder(edit, parentId)}`;

/** Records who changed a lesson and when (its settings row, made with the defaults if it has none). */
async function touchLesson(edit: Edit, lessonId: string, settings: SQL[] = []): Promise<void> {
  const columns = [sql`updated_by = ${edit.by}`, sql`updated_at = ${edit.now.toISOString()}`, ...settings];
  await edit.tx.execute(
    sql`insert into lessons (component_sourced_id, updated_by, updated_at)
      values (${lessonId}, ${edit.by}, ${edit.now.toISOString()})
      on conflict (component_sourced_id) do update set ${sql.join(columns, sql`, `)}`,
  );
}

// ---- units

export function createUnit(db: Database, actor: Actor, courseId: string, input: UnitInput, now: Date) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    const sortOrder = await nextSortOrder(edit, componentOrders(edit, null));
    const unit = await createComponent(
      edit.tx,
      courseId,
      { title: input.title, sortOrder, parentComponentSourcedId: null, metadata: null },
      now,
    );
    return {
      action: "create",
      targetKind: "unit",
      targetId: unit.sourcedId,
      details: input,
      id: unit.sourcedId,
    };
  });
}

export function renameUnit(
  db: Database,
  actor: Actor,
  courseId: string,
  unitId: string,
  changes: UnitChanges,
  now: Date,
) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    await requireUnit(edit, unitId);
    await updateComponent(edit.tx, courseId, unitId, { title: changes.title }, now);
    return { action: "update", targetKind: "unit", targetId: unitId, details: changes, id: unitId };
  });
}

/** Removes an empty unit; one that still has lessons is refused, as any component with parts is. */
export function removeUnit(db: Database, actor: Actor, courseId: string, unitId: string, now: Date) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    await requireUnit(edit, unitId);
    const [row] = await queryRows<{ lessons: number }>(
      edit.tx,
      sql`select count(*)::int as lessons from course_components where ${componentsUnder(edit, unitId)}`,
    );
    if (row && row.lessons > 0) throw new AppError("conflict", message("content:syllabus.unitHasLessons"));
    await removeComponent(edit.tx, courseId, unitId, now);
    return { action: "remove", targetKind: "unit", targetId: unitId, id: null };
  });
}

// ---- lessons

export function createLesson(db: Database, actor: Actor, courseId: string, input: LessonCreate, now: Date) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    await requireUnit(edit, input.unitId);
    const sortOrder = await nextSortOrder(edit, componentOrders(edit, input.unitId));
    const lesson = await createComponent(
      edit.tx,
      courseId,
      { title: input.title, sortOrder, parentComponentSourcedId: input.unitId, metadata: null },
      now,
    );
    await touchLesson(edit, lesson.sourcedId);
    const id = lesson.sourcedId;
    return { action: "create", targetKind: "lesson", targetId: id, details: input, id };
  });
}

export function updateLesson(
  db: Database,
  actor: Actor,
  courseId: string,
  lessonId: string,
  changes: LessonSettings,
  now: Date,
) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    await requireLesson(edit, lessonId);
    if (changes.title !== undefined)
      await updateComponent(edit.tx, courseId, lessonId, { title: changes.title }, now);
    const settings: SQL[] = [];
    if (changes.expectedXp !== undefined) settings.push(sql`expected_xp = ${changes.expectedXp}`);
    if (changes.masteryPercent !== undefined) settings.push(sql`mastery_percent = ${changes.masteryPercent}`);
    const details: Record<string, unknown> = { ...changes };
    if (changes.descriptionHtml !== undefined) {
      details.descriptionHtml = storedRichText(changes.descriptionHtml);
      settings.push(sql`description_html = ${details.descriptionHtml}`);
    }
    await touchLesson(edit, lessonId, settings);
    return { action: "update", targetKind: "lesson", targetId: lessonId, details, id: lessonId };
  });
}

/**
 * Takes a lesson out of the syllabus: its component is marked removed, as every removed component
 * is. Its settings, resources and the attempts students made at it all stay.
 */
export function removeLesson(db: Database, actor: Actor, courseId: string, lessonId: string, now: Date) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    await requireLesson(edit, lessonId);
    await removeComponent(edit.tx, courseId, lessonId, now);
    await touchLesson(edit, lessonId);
    return { action: "remove", targetKind: "lesson", targetId: lessonId, id: null };
  });
}

// ---- resources

/** Sanitised rich text, or null when nothing is left of it. */
function storedRichText(html: string | null): string | null {
  if (html === null) return null;
  const clean = sanitizeHtml(html).trim();
  return isBlankHtml(clean) ? null : clean;
}

/** Markup with no text and no picture, formula or media in it (an editor's empty `<p></p>`). */
function isBlankHtml(html: string): boolean {
  return (
    html
      .replace(/<(?:img|math|svg|video|audio)\b/gi, "x")
      .replace(/<[^>]*>/g, "")
      .trim() === ""
  );
}

const refuse = (path: string, problem: Message) => invalidFields([{ path, message: problem }]);

/** The items a `qti` resource holds: the bank items named, or a bank test's items, each checked to exist. */
async function qtiItemsOf(edit: Edit, input: Extract<ResourceInput, { kind: "qti" }>): Promise<string[]> {
  const hasItems = input.qtiItems.length > 0;
  if (hasItems === (input.qtiTest !== null))
    throw refuse("qtiItems", message("content:syllabus.qtiItemsOrTest"));
  let items = input.qtiItems;
  if (input.qtiTest !== null) {
    const id = input.qtiTest;
    const [test] = await queryRows<{ items: string[] }>(
      edit.tx,
      sql`select "references" as items from qti_documents where kind = 'test' and identifier = ${id}`,
    );
    if (!test) throw refuse("qtiTest", message("content:syllabus.unknownQtiTest", { id }));
    items = [...new Set(test.items)];
    if (items.length === 0) throw refuse("qtiTest", message("content:syllabus.emptyTest", { id }));
    if (items.length > MAX_QTI_ITEMS_PER_RESOURCE)
      throw refuse(
        "qtiTest",
        message("content:syllabus.tooManyTestItems", { id, max: MAX_QTI_ITEMS_PER_RESOURCE }),
      );
    const missing = await missingQtiItems(edit, items);
    if (missing.length)
      throw refuse("qtiTest", message("content:syllabus.testItemsMissing", { id, ids: missing.join(", ") }));
    return items;
  }
  const twice = items.filter((item, index) => items.indexOf(item) !== index);
  if (twice.length)
    throw refuse("qtiItems", message("content:syllabus.itemTwice", { ids: [...new Set(twice)].join(", ") }));
  const missing = await missingQtiItems(edit, items);
  if (missing.length)
    throw refuse(
      "qtiItems",
      message("content:syllabus.unknownQtiItems", { count: missing.length, ids: missing.join(", ") }),
    );
  return items;
}

async function missingQtiItems(edit: Edit, identifiers: string[]): Promise<string[]> {
  const rows = await queryRows<{ identifier: string }>(
    edit.tx,
    sql`select identifier from qti_documents where kind = 'item' and identifier = any(${textArray(identifiers)})`,
  );
  const found = new Set(rows.map((row) => row.identifier));
  return identifiers.filter((identifier) => !found.has(identifier));
}

/** A resource's kind and the columns it sets, as its history keeps them. */
function resourceDetails(kind: ResourceInput["kind"], columns: Awaited<ReturnType<typeof resourceColumns>>) {
  const set = Object.entries(columns).filter(
    ([, value]) => value !== null && !(Array.isArray(value) && value.length === 0),
  );
  return { kind, ...Object.fromEntries(set) };
}

/** The columns a resource's kind sets; the other kinds' columns are cleared. */
async function resourceColumns(edit: Edit, input: ResourceInput) {
  const columns = {
    title: input.title,
    qtiItems: [] as string[],
    qtiTest: null as string | null,
    articleHtml: null as string | null,
    videoUrl: null as string | null,
    appId: null as string | null,
  };
  switch (input.kind) {
    case "qti":
      return { ...columns, qtiItems: await qtiItemsOf(edit, input), qtiTest: input.qtiTest };
    case "article": {
      const articleHtml = storedRichText(input.articleHtml);
      if (articleHtml === null) throw refuse("articleHtml", message("content:syllabus.emptyArticle"));
      return { ...columns, articleHtml };
    }
    case "video":
      return { ...columns, videoUrl: input.videoUrl };
    case "app": {
      const [app] = await queryRows<{ id: string }>(
        edit.tx,
        sql`select id::text from learning_apps where ${uuidEquals(sql`id`, input.appId)}
          and kind = 'learning' and is_active`,
      );
      if (!app) throw refuse("appId", message("content:syllabus.unknownApp"));
      return { ...columns, appId: input.appId };
    }
  }
}

export function createResource(
  db: Database,
  actor: Actor,
  courseId: string,
  input: ResourceCreate,
  now: Date,
) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    await requireLesson(edit, input.lessonId);
    const values = await resourceColumns(edit, input);
    const sortOrder = await nextSortOrder(
      edit,
      sql`select sort_order from lesson_resources where lesson_id = ${input.lessonId} and removed_at is null`,
    );
    const [created] = await queryRows<{ id: string }>(
      edit.tx,
      sql`insert into lesson_resources (lesson_id, kind, title, sort_order, qti_items, qti_test, article_html,
          video_url, app_id, created_by, created_at, updated_by, updated_at)
        values (${input.lessonId}, ${input.kind}, ${values.title}, ${sortOrder}, ${textArray(values.qtiItems)},
          ${values.qtiTest}, ${values.articleHtml}, ${values.videoUrl}, ${values.appId}::uuid,
          ${edit.by}, ${now.toISOString()}, ${edit.by}, ${now.toISOString()})
        returning id::text as id`,
    );
    const id = created?.id as string;
    const details = { lessonId: input.lessonId, ...resourceDetails(input.kind, values) };
    return { action: "create", targetKind: "resource", targetId: id, details, id };
  });
}

/** Replaces a resource's title and content; its kind stays what it was. */
export function updateResource(
  db: Database,
  actor: Actor,
  courseId: string,
  resourceId: string,
  input: ResourceInput,
  now: Date,
) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    const existing = await requireResource(edit, resourceId);
    if (existing.kind !== input.kind) throw refuse("kind", message("content:syllabus.kindFixed"));
    const values = await resourceColumns(edit, input);
    await edit.tx.execute(
      sql`update lesson_resources set title = ${values.title}, qti_items = ${textArray(values.qtiItems)},
          qti_test = ${values.qtiTest}, article_html = ${values.articleHtml}, video_url = ${values.videoUrl},
          app_id = ${values.appId}::uuid, updated_by = ${edit.by}, updated_at = ${now.toISOString()}
        where ${uuidEquals(sql`id`, resourceId)}`,
    );
    const details = resourceDetails(input.kind, values);
    return { action: "update", targetKind: "resource", targetId: resourceId, details, id: resourceId };
  });
}

/** Takes a resource out of its lesson; the row stays for the answers students gave to it. */
export function removeResource(db: Database, actor: Actor, courseId: string, resourceId: string, now: Date) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    await requireResource(edit, resourceId);
    await edit.tx.execute(
      sql`update lesson_resources set removed_at = ${now.toISOString()}, updated_by = ${edit.by},
          updated_at = ${now.toISOString()}
        where ${uuidEquals(sql`id`, resourceId)}`,
    );
    return { action: "remove", targetKind: "resource", targetId: resourceId, id: null };
  });
}

// ---- drag and drop

/**
 * Moves a unit, lesson or resource to its place among the siblings at the destination and numbers
 * them 1, 2, 3… in the order given. Every id must be of the right kind in this course (400), and
 * `orderedIds` must be exactly the destination's siblings once the move is made: a list that
 * differs means the syllabus changed since the caller read it (409), so nothing is guessed.
 */
export function moveInSyllabus(db: Database, actor: Actor, courseId: string, move: SyllabusMove, now: Date) {
  return editSyllabus(db, actor, courseId, now, async (edit) => {
    const { kind, id, parentId, orderedIds } = move;
    const done = {
      action: "move",
      targetKind: kind,
      targetId: id,
      details: { parentId, orderedIds },
      id,
    } as const;
    const twice = orderedIds.filter((entry, index) => orderedIds.indexOf(entry) !== index);
    if (twice.length)
      throw refuse("orderedIds", message("content:syllabus.listedTwice", { ids: twice.join(", ") }));
    if (!orderedIds.includes(id)) throw refuse("orderedIds", message("content:syllabus.movedNotListed"));
    if (kind === "unit" && parentId !== null)
      throw refuse("parentId", message("content:syllabus.unitHasNoParent"));
    if (kind !== "unit" && parentId === null)
      throw refuse("parentId", message("content:syllabus.parentRequired"));

    const notInCourse = (path: string, ids: string[]) =>
      refuse(path, message("content:syllabus.notInCourse", { ids: ids.join(", ") }));
    const checkAll = (known: { has: (id: string) => boolean }) => {
      const unknown = orderedIds.filter((entry) => !known.has(entry));
      if (unknown.length) throw notInCourse("orderedIds", unknown);
    };

    if (kind === "unit") {
      checkAll(await unitsAmong(edit, orderedIds));
      await requireSiblings(edit, orderedIds, componentIds(edit, null));
      await reorderComponents(edit.tx, courseId, orderedIds, now);
      return done;
    }
    const destination = parentId as string;
    if (kind === "lesson") {
      if (!(await unitsAmong(edit, [destination])).has(destination))
        throw notInCourse("parentId", [destination]);
      const lessons = await lessonsAmong(edit, orderedIds);
      checkAll(lessons);
      await requireSiblings(
        edit,
        orderedIds,
        sql`${componentIds(edit, destination)} union select ${id}::text`,
      );
      if (lessons.get(id) !== destination)
        await updateComponent(edit.tx, courseId, id, { parentComponentSourcedId: destination }, now);
      await reorderComponents(edit.tx, courseId, orderedIds, now);
      await touchLesson(edit, id);
      return done;
    }
    if (!(await lessonsAmong(edit, [destination])).has(destination))
      throw notInCourse("parentId", [destination]);
    checkAll(await resourcesAmong(edit, orderedIds));
    await requireSiblings(
      edit,
      orderedIds,
      sql`select id::text from lesson_resources where lesson_id = ${destination} and removed_at is null
        union select ${id}::text`,
    );
    const positions = orderedIds.map((entry, index) => sql`(${entry}::uuid, ${index + 1}::int)`);
    await edit.tx.execute(
      sql`update lesson_resources r set lesson_id = ${destination}, sort_order = p.position,
          updated_by = ${edit.by}, updated_at = ${now.toISOString()}
        from (values ${sql.join(positions, sql`, `)}) as p(id, position)
        where r.id = p.id`,
    );
    return done;
  });
}

/** Refuses an order that does not list exactly the siblings the destination has (409). */
async function requireSiblings(edit: Edit, orderedIds: string[], siblings: SQL): Promise<void> {
  const rows = await queryRows<{ id: string }>(edit.tx, sql`select s.* from (${siblings}) s(id)`);
  const current = new Set(rows.map((row) => row.id));
  if (current.size !== orderedIds.length || orderedIds.some((entry) => !current.has(entry)))
    throw new AppError("conflict", message("content:syllabus.changedMeanwhile"));
}
