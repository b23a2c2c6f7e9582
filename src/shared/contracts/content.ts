import { z } from "zod";
import { invalid } from "../validation-messages";
import { DEFAULT_INGEST_LIMITS } from "./activity";
import { calendarDate, changesOf, pageFields } from "./fields";

/**
 * Content: the QTI 3 item bank, courses' syllabi (units → lessons → resources), lessons taken by
 * students, assignments and progress. Requests and answers of /api/qti and /api/content.
 */

/** The most a file answer (an upload, sent as a data URL inside the JSON) may weigh. */
export const MAX_ANSWER_FILE_BYTES = 640 * 1024;
const MAX_TEXT_ANSWER_LENGTH = 20_000;
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(;[\w=.+-]+)*;base64,/;
const MAX_DATA_URL_LENGTH = Math.ceil(MAX_ANSWER_FILE_BYTES / 3) * 4 + 200;

/** A learner's answer to one response of an item, as the QTI player gives it. */
export const qtiResponseValueSchema = z.union([
  z
    .string()
    .refine(
      (value) =>
        value.length <= MAX_TEXT_ANSWER_LENGTH ||
        (value.length <= MAX_DATA_URL_LENGTH && DATA_URL.test(value)),
      invalid("answerTooLarge"),
    ),
  z.array(z.string().max(2_000)).max(200),
  z.null(),
]);
export type QtiResponseValue = z.infer<typeof qtiResponseValueSchema>;

// ---- QTI item bank ----

/**
 * The bank's documents: items (`qti-assessment-item`), shared stimuli (`qti-assessment-stimulus`)
 * and tests (`qti-assessment-test`), each keyed by kind and its `identifier`. Answers of /api/qti.
 */
export const QTI_KINDS = ["item", "stimulus", "test"] as const;
export type QtiKind = (typeof QTI_KINDS)[number];
export type QtiSourceVersion = "3.0" | "2.2";

/** A QTI identifier as the bank takes it: letters, digits, `_`, `.` and `-`, at most 200 characters. */
export const QTI_IDENTIFIER_PATTERN = /^[\p{L}\p{N}_][\p{L}\p{N}_.-]{0,199}$/u;

/** An uploaded package: at most this many bytes (its media included). */
export const MAX_QTI_PACKAGE_BYTES = 512 * 1024 * 1024;

export const qtiMappingSchema = z.object({
  defaultValue: z.number(),
  lowerBound: z.number().nullable(),
  upperBound: z.number().nullable(),
  entries: z.array(z.object({ mapKey: z.string(), mappedValue: z.number(), caseSensitive: z.boolean() })),
});
export type QtiMapping = z.infer<typeof qtiMappingSchema>;

export const qtiAreaMappingSchema = z.object({
  defaultValue: z.number(),
  lowerBound: z.number().nullable(),
  upperBound: z.number().nullable(),
  entries: z.array(z.object({ shape: z.string(), coords: z.string(), mappedValue: z.number() })),
});
export type QtiAreaMapping = z.infer<typeof qtiAreaMappingSchema>;

/** A response declaration as read from an item: what scoring and reports need without the XML. */
export const qtiResponseDeclarationSchema = z.object({
  identifier: z.string(),
  cardinality: z.string(),
  baseType: z.string().nullable(),
  /** The correct response's values (one for single cardinality), or null when the item gives none. */
  correctResponse: z.array(z.string()).nullable(),
  mapping: qtiMappingSchema.nullable(),
  areaMapping: qtiAreaMappingSchema.nullable(),
});
export type QtiResponseDeclaration = z.infer<typeof qtiResponseDeclarationSchema>;

/** GET /api/qti/items/:identifier and /api/qti/stimuli/:identifier (the spec's `fetchQti`). */
export const qtiDocumentSchema = z.object({
  identifier: z.string(),
  title: z.string(),
  rawXml: z.string(),
  /** The interaction types of an item (`choice`, `text-entry`…); none for a stimulus. */
  interactions: z.array(z.string()),
  /** An item's shared stimuli, by identifier. */
  references: z.array(z.string()),
  /** Whether anonymous embeds may show it (a stimulus: marked public, or used by a public item). */
  isPublic: z.boolean(),
});
export type QtiDocument = z.infer<typeof qtiDocumentSchema>;

