import { type SQL, sql } from "drizzle-orm";
import {
  type Audience,
  CHOICE_KINDS,
  MIN_SHOWN_GROUP,
  NUMBER_RANGES,
  netPromoterScore,
  type Question,
  type QuestionResult,
  type ResultGrouping,
  type ResultsQuery,
  type Section,
  type SurveyRepeat,
  type SurveyResults,
  type SurveyState,
  TEXT_KINDS,
} from "../../../shared/contracts/surveys";
import { csvLine } from "../../../shared/csv";
import type { Language } from "../../../shared/languages";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message, translate } from "../../lib/i18n";
import { nameOf } from "../rostering/queries";
import { audienceMemberIds, compareGrades, managedBy, requireSurveyStaff } from "./audience";
import { stateSql } from "./surveys";

/**
 * Results: response rates, each question's answers, trends across rounds, groups, and the CSV.
 *
 * An anonymous survey's answers cannot be tied to a person: they hold no user id, and the results
 * never show a round or a group with fewer than MIN_SHOWN_GROUP answers. "Every round" adds up only
 * rounds that may be shown (so a hidden round cannot be worked out by subtraction), groups are
 * shown one round at a time, and when the small groups of a round would add up to fewer than
 * MIN_SHOWN_GROUP the next smallest are hidden with them (so one cannot be worked out from the
 * round's total). Text answers come without who or when, in the order of their random ids.
 */

interface SurveyRow {
  id: string;
  title: string;
  description: string | null;
  is_anonymous: boolean;
  repeat: SurveyRepeat;
  state: SurveyState;
  sections: Section[];
  audience: Audience;
  invited: number;
  managed: boolean;
}

interface RoundRow {
  id: string;
  number: number;
  opensAt: string;
  closesAt: string | null;
  /** Counted when the round's invitations went out; null for a round not yet invited. */
  invitedCount: number | null;
  answered: number;
  responses: number;
}

/** Only administrators and Guides whose reach holds the audience see results. */
async function surveyForResults(db: Database, actor: Actor, surveyId: string, now: Date) {
  requireSurveyStaff(actor, "results");
  const [survey] = await queryRows<SurveyRow>(
    db,
    sql`select s.id, s.title, s.description, s.is_anonymous, s.repeat, ${stateSql(now)} as state, s.sections,
        s.audience, (select count(*)::int from (${audienceMemberIds(sql`s.audience`)}) m) as invited,
        ${managedBy(actor, sql`s.audience`)} as managed
      from surveys s where ${uuidEquals(sql`s.id`, surveyId)}`,
  );
  if (!survey?.managed) throw new AppError("not_found", message("surveys:notFound"));
  const rounds = await queryJsonRows<RoundRow>(
    db,
    sql`select r.id, r.number, ${isoInstant(sql`r.opens_at`)} as "opensAt", ${isoInstant(sql`r.closes_at`)} as "closesAt",
        r.invited_count as "invitedCount",
        (select count(*)::int from survey_participation p where p.round_id = r.id) as answered,
        (select count(*)::int from survey_responses a where a.round_id = r.id) as responses
      from survey_rounds r where r.survey_id = ${survey.id}::uuid order by r.number`,
  );
  const isHidden = (round: RoundRow) => survey.is_anonymous && round.responses < MIN_SHOWN_GROUP;
  return { survey, rounds, isHidden };
}

/** The rounds a request reads: the one asked for (if it may be shown), or every round that may. */
function roundsInScope(rounds: RoundRow[], isHidden: (round: RoundRow) => boolean, number?: number) {
  if (number === undefined) return rounds.filter((round) => !isHidden(round));
  const round = rounds.find((entry) => entry.number === number);
  if (!round) throw new AppError("not_found", message("surveys:roundNotFound"));
  return isHidden(round) ? [] : [round];
}

const questionsOf = (sections: Section[]) => sections.flatMap((section) => section.questions);
const idsSql = (ids: readonly string[]) =>
  sql`select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)`;

interface CountRow {
  key: string;
  question: string;
  value: string;
  count: number;
}

/**
 * Answers counted per group (`key`: a round's number, or a respondent group), question and value;
 * a multiple choice answer counts once per choice. `answered` rows count sheets per group and question.
 */
