import { z } from "zod";
import { invalid } from "../validation-messages";
import { calendarDate } from "./fields";

/**
 * Goals beside the daily XP goal per subject: a weekly XP goal, and target goals with a deadline
 * (finish a course, reach a RIT score on MAP, master a number of units). Staff set them for a
 * student or a whole class; a student sets their own, which staff can see and edit.
 */
export const GOAL_KINDS = ["weekly_xp", "course", "rit", "units"] as const;
export type GoalKind = (typeof GOAL_KINDS)[number];
/** Kinds with a deadline; the weekly goal starts again every Sunday. */
export const TARGET_GOAL_KINDS = ["course", "rit", "units"] as const;

/** A forecast reads the student's pace over this many school days before today. */
export const PACE_SCHOOL_DAYS = 15;

/** Where a student's goal comes from: their own, their class's, or (weekly only) the school's daily goals × 5. */
export const GOAL_SOURCES = ["student", "class", "school"] as const;

export const FORECAST_STATUSES = [
  /** The target is met. */
  "reached",
  /** At the recent pace the target is met by the deadline. */
  "on_track",
  /** At the recent pace it is not. */
  "behind",
  /** No learning in the recent school days, so no date can be told. */
  "no_pace",
  /** The deadline passed without the target. */
  "missed",
  /** A RIT goal: the next MAP test tells. */
  "awaiting_test",
] as const;
export type ForecastStatus = (typeof FORECAST_STATUSES)[number];

const id = z.string().trim().min(1).max(200);
const wholeNumber = (min: number, max: number) =>
  z
    .number({ message: invalid("goalTargetWhole") })
    .int(invalid("goalTargetWhole"))
    .min(min, invalid("goalTargetAtLeast"))
    .max(max, invalid("goalTargetAtMost"));

/** The bounds of each kind's target (and a RIT goal's starting score). */
export const GOAL_TARGET_BOUNDS: Record<GoalKind, { min: number; max: number }> = {
  weekly_xp: { min: 1, max: 5_000 },
  course: { min: 1, max: 100_000 },
  rit: { min: 100, max: 350 },
  units: { min: 1, max: 1_000 },
};

/** A kind's target: a whole number within its bounds. */
export function goalTargetSchema(kind: GoalKind) {
  return wholeNumber(GOAL_TARGET_BOUNDS[kind].min, GOAL_TARGET_BOUNDS[kind].max);
}

/**
 * POST /api/goals. Exactly one of `studentId` and `classId`. A weekly goal replaces the one the
 * student or class had. `target` is weekly XP, the XP the course takes, the RIT score, or the
 * number of units; `subject` is required for RIT and optional for weekly XP and units.
 */
export const goalInputSchema = z
  .object({
    kind: z.enum(GOAL_KINDS, { message: invalid("goalKindOneOf") }),
    studentId: id.optional(),
    classId: id.optional(),
    subject: z.string().trim().min(1).max(100).optional(),
    courseId: id.optional(),
    target: z.number({ message: invalid("goalTargetWhole") }),
    /** A RIT goal's score when it was set: its value until a MAP result after it is recorded. */
    baseline: wholeNumber(GOAL_TARGET_BOUNDS.rit.min, GOAL_TARGET_BOUNDS.rit.max).optional(),
    deadline: calendarDate().optional(),
  })
  .superRefine((goal, context) => {
    const target = goalTargetSchema(goal.kind).safeParse(goal.target);
    // The rule's own issue, so its message can say the kind's minimum and maximum.
    for (const issue of target.error?.issues ?? []) context.addIssue({ ...issue, path: ["target"] } as never);
    if (Boolean(goal.studentId) === Boolean(goal.classId))
      context.addIssue({ code: "custom", path: ["studentId"], message: invalid("goalForStudentOrClass") });
    if (goal.kind !== "weekly_xp" && !goal.deadline)
      context.addIssue({ code: "custom", path: ["deadline"], message: invalid("goalNeedsDeadline") });
    if (goal.kind === "weekly_xp" && goal.deadline)
      context.addIssue({ code: "custom", path: ["deadline"], message: invalid("weeklyGoalNoDeadline") });
    if (goal.kind === "course" && !goal.courseId)
      context.addIssue({ code: "custom", path: ["courseId"], message: invalid("goalNeedsCourse") });
    if (goal.kind === "rit" && !goal.subject)
      context.addIssue({ code: "custom", path: ["subject"], message: invalid("chooseSubject") });
  });