/** GET /api/qti/tests/:identifier: the test and the items it holds, in order. */
export const qtiTestSchema = z.object({
  identifier: z.string(),
  title: z.string(),
  rawXml: z.string(),
  items: z.array(
    z.object({
      identifier: z.string(),
      /** Null when the bank does not hold the item (yet). */
      title: z.string().nullable(),
      interactions: z.array(z.string()),
    }),
  ),
});
export type QtiTest = z.infer<typeof qtiTestSchema>;

/** GET /api/qti/items (and stimuli, tests): search on title and identifier, by interaction type. */
export const qtiListQuerySchema = z.object({
  search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
  interaction: z.string().trim().max(100).optional(),
  ...pageFields(50),
});
export type QtiListQuery = z.infer<typeof qtiListQuerySchema>;

export const qtiListRowSchema = z.object({
  identifier: z.string(),
  title: z.string(),
  interactions: z.array(z.string()),
  isPublic: z.boolean(),
  updatedAt: z.string(),
  sourceVersion: z.enum(["3.0", "2.2"]),
});
export type QtiListRow = z.infer<typeof qtiListRowSchema>;

export const qtiListResponseSchema = z.object({
  data: z.array(qtiListRowSchema),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type QtiListResponse = z.infer<typeof qtiListResponseSchema>;

/** PATCH /api/qti/items/:identifier and /api/qti/stimuli/:identifier: whether anonymous embeds may show it. */
export const qtiPublicChangeSchema = changesOf({ public: z.boolean() });
export type QtiPublicChange = z.infer<typeof qtiPublicChangeSchema>;

/** One XML document imported: POST /api/qti/items (stimuli, tests) with an XML body or file. */
export const qtiDocumentImportSchema = z.object({
  kind: z.enum(QTI_KINDS),
  identifier: z.string(),
  title: z.string(),
  interactions: z.array(z.string()),
  sourceVersion: z.enum(["3.0", "2.2"]),
  /** False when a document with this identifier was there and is now replaced. */
  created: z.boolean(),
});
export type QtiDocumentImport = z.infer<typeof qtiDocumentImportSchema>;

/** Something of a package that was imported as it was: a missing or unsupported media file. */
export const qtiPackageWarningSchema = z.object({ path: z.string(), message: z.string() });
export type QtiPackageWarning = z.infer<typeof qtiPackageWarningSchema>;

/** A content package imported: POST /api/qti/items with a .zip. */
export const qtiPackageImportSchema = z.object({
  kind: z.literal("package"),
  items: z.number().int(),
  stimuli: z.number().int(),
  tests: z.number().int(),
  /** Media files the package holds, each stored once by its content. */
  assets: z.number().int(),
  identifiers: z.object({
    items: z.array(z.string()),
    stimuli: z.array(z.string()),
    tests: z.array(z.string()),
  }),
  warnings: z.array(qtiPackageWarningSchema),
});
export type QtiPackageImport = z.infer<typeof qtiPackageImportSchema>;

export const qtiImportResponseSchema = z.union([qtiDocumentImportSchema, qtiPackageImportSchema]);
export type QtiImportResponse = z.infer<typeof qtiImportResponseSchema>;

/** What a response is worth for one item: `scored` is false for items only a person can mark (0 of 0). */
export interface QtiItemScore {
  score: number;
  maxScore: number;
  scored: boolean;
}

// ---- Syllabus and course builder ----

/**
 * A course's syllabus: its units (top-level components), each unit's lessons (components whose
 * parent is the unit) and each lesson's resources, every level in `sortOrder` with unsorted ones
 * last, then by title. Answers of GET /api/content/courses/:courseId/syllabus and of every edit.
 */

export const SYLLABUS_RESOURCE_KINDS = ["qti", "article", "video", "app"] as const;
export type SyllabusResourceKind = (typeof SYLLABUS_RESOURCE_KINDS)[number];

/** A finished lesson is one learning event: its XP cannot pass what the XP engine credits one event. */
export const LESSON_LIMITS = {
  maxExpectedXp: DEFAULT_INGEST_LIMITS.maxXpPerEvent,
  minMastery: 1,
  maxMastery: 100,
} as const;
/** How many QTI items one resource may hold. */
export const MAX_QTI_ITEMS_PER_RESOURCE = 200;

export const syllabusResourceSchema = z.object({
  id: z.string(),
  kind: z.enum(SYLLABUS_RESOURCE_KINDS),
  title: z.string(),
  sortOrder: z.number().nullable(),
  qtiItems: z.array(z.string()),
  qtiTest: z.string().nullable(),
  articleHtml: z.string().nullable(),
  videoUrl: z.string().nullable(),
  appId: z.string().nullable(),
  appName: z.string().nullable(),
  launchUrl: z.string().nullable(),
});
export type SyllabusResource = z.infer<typeof syllabusResourceSchema>;

export const syllabusLessonSchema = z.object({
  sourcedId: z.string(),
  title: z.string(),
  sortOrder: z.number().nullable(),
  expectedXp: z.number(),
  masteryPercent: z.number(),
  descriptionHtml: z.string().nullable(),
  resources: z.array(syllabusResourceSchema),
});
export type SyllabusLesson = z.infer<typeof syllabusLessonSchema>;

export const syllabusUnitSchema = z.object({
  sourcedId: z.string(),
  title: z.string(),
  sortOrder: z.number().nullable(),
  lessons: z.array(syllabusLessonSchema),
});
export type SyllabusUnit = z.infer<typeof syllabusUnitSchema>;

export const syllabusSchema = z.object({
  course: z.object({
    sourcedId: z.string(),
    title: z.string(),
    subjects: z.array(z.string()),
    grades: z.array(z.string()),
  }),
  units: z.array(syllabusUnitSchema),
});
export type Syllabus = z.infer<typeof syllabusSchema>;

/** The spec's fetchSyllabus answer. */
export const syllabusResponseSchema = z.object({
  success: z.literal(true),
  response: z.object({ syllabus: syllabusSchema }),
});

/** Every edit answers the syllabus as it now is, and the id of what it created or changed. */
export const syllabusChangeResponseSchema = z.object({
  success: z.literal(true),
  response: z.object({ syllabus: syllabusSchema, id: z.string().nullable() }),
});
export type SyllabusChange = z.infer<typeof syllabusChangeResponseSchema>["response"];

const syllabusId = z
  .string(invalid("componentIdRequired"))
  .trim()
  .min(1, invalid("componentIdRequired"))
  .max(200, invalid("componentIdTooLong"));
const syllabusTitle = z.string(invalid("componentTitle")).trim().min(1, invalid("componentTitle")).max(200);
const qtiIdentifier = z.string().trim().min(1).max(200);
/** Rich text as the editor gives it; the server keeps only what the sanitiser allows. */
const richText = z.string().max(200_000);

export const unitInputSchema = z.object({ title: syllabusTitle });
export type UnitInput = z.infer<typeof unitInputSchema>;
/** PATCH of a unit: its title (a PATCH naming nothing known is "Nothing to change"). */
export const unitChangesSchema = changesOf(unitInputSchema.shape);
export type UnitChanges = z.output<typeof unitChangesSchema>;

export const lessonCreateSchema = z.object({ unitId: syllabusId, title: syllabusTitle });
export type LessonCreate = z.infer<typeof lessonCreateSchema>;

const expectedXp = z
  .number()
  .min(0, invalid("atLeast"))
  .max(LESSON_LIMITS.maxExpectedXp, invalid("atMost"))
  .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, invalid("amountDecimals"));
const masteryPercent = z
  .number(invalid("wholeNumberOnly"))
  .int(invalid("wholeNumberOnly"))
  .min(LESSON_LIMITS.minMastery, invalid("atLeast"))
  .max(LESSON_LIMITS.maxMastery, invalid("atMost"));

/** A lesson's title and settings; only the fields given change. */
export const lessonSettingsSchema = changesOf({
  title: syllabusTitle,
  expectedXp,
  masteryPercent,
  descriptionHtml: richText.nullable(),
});
export type LessonSettings = z.infer<typeof lessonSettingsSchema>;

const qtiResource = z.object({
  kind: z.literal("qti"),
  title: syllabusTitle,
  /** Bank items in the order shown; or empty when the resource is made from `qtiTest`. */
  qtiItems: z.array(qtiIdentifier).max(MAX_QTI_ITEMS_PER_RESOURCE, invalid("atMost")).default([]),
  /** A bank test whose items the resource takes (copied when it is saved). */
  qtiTest: qtiIdentifier.nullable().default(null),
});
const articleResource = z.object({ kind: z.literal("article"), title: syllabusTitle, articleHtml: richText });
const videoResource = z.object({
  kind: z.literal("video"),
  title: syllabusTitle,
  videoUrl: z.url({ protocol: /^https$/, message: invalid("fullHttpsAddress") }).max(2000),
});
const appResource = z.object({
  kind: z.literal("app"),
  title: syllabusTitle,
  appId: z.uuid(),
});

/** A resource as the builder sends it: its kind decides its other fields. */
export const resourceInputSchema = z.discriminatedUnion("kind", [
  qtiResource,
  articleResource,
  videoResource,
  appResource,
]);
export type ResourceInput = z.infer<typeof resourceInputSchema>;

export const resourceCreateSchema = z.intersection(z.object({ lessonId: syllabusId }), resourceInputSchema);
export type ResourceCreate = z.infer<typeof resourceCreateSchema>;

export const SYLLABUS_MOVE_KINDS = ["unit", "lesson", "resource"] as const;

/**
 * Drag and drop: `id` goes under `parentId` (a unit for a lesson, a lesson for a resource, null
 * for a unit), and `orderedIds` is the new order of every sibling at the destination, `id` included.
 */
export const syllabusMoveSchema = z.object({
  kind: z.enum(SYLLABUS_MOVE_KINDS),
  id: syllabusId,
  parentId: syllabusId.nullable(),
  orderedIds: z.array(syllabusId).min(1).max(500, invalid("atMost")),
});
export type SyllabusMove = z.infer<typeof syllabusMoveSchema>;

export const SYLLABUS_HISTORY_ACTIONS = ["create", "update", "remove", "move"] as const;
export type SyllabusHistoryAction = (typeof SYLLABUS_HISTORY_ACTIONS)[number];
export type SyllabusTargetKind = (typeof SYLLABUS_MOVE_KINDS)[number];

/** GET …/syllabus/changes: the syllabus's history, newest first. */
export const syllabusHistoryQuerySchema = z.object({ ...pageFields(20) });

/** One edit of a syllabus: who did what to which unit, lesson or resource (its title as it now is). */
export const syllabusHistoryEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ sourcedId: z.string(), name: z.string() }),
  action: z.enum(SYLLABUS_HISTORY_ACTIONS),
  targetKind: z.enum(SYLLABUS_MOVE_KINDS),
  targetId: z.string(),
  targetTitle: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type SyllabusHistoryEntry = z.infer<typeof syllabusHistoryEntrySchema>;