async function countAnswers(db: Database, roundIds: string[], questionIds: string[], groupKey: SQL) {
  if (roundIds.length === 0 || questionIds.length === 0) return { counts: [], answered: [] };
  const answers = sql`from survey_responses sr join survey_rounds r on r.id = sr.round_id
    cross join lateral jsonb_each(sr.answers) a`;
  const where = sql`sr.round_id in (select (jsonb_array_elements_text(${JSON.stringify(roundIds)}::jsonb))::uuid)
    and a.key in (${idsSql(questionIds)})`;
  const [counts, answered] = await Promise.all([
    queryJsonRows<CountRow>(
      db,
      sql`select ${groupKey} as key, a.key as question, coalesce(e.value, a.value #>> '{}') as value, count(*)::int as count
        ${answers}
          left join lateral jsonb_array_elements_text(
            case when jsonb_typeof(a.value) = 'array' then a.value else '[]'::jsonb end) e (value) on true
        where ${where} and not (jsonb_typeof(a.value) = 'array' and e.value is null)
        group by 1, 2, 3`,
    ),
    queryJsonRows<Omit<CountRow, "value">>(
      db,
      sql`select ${groupKey} as key, a.key as question, count(*)::int as count ${answers} where ${where} group by 1, 2`,
    ),
  ]);
  return { counts, answered };
}

type Counts = Awaited<ReturnType<typeof countAnswers>>;

/** A question's counts in order (every choice or number, zeros too), average and net promoter score. */
function summarise(question: Question, counts: CountRow[], answered: number) {
  const byValue = new Map(counts.map((row) => [row.value, row.count]));
  const range = NUMBER_RANGES[question.kind];
  const values = range
    ? Array.from({ length: range.max - range.min + 1 }, (_, index) => String(range.min + index))
    : question.options.map((option) => option.id);
  const ordered = values.map((value) => ({ value, count: byValue.get(value) ?? 0 }));
  const numeric = ordered.map((entry) => ({ value: Number(entry.value), count: entry.count }));
  const total = numeric.reduce((sum, entry) => sum + entry.count, 0);
  const average =
    (question.kind === "scale" || question.kind === "mood") && total > 0
      ? Math.round((numeric.reduce((sum, entry) => sum + entry.value * entry.count, 0) / total) * 100) / 100
      : null;
  return {
    answered,
    counts: ordered,
    average,
    nps: question.kind === "nps" ? netPromoterScore(numeric) : null,
  };
}

/** The headline figure of each number question per group: an average, or a net promoter score. */
function scoresByKey(questions: Question[], { counts }: Counts): Map<string, Record<string, number | null>> {
  const scored = questions.filter((question) => NUMBER_RANGES[question.kind]);
  const byKey = new Map<string, Record<string, number | null>>();
  for (const key of new Set(counts.map((row) => row.key))) {
    const scores: Record<string, number | null> = {};
    for (const question of scored) {
      const summary = summarise(
        question,
        counts.filter((row) => row.key === key && row.question === question.id),
        0,
      );
      scores[question.id] = question.kind === "nps" ? (summary.nps?.score ?? null) : summary.average;
    }
    byKey.set(key, scores);
  }
  return byKey;
}

const MAX_TEXTS = 200;

/** The text answers of the rounds, up to MAX_TEXTS per question, with the total. */
async function textAnswers(db: Database, roundIds: string[], questionIds: string[], isAnonymous: boolean) {
  if (roundIds.length === 0 || questionIds.length === 0) return [];
  const order = isAnonymous ? sql`sr.id` : sql`sr.submitted_on desc, r.number desc, sr.id`;
  return queryJsonRows<{
    question: string;
    text: string;
    round: number;
    respondent: string | null;
    submittedOn: string | null;
    total: number;
  }>(
    db,
    sql`select question, text, round, respondent, "submittedOn", total from (
        select a.key as question, a.value #>> '{}' as text, r.number as round,
          ${isAnonymous ? sql`null::text` : nameOf(sql`sr.user_sourced_id`)} as respondent,
          ${isAnonymous ? sql`null::text` : sql`to_char(sr.submitted_on, 'YYYY-MM-DD')`} as "submittedOn",
          row_number() over (partition by a.key order by ${order}) as place,
          count(*) over (partition by a.key)::int as total
        from survey_responses sr join survey_rounds r on r.id = sr.round_id
          cross join lateral jsonb_each(sr.answers) a
        where sr.round_id in (select (jsonb_array_elements_text(${JSON.stringify(roundIds)}::jsonb))::uuid)
          and a.key in (${idsSql(questionIds)}) and jsonb_typeof(a.value) = 'string'
      ) t where place <= ${MAX_TEXTS} order by question, place`,
  );
}

