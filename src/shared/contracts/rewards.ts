import { z } from "zod";
import { invalid } from "../validation-messages";
import { LEDGER_KINDS } from "../value-lists";
import { calendarDate, changesOf } from "./fields";

/**
 * Alphas, the reward currency: accounts, the ledger, the emporium's items and requests, awards,
 * savings and payouts, and the school's rules for all of them.
 */

export const LEDGER_ACCOUNTS = ["spending", "savings"] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

export { LEDGER_KINDS, type LedgerKind } from "../value-lists";

export const REDEMPTION_STATUSES = [
  "pending",
  "approved",
  "rejected",
  "cancelled",
  "fulfilled",
  "expired",
] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];

/** Requests that still hold their price (and a unit of stock). */
export const OPEN_REDEMPTION_STATUSES = ["pending", "approved"] as const satisfies RedemptionStatus[];

const idempotencyKey = z
  .string({ message: invalid("idempotencyKeyRequired") })
  .trim()
  .min(8, invalid("idempotencyKeyRequired"))
  .max(200, invalid("idempotencyKeyTooLong"));

/** A whole number of Alphas, never zero. */
const alphas = (maximum: number) =>
  z
    .number({ message: invalid("alphasWholeNumber") })
    .int(invalid("alphasWholeNumber"))
    .min(-maximum, invalid("alphasTooLarge"))
    .max(maximum, invalid("alphasTooLarge"))
    .refine((amount) => amount !== 0, invalid("amountZero"));

const positiveAlphas = (maximum: number) =>
  z
    .number({ message: invalid("alphasWholeNumber") })
    .int(invalid("alphasWholeNumber"))
    .min(1, invalid("alphasPositive"))
    .max(maximum, invalid("alphasTooLarge"));

const reasonText = z.string().trim().min(3, invalid("reasonTooShort")).max(500, invalid("reasonTooLong"));

/** The largest single movement anyone may make by hand. */
export const MAX_MANUAL_ALPHAS = 10_000;
export const MAX_PRICE = 1_000_000;

// ── Accounts and the ledger ─────────────────────────────────────────────────────────────────

export const accountSchema = z.object({
  studentId: z.string(),
  balance: z.number().int(),
  held: z.number().int(),
  available: z.number().int(),
  savings: z.number().int(),
});
export type RewardAccount = z.infer<typeof accountSchema>;

export const personRefSchema = z.object({ sourcedId: z.string(), name: z.string() });

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  studentId: z.string(),
  student: personRefSchema.nullable(),
  account: z.enum(LEDGER_ACCOUNTS),
  amount: z.number().int(),
  kind: z.enum(LEDGER_KINDS),
  /** In the reader's language for entries Dash wrote; as written for people's own reasons. */
  reason: z.string(),
  actor: personRefSchema.nullable(),
  redemptionId: z.string().nullable(),
  reversesEntryId: z.number().int().nullable(),
  reversedByEntryId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

const page = {
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500, invalid("limitAbove500")).default(50),
};

/** The path parameter of a student's account, ledger, transfers and payouts. */
export const rewardStudentParamsSchema = z.object({ studentId: z.string().trim().min(1).max(200) });

export const studentLedgerQuerySchema = z.object(page);

/** The administrators' whole ledger. */
export const ledgerQuerySchema = z.object({
  ...page,
  studentId: z.string().trim().max(200).optional(),
  kind: z.enum(LEDGER_KINDS, { message: invalid("ledgerKindOneOf") }).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
});
export type LedgerQuery = z.infer<typeof ledgerQuerySchema>;

export const ledgerListSchema = z.object({
  success: z.literal(true),
  data: z.array(ledgerEntrySchema),
  total: z.number(),
  error: z.null(),
});

export const reverseEntrySchema = z.object({ reason: reasonText });

// ── Grants, transfers and payouts ───────────────────────────────────────────────────────────

export const GRANT_KINDS = ["award", "parent_bonus", "parent_debit"] as const;