export const syllabusHistoryResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(syllabusHistoryEntrySchema),
  total: z.number(),
  error: z.null(),
});

/** admin/lesson: lessons across courses. */
export const lessonListQuerySchema = z.object({
  search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
  courseId: z
    .string()
    .trim()
    .min(1, invalid("courseIdRequired"))
    .max(200, invalid("courseIdTooLong"))
    .optional(),
  ...pageFields(25),
});
export type LessonListQuery = z.infer<typeof lessonListQuerySchema>;

export const lessonListRowSchema = z.object({
  sourcedId: z.string(),
  title: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  unitId: z.string(),
  unitTitle: z.string(),
  resourceCount: z.number(),
  expectedXp: z.number(),
  masteryPercent: z.number(),
  descriptionHtml: z.string().nullable(),
  studentsAttempted: z.number(),
  updatedAt: z.string().nullable(),
});
export type LessonListRow = z.infer<typeof lessonListRowSchema>;

export const lessonListResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(lessonListRowSchema),
  total: z.number(),
  error: z.null(),
});

// ---- Lessons, attempts, assignments, progress and resources ----

// Lessons and attempts: a student takes a lesson (GET /lessons/:lessonId), starts an attempt,
// saves answers as they go and finishes; the finished attempt's XP goes through the XP engine.