const GROUP_COLUMNS: Record<ResultGrouping, SQL> = {
  role: sql`coalesce(sr.respondent_role, '')`,
  school: sql`coalesce(sr.respondent_school_id, '')`,
  grade: sql`coalesce(sr.respondent_grade, '')`,
};

/**
 * Which groups of a round to hide: those under MIN_SHOWN_GROUP, and while the hidden ones add up to
 * fewer than that (but more than none), the next smallest too.
 */
export function groupsToHide(groups: readonly { key: string; answered: number }[]): Set<string> {
  const bySize = [...groups].sort((a, b) => a.answered - b.answered || a.key.localeCompare(b.key));
  const hidden = new Set(
    bySize.filter((group) => group.answered < MIN_SHOWN_GROUP).map((group) => group.key),
  );
  let hiddenTotal = bySize.filter((group) => hidden.has(group.key)).reduce((sum, g) => sum + g.answered, 0);
  for (const group of bySize) {
    if (hiddenTotal === 0 || hiddenTotal >= MIN_SHOWN_GROUP) break;
    if (hidden.has(group.key)) continue;
    hidden.add(group.key);
    hiddenTotal += group.answered;
  }
  return hidden;
}

async function groupRows(
  db: Database,
  survey: SurveyRow,
  round: RoundRow,
  by: ResultGrouping,
): Promise<NonNullable<SurveyResults["groups"]>["rows"]> {
  const questions = questionsOf(survey.sections).filter((question) => NUMBER_RANGES[question.kind]);
  const column = GROUP_COLUMNS[by];
  const [groups, counts] = await Promise.all([
    queryRows<{ key: string; answered: number; label: string | null }>(
      db,
      sql`select g.key, g.answered, ${by === "school" ? sql`o.name` : sql`null::text`} as label
        from (select ${column} as key, count(*)::int as answered from survey_responses sr
          where sr.round_id = ${round.id}::uuid group by 1) g
        left join orgs o on o.sourced_id = g.key
        order by g.key`,
    ),
    countAnswers(
      db,
      [round.id],
      questions.map((question) => question.id),
      column,
    ),
  ]);
  if (by === "grade") groups.sort((a, b) => compareGrades(a.key, b.key));
  const hidden = survey.is_anonymous ? groupsToHide(groups) : new Set<string>();
  const scores = scoresByKey(questions, counts);
  return groups.map((group) => {
    const isHidden = hidden.has(group.key);
    return {
      key: group.key,
      label: group.label ?? group.key,
      answered: isHidden ? null : group.answered,
      isHidden,
      scores: isHidden ? {} : (scores.get(group.key) ?? {}),
    };
  });
}

/** A survey's results: rounds with response rates, each question, trends, and groups of one round. */
export async function surveyResults(
  db: Database,
  actor: Actor,
  surveyId: string,
  query: ResultsQuery,
  now: Date,
): Promise<SurveyResults> {
  const { survey, rounds, isHidden } = await surveyForResults(db, actor, surveyId, now);
  const scope = roundsInScope(rounds, isHidden, query.round);
  const shown = rounds.filter((round) => !isHidden(round));
  const questions = questionsOf(survey.sections);
  const counted = questions.filter((question) => !TEXT_KINDS.includes(question.kind));
  const texts = questions.filter((question) => TEXT_KINDS.includes(question.kind));
  const scopeIds = scope.map((round) => round.id);

  // Per round for every shown round: the trends, and the scope's figures added up from them.
  const [perRound, textRows] = await Promise.all([
    countAnswers(
      db,
      shown.map((round) => round.id),
      counted.map((question) => question.id),
      sql`r.number::text`,
    ),
    textAnswers(
      db,
      scopeIds,
      texts.map((question) => question.id),
      survey.is_anonymous,
    ),
  ]);
  const inScope = new Set(scope.map((round) => String(round.number)));
  const questionResults: QuestionResult[] = questions.map((question) => {
    const base = { id: question.id, kind: question.kind, prompt: question.prompt };
    if (TEXT_KINDS.includes(question.kind)) {
      const rows = textRows.filter((row) => row.question === question.id);
      const total = rows[0]?.total ?? 0;
      return {
        ...base,
        answered: total,
        counts: [],
        average: null,
        nps: null,
        texts: {
          total,
          items: rows.map((row) => ({
            text: row.text,
            respondent: row.respondent,
            submittedOn: row.submittedOn,
            round: row.round,
          })),
        },
      };
    }
    const counts = new Map<string, number>();
    for (const row of perRound.counts)
      if (row.question === question.id && inScope.has(row.key))
        counts.set(row.value, (counts.get(row.value) ?? 0) + row.count);
    const answered = perRound.answered
      .filter((row) => row.question === question.id && inScope.has(row.key))
      .reduce((sum, row) => sum + row.count, 0);
    const summary = summarise(
      question,
      [...counts].map(([value, count]) => ({ key: "", question: question.id, value, count })),
      answered,
    );
    return { ...base, ...summary, texts: { total: 0, items: [] } };
  });

  const trendScores = scoresByKey(counted, perRound);
  const chosen = query.round === undefined ? null : (scope[0] ?? null);
  return {
    survey: {
      id: survey.id,
      title: survey.title,
      description: survey.description,
      isAnonymous: survey.is_anonymous,
      repeat: survey.repeat,
      state: survey.state,
      sections: survey.sections,
    },
    rounds: rounds.map((round) => ({
      number: round.number,
      opensAt: round.opensAt,
      closesAt: round.closesAt,
      invited: Math.max(round.invitedCount ?? survey.invited, round.answered),
      answered: round.answered,
      isHidden: isHidden(round),
    })),
    round: query.round ?? null,
    answered: scope.reduce((sum, round) => sum + round.responses, 0),
    isHidden: query.round !== undefined && scope.length === 0,
    questions: scope.length === 0 ? [] : questionResults,
    trends: rounds.map((round) => ({
      number: round.number,
      opensAt: round.opensAt,
      isHidden: isHidden(round),
      scores: isHidden(round) ? {} : (trendScores.get(String(round.number)) ?? {}),
    })),
    groups:
      chosen && query.groupBy
        ? { by: query.groupBy, rows: await groupRows(db, survey, chosen, query.groupBy) }
        : null,
  };
}

