import { z } from "zod";
import { invalid } from "../validation-messages";
import { pageFields } from "./fields";

/**
 * Pulse surveys: short questionnaires (mood, engagement) for students, families or staff, once or
 * every week or month. A survey holds sections of questions; each opening is a round. People answer
 * a round once; their answers save as a draft until they submit. An anonymous survey keeps no link
 * between an answer and the person who gave it, and shows no group smaller than MIN_SHOWN_GROUP.
 */

export const QUESTION_KINDS = [
  /** 1 to 5. */
  "scale",
  /** Five faces, 1 (very unhappy) to 5 (very happy). */
  "mood",
  "single_choice",
  "multiple_choice",
  /** Net promoter: 0 to 10. */
  "nps",
  "short_text",
  "long_text",
] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export const CHOICE_KINDS: readonly QuestionKind[] = ["single_choice", "multiple_choice"];
export const TEXT_KINDS: readonly QuestionKind[] = ["short_text", "long_text"];
/** Kinds answered with a number, and the numbers each takes. */
export const NUMBER_RANGES: Partial<Record<QuestionKind, { min: number; max: number }>> = {
  scale: { min: 1, max: 5 },
  mood: { min: 1, max: 5 },
  nps: { min: 0, max: 10 },
};
/** The faces of a mood question, from 1 to 5. */
export const MOOD_FACES = ["😢", "🙁", "😐", "🙂", "😄"] as const;
/** The longest answer to a text question. */
export const TEXT_LIMITS = { short_text: 200, long_text: 2000 } as const;

export const SURVEY_REPEATS = ["none", "weekly", "monthly"] as const;
export type SurveyRepeat = (typeof SURVEY_REPEATS)[number];

/** What a list shows: a draft, published but not open yet, open now, past its closing, archived. */
export const SURVEY_STATES = ["draft", "scheduled", "open", "closed", "archived"] as const;
export type SurveyState = (typeof SURVEY_STATES)[number];

/** The roles a survey can ask. */
export const AUDIENCE_ROLES = [
  "student",
  "parent",
  "guardian",
  "teacher",
  "proctor",
  "administrator",
] as const;
export type AudienceRole = (typeof AUDIENCE_ROLES)[number];
/** The roles a Guide may ask: the students of their classes and those students' families. */
export const GUIDE_AUDIENCE_ROLES: readonly AudienceRole[] = ["student", "parent", "guardian"];

/** An anonymous survey shows no round or group with fewer answers than this. */
export const MIN_SHOWN_GROUP = 5;

export const RESULT_GROUPINGS = ["role", "school", "grade"] as const;
export type ResultGrouping = (typeof RESULT_GROUPINGS)[number];

const LIMITS = {
  sections: 20,
  questionsPerSection: 40,
  questions: 100,
  options: 12,
  audienceSchools: 50,
  audienceGrades: 20,
  audienceClasses: 300,
} as const;

/** The id of a section, question or choice: made by the builder, kept for good once published. */
const itemId = z
  .string({ message: invalid("surveyItemId") })
  .regex(/^[A-Za-z0-9_-]{1,40}$/, invalid("surveyItemId"));
const rosterId = z.string().trim().min(1).max(200);
const words = (max: number) => z.string().trim().max(max, invalid("surveyTextTooLong"));
const optionalWords = (max: number) => words(max).nullable().default(null);

export const choiceOptionSchema = z.object({
  id: itemId,
  label: words(120).min(1, invalid("surveyOptionLabel")),
});
export type ChoiceOption = z.infer<typeof choiceOptionSchema>;

export const questionSchema = z
  .object({
    id: itemId,
    kind: z.enum(QUESTION_KINDS, { message: invalid("surveyQuestionKind") }),
    prompt: words(300).min(1, invalid("surveyQuestionPrompt")),
    help: optionalWords(300),
    required: z.boolean().default(false),
    /** The choices of a single or multiple choice question (2 to 12); empty for other kinds. */
    options: z.array(choiceOptionSchema).max(LIMITS.options, invalid("surveyTooManyOptions")).default([]),
    /** What the two ends of a 1–5 scale or a 0–10 question mean ("Not at all", "Very much"). */
    lowLabel: optionalWords(60),
    highLabel: optionalWords(60),
  })
  .superRefine((question, context) => {
    const isChoice = CHOICE_KINDS.includes(question.kind);
    if (isChoice && question.options.length < 2)
      context.addIssue({ code: "custom", path: ["options"], message: invalid("surveyTwoOptions") });
    if (!isChoice && question.options.length > 0)
      context.addIssue({ code: "custom", path: ["options"], message: invalid("surveyNoOptions") });
    const ids = question.options.map((option) => option.id);
    if (new Set(ids).size !== ids.length)
      context.addIssue({ code: "custom", path: ["options"], message: invalid("surveyDuplicateId") });
  });