/** A lesson's settings when it has no row of its own. */
export const LESSON_DEFAULT_EXPECTED_XP = 10;
export const LESSON_DEFAULT_MASTERY_PERCENT = 80;

/** At most this many responses in one item's answer. */
export const LESSON_MAX_RESPONSES_PER_ITEM = 50;

/**
 * What became of a finished attempt's XP: credited by the XP engine, held for a Guide or an
 * administrator to approve, turned down at that review, or not recorded (the engine refused it).
 */
export const LESSON_XP_STATUSES = ["credited", "held", "dismissed", "notRecorded"] as const;
export type LessonXpStatus = (typeof LESSON_XP_STATUSES)[number];

export const lessonXpOutcomeSchema = z.object({
  status: z.enum(LESSON_XP_STATUSES),
  /** Credited, or waiting for approval; 0 otherwise. */
  xp: z.number(),
  /** The engine's account of the figure, as it stores it (English). */
  explanation: z.string().nullable(),
});
export type LessonXpOutcome = z.infer<typeof lessonXpOutcomeSchema>;

export const lessonAttemptSummarySchema = z.object({
  id: z.string(),
  number: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Points scored of the points available, in percent; null while open or with nothing to score. */
  scorePercent: z.number().nullable(),
  correctItems: z.number().int(),
  totalItems: z.number().int(),
  mastered: z.boolean(),
  /** Null while the attempt is open. */
  xp: lessonXpOutcomeSchema.nullable(),
});
export type LessonAttemptSummary = z.infer<typeof lessonAttemptSummarySchema>;

