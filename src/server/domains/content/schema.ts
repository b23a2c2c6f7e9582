import { sql } from "drizzle-orm";
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The QTI 3 bank: items, shared stimuli and tests, keyed by kind and their `identifier`. The raw
 * XML is kept as imported (QTI 2.2 already converted to 3); the rest is read from it on import so
 * lists and searches never parse XML.
 */
export const qtiDocuments = pgTable(
  "qti_documents",
  {
    kind: text("kind").$type<"item" | "stimulus" | "test">().notNull(),
    identifier: text("identifier").notNull(),
    title: text("title").notNull(),
    rawXml: text("raw_xml").notNull(),
    /** Interaction types, as their QTI 3 element names without the prefix (`choice`, `text-entry`…). */
    interactions: text("interactions").array().notNull().default(sql`'{}'::text[]`),
    /** The response declarations: identifier, cardinality, base type, correct response, mapping. */
    responseDeclarations: jsonb("response_declarations").notNull().default(sql`'[]'::jsonb`),
    /** Identifiers of the shared stimuli an item refers to, or of the items a test holds. */
    references: text("references").array().notNull().default(sql`'{}'::text[]`),
    /** `2.2` when the item was converted on import. */
    sourceVersion: text("source_version").$type<"3.0" | "2.2">().notNull().default("3.0"),
    /** Whether an anonymous embed may show it. */
    isPublic: boolean("is_public").notNull().default(false),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.identifier] }),
    index("qti_documents_updated_idx").on(table.kind, table.updatedAt),
  ],
);

/**
 * The history of the bank: every creation, replacement and change of who may see a document, by
 * whom and from which file. A replacement keeps the XML it overwrote, so an item a lesson was
 * scored against can always be read as it was.
 */
export const qtiDocumentChanges = pgTable(
  "qti_document_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<"item" | "stimulus" | "test">().notNull(),
    identifier: text("identifier").notNull(),
    action: text("action").$type<"created" | "replaced" | "published" | "unpublished">().notNull(),
    actorSourcedId: text("actor_sourced_id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The uploaded file's name, or the package's. */
    source: text("source"),
    previousRawXml: text("previous_raw_xml"),
  },
  (table) => [index("qti_document_changes_document_idx").on(table.kind, table.identifier, table.at)],
);

/**
 * The history of a course's syllabus: each unit, lesson and resource created, changed, moved or
 * removed, by whom and when. Units are bare course components with only a modification date, and
 * lessons and resources keep only their last change: this keeps every one.
 */
export const syllabusChanges = pgTable(
  "syllabus_changes",
  {
    /** In the order the edits were made, which their times (one per request) cannot always tell. */
    id: bigserial("id", { mode: "number" }).primaryKey(),
    courseSourcedId: text("course_sourced_id").notNull(),
    actorSourcedId: text("actor_sourced_id").notNull(),
    action: text("action").$type<"create" | "update" | "remove" | "move">().notNull(),
    targetKind: text("target_kind").$type<"unit" | "lesson" | "resource">().notNull(),
    targetId: text("target_id").notNull(),
    /** What changed: the fields and their new values, or the new parent and order. */
    details: jsonb("details").notNull().default(sql`'{}'::jsonb`),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("syllabus_changes_course_idx").on(table.courseSourcedId, table.id)],
);

