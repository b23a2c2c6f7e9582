import { z } from "zod";
import { invalid, type ValidationMessage } from "../validation-messages";
import {
  COURSE_SORTS,
  DEFAULT_PAGE_SIZE,
  ENROLLMENT_ROLES,
  ENROLLMENT_SORTS,
  MAX_PAGE_SIZE,
  ROSTER_STATUSES,
} from "../value-lists";
import { calendarDate, changesOf } from "./fields";

/** Courses, their components (units) and enrollments: requests and answers of /api/courses and /api/enrollments. */

export {
  COURSE_SORTS,
  type CourseSort,
  DEFAULT_PAGE_SIZE,
  ENROLLMENT_ROLES,
  ENROLLMENT_SORTS,
  type EnrollmentRole,
  type EnrollmentSort,
  MAX_PAGE_SIZE,
  ROSTER_STATUSES,
  type RosterStatus,
} from "../value-lists";

export const COMPONENT_SORTS = ["sortOrder", "title", "dateLastModified"] as const;

/** What the enrollment list shows when the caller sends no filter. */
export const DEFAULT_ENROLLMENT_FILTER = "status='active' AND role='student'";
/** What the component list shows when the caller sends no filter: removed components stay hidden. */
export const DEFAULT_COMPONENT_FILTER = "status='active'";

/** CEDS grade levels, the vocabulary OneRoster uses for grades. */
export const GRADES = [
  "IT",
  "PR",
  "PK",
  "TK",
  "KG",
  "01",
  "02",
  "03",
  "04",
  "05",
  "06",
  "07",
  "08",
  "09",
  "10",
  "11",
  "12",
  "13",
  "PS",
  "UG",
  "Other",
] as const;
export type Grade = (typeof GRADES)[number];

const isoDate = calendarDate();
/** An id of at most 200 characters, with the messages naming it when missing and when too long. */
const id = (required: ValidationMessage, tooLong: ValidationMessage) =>
  z.string(required).trim().min(1, required).max(200, tooLong);

/**
 * offset/limit paging, a whitelisted sort, a direction, a search text and a OneRoster filter.
 * `sortMessage` lists the sorts (`sort is one of …`).
 */
function listQuery<const Sorts extends readonly [string, ...string[]]>(
  sorts: Sorts,
  defaultSort: Sorts[number],
  defaultOrder: "asc" | "desc",
  sortMessage: ValidationMessage,
) {
  return z.object({
    offset: z.coerce.number().int().min(0, invalid("offsetNegative")).default(0),
    limit: z.coerce
      .number()
      .int()
      .min(1, invalid("limitTooSmall"))
      .max(MAX_PAGE_SIZE, invalid("limitAbove500"))
      .default(DEFAULT_PAGE_SIZE),
    sort: z.enum(sorts, sortMessage).default(defaultSort),
    orderBy: z.enum(["asc", "desc"], invalid("orderByAscOrDesc")).default(defaultOrder),
    search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
    filter: z.string().max(2000, invalid("filterLongerThan2000")).optional(),
  });
}

export const courseListQuerySchema = listQuery(COURSE_SORTS, "title", "asc", invalid("courseSortOneOf"));
export type CourseListQuery = z.output<typeof courseListQuerySchema>;

export const enrollmentListQuerySchema = listQuery(
  ENROLLMENT_SORTS,
  "beginDate",
  "desc",
  invalid("enrollmentSortOneOf"),
).extend({
  classId: id(invalid("classIdRequired"), invalid("classIdTooLong")).optional(),
  courseId: id(invalid("courseIdRequired"), invalid("courseIdTooLong")).optional(),
  schoolId: id(invalid("schoolIdRequired"), invalid("schoolIdTooLong")).optional(),
  userId: id(invalid("userIdRequired"), invalid("userIdTooLong")).optional(),
});
export type EnrollmentListQuery = z.output<typeof enrollmentListQuerySchema>;