export const lessonItemSchema = z.object({
  identifier: z.string(),
  title: z.string(),
  /**
   * The item to show, its template values fixed for the open attempt and its answers and feedback
   * left out; null while the student has no open attempt.
   */
  rawXml: z.string().nullable(),
});

export const lessonResourceSchema = z.discriminatedUnion("kind", [
  z.object({ id: z.string(), kind: z.literal("qti"), title: z.string(), items: z.array(lessonItemSchema) }),
  z.object({ id: z.string(), kind: z.literal("article"), title: z.string(), html: z.string() }),
  z.object({ id: z.string(), kind: z.literal("video"), title: z.string(), url: z.string().nullable() }),
  z.object({
    id: z.string(),
    kind: z.literal("app"),
    title: z.string(),
    app: z.object({ id: z.string(), name: z.string(), launchUrl: z.string().nullable() }).nullable(),
  }),
]);
export type LessonResource = z.infer<typeof lessonResourceSchema>;

/** An item's answer as the player gave it: responses by response identifier. */
export const lessonItemResponseSchema = z
  .record(z.string().trim().min(1).max(200), qtiResponseValueSchema)
  .refine((responses) => Object.keys(responses).length <= LESSON_MAX_RESPONSES_PER_ITEM);

/** A resource as the lesson view gives it, with whether the student keeps it for later. */
export const lessonViewResourceSchema = lessonResourceSchema.and(
  z.object({
    /** The student's own keep (false in a preview). */
    saved: z.boolean(),
  }),
);
export type LessonViewResource = z.infer<typeof lessonViewResourceSchema>;