export const grantSchema = z.object({
  studentId: z.string().trim().min(1, invalid("chooseStudent")).max(200),
  kind: z.enum(GRANT_KINDS, { message: invalid("grantKindOneOf") }),
  /** Signed for staff awards (negative deducts); fixed by the school's rule for parents. */
  amount: alphas(MAX_MANUAL_ALPHAS).optional(),
  reason: reasonText,
  idempotencyKey,
});
export type GrantRequest = z.input<typeof grantSchema>;

export const transferSchema = z.union(
  [
    z.strictObject({
      toSavings: positiveAlphas(MAX_MANUAL_ALPHAS),
      idempotencyKey: idempotencyKey.optional(),
    }),
    z.strictObject({
      toSpending: positiveAlphas(MAX_MANUAL_ALPHAS),
      idempotencyKey: idempotencyKey.optional(),
    }),
  ],
  { message: invalid("transferOneDirection") },
);
export type TransferRequest = z.input<typeof transferSchema>;

export const payoutSchema = z.object({
  amount: positiveAlphas(MAX_MANUAL_ALPHAS),
  /** What the child got for them: "Cinema outing", "$5". */
  reward: reasonText,
  idempotencyKey,
});
export type PayoutRequest = z.input<typeof payoutSchema>;

/** The entries a grant, transfer or payout wrote, with the account after them. */
export const movementResultSchema = z.object({
  entryIds: z.array(z.number().int()),
  account: accountSchema,
  /** A payout's worth at the school's exchange rate, in its currency. */
  worth: z.object({ amount: z.number(), currency: z.string() }).optional(),
});
export type MovementResult = z.infer<typeof movementResultSchema>;

// ── The emporium ───────────────────────────────────────────────────────────────────────────

export const audienceSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("district") }),
    z.object({ kind: z.literal("school"), orgId: z.string().trim().min(1).max(200) }),
    z.object({ kind: z.literal("child"), studentId: z.string().trim().min(1).max(200) }),
  ],
  { message: invalid("audienceOneOf") },
);
export type Audience = z.infer<typeof audienceSchema>;

export const itemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number().int(),
  stock: z.number().int().nullable(),
  /** Units a new request may still take: stock less what open requests set aside; null for unlimited. */
  remaining: z.number().int().nullable(),
  category: z.string(),
  sortOrder: z.number().int().nullable(),
  isActive: z.boolean(),
  audience: audienceSchema,
  /** Where the picture is served, if it has one. */
  imageUrl: z.string().nullable(),
  createdBy: z.string().nullable(),
});
export type RewardItem = z.infer<typeof itemSchema>;

export const itemListQuerySchema = z.object({
  /** A parent or a member of staff browsing as a child sees what that child may buy. */
  childId: z.string().trim().max(200).optional(),
  /** Administrators see retired items too when they ask. */
  includeInactive: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
});

const itemFields = {
  name: z.string().trim().min(1, invalid("itemNameRequired")).max(120, invalid("itemNameTooLong")),
  description: z.string().trim().max(1000, invalid("descriptionTooLong")),
  price: z
    .number({ message: invalid("pricePositive") })
    .int(invalid("pricePositive"))
    .min(1, invalid("pricePositive"))
    .max(MAX_PRICE, invalid("priceTooLarge")),
  stock: z
    .number({ message: invalid("stockWholeNumber") })
    .int(invalid("stockWholeNumber"))
    .min(0, invalid("stockWholeNumber"))
    .max(1_000_000, invalid("stockWholeNumber"))
    .nullable(),
  category: z.string().trim().min(1, invalid("categoryRequired")).max(60, invalid("categoryTooLong")),
  sortOrder: z.number().int().min(0).max(100_000).nullable(),
  isActive: z.boolean(),
  imageUrl: z
    .url({ protocol: /^https?$/, message: invalid("imageUrlHttp") })
    .max(2000)
    .nullable(),
};

export const createItemSchema = z.object({
  ...itemFields,
  description: itemFields.description.default(""),
  stock: itemFields.stock.default(null),
  sortOrder: itemFields.sortOrder.default(null),
  isActive: itemFields.isActive.default(true),
  imageUrl: itemFields.imageUrl.default(null),
  audience: audienceSchema.default({ kind: "district" }),
  /** A parent's custom reward for one child (the same as audience `{ kind: "child" }`). */
  childId: z.string().trim().min(1).max(200).optional(),
});
export type CreateItem = z.input<typeof createItemSchema>;