export type Question = z.infer<typeof questionSchema>;

export const sectionSchema = z.object({
  id: itemId,
  title: optionalWords(150),
  description: optionalWords(500),
  questions: z
    .array(questionSchema)
    .min(1, invalid("surveySectionQuestions"))
    .max(LIMITS.questionsPerSection, invalid("surveyTooManyQuestions")),
});
export type Section = z.infer<typeof sectionSchema>;

export const sectionsSchema = z
  .array(sectionSchema)
  .min(1, invalid("surveySectionQuestions"))
  .max(LIMITS.sections, invalid("surveyTooManySections"))
  .superRefine((sections, context) => {
    const questions = sections.flatMap((section) => section.questions);
    if (questions.length > LIMITS.questions)
      context.addIssue({ code: "custom", message: invalid("surveyTooManyQuestions") });
    const ids = [...sections.map((section) => section.id), ...questions.map((question) => question.id)];
    if (new Set(ids).size !== ids.length)
      context.addIssue({ code: "custom", message: invalid("surveyDuplicateId") });
  });

/**
 * Who is asked: people holding one of the roles who also match every filter given (a school, a
 * grade, a class). A student matches by their own school, grade and classes; a parent or guardian
 * through a child who matches them all; a Guide by the schools and classes they teach (and those
 * classes' grades); administrators and proctors by their schools, and never by a grade or class.
 */
export const audienceSchema = z.object({
  roles: z
    .array(z.enum(AUDIENCE_ROLES, { message: invalid("surveyAudienceRole") }))
    .min(1, invalid("surveyAudienceRoles"))
    .transform((roles) => [...new Set(roles)]),
  schoolIds: z
    .array(rosterId)
    .max(LIMITS.audienceSchools)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  grades: z
    .array(z.string().trim().min(1).max(20))
    .max(LIMITS.audienceGrades)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  classIds: z
    .array(rosterId)
    .max(LIMITS.audienceClasses)
    .default([])
    .transform((ids) => [...new Set(ids)]),
});
export type Audience = z.output<typeof audienceSchema>;

const instant = () => z.iso.datetime({ offset: true, message: invalid("surveyInstant") });

/** POST /api/surveys (a draft) and PUT /api/surveys/:surveyId: the whole survey. */
export const surveyInputSchema = z
  .object({
    title: words(150).min(1, invalid("surveyTitle")),
    description: optionalWords(1000),
    sections: sectionsSchema,
    audience: audienceSchema,
    isAnonymous: z.boolean().default(false),
    opensAt: instant(),
    closesAt: instant().nullable().default(null),
    repeat: z.enum(SURVEY_REPEATS).default("none"),
  })
  .superRefine((survey, context) => {
    if (survey.closesAt && Date.parse(survey.closesAt) <= Date.parse(survey.opensAt))
      context.addIssue({ code: "custom", path: ["closesAt"], message: invalid("surveyClosesAfterOpens") });
  });
export type SurveyInput = z.output<typeof surveyInputSchema>;

/** POST /api/surveys/audience-count: how many people an audience reaches now. */
export const audienceCountRequestSchema = z.object({ audience: audienceSchema });
export const audienceCountSchema = z.object({ count: z.number().int() });

/** GET /api/surveys: the surveys the caller manages, current ones or the archive. */
export const surveyListQuerySchema = z.object({
  archived: z.enum(["true", "false"]).default("false"),
  ...pageFields(50),
});

export const roundFiguresSchema = z.object({
  number: z.number().int(),
  opensAt: z.string(),
  closesAt: z.string().nullable(),
  /** The people the audience holds now. */
  invited: z.number().int(),
  answered: z.number().int(),
});
export type RoundFigures = z.infer<typeof roundFiguresSchema>;

export const surveySummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  state: z.enum(SURVEY_STATES),
  isAnonymous: z.boolean(),
  repeat: z.enum(SURVEY_REPEATS),
  opensAt: z.string(),
  closesAt: z.string().nullable(),
  audience: audienceSchema,
  /** Names of the audience's schools and classes, for saying who is asked. */
  audienceNames: z.object({ schools: z.array(z.string()), classes: z.array(z.string()) }),
  questionCount: z.number().int(),
  rounds: z.number().int(),
  /** The latest round opened, with its answers so far. */
  latestRound: roundFiguresSchema.nullable(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type SurveySummary = z.infer<typeof surveySummarySchema>;

export const surveyListSchema = z.object({
  success: z.literal(true),
  data: z.array(surveySummarySchema),
  total: z.number().int(),
  error: z.null(),
});
export type SurveyList = z.infer<typeof surveyListSchema>;

/** GET /api/surveys/:surveyId: a survey as its builder edits it. */
export const surveyDetailSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  sections: z.array(sectionSchema),
  audience: audienceSchema,
  isAnonymous: z.boolean(),
  opensAt: z.string(),
  closesAt: z.string().nullable(),
  repeat: z.enum(SURVEY_REPEATS),
  state: z.enum(SURVEY_STATES),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
  /** People have answered (or started to): questions and choices may not be removed or changed in kind. */
  isLocked: z.boolean(),
});
export type SurveyDetail = z.infer<typeof surveyDetailSchema>;