/** GET /api/content/lessons/:lessonId */
export const lessonViewSchema = z.object({
  lesson: z.object({
    id: z.string(),
    title: z.string(),
    descriptionHtml: z.string().nullable(),
    expectedXp: z.number(),
    masteryPercent: z.number().int(),
    subject: z.string(),
    unit: z.object({ id: z.string(), title: z.string() }),
    course: z.object({ id: z.string(), title: z.string() }),
  }),
  /** `student`: the caller's own lesson; `preview`: staff looking at it (nothing is kept). */
  mode: z.enum(["student", "preview"]),
  /** Whether the caller may start, answer and finish attempts (not while viewing as a student). */
  canAnswer: z.boolean(),
  /**
   * Whether the caller may keep the lesson's resources for later (PUT and DELETE
   * /api/content/saved-resources/:resourceId): the student themself, not staff viewing as them.
   */
  canSave: z.boolean(),
  resources: z.array(lessonViewResourceSchema),
  /** The student's attempts, newest first. */
  attempts: z.array(lessonAttemptSummarySchema),
  openAttempt: z
    .object({
      id: z.string(),
      number: z.number().int(),
      startedAt: z.string(),
      responses: z.array(
        z.object({ resourceId: z.string(), itemIdentifier: z.string(), response: lessonItemResponseSchema }),
      ),
    })
    .nullable(),
  /** Whether an attempt mastered the lesson. */
  mastered: z.boolean(),
});
export type LessonView = z.infer<typeof lessonViewSchema>;

/** POST /api/content/lessons/:lessonId/attempts answers the open attempt (201 when it is new). */
export const lessonAttemptStartedSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  isNew: z.boolean(),
});
export type LessonAttemptStarted = z.infer<typeof lessonAttemptStartedSchema>;

/** PUT /api/content/attempts/:attemptId/responses: the latest answer to one item. */
export const attemptResponseInputSchema = z.object({
  resourceId: z.string().trim().min(1).max(100),
  itemIdentifier: z.string().trim().min(1).max(200),
  response: lessonItemResponseSchema,
});
export type AttemptResponseInput = z.infer<typeof attemptResponseInputSchema>;

/** POST /api/content/attempts/:attemptId/finish: the seconds the page was seen and in focus. */
export const attemptFinishInputSchema = z.object({
  activeSeconds: z.number().int().min(0).max(86_400),
});
export type AttemptFinishInput = z.infer<typeof attemptFinishInputSchema>;

export const attemptItemResultSchema = z.object({
  resourceId: z.string(),
  itemIdentifier: z.string(),
  title: z.string(),
  answered: z.boolean(),
  /** Whether the item is scored automatically; an unscored one (a written answer) does not count. */
  scored: z.boolean(),
  score: z.number(),
  maxScore: z.number(),
  correct: z.boolean(),
});
export type AttemptItemResult = z.infer<typeof attemptItemResultSchema>;

/** The finish's answer, and GET /api/content/attempts/:attemptId of a finished attempt. */
export const attemptResultSchema = z.object({
  lessonId: z.string(),
  attempt: lessonAttemptSummarySchema,
  /** Whether this attempt was the first to master the lesson (a mastered unit for the student). */
  firstMastery: z.boolean(),
  masteryPercent: z.number().int(),
  expectedXp: z.number(),
  /** Below this share of right answers the XP engine gives no XP, in percent. */
  accuracyFloorPercent: z.number(),
  items: z.array(attemptItemResultSchema),
});
export type AttemptResult = z.infer<typeof attemptResultSchema>;

// Assignments (required learning), course progress and a student's resources.

export const ASSIGNMENT_TARGET_KINDS = ["lesson", "course"] as const;
export type AssignmentTargetKind = (typeof ASSIGNMENT_TARGET_KINDS)[number];
export const ASSIGNEE_KINDS = ["student", "class"] as const;
export type AssigneeKind = (typeof ASSIGNEE_KINDS)[number];
/** `open`: someone has lessons left; `overdue`: open past its due date; `completed`: everyone is done. */
export const ASSIGNMENT_STATUS_FILTERS = ["open", "overdue", "completed"] as const;
/**
 * A student's progress in a lesson, or through the lessons of an assignment or a course: `mastered`
 * is completed too (a finished attempt that mastered it); `in_progress` has an attempt open and none
 * finished (or, across lessons, some started but not all completed).
 */
