import { sql } from "drizzle-orm";
import {
  type Answers,
  answeredOnly,
  answerProblems,
  type MySurveys,
  type Section,
  type SurveyForm,
} from "../../../shared/contracts/surveys";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { audienceIncludesActor } from "./audience";

/**
 * Answering: the surveys that ask the caller (in their active role), a survey's form with the
 * caller's draft, saving the draft, and submitting once. For an anonymous survey the answers are
 * stored without the person; that they answered is kept apart (survey_participation), without a time.
 */

/** The round of the survey open at `now`, joined as `r` (none while the survey is not published). */
const openRoundJoin = (now: Date) => sql`left join lateral (select r.* from survey_rounds r
    where r.survey_id = s.id and r.opens_at <= ${now} and (r.closes_at is null or r.closes_at > ${now})
    order by r.number desc limit 1) r on s.status = 'published'`;

/** The open surveys that ask the caller, those still to answer first. */
export async function mySurveys(db: Database, actor: Actor, now: Date): Promise<MySurveys> {
  const me = actor.user.sourcedId;
  const rows = await queryJsonRows<MySurveys["data"][number]>(
    db,
    sql`select "surveyId", title, description, "isAnonymous", "roundNumber", "closesAt", "questionCount", state
      from (select s.id as "surveyId", s.title, s.description, s.is_anonymous as "isAnonymous", r.number as "roundNumber",
          ${isoInstant(sql`r.closes_at`)} as "closesAt", r.closes_at,
          (select count(*)::int from jsonb_array_elements(s.sections) sec, jsonb_array_elements(sec -> 'questions') q) as "questionCount",
          case when exists (select 1 from survey_participation p where p.round_id = r.id and p.user_sourced_id = ${me}) then 'answered'
            when exists (select 1 from survey_drafts d where d.round_id = r.id and d.user_sourced_id = ${me}) then 'draft'
            else 'new' end as state
        from surveys s ${openRoundJoin(now)}
        where s.status = 'published' and r.id is not null and ${audienceIncludesActor(sql`s.audience`, actor)}) mine
      order by state = 'answered', closes_at nulls last, title, "surveyId"`,
  );
  return { data: rows };
}

interface AnsweringRow {
  id: string;
  title: string;
  description: string | null;
  is_anonymous: boolean;
  sections: Section[];
  status: string;
  still_running: boolean;
  in_audience: boolean;
  round_id: string | null;
  number: number | null;
  round_opens_at: string | null;
  round_closes_at: string | null;
  answered: boolean;
  draft_answers: Answers | null;
  draft_saved_at: string | null;
  timezone: string | null;
  school_id: string | null;
  grade: string | null;
}

/** The survey as the caller may answer it, or a 404 when it does not ask them. */
async function answeringView(db: Database, actor: Actor, surveyId: string, now: Date): Promise<AnsweringRow> {
  const me = actor.user.sourcedId;
  const [row] = await queryRows<AnsweringRow>(
    db,
    sql`select s.id, s.title, s.description, s.is_anonymous, s.sections, s.status,
        (s.status = 'published' and (s.closes_at is null or s.closes_at > ${now})) as still_running,
        ${audienceIncludesActor(sql`s.audience`, actor)} as in_audience,
        r.id as round_id, r.number, ${isoInstant(sql`r.opens_at`)} as round_opens_at,
        ${isoInstant(sql`r.closes_at`)} as round_closes_at,
        exists (select 1 from survey_participation p where p.round_id = r.id and p.user_sourced_id = ${me}) as answered,
        d.answers as draft_answers, ${isoInstant(sql`d.updated_at`)} as draft_saved_at,
        u.timezone, u.primary_org_sourced_id as school_id, u.grades[1] as grade
      from surveys s ${openRoundJoin(now)}
        left join survey_drafts d on d.round_id = r.id and d.user_sourced_id = ${me}
        left join users u on u.sourced_id = ${me}
      where ${uuidEquals(sql`s.id`, surveyId)}`,
  );
  if (!row || row.status === "draft" || !row.in_audience)
    throw new AppError("not_found", message("surveys:notFound"));
  return row;
}

/** Viewing Dash as someone shows their surveys; only they answer them. */
function isViewingAsSomeone(actor: Actor): boolean {
  return actor.user.sourcedId !== actor.realUser.sourcedId;
}