/** GET /api/surveys/audience-options: what the caller may ask. */
export const audienceOptionsSchema = z.object({
  roles: z.array(z.enum(AUDIENCE_ROLES)),
  schools: z.array(z.object({ id: z.string(), name: z.string() })),
  grades: z.array(z.string()),
  classes: z.array(
    z.object({ id: z.string(), title: z.string(), schoolId: z.string(), schoolName: z.string() }),
  ),
  /** A Guide must choose among their classes. */
  mustChooseClasses: z.boolean(),
});
export type AudienceOptions = z.infer<typeof audienceOptionsSchema>;

/** One answer: a number (scale, mood, net promoter), a choice's id, choices' ids, or text. */
export const answerValueSchema = z.union([
  z.number({ message: invalid("surveyAnswer") }),
  z.string().max(TEXT_LIMITS.long_text, invalid("surveyTextTooLong")),
  z.array(itemId).max(LIMITS.options),
  z.null(),
]);
export type AnswerValue = z.infer<typeof answerValueSchema>;

export const answersSchema = z
  .record(itemId, answerValueSchema)
  .refine((answers) => Object.keys(answers).length <= LIMITS.questions, invalid("surveyTooManyQuestions"));
export type Answers = z.infer<typeof answersSchema>;

/** PUT /api/surveys/:surveyId/draft and POST /api/surveys/:surveyId/responses. */
export const answersRequestSchema = z.object({ answers: answersSchema });

export const draftSavedSchema = z.object({ savedAt: z.string() });
export const submittedSchema = z.object({ submittedOn: z.string() });

export const ANSWER_PROBLEMS = ["required", "invalid", "unknown"] as const;
export type AnswerProblem = (typeof ANSWER_PROBLEMS)[number];

/** Whether an answer says something: not null, not blank, not an empty list. */
export function isAnswered(value: AnswerValue | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value.trim().length > 0;
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function fitsQuestion(question: Question, value: AnswerValue): boolean {
  const range = NUMBER_RANGES[question.kind];
  if (range)
    return typeof value === "number" && Number.isInteger(value) && value >= range.min && value <= range.max;
  const optionIds = new Set(question.options.map((option) => option.id));
  if (question.kind === "single_choice") return typeof value === "string" && optionIds.has(value);
  if (question.kind === "multiple_choice")
    return (
      Array.isArray(value) && new Set(value).size === value.length && value.every((id) => optionIds.has(id))
    );
  const limit = TEXT_LIMITS[question.kind as keyof typeof TEXT_LIMITS];
  return typeof value === "string" && value.length <= limit;
}

/**
 * What is wrong with answers to a survey's questions, per question id: an answer of the wrong
 * sort, one to no question of the survey, and (when `complete`, on submitting) a required question
 * left unanswered. The server and the page check with the same rule.
 */
export function answerProblems(
  sections: readonly Section[],
  answers: Answers,
  { complete }: { complete: boolean },
): Record<string, AnswerProblem> {
  const problems: Record<string, AnswerProblem> = {};
  const questions = new Map(sections.flatMap((section) => section.questions.map((q) => [q.id, q] as const)));
  for (const [id, value] of Object.entries(answers)) {
    const question = questions.get(id);
    if (!question) problems[id] = "unknown";
    else if (isAnswered(value) && !fitsQuestion(question, value as AnswerValue)) problems[id] = "invalid";
  }
  if (complete)
    for (const question of questions.values())
      if (question.required && !problems[question.id] && !isAnswered(answers[question.id]))
        problems[question.id] = "required";
  return problems;
}

/** Only the answers that say something, so a stored sheet holds no empty entries. */
export function answeredOnly(answers: Answers): Answers {
  return Object.fromEntries(Object.entries(answers).filter(([, value]) => isAnswered(value)));
}

export const MY_SURVEY_STATES = ["new", "draft", "answered"] as const;

/** GET /api/surveys/mine: the open surveys that ask the caller, in their active role. */
export const mySurveysSchema = z.object({
  data: z.array(
    z.object({
      surveyId: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      isAnonymous: z.boolean(),
      roundNumber: z.number().int(),
      closesAt: z.string().nullable(),
      questionCount: z.number().int(),
      state: z.enum(MY_SURVEY_STATES),
    }),
  ),
});
export type MySurveys = z.infer<typeof mySurveysSchema>;

export const FORM_STATES = ["open", "answered", "closed", "upcoming"] as const;

/** GET /api/surveys/:surveyId/form: a survey as the person asked answers it. */
export const surveyFormSchema = z.object({
  survey: z.object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    isAnonymous: z.boolean(),
    sections: z.array(sectionSchema),
  }),
  round: z
    .object({ number: z.number().int(), opensAt: z.string(), closesAt: z.string().nullable() })
    .nullable(),
  state: z.enum(FORM_STATES),
  draft: z.object({ answers: z.record(z.string(), answerValueSchema), savedAt: z.string() }).nullable(),
  /** Viewing Dash as someone: the page can be read, not answered. */
  isReadOnly: z.boolean(),
});
export type SurveyForm = z.infer<typeof surveyFormSchema>;