export const LEARNING_STATUSES = ["not_started", "in_progress", "completed", "mastered"] as const;
export type LearningStatus = (typeof LEARNING_STATUSES)[number];
/** The most assignees one request may name. */
export const MAX_ASSIGNEES = 200;

const assignmentId = z.string().trim().min(1).max(200);
const assignmentDueDate = calendarDate().nullable();
const assignmentNote = z.string().trim().max(1_000, invalid("noteTooLong")).nullable();

export const assigneeSchema = z.object({ kind: z.enum(ASSIGNEE_KINDS), id: assignmentId });
export type Assignee = z.infer<typeof assigneeSchema>;

/**
 * POST /api/content/assignments: one assignment per assignee, in one transaction. An assignee that
 * already has this target keeps its assignment, with the new due date and note.
 */
export const assignmentInputSchema = z.object({
  targetKind: z.enum(ASSIGNMENT_TARGET_KINDS),
  targetId: assignmentId,
  assignees: z
    .array(assigneeSchema)
    .min(1)
    .max(MAX_ASSIGNEES)
    // Naming someone twice asks for the same thing twice: once is enough.
    .transform((assignees) => [
      ...new Map(assignees.map((entry) => [`${entry.kind}:${entry.id}`, entry])).values(),
    ]),
  dueDate: assignmentDueDate.default(null),
  note: assignmentNote.transform((note) => note || null).default(null),
});
export type AssignmentInput = z.output<typeof assignmentInputSchema>;

/** PATCH /api/content/assignments/:id: a new due date or note (null clears it). */
export const assignmentChangesSchema = changesOf({
  dueDate: assignmentDueDate,
  note: assignmentNote.transform((note) => note || null),
});
export type AssignmentChanges = z.output<typeof assignmentChangesSchema>;

/** GET /api/content/assignments. */
export const assignmentListQuerySchema = z.object({
  classId: assignmentId.optional(),
  studentId: assignmentId.optional(),
  status: z.enum(ASSIGNMENT_STATUS_FILTERS).optional(),
  ...pageFields(50),
});
export type AssignmentListQuery = z.output<typeof assignmentListQuerySchema>;

/** How many students are at each step of something: `completed` counts the mastered ones too. */
export const studentCountsSchema = z.object({
  students: z.number(),
  notStarted: z.number(),
  inProgress: z.number(),
  completed: z.number(),
  mastered: z.number(),
});
export type StudentCounts = z.infer<typeof studentCountsSchema>;

export const assignmentSchema = z.object({
  id: z.string(),
  targetKind: z.enum(ASSIGNMENT_TARGET_KINDS),
  targetId: z.string(),
  targetTitle: z.string(),
  courseId: z.string().nullable(),
  courseTitle: z.string().nullable(),
  /** The unit of a lesson target. */
  unitTitle: z.string().nullable(),
  /** The lessons the target holds now. */
  lessonCount: z.number(),
  assigneeKind: z.enum(ASSIGNEE_KINDS),
  assigneeId: z.string(),
  assigneeName: z.string(),
  dueDate: z.string().nullable(),
  note: z.string().nullable(),
  assignedAt: z.string(),
  assignedBy: z.string().nullable(),
  /** Past its due date (in the student's, or the school's, timezone) with someone not done. */
  isOverdue: z.boolean(),
  /** The assignee's students the caller reaches, by their progress through the target. */
  progress: studentCountsSchema,
  canChange: z.boolean(),
});
export type Assignment = z.infer<typeof assignmentSchema>;

export const assignmentListSchema = z.object({
  assignments: z.array(assignmentSchema),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
});
export type AssignmentList = z.infer<typeof assignmentListSchema>;

export const assignmentsCreatedSchema = z.object({
  /** The assignment of each assignee, in the order asked; `isNew` is false for one that was updated. */
  assignments: z.array(
    z.object({
      id: z.string(),
      assigneeKind: z.enum(ASSIGNEE_KINDS),
      assigneeId: z.string(),
      isNew: z.boolean(),
    }),
  ),
});