export const componentListQuerySchema = listQuery(
  COMPONENT_SORTS,
  "sortOrder",
  "asc",
  invalid("componentSortOneOf"),
);
export type ComponentListQuery = z.output<typeof componentListQuerySchema>;

const optionalText = (max: number, tooLong: ValidationMessage) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .nullable()
    .transform((value) => value || null);

const courseFields = {
  title: z.string(invalid("courseTitle")).trim().min(1, invalid("courseTitle")).max(200),
  courseCode: optionalText(100, invalid("courseCodeTooLong")),
  grades: z
    .array(z.enum(GRADES, invalid("gradesAreCeds")))
    .max(GRADES.length)
    .refine((grades) => new Set(grades).size === grades.length, invalid("gradeTwice")),
  subjects: z
    .array(z.string().trim().min(1, invalid("subjectEmpty")).max(100))
    .max(20, invalid("tooManySubjects"))
    .refine((subjects) => new Set(subjects).size === subjects.length, invalid("subjectTwice")),
  orgSourcedId: id(invalid("organisationRequired"), invalid("organisationTooLong")),
  schoolYearSourcedId: id(invalid("schoolYearRequired"), invalid("schoolYearTooLong")).nullable(),
};

export const courseCreateSchema = z.object({
  ...courseFields,
  courseCode: courseFields.courseCode.default(null),
  grades: courseFields.grades.default([]),
  subjects: courseFields.subjects.default([]),
  schoolYearSourcedId: courseFields.schoolYearSourcedId.default(null),
});
export type CourseCreate = z.output<typeof courseCreateSchema>;

export const courseUpdateSchema = changesOf({
  ...courseFields,
  status: z.enum(ROSTER_STATUSES, invalid("rosterStatus")),
});
export type CourseUpdate = z.output<typeof courseUpdateSchema>;

const metadata = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 10_000, invalid("metadataTooLong"))
  .nullable();
const sortOrder = z
  .number(invalid("sortOrderWhole"))
  .int(invalid("sortOrderWhole"))
  .min(-1_000_000)
  .max(1_000_000)
  .nullable();
const parentComponentId = id(invalid("parentComponentRequired"), invalid("parentComponentTooLong"));

export const componentCreateSchema = z.object({
  title: z.string(invalid("componentTitle")).trim().min(1, invalid("componentTitle")).max(200),
  sortOrder: sortOrder.default(null),
  parentComponentSourcedId: parentComponentId.nullable().default(null),
  metadata: metadata.default(null),
});
export type ComponentCreate = z.output<typeof componentCreateSchema>;

export const componentUpdateSchema = changesOf({
  title: componentCreateSchema.shape.title,
  sortOrder,
  parentComponentSourcedId: parentComponentId.nullable(),
  metadata,
});
export type ComponentUpdate = z.output<typeof componentUpdateSchema>;

/** The new order of some of a course's components: they get sortOrder 1, 2, 3… in this order. */
export const componentOrderSchema = z.object({
  componentIds: z
    .array(id(invalid("componentIdRequired"), invalid("componentIdTooLong")))
    .min(1, invalid("listAComponent"))
    .max(MAX_PAGE_SIZE)
    .refine((ids) => new Set(ids).size === ids.length, invalid("componentTwice")),
});

export const enrollmentCreateSchema = z
  .object({
    userSourcedId: id(invalid("enrollmentPersonRequired"), invalid("enrollmentPersonTooLong")),
    classSourcedId: id(invalid("enrollmentClassRequired"), invalid("enrollmentClassTooLong")),
    role: z.enum(ENROLLMENT_ROLES, invalid("enrollmentRoleOneOf")),
    primary: z.boolean().default(false),
    beginDate: isoDate.optional(),
  })
  .refine((enrollment) => !enrollment.primary || enrollment.role === "teacher", {
    message: invalid("primaryNotTeacher"),
    path: ["primary"],
  });
export type EnrollmentCreate = z.output<typeof enrollmentCreateSchema>;