/** GET /api/surveys/:surveyId/results: `round` a round's number (all shown rounds without), `groupBy` for one round. */
export const resultsQuerySchema = z.object({
  round: z.coerce.number().int().min(1).optional(),
  groupBy: z.enum(RESULT_GROUPINGS).optional(),
});
export type ResultsQuery = z.infer<typeof resultsQuerySchema>;

/** A question's answers: counts per value, and the figure that sums them up. */
export const questionResultSchema = z.object({
  id: z.string(),
  kind: z.enum(QUESTION_KINDS),
  prompt: z.string(),
  answered: z.number().int(),
  /** Per choice id, or per number ("1"…"5", "0"…"10"), in order; empty for text questions. */
  counts: z.array(z.object({ value: z.string(), count: z.number().int() })),
  /** The mean of a scale or mood question. */
  average: z.number().nullable(),
  /** A net promoter question: % promoters (9–10) minus % detractors (0–6). */
  nps: z
    .object({
      score: z.number(),
      promoters: z.number().int(),
      passives: z.number().int(),
      detractors: z.number().int(),
    })
    .nullable(),
  /** Text answers, newest first for a named survey, in no telling order for an anonymous one. */
  texts: z.object({
    total: z.number().int(),
    items: z.array(
      z.object({
        text: z.string(),
        /** Named surveys only. */
        respondent: z.string().nullable(),
        submittedOn: z.string().nullable(),
        round: z.number().int().nullable(),
      }),
    ),
  }),
});
export type QuestionResult = z.infer<typeof questionResultSchema>;

/** A question's headline figure: a scale's or mood's average, a net promoter score. */
const scoresSchema = z.record(z.string(), z.number().nullable());

export const surveyResultsSchema = z.object({
  survey: z.object({
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    isAnonymous: z.boolean(),
    repeat: z.enum(SURVEY_REPEATS),
    state: z.enum(SURVEY_STATES),
    sections: z.array(sectionSchema),
  }),
  rounds: z.array(roundFiguresSchema.extend({ isHidden: z.boolean() })),
  /** The round shown; null for every round that may be shown, together. */
  round: z.number().int().nullable(),
  answered: z.number().int(),
  /** The chosen round has too few answers to show (an anonymous survey). */
  isHidden: z.boolean(),
  questions: z.array(questionResultSchema),
  /** Per round, each number question's headline figure (null for a round not shown). */
  trends: z.array(
    z.object({ number: z.number().int(), opensAt: z.string(), isHidden: z.boolean(), scores: scoresSchema }),
  ),
  /** The chosen round's answers per group (role, school or grade), small groups hidden. */
  groups: z
    .object({
      by: z.enum(RESULT_GROUPINGS),
      rows: z.array(
        z.object({
          key: z.string(),
          label: z.string(),
          answered: z.number().int().nullable(),
          isHidden: z.boolean(),
          scores: scoresSchema,
        }),
      ),
    })
    .nullable(),
});
export type SurveyResults = z.infer<typeof surveyResultsSchema>;

/** GET /api/surveys/:surveyId/responses.csv: one round's answers, or every round's shown. */
export const responsesCsvQuerySchema = z.object({ round: z.coerce.number().int().min(1).optional() });

/** The net promoter score of 0–10 answers: % of 9–10 minus % of 0–6, a whole number. */
export function netPromoterScore(counts: readonly { value: number; count: number }[]) {
  let promoters = 0;
  let passives = 0;
  let detractors = 0;
  for (const { value, count } of counts) {
    if (value >= 9) promoters += count;
    else if (value >= 7) passives += count;
    else detractors += count;
  }
  const total = promoters + passives + detractors;
  if (total === 0) return null;
  return { score: Math.round(((promoters - detractors) / total) * 100), promoters, passives, detractors };
}