export const updateItemSchema = changesOf({ ...itemFields, audience: audienceSchema });
export type UpdateItem = z.input<typeof updateItemSchema>;

export const itemListSchema = z.object({
  success: z.literal(true),
  data: z.array(itemSchema),
  total: z.number(),
  error: z.null(),
});

export const redemptionRequestSchema = z.object({
  itemId: z.string().trim().min(1, invalid("chooseItem")).max(200),
  idempotencyKey,
});
export type RedemptionRequest = z.input<typeof redemptionRequestSchema>;

export const redemptionSchema = z.object({
  id: z.string(),
  studentId: z.string(),
  student: personRefSchema.nullable(),
  itemId: z.string(),
  itemName: z.string(),
  imageUrl: z.string().nullable(),
  price: z.number().int(),
  status: z.enum(REDEMPTION_STATUSES),
  approverKind: z.enum(["family", "staff"]),
  decidedBy: personRefSchema.nullable(),
  decidedAt: z.string().nullable(),
  note: z.string().nullable(),
  fulfilledBy: personRefSchema.nullable(),
  fulfilledAt: z.string().nullable(),
  createdAt: z.string(),
  /** When a pending request lets go of its hold if no one decides. */
  expiresAt: z.string().nullable(),
});
export type Redemption = z.infer<typeof redemptionSchema>;

export const redemptionListQuerySchema = z.object({
  ...page,
  status: z.enum(REDEMPTION_STATUSES, { message: invalid("redemptionStatusOneOf") }).optional(),
  studentId: z.string().trim().max(200).optional(),
});

export const redemptionListSchema = z.object({
  success: z.literal(true),
  data: z.array(redemptionSchema),
  total: z.number(),
  error: z.null(),
});

export const redemptionDecisionSchema = z.object({
  note: z.string().trim().max(500, invalid("reasonTooLong")).optional(),
});

export const REDEMPTION_ACTIONS = ["approve", "reject", "cancel", "fulfil"] as const;
export type RedemptionAction = (typeof REDEMPTION_ACTIONS)[number];

// ── The school's rules ─────────────────────────────────────────────────────────────────────

const ruleAmount = z
  .number()
  .int(invalid("alphasWholeNumber"))
  .min(0, invalid("alphasNotNegative"))
  .max(MAX_MANUAL_ALPHAS, invalid("alphasTooLarge"));
/** A whole number within bounds, said in the reader's language. */
const wholeNumber = (minimum: number, maximum: number) =>
  z.number().int(invalid("wholeNumberOnly")).min(minimum, invalid("atLeast")).max(maximum, invalid("atMost"));

export const rewardSettingsSchema = z.object({
  earning: z.object({
    perMasteredUnit: ruleAmount,
    allDailyGoals: ruleAmount,
    weeklyGoal: ruleAmount,
    masteryTest90: ruleAmount,
    masteryTest100: ruleAmount,
    /** The most a MAP growth window earns: at twice the projected growth (added later, so settings saved before it take the default). */
    mapGrowth: ruleAmount.default(200),
  }),
  parents: z.object({
    weeklyBonus: ruleAmount.min(1, invalid("alphasPositive")),
    bonusesPerSchoolYear: wholeNumber(0, 52),
    weeklyDebit: ruleAmount.min(1, invalid("alphasPositive")),
  }),
  /** What a Guide may award in a week (deductions do not count). */
  guideWeeklyBudget: ruleAmount,
  savings: z.object({
    /** Percent of the savings balance credited each week. */
    weeklyInterestPercent: z.number().min(0, invalid("atLeast")).max(20, invalid("atMost")),
    /** At most this much interest a week. */
    weeklyInterestCap: ruleAmount,
  }),
  /** A pending request lets go of its hold after this many days. */
  requestExpiryDays: wholeNumber(1, 365),
  payout: z.object({
    /** Alphas worth one unit of the currency. */
    alphasPerUnit: wholeNumber(1, 100_000),
    currency: z.string().trim().length(3, invalid("currencyCode")).toUpperCase(),
  }),
  /** The month and day (MM-dd) each school year starts: parent bonuses count from it. */
  schoolYearStart: z.string().regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, invalid("monthDay")),
});
export type RewardSettings = z.infer<typeof rewardSettingsSchema>;