const CSV_PAGE = 1_000;

/** The answer as a spreadsheet cell: a number, a choice's label, choices' labels, or the text. */
function cellOf(question: Question, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (!CHOICE_KINDS.includes(question.kind)) return value;
  const label = (id: unknown) => question.options.find((option) => option.id === id)?.label ?? String(id);
  return Array.isArray(value) ? value.map(label).join("; ") : label(value);
}

/**
 * The answers as CSV, one sheet a line, streamed a page at a time: a round's, or every round's that
 * may be shown. A named survey says who answered and when; an anonymous one only the round, in the
 * order of the answers' random ids, and no group (a small one could point at a person).
 */
export async function* responsesCsv(
  db: Database,
  actor: Actor,
  surveyId: string,
  round: number | undefined,
  language: Language,
  now: Date,
): AsyncGenerator<string> {
  const { survey, rounds, isHidden } = await surveyForResults(db, actor, surveyId, now);
  const scope = roundsInScope(rounds, isHidden, round);
  const questions = questionsOf(survey.sections);
  const say = (key: string) => translate(message(`surveys:csv.${key}`), language);
  const named = !survey.is_anonymous;
  const whoColumns = named ? ["respondentId", "respondent", "role", "school", "grade", "submittedOn"] : [];
  yield csvLine([...["round", ...whoColumns].map(say), ...questions.map((question) => question.prompt)]);
  if (scope.length === 0) return;
  const roundIds = JSON.stringify(scope.map((entry) => entry.id));
  for (let after = { number: 0, id: "00000000-0000-0000-0000-000000000000" }; ; ) {
    const rows = await queryJsonRows<{
      number: number;
      id: string;
      answers: Record<string, unknown>;
      who: unknown[];
    }>(
      db,
      sql`select r.number, sr.id, sr.answers,
          ${
            named
              ? sql`json_build_array(sr.user_sourced_id, ${nameOf(sql`sr.user_sourced_id`)}, sr.respondent_role,
                  (select o.name from orgs o where o.sourced_id = sr.respondent_school_id), sr.respondent_grade,
                  to_char(sr.submitted_on, 'YYYY-MM-DD'))`
              : sql`'[]'::json`
          } as who
        from survey_responses sr join survey_rounds r on r.id = sr.round_id
        where sr.round_id in (select (jsonb_array_elements_text(${roundIds}::jsonb))::uuid)
          and (r.number, sr.id) > (${after.number}, ${after.id}::uuid)
        order by r.number, sr.id limit ${CSV_PAGE}`,
    );
    if (rows.length > 0)
      yield rows
        .map((row) =>
          csvLine([
            row.number,
            ...row.who,
            ...questions.map((question) => cellOf(question, row.answers[question.id])),
          ]),
        )
        .join("");
    const last = rows.at(-1);
    if (!last || rows.length < CSV_PAGE) return;
    after = { number: last.number, id: last.id };
  }
}
