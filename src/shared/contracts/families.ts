import { z } from "zod";
import { isIsoDate } from "../search";
import { invalid } from "../validation-messages";
import type { StudentSummary } from "./activity";

// ---- parent pages ----

/**
 * What a parent or guardian sees of each child (`my-children`, the child's hub) and of one child's
 * progress over weeks and terms (`children-progress`). Only the caller's own children (a
 * guardian's wards) are answered; any other child is not found.
 */

/** A child's Guide: a teacher of one of the child's active classes. */
export interface ChildGuide {
  sourcedId: string;
  name: string;
}

/** The child's latest MAP Growth test of a subject. */
export interface ChildLatestMap {
  subject: string;
  termName: string;
  testDate: string;
  rit: number;
  /** The export's percentile, else Dash's reading of the status norms; null when neither has one. */
  percentile: number | null;
}

/** The child's strikes and lockout, as the family may know them (never the lockout code). */
export interface ChildStanding {
  activeStrikes: number;
  threshold: number;
  lockoutEnabled: boolean;
  isLocked: boolean;
  lockedAt: string | null;
}

/** The child's weekly XP goal this week, and their target goals by forecast. */
export interface ChildGoalsGlance {
  weekly: { value: number; target: number; percent: number };
  reached: number;
  onTrack: number;
  /** Behind, without a pace yet, or past their deadline. */
  behind: number;
  /** RIT goals waiting for the next MAP test. */
  awaitingTest: number;
}

export interface ChildAlphas {
  balance: number;
  held: number;
  available: number;
  savings: number;
  /** Requests waiting for a decision. */
  pendingRequests: number;
}

/** One child's card: who they are, today, this week, goals, Alphas, MAP and any strike or lockout. */
export interface ChildOverview {
  sourcedId: string;
  givenName: string;
  familyName: string;
  preferredFirstName: string | null;
  grades: string[];
  timezone: string;
  school: { sourcedId: string; name: string } | null;
  guides: ChildGuide[];
  /** Today and this week, in the child's own timezone, as the home shows them. */
  summary: Omit<StudentSummary, "sourcedId" | "givenName" | "familyName" | "grades" | "timezone">;
  goals: ChildGoalsGlance;
  alphas: ChildAlphas;
  map: ChildLatestMap[];
  standing: ChildStanding;
}

/** GET /api/families/children: every child of the caller, by family name and given name. */
export interface ChildrenOverviewResponse {
  success: true;
  data: ChildOverview[];
}

const childId = z.string().trim().min(1).max(200);

export const childParamsSchema = z.object({ childId });

/** How many weeks the progress page reads: this week and those before it. */
export const PROGRESS_WEEKS = { min: 4, max: 52, default: 12 } as const;

/** GET /api/families/children/:childId/progress */
export const childProgressQuerySchema = z.object({
  weeks: z.coerce
    .number({ message: invalid("wholeNumberOnly") })
    .int(invalid("wholeNumberOnly"))
    .min(PROGRESS_WEEKS.min, invalid("atLeast"))
    .max(PROGRESS_WEEKS.max, invalid("atMost"))
    .default(PROGRESS_WEEKS.default),
});
export type ChildProgressQuery = z.output<typeof childProgressQuerySchema>;

/** A subject's figures over a week or a term, added up from the child's daily totals. */
export interface SubjectFigures {
  subject: string;
  xp: number;
  activeSeconds: number;
  masteredUnits: number;
  /** Days the subject's daily goal was met; null for a subject without a daily goal. */
  goalDays: number | null;
}

/** A week's or a term's figures, every day counted in the child's own timezone. */
export interface PeriodFigures {
  xp: number;
  activeSeconds: number;
  masteredUnits: number;
  /** Days with every daily goal met. */
  goalDaysMet: number;
  /** School days (Monday to Friday, not holidays) of the period up to today. */
  schoolDays: number;
  /** Every subject of the child's goals and learning, in the same order in every period. */
  subjects: SubjectFigures[];
}

export interface ProgressWeek extends PeriodFigures {
  /** The week's Sunday. */
  weekStart: string;
}

export interface ProgressTerm extends PeriodFigures {
  sourcedId: string;
  title: string;
  startDate: string;
  endDate: string;
  isCurrent: boolean;
}

/** One child's progress over weeks and terms. */
export interface ChildProgress {
  child: {
    sourcedId: string;
    givenName: string;
    familyName: string;
    grades: string[];
    timezone: string;
    /** The child's today, in their own timezone. */
    today: string;
  };
  /** The daily XP goal of each subject, the child's own where set. */
  dailyGoals: { subject: string; goal: number }[];
  /** This week's XP goal: the child's own, else their class's, else the daily goals on five school days. */
  weeklyGoal: number;
  /** Oldest first; the last is this week. */
  weeks: ProgressWeek[];
  /** The terms of the child's classes that have begun, oldest first. */
  terms: ProgressTerm[];
}

// ---- weekly pulse ----

