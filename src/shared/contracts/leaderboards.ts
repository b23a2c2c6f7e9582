import { z } from "zod";
import { invalid } from "../validation-messages";
import { calendarDate } from "./fields";

/** GET /api/leaderboards: where students stand by the XP of a period, within a scope. */
export const LEADERBOARD_SCOPES = ["global", "class", "school", "league"] as const;
export type LeaderboardScope = (typeof LEADERBOARD_SCOPES)[number];
export const LEADERBOARD_TIMEFRAMES = ["today", "week", "month", "all", "streak", "custom"] as const;
export type LeaderboardTimeframe = (typeof LEADERBOARD_TIMEFRAMES)[number];
export const LEADERBOARD_PAGE_SIZE = 25;

/** Weekly leagues: about this many students of similar grade per league, within a tier. */
export const LEAGUE_TIERS = ["bronze", "silver", "gold", "platinum", "diamond"] as const;
export type LeagueTier = (typeof LEAGUE_TIERS)[number];
export const LEAGUE_SIZE = 30;
/** At the end of a week, the top of each league moves up a tier and the bottom down. */
export const LEAGUE_PROMOTED = 7;
export const LEAGUE_DEMOTED = 5;
/** The last page anyone could need: 2.5 million students. */
export const MAX_LEADERBOARD_PAGE = 100_000;

const filterId = z.string().trim().min(1).max(200);

export const leaderboardQuerySchema = z
  .object({
    scope: z.enum(LEADERBOARD_SCOPES, { message: invalid("leaderboardScopeOneOf") }).optional(),
    tf: z.enum(LEADERBOARD_TIMEFRAMES, { message: invalid("leaderboardTimeframeOneOf") }).default("week"),
    cls: filterId.optional(),
    school: filterId.optional(),
    /** Students of the classes this Guide teaches (administrators only). */
    teacher: filterId.optional(),
    /** A learning app's id ("manual" for XP given by hand). */
    src: filterId.optional(),
    subj: filterId.optional(),
    g: filterId.optional(),
    p: z.coerce
      .number({ message: invalid("pageWholeNumber") })
      .int(invalid("pageWholeNumber"))
      .min(1, invalid("pageWholeNumber"))
      .max(MAX_LEADERBOARD_PAGE, invalid("pageWholeNumber"))
      .default(1),
    child: filterId.optional(),
    startDate: calendarDate().optional(),
    endDate: calendarDate().optional(),
  })
  .refine((query) => query.tf !== "custom" || (query.startDate && query.endDate), {
    message: invalid("customPeriodNeedsDates"),
    path: ["startDate"],
  })
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    message: invalid("startDateAfterEndDate"),
    path: ["endDate"],
  });
export type LeaderboardQuery = z.output<typeof leaderboardQuerySchema>;

export const leaderboardRowSchema = z.object({
  rank: z.number().int(),
  /** Null where the reader may not open the student's pages (another family's child, a peer). */
  studentId: z.string().nullable(),
  /** The full name for staff and the family, first name and last initial for peers, null for other families' children. */
  displayName: z.string().nullable(),
  grade: z.string().nullable(),
  /** XP of the period; for `tf=streak`, the daily-goal streak in school days, as the home shows it. */
  value: z.number(),
  isMe: z.boolean(),
});
export type LeaderboardRow = z.infer<typeof leaderboardRowSchema>;

export const leaderboardSchema = z.object({
  scope: z.enum(LEADERBOARD_SCOPES),
  tf: z.enum(LEADERBOARD_TIMEFRAMES),
  /** The days counted, each student's own; null for all time. */
  period: z.object({ startDate: z.string(), endDate: z.string() }).nullable(),
  rows: z.array(leaderboardRowSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  /** For `scope=league`: the league ranked, the week it is for, and how many move up and down at its end. */
  league: z
    .object({
      tier: z.enum(LEAGUE_TIERS),
      weekStart: z.string(),
      promoted: z.number().int(),
      demoted: z.number().int(),
    })
    .nullable(),
  /** The caller's own row (or their child's), even when it is not on the page; null for staff. */
  me: leaderboardRowSchema.nullable(),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

/** PUT /api/leaderboards/opt-outs/:studentId */
export const optOutSchema = z.object({ hidden: z.boolean({ message: invalid("hiddenTrueOrFalse") }) });
export const optOutStateSchema = z.object({
  studentId: z.string(),
  /** Hidden from peers and other families, by anyone. */
  hidden: z.boolean(),
  hiddenByFamily: z.boolean(),
  hiddenByStaff: z.boolean(),
});
export type OptOutState = z.infer<typeof optOutStateSchema>;