export const DEFAULT_REWARD_SETTINGS: RewardSettings = {
  earning: {
    perMasteredUnit: 1,
    allDailyGoals: 5,
    weeklyGoal: 25,
    masteryTest90: 100,
    masteryTest100: 200,
    mapGrowth: 200,
  },
  parents: { weeklyBonus: 30, bonusesPerSchoolYear: 12, weeklyDebit: 50 },
  guideWeeklyBudget: 500,
  savings: { weeklyInterestPercent: 2, weeklyInterestCap: 50 },
  requestExpiryDays: 14,
  payout: { alphasPerUnit: 100, currency: "USD" },
  schoolYearStart: "08-01",
};

export const guideBudgetSchema = z.object({
  weekStart: z.string(),
  budget: z.number().int(),
  awarded: z.number().int(),
  remaining: z.number().int(),
});
export type GuideBudget = z.infer<typeof guideBudgetSchema>;

/** A child's weekly bonuses from their family this school year. */
export const bonusAllowanceSchema = z.object({
  schoolYearStart: z.string(),
  given: z.number().int(),
  limit: z.number().int(),
  remaining: z.number().int(),
});
export type BonusAllowance = z.infer<typeof bonusAllowanceSchema>;

// ── Staff views ────────────────────────────────────────────────────────────────────────────

export const studentBalanceSchema = accountSchema.extend({
  name: z.string(),
  pending: z.number().int(),
  approved: z.number().int(),
});
export type StudentBalance = z.infer<typeof studentBalanceSchema>;

export const studentBalanceListSchema = z.object({
  success: z.literal(true),
  data: z.array(studentBalanceSchema),
  total: z.number(),
  error: z.null(),
});

export const studentBalanceQuerySchema = z.object({
  ...page,
  search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
});

export const bountyRunSchema = z.object({
  from: calendarDate(),
  to: calendarDate(),
  /** Only see who would get what. */
  dryRun: z.boolean().default(true),
});

export const bountyAwardSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  ruleKey: z.string(),
  /** The rule's name, and what this award is for, in the reader's language. */
  rule: z.string(),
  reason: z.string(),
  period: z.string(),
  amount: z.number().int(),
  /** Already paid by an earlier run (or as the activity arrived). */
  alreadyPaid: z.boolean(),
});
export const bountyRunResultSchema = z.object({
  from: z.string(),
  to: z.string(),
  dryRun: z.boolean(),
  awards: z.array(bountyAwardSchema),
  /** Alphas this run paid (0 for a dry run). */
  paid: z.number().int(),
  /** Alphas a payment would add now. */
  due: z.number().int(),
});
export type BountyRunResult = z.infer<typeof bountyRunResultSchema>;

export const reconciliationSchema = z.object({
  studentId: z.string(),
  name: z.string(),
  shown: accountSchema,
  fromLedger: z.object({ balance: z.number().int(), held: z.number().int(), savings: z.number().int() }),
  openRequests: z.object({ count: z.number().int(), held: z.number().int() }),
  entries: z.number().int(),
  isBalanced: z.boolean(),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const monitorSchema = z.object({
  byStatus: z.record(z.enum(REDEMPTION_STATUSES), z.number().int()),
  /** Pending or approved for longer than this many days. */
  stuckAfterDays: z.number().int(),
  stuck: z.array(redemptionSchema),
  lowStock: z.array(itemSchema),
  schools: z.array(
    z.object({
      orgId: z.string(),
      name: z.string(),
      students: z.number().int(),
      balance: z.number().int(),
      held: z.number().int(),
      savings: z.number().int(),
      fulfilledThisMonth: z.number().int(),
      spentThisMonth: z.number().int(),
    }),
  ),
});
export type RewardsMonitor = z.infer<typeof monitorSchema>;