/**
 * The weekly parent pulse: a digest per child and week (weeks start on Sunday, every day counted
 * in the child's own timezone), from the child's daily totals, Alphas ledger, assessments and
 * integrity records. Built by the weekly job and on demand for the week running now; stored as it
 * was built, so an earlier week reads the same later.
 */

/** A subject's week: its XP against the daily goal. */
export interface PulseSubject {
  subject: string;
  xp: number;
  /** The daily XP goal (the child's own where set); null for a subject without one. */
  dailyGoal: number | null;
  /** Days of the week whose XP in the subject met its daily goal. */
  daysMet: number;
}

/** Something that happened in assessment this week: a MAP test, a new level, a placement test. */
export type PulseNews =
  | {
      kind: "map";
      subject: string;
      termName: string;
      date: string;
      rit: number;
      percentile: number | null;
    }
  | { kind: "placement"; subject: string; date: string; fromGrade: number | null; toGrade: number }
  | {
      kind: "placement_test";
      subject: string;
      date: string;
      gradeLevel: number;
      testName: string;
      /** PASSED, FAILED, STARTED, NOT_STARTED or SKIP. */
      status: string;
    };

/** A lockout of the child's dashboard that began this week. */
export interface PulseLockout {
  lockedOn: string;
  /** The day it was unlocked; null while it lasts. */
  unlockedOn: string | null;
}

/** A week's figures, as stored in weekly_pulses. */
export interface PulseFigures {
  /** The week's Sunday and Saturday. */
  weekStart: string;
  weekEnd: string;
  /** The child's timezone, whose days the figures count. */
  timeZone: string;
  /** The last day counted: the Saturday, or the child's today while the week runs. */
  through: string;
  /** Monday to Friday of the whole week, holidays left out. */
  schoolDays: number;
  xp: number;
  /** Days with every daily goal met. */
  daysAllGoalsMet: number;
  /** Every subject of the child's goals and of their learning this week. */
  subjects: PulseSubject[];
  /** School days in a row with every goal met, as of `through`. */
  streak: number;
  masteredUnits: number;
  /** Alphas added to the child's accounts, and taken from them (store, payouts, debits, corrections). */
  alphas: { earned: number; spent: number };
  news: PulseNews[];
  integrity: {
    /** Focus strikes confirmed this week that still count as strikes. */
    strikesConfirmed: number;
    /** Strikes counting at the end of `through`. */
    activeStrikes: number;
    lockouts: PulseLockout[];
    /** Locked at the end of `through`. */
    isLocked: boolean;
  };
}

export interface PulseNote {
  text: string;
  authorName: string | null;
  updatedAt: string;
}

/** What the caller gave from this week's pulse (the one-click bonus or debit), if anything. */
export interface PulseReward {
  kind: "parent_bonus" | "parent_debit";
  amount: number;
  at: string;
}

/** GET /api/families/pulse */
export interface PulseResponse {
  child: { sourcedId: string; givenName: string; familyName: string };
  /** The week's Sunday. */
  week: string;
  /** The week runs now in the child's timezone. */
  isCurrentWeek: boolean;
  builtAt: string;
  figures: PulseFigures;
  note: PulseNote | null;
  /** The weeks with a pulse, newest first (this week's always among them). */
  weeks: string[];
  /** The caller is one of the child's Guides and may write the week's note. */
  canWriteNote: boolean;
  /** The caller is the child's parent or guardian and may give the weekly bonus or debit. */
  canReward: boolean;
  /** The idempotency key of the week's bonus or debit: one per child and week, so a double click gives once. */
  rewardKey: string;
  reward: PulseReward | null;
}

const pulseChildId = z
  .string({ message: invalid("childIdRequired") })
  .trim()
  .min(1, invalid("childIdRequired"))
  .max(200);

/** A day of the week asked for: any day names its week (from its Sunday). */
const pulseWeek = z.string().trim().refine(isIsoDate, invalid("realDate"));

export const pulseQuerySchema = z.object({ childId: pulseChildId, week: pulseWeek.optional() });
export type PulseQuery = z.input<typeof pulseQuerySchema>;

/**
 * A note as plain text: line ends made `\n`, other control characters left out, at most one blank
 * line in a row, no blank space around it.
 */
export function plainNoteText(text: string): string {
  const kept = [...text.replace(/\r\n?/g, "\n")].filter((character) => {
    const code = character.codePointAt(0) ?? 0;
    return code === 10 || code === 9 || (code >= 32 && code !== 127);
  });
  return kept
    .join("")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** PUT /api/families/pulse/note: a Guide's note for the child's week, in plain text. */
export const pulseNoteInputSchema = z.object({
  childId: pulseChildId,
  week: pulseWeek,
  note: z
    .string({ message: invalid("noteRequired") })
    .transform(plainNoteText)
    .pipe(z.string().min(3, invalid("noteRequired")).max(1000, invalid("noteTooLong"))),
});
export type PulseNoteInput = z.input<typeof pulseNoteInputSchema>;