/** A survey's questions with the caller's draft, and whether it can still be answered. */
export async function surveyForm(
  db: Database,
  actor: Actor,
  surveyId: string,
  now: Date,
): Promise<SurveyForm> {
  const row = await answeringView(db, actor, surveyId, now);
  const state = row.round_id
    ? row.answered
      ? "answered"
      : "open"
    : row.still_running
      ? "upcoming"
      : "closed";
  return {
    survey: {
      id: row.id,
      title: row.title,
      description: row.description,
      isAnonymous: row.is_anonymous,
      sections: row.sections,
    },
    round:
      row.number === null || row.round_opens_at === null
        ? null
        : { number: row.number, opensAt: row.round_opens_at, closesAt: row.round_closes_at },
    state,
    draft:
      state === "open" && row.draft_answers && row.draft_saved_at
        ? { answers: row.draft_answers, savedAt: row.draft_saved_at }
        : null,
    isReadOnly: isViewingAsSomeone(actor),
  };
}

/** The open round the caller may answer now, with the answers checked against its questions. */
async function roundToAnswer(
  db: Database,
  actor: Actor,
  surveyId: string,
  answers: Answers,
  now: Date,
  complete: boolean,
): Promise<AnsweringRow & { round_id: string }> {
  if (isViewingAsSomeone(actor)) throw new AppError("forbidden", message("surveys:onlyTheyAnswer"));
  const row = await answeringView(db, actor, surveyId, now);
  if (!row.round_id) throw new AppError("conflict", message("surveys:notOpen"));
  if (row.answered) throw new AppError("conflict", message("surveys:alreadyAnswered"));
  const problems = Object.entries(answerProblems(row.sections, answers, { complete }));
  if (problems.length > 0)
    throw invalidFields(
      problems.map(([questionId, problem]) => ({
        path: `answers.${questionId}`,
        message: message(`surveys:answerProblems.${problem}`),
      })),
    );
  return row as AnsweringRow & { round_id: string };
}

/** Keeps the caller's answers so far; nothing is shown to anyone until they submit. */
export async function saveDraft(
  db: Database,
  actor: Actor,
  surveyId: string,
  answers: Answers,
  now: Date,
): Promise<{ savedAt: string }> {
  const row = await roundToAnswer(db, actor, surveyId, answers, now, false);
  const me = actor.user.sourcedId;
  // Written only while the round is unanswered, so a draft arriving after the submission is dropped.
  const [saved] = await queryRows<{ saved_at: string }>(
    db,
    sql`insert into survey_drafts (round_id, user_sourced_id, answers, updated_at)
      select ${row.round_id}::uuid, ${me}, ${JSON.stringify(answeredOnly(answers))}::jsonb, ${now}
      where not exists (select 1 from survey_participation p where p.round_id = ${row.round_id}::uuid and p.user_sourced_id = ${me})
      on conflict (round_id, user_sourced_id) do update set answers = excluded.answers, updated_at = excluded.updated_at
      returning ${isoInstant(sql`updated_at`)} as saved_at`,
  );
  if (!saved) throw new AppError("conflict", message("surveys:alreadyAnswered"));
  return { savedAt: saved.saved_at };
}

/**
 * Submits the caller's answers, once per round: that they answered, the answers (without them on
 * an anonymous survey, and only the day), and the draft's removal happen together.
 */
export async function submitAnswers(
  db: Database,
  actor: Actor,
  surveyId: string,
  answers: Answers,
  now: Date,
): Promise<{ submittedOn: string }> {
  const row = await roundToAnswer(db, actor, surveyId, answers, now, true);
  const me = actor.user.sourcedId;
  const submittedOn = localDateOf(now, row.timezone ?? SCHOOL_TIME_ZONE);
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [first] = await queryRows<{ round_id: string }>(
      tx,
      sql`insert into survey_participation (round_id, user_sourced_id) values (${row.round_id}::uuid, ${me})
        on conflict do nothing returning round_id`,
    );
    if (!first) throw new AppError("conflict", message("surveys:alreadyAnswered"));
    await tx.execute(sql`insert into survey_responses (round_id, user_sourced_id, answers, respondent_role,
        respondent_school_id, respondent_grade, submitted_on)
      values (${row.round_id}::uuid, ${row.is_anonymous ? null : me}, ${JSON.stringify(answeredOnly(answers))}::jsonb,
        ${actor.activeRole}, ${row.school_id}, ${actor.activeRole === "student" ? row.grade : null}, ${submittedOn}::date)`);
    await tx.execute(
      sql`delete from survey_drafts where round_id = ${row.round_id}::uuid and user_sourced_id = ${me}`,
    );
  });
  return { submittedOn };
}