/** Media of content packages (pictures, audio, stylesheets), stored once by their SHA-256. */
export const qtiAssets = pgTable("qti_assets", {
  sha256: text("sha256").primaryKey(),
  storageKey: text("storage_key").notNull(),
  fileName: text("file_name").notNull(),
  contentType: text("content_type").notNull(),
  bytes: integer("bytes").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A lesson's settings. A course's syllabus is its components: units at the top, lessons inside a
 * unit; this table adds what a lesson needs beyond a title and an order.
 */
export const lessons = pgTable("lessons", {
  componentSourcedId: text("component_sourced_id").primaryKey(),
  /** XP a student earns for the lesson done fully and well, as an app's expected XP. */
  expectedXp: numeric("expected_xp", { precision: 10, scale: 2, mode: "number" }).notNull().default(10),
  /** The score in percent at or above which the lesson is mastered. */
  masteryPercent: integer("mastery_percent").notNull().default(80),
  /** Sanitised HTML shown above the resources. */
  descriptionHtml: text("description_html"),
  updatedBy: text("updated_by"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A lesson's resources, in `sortOrder` (unsorted ones last). Removed ones are kept for their answers. */
export const lessonResources = pgTable(
  "lesson_resources",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lessonId: text("lesson_id").notNull(),
    kind: text("kind").$type<"qti" | "article" | "video" | "app">().notNull(),
    title: text("title").notNull(),
    sortOrder: integer("sort_order"),
    /** The QTI items of a `qti` resource (or the items of the test it was made from), in order. */
    qtiItems: text("qti_items").array().notNull().default(sql`'{}'::text[]`),
    /** The QTI test a `qti` resource was made from, if any. */
    qtiTest: text("qti_test"),
    /** Sanitised HTML of an `article`. */
    articleHtml: text("article_html"),
    videoUrl: text("video_url"),
    appId: uuid("app_id"),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (table) => [index("lesson_resources_lesson_idx").on(table.lessonId)],
);

/**
 * A student's go at a lesson. One attempt at a time is open; a finished one has its score, whether
 * it mastered the lesson, and the activity event that carried its XP.
 */
export const lessonAttempts = pgTable(
  "lesson_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    lessonId: text("lesson_id").notNull(),
    studentSourcedId: text("student_sourced_id").notNull(),
    attemptNumber: integer("attempt_number").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    scorePercent: numeric("score_percent", { precision: 5, scale: 2, mode: "number" }),
    correctItems: integer("correct_items").notNull().default(0),
    totalItems: integer("total_items").notNull().default(0),
    mastered: boolean("mastered").notNull().default(false),
    activeSeconds: integer("active_seconds").notNull().default(0),
    /** The event id the finished attempt was reported to the XP engine under. */
    activityEventId: text("activity_event_id"),
  },
  (table) => [
    uniqueIndex("lesson_attempts_number_idx").on(table.lessonId, table.studentSourcedId, table.attemptNumber),
    uniqueIndex("lesson_attempts_open_idx")
      .on(table.lessonId, table.studentSourcedId)
      .where(sql`${table.finishedAt} is null`),
    index("lesson_attempts_student_idx").on(table.studentSourcedId, table.lessonId),
  ],
);

/** The latest answer to one item within an attempt, scored on the server. */
export const lessonItemResponses = pgTable(
  "lesson_item_responses",
  {
    attemptId: uuid("attempt_id")
      .notNull()
      .references(() => lessonAttempts.id, { onDelete: "cascade" }),
    resourceId: uuid("resource_id").notNull(),
    itemIdentifier: text("item_identifier").notNull(),
    /** The responses by response identifier, as the player gave them. */
    response: jsonb("response").notNull(),
    score: numeric("score", { precision: 10, scale: 2, mode: "number" }).notNull(),
    maxScore: numeric("max_score", { precision: 10, scale: 2, mode: "number" }).notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.attemptId, table.resourceId, table.itemIdentifier] })],
);

/** Lessons or courses a Guide assigned to a student or a class, with an optional due date. */
export const learningAssignments = pgTable(
  "learning_assignments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    targetKind: text("target_kind").$type<"lesson" | "course">().notNull(),
    targetId: text("target_id").notNull(),
    assigneeKind: text("assignee_kind").$type<"student" | "class">().notNull(),
    assigneeId: text("assignee_id").notNull(),
    dueDate: date("due_date"),
    note: text("note"),
    assignedBy: text("assigned_by").notNull(),
    assignedAt: timestamp("assigned_at", { withTimezone: true }).notNull().defaultNow(),
    /** Who last changed the due date or note, and when (null until the first change). */
    updatedBy: text("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    removedBy: text("removed_by"),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("learning_assignments_active_idx")
      .on(table.targetKind, table.targetId, table.assigneeKind, table.assigneeId)
      .where(sql`${table.removedAt} is null`),
    index("learning_assignments_assignee_idx").on(table.assigneeKind, table.assigneeId),
  ],
);

/** Lesson resources a student kept for later. */
export const savedResources = pgTable(
  "saved_resources",
  {
    studentSourcedId: text("student_sourced_id").notNull(),
    resourceId: uuid("resource_id").notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.studentSourcedId, table.resourceId] })],
);