/** One lesson of a student's assignment, with how far they are. */
export const assignedLessonSchema = z.object({
  id: z.string(),
  title: z.string(),
  unitTitle: z.string(),
  status: z.enum(LEARNING_STATUSES),
});

/** What a student was given to do (directly or through a class), with how far they are. */
export const studentAssignmentSchema = z.object({
  id: z.string(),
  targetKind: z.enum(ASSIGNMENT_TARGET_KINDS),
  targetId: z.string(),
  title: z.string(),
  courseId: z.string().nullable(),
  courseTitle: z.string().nullable(),
  dueDate: z.string().nullable(),
  note: z.string().nullable(),
  assignedAt: z.string(),
  assignedBy: z.string().nullable(),
  /** The class it came through, when it was given to a class. */
  className: z.string().nullable(),
  status: z.enum(LEARNING_STATUSES),
  isOverdue: z.boolean(),
  lessons: z.array(assignedLessonSchema),
  /** The first lesson not yet completed, to go on with. */
  nextLessonId: z.string().nullable(),
});
export type StudentAssignment = z.infer<typeof studentAssignmentSchema>;

/** GET /api/content/assignments/mine: a student's assignments, the next due first. */
export const myAssignmentsSchema = z.object({
  /** The student's today, for telling what is due soon. */
  today: z.string(),
  assignments: z.array(studentAssignmentSchema),
});
export type MyAssignments = z.infer<typeof myAssignmentsSchema>;

/** Lessons of a course (or unit, or class) at each step, summed over students. */
export const lessonCountsSchema = z.object({
  lessons: z.number(),
  notStarted: z.number(),
  inProgress: z.number(),
  completed: z.number(),
  mastered: z.number(),
  /** Completed lessons out of all, in whole percent (rounded down: 100 only when every one is). */
  percentComplete: z.number(),
  percentMastered: z.number(),
});
export type LessonCounts = z.infer<typeof lessonCountsSchema>;

/** GET /api/content/progress and /progress.csv. */
export const courseProgressQuerySchema = z.object({
  courseId: z.string(invalid("courseIdRequired")).trim().min(1, invalid("courseIdRequired")).max(200),
  classId: assignmentId.optional(),
});
export type CourseProgressQuery = z.output<typeof courseProgressQuerySchema>;

export const courseProgressSchema = z.object({
  course: z.object({ id: z.string(), title: z.string(), subjects: z.array(z.string()) }),
  lessonCount: z.number(),
  /** Every student's lessons together. */
  totals: lessonCountsSchema,
  /** The course's classes the caller reaches (all of them, whatever the class filter). */
  classes: z.array(
    z.object({ id: z.string(), title: z.string(), students: z.number(), counts: lessonCountsSchema }),
  ),
  units: z.array(z.object({ id: z.string(), title: z.string(), counts: lessonCountsSchema })),
  students: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      classIds: z.array(z.string()),
      counts: lessonCountsSchema,
      lastActivityAt: z.string().nullable(),
    }),
  ),
});
export type CourseProgress = z.infer<typeof courseProgressSchema>;

/** GET /api/content/students/:studentId/resources. */
export const studentResourcesSchema = z.object({
  student: z.object({ id: z.string(), name: z.string(), givenName: z.string() }),
  today: z.string(),
  courses: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      subjects: z.array(z.string()),
      classTitles: z.array(z.string()),
      counts: lessonCountsSchema,
      lastActivityAt: z.string().nullable(),
    }),
  ),
  assignments: z.array(studentAssignmentSchema),
  apps: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      icon: z.string().nullable(),
      subjects: z.array(z.string()),
      launchUrl: z.string(),
    }),
  ),
  saved: z.array(
    z.object({
      resourceId: z.string(),
      title: z.string(),
      kind: z.enum(["qti", "article", "video", "app"]),
      lessonId: z.string(),
      lessonTitle: z.string(),
      courseTitle: z.string(),
      savedAt: z.string(),
    }),
  ),
  /** Whether the caller is the student, who may save and unsave resources. */
  canSave: z.boolean(),
});
export type StudentResources = z.infer<typeof studentResourcesSchema>;