export const enrollmentEndSchema = z.object({ endDate: isoDate.optional() });

// Answers

const personRef = z.object({ sourcedId: z.string(), givenName: z.string(), familyName: z.string() });

export const courseSummarySchema = z.object({
  sourcedId: z.string(),
  status: z.string(),
  dateLastModified: z.string(),
  title: z.string(),
  courseCode: z.string().nullable(),
  grades: z.array(z.string()),
  subjects: z.array(z.string()),
  orgSourcedId: z.string(),
  orgName: z.string().nullable(),
  schoolYearSourcedId: z.string().nullable(),
  schoolYearTitle: z.string().nullable(),
  /** Classes of the course the caller may see (all of them for an administrator). */
  classCount: z.number(),
  /** Students actively enrolled in those classes. */
  studentCount: z.number(),
  /** A parent's or guardian's children who take the course; empty for other roles. */
  learners: z.array(personRef),
});
export type CourseSummary = z.infer<typeof courseSummarySchema>;

const listAnswer = <Item extends z.ZodType>(item: Item) =>
  z.object({ success: z.literal(true), data: z.array(item), total: z.number(), error: z.null() });

export const courseListResponseSchema = listAnswer(courseSummarySchema);

export const componentSchema = z.object({
  sourcedId: z.string(),
  status: z.string(),
  dateLastModified: z.string(),
  courseSourcedId: z.string(),
  parentComponentSourcedId: z.string().nullable(),
  title: z.string(),
  sortOrder: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
});
export type CourseComponent = z.infer<typeof componentSchema>;

export const componentListResponseSchema = listAnswer(componentSchema);
export const componentResponseSchema = z.object({ success: z.literal(true), data: componentSchema });

export const courseClassSchema = z.object({
  sourcedId: z.string(),
  status: z.string(),
  title: z.string(),
  classCode: z.string().nullable(),
  location: z.string().nullable(),
  schoolSourcedId: z.string(),
  schoolName: z.string().nullable(),
  teachers: z.array(personRef),
  studentCount: z.number(),
});
export type CourseClass = z.infer<typeof courseClassSchema>;

export const courseDetailSchema = z.object({
  course: courseSummarySchema,
  /** The classes the caller may see: all (administrator), those they teach, or their own (student). */
  classes: z.array(courseClassSchema),
  /** Active components, in order. */
  components: z.array(componentSchema),
  /** Enrollments in those classes by role and status; null for students. */
  enrollmentCounts: z.array(z.object({ role: z.string(), status: z.string(), count: z.number() })).nullable(),
});
export type CourseDetail = z.infer<typeof courseDetailSchema>;

export const courseDetailResponseSchema = z.object({ success: z.literal(true), data: courseDetailSchema });

export const courseOptionsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    orgs: z.array(z.object({ sourcedId: z.string(), name: z.string(), type: z.string() })),
    schoolYears: z.array(z.object({ sourcedId: z.string(), title: z.string() })),
  }),
});
export type CourseOptions = z.infer<typeof courseOptionsResponseSchema>["data"];

export const enrollmentSchema = z.object({
  sourcedId: z.string(),
  status: z.string(),
  role: z.string(),
  primary: z.boolean(),
  beginDate: z.string().nullable(),
  endDate: z.string().nullable(),
  dateLastModified: z.string(),
  user: personRef.extend({ email: z.string().nullable() }),
  class: z.object({ sourcedId: z.string(), title: z.string().nullable(), classCode: z.string().nullable() }),
  course: z.object({ sourcedId: z.string(), title: z.string() }).nullable(),
  school: z.object({ sourcedId: z.string(), name: z.string().nullable() }),
});
export type Enrollment = z.infer<typeof enrollmentSchema>;

export const enrollmentListResponseSchema = listAnswer(enrollmentSchema);
export const enrollmentResponseSchema = z.object({ success: z.literal(true), data: enrollmentSchema });