export type GoalInput = z.output<typeof goalInputSchema>;

/** PATCH /api/goals/:goalId: the target, the deadline (target goals) or the subject. */
export const goalChangesSchema = z
  .object({
    target: z.number({ message: invalid("goalTargetWhole") }).optional(),
    deadline: calendarDate().optional(),
    subject: z.string().trim().min(1).max(100).nullable().optional(),
  })
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: invalid("nothingToChange"),
  });
export type GoalChanges = z.output<typeof goalChangesSchema>;

/** GET /api/goals: one student's goals (`studentId`; a student's own without it). A class's: GET /api/goals/classes/:classId. */
export const goalsQuerySchema = z.object({ studentId: id.optional() });

export const forecastSchema = z.object({
  status: z.enum(FORECAST_STATUSES),
  /** XP (units for a units goal) per school day over the last PACE_SCHOOL_DAYS school days. */
  pacePerDay: z.number().nullable(),
  /** The school day the target is reached at that pace; null when reached, without pace, or a RIT goal. */
  reachedOn: z.string().nullable(),
  /** What each school day from today to the deadline needs to make it; null when reached or missed. */
  dailyNeeded: z.number().nullable(),
  /** School days from today to the deadline, both counted (weekends and holidays skipped). */
  schoolDaysLeft: z.number().int().nullable(),
});
export type Forecast = z.infer<typeof forecastSchema>;

export const goalSchema = z.object({
  /** Null for the school's weekly goal, which nobody set. */
  id: z.string().nullable(),
  kind: z.enum(GOAL_KINDS),
  source: z.enum(GOAL_SOURCES),
  classId: z.string().nullable(),
  classTitle: z.string().nullable(),
  subject: z.string().nullable(),
  courseId: z.string().nullable(),
  courseTitle: z.string().nullable(),
  target: z.number(),
  baseline: z.number().nullable(),
  /** Counting starts on this day (a weekly goal: this week's Sunday). */
  startsOn: z.string(),
  /** The last day; a weekly goal's is this week's Saturday. */
  deadline: z.string(),
  setByName: z.string().nullable(),
  /** Whether the caller may change or remove it. */
  canEdit: z.boolean(),
});
export type Goal = z.infer<typeof goalSchema>;

export const goalProgressSchema = goalSchema.extend({
  /** XP, the RIT score or units so far. */
  value: z.number(),
  /** Share of the target reached, 0–100 (a RIT goal: of the way from its baseline). */
  percent: z.number(),
  forecast: forecastSchema,
});
export type GoalProgress = z.infer<typeof goalProgressSchema>;

export const studentGoalsSchema = z.object({
  student: z.object({ id: z.string(), name: z.string(), grades: z.array(z.string()), timezone: z.string() }),
  today: z.string(),
  /** Consecutive school days with every daily goal met, as the home shows it. */
  streak: z.number().int(),
  daily: z.array(
    z.object({ subject: z.string(), xp: z.number(), goal: z.number(), isComplete: z.boolean() }),
  ),
  weekly: goalProgressSchema,
  targets: z.array(goalProgressSchema),
  /** Whether the caller may add goals for this student. */
  canAdd: z.boolean(),
});
export type StudentGoals = z.infer<typeof studentGoalsSchema>;

/** A class as its Guide runs it: GET /api/goals/classes/:classId (the class page and the goals page). */
export const classStudentSchema = z.object({
  id: z.string(),
  name: z.string(),
  grades: z.array(z.string()),
  xpToday: z.number(),
  dailyGoal: z.number(),
  xpThisWeek: z.number(),
  weeklyGoal: z.number(),
  streak: z.number().int(),
  lastActivityAt: z.string().nullable(),
  /** Target goals (their own and the class's) by forecast. */
  goalsOnTrack: z.number().int(),
  goalsBehind: z.number().int(),
  goalsReached: z.number().int(),
});
export type ClassStudent = z.infer<typeof classStudentSchema>;

export const classGoalsSchema = z.object({
  class: z.object({
    id: z.string(),
    title: z.string(),
    schoolId: z.string(),
    schoolName: z.string().nullable(),
  }),
  /** The goals set for the whole class. */
  goals: z.array(goalSchema),
  students: z.array(classStudentSchema),
  canAdd: z.boolean(),
});
export type ClassGoals = z.infer<typeof classGoalsSchema>;
