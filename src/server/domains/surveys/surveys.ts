import { type SQL, sql } from "drizzle-orm";
import type {
  Audience,
  Section,
  SurveyDetail,
  SurveyInput,
  SurveyList,
  SurveyRepeat,
  SurveyState,
  SurveySummary,
} from "../../../shared/contracts/surveys";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import type { JobRunner } from "../../platform/jobs/runner";
import { nameOf } from "../rostering/queries";
import { assertAudienceAllowed, audienceMemberIds, managedBy, requireSurveyStaff } from "./audience";
import { alignOpenRound, openDueRounds, queueInvitations } from "./rounds";

/** Building surveys: a draft, published (opening its rounds), closed, archived; each change keeps who and when. */

/** A survey's state in a list, from its status and dates at `now`. */
export function stateSql(now: Date): SQL {
  return sql`(case when s.status = 'archived' then 'archived' when s.status = 'draft' then 'draft'
    when s.closes_at is not null and s.closes_at <= ${now} then 'closed'
    when s.opens_at > ${now} then 'scheduled' else 'open' end)`;
}

const questionCountSql = sql`(select count(*)::int from jsonb_array_elements(s.sections) sec,
  jsonb_array_elements(sec -> 'questions') q)`;

/** The names of the audience's schools and classes. */
const audienceNamesSql = sql`json_build_object(
  'schools', array(select o.name from orgs o
    where o.sourced_id in (select jsonb_array_elements_text(s.audience -> 'schoolIds')) order by o.name),
  'classes', array(select k.title from classes k
    where k.sourced_id in (select jsonb_array_elements_text(s.audience -> 'classIds')) order by k.title))`;

/** The surveys the caller manages: the current ones (drafts to closed) or the archive, latest change first. */
export async function listSurveys(
  db: Database,
  actor: Actor,
  query: { archived: "true" | "false"; offset: number; limit: number },
  now: Date,
): Promise<SurveyList> {
  requireSurveyStaff(actor, "manage");
  const where = sql`${managedBy(actor, sql`s.audience`)}
    and ${query.archived === "true" ? sql`s.status = 'archived'` : sql`s.status <> 'archived'`}`;
  const [rows, [counted]] = await Promise.all([
    queryJsonRows<SurveySummary>(
      db,
      sql`select s.id, s.title, ${stateSql(now)} as state, s.is_anonymous as "isAnonymous", s.repeat,
          ${isoInstant(sql`s.opens_at`)} as "opensAt", ${isoInstant(sql`s.closes_at`)} as "closesAt",
          s.audience, ${audienceNamesSql} as "audienceNames", ${questionCountSql} as "questionCount",
          (select count(*)::int from survey_rounds r where r.survey_id = s.id) as rounds,
          (select json_build_object('number', latest.number, 'opensAt', ${isoInstant(sql`latest.opens_at`)},
              'closesAt', ${isoInstant(sql`latest.closes_at`)},
              'invited', greatest(coalesce(latest.invited_count,
                (select count(*)::int from (${audienceMemberIds(sql`s.audience`)}) m)), latest.answered),
              'answered', latest.answered)
            from (select r.number, r.opens_at, r.closes_at, r.invited_count,
                (select count(*)::int from survey_participation p where p.round_id = r.id) as answered
              from survey_rounds r where r.survey_id = s.id order by r.number desc limit 1) latest) as "latestRound",
          ${isoInstant(sql`s.updated_at`)} as "updatedAt", ${nameOf(sql`coalesce(s.updated_by, s.created_by)`)} as "updatedBy"
        from surveys s where ${where}
        order by s.updated_at desc, s.id limit ${query.limit} offset ${query.offset}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from surveys s where ${where}`),
  ]);
  return { success: true, data: rows, total: counted?.total ?? 0, error: null };
}

interface StoredSurvey {
  id: string;
  status: "draft" | "published" | "archived";
  state: SurveyState;
  sections: Section[];
  audience: Audience;
  is_anonymous: boolean;
  opens_at: string;
  closes_at: string | null;
  repeat: SurveyRepeat;
  has_rounds: boolean;
  managed: boolean;
}

/** A survey the caller manages, or a 404 (also for one outside a Guide's reach). */
async function managedSurvey(
  db: Database,
  actor: Actor,
  surveyId: string,
  now: Date,
  { lock = false } = {},
): Promise<StoredSurvey> {
  const [survey] = await queryRows<StoredSurvey>(
    db,
    sql`select s.id, s.status, ${stateSql(now)} as state, s.sections, s.audience, s.is_anonymous,
        ${isoInstant(sql`s.opens_at`)} as opens_at, ${isoInstant(sql`s.closes_at`)} as closes_at, s.repeat,
        exists (select 1 from survey_rounds r where r.survey_id = s.id) as has_rounds,
        ${managedBy(actor, sql`s.audience`)} as managed
      from surveys s where ${uuidEquals(sql`s.id`, surveyId)} ${lock ? sql`for update` : sql``}`,
  );
  if (!survey?.managed) throw new AppError("not_found", message("surveys:notFound"));
  return survey;
}

/** One survey as its builder edits it. */
export async function getSurvey(
  db: Database,
  actor: Actor,
  surveyId: string,
  now: Date,
): Promise<SurveyDetail> {
  requireSurveyStaff(actor, "manage");
  await managedSurvey(db, actor, surveyId, now);
  const [detail] = await queryJsonRows<SurveyDetail>(
    db,
    sql`select s.id, s.title, s.description, s.sections, s.audience, s.is_anonymous as "isAnonymous",
        ${isoInstant(sql`s.opens_at`)} as "opensAt", ${isoInstant(sql`s.closes_at`)} as "closesAt", s.repeat,
        ${stateSql(now)} as state, ${isoInstant(sql`s.created_at`)} as "createdAt", ${nameOf(sql`s.created_by`)} as "createdBy",
        ${isoInstant(sql`s.updated_at`)} as "updatedAt", ${nameOf(sql`coalesce(s.updated_by, s.created_by)`)} as "updatedBy",
        exists (select 1 from survey_rounds r where r.survey_id = s.id) as "isLocked"
      from surveys s where s.id = ${surveyId}::uuid`,
  );
  if (!detail) throw new AppError("not_found", message("surveys:notFound"));
  return detail;
}

/** Starts a survey as a draft; nobody is asked until it is published. */
export async function createSurvey(db: Database, actor: Actor, input: SurveyInput): Promise<{ id: string }> {
  requireSurveyStaff(actor, "manage");
  await assertAudienceAllowed(db, actor, input.audience);
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into surveys (title, description, sections, audience, is_anonymous, opens_at, closes_at, repeat,
        status, created_by, updated_by)
      values (${input.title}, ${input.description}, ${JSON.stringify(input.sections)}::jsonb,
        ${JSON.stringify(input.audience)}::jsonb, ${input.isAnonymous}, ${input.opensAt}::timestamptz,
        ${input.closesAt}::timestamptz, ${input.repeat}, 'draft', ${actor.realUser.sourcedId}, ${actor.realUser.sourcedId})
      returning id`,
  );
  return { id: row?.id as string };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sameInstant = (a: string | null, b: string | null) =>
  (a === null && b === null) || (a !== null && b !== null && Date.parse(a) === Date.parse(b));

/**
 * Refuses a change that would break answers already given to a survey that opened: a question or
 * choice removed, a question's kind changed, or who is asked, how, and when it starts and repeats.
 * Wording, order, new questions and new choices are fine.
 */
function assertKeepsAnswers(stored: StoredSurvey, input: SurveyInput): void {
  const conflict = (key: string, values?: Record<string, unknown>) => {
    throw new AppError("conflict", message(`surveys:locked.${key}`, values));
  };
  if (input.isAnonymous !== stored.is_anonymous) conflict("anonymity");
  if (!sameJson(sortedAudience(input.audience), sortedAudience(stored.audience))) conflict("audience");
  if (input.repeat !== stored.repeat || !sameInstant(input.opensAt, stored.opens_at)) conflict("schedule");
  const kept = new Map(input.sections.flatMap((section) => section.questions.map((q) => [q.id, q] as const)));
  for (const question of stored.sections.flatMap((section) => section.questions)) {
    const now = kept.get(question.id);
    if (!now) conflict("questionRemoved", { prompt: question.prompt });
    else if (now.kind !== question.kind) conflict("kindChanged", { prompt: question.prompt });
    else {
      const options = new Set(now.options.map((option) => option.id));
      const missing = question.options.find((option) => !options.has(option.id));
      if (missing) conflict("optionRemoved", { prompt: question.prompt, option: missing.label });
    }
  }
}

function sortedAudience(audience: Audience) {
  return {
    roles: [...audience.roles].sort(),
    schoolIds: [...audience.schoolIds].sort(),
    grades: [...audience.grades].sort(),
    classIds: [...audience.classIds].sort(),
  };
}

function assertClosesAhead(closesAt: string | null, now: Date) {
  if (closesAt && Date.parse(closesAt) <= now.getTime())
    throw invalidFields([{ path: "closesAt", message: message("surveys:closesInPast") }]);
}

/** Saves the whole survey; once it has opened, only in ways that keep the answers already given. */
export async function updateSurvey(
  db: Database,
  jobs: Pick<JobRunner, "enqueue">,
  actor: Actor,
  surveyId: string,
  input: SurveyInput,
  now: Date,
): Promise<void> {
  requireSurveyStaff(actor, "manage");
  const opened = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const stored = await managedSurvey(tx, actor, surveyId, now, { lock: true });
    if (stored.status === "archived") throw new AppError("conflict", message("surveys:archived"));
    await assertAudienceAllowed(tx, actor, input.audience);
    if (stored.has_rounds) assertKeepsAnswers(stored, input);
    if (stored.status === "published" && !sameInstant(input.closesAt, stored.closes_at))
      assertClosesAhead(input.closesAt, now);
    await tx.execute(sql`update surveys set title = ${input.title}, description = ${input.description},
        sections = ${JSON.stringify(input.sections)}::jsonb, audience = ${JSON.stringify(input.audience)}::jsonb,
        is_anonymous = ${input.isAnonymous}, opens_at = ${input.opensAt}::timestamptz,
        closes_at = ${input.closesAt}::timestamptz, repeat = ${input.repeat},
        updated_by = ${actor.realUser.sourcedId}, updated_at = ${now}
      where id = ${surveyId}::uuid`);
    if (stored.has_rounds) await alignOpenRound(tx, surveyId, now);
    // A published survey whose opening moved to now or earlier opens at once.
    return stored.status === "published" ? openDueRounds(tx, now, surveyId) : [];
  });
  await queueInvitations(jobs, opened);
}

/**
 * Publishes a draft: from its opening, its audience is asked. A survey opening now opens its
 * first round at once and its audience is invited; a later one opens with the rounds job.
 */
export async function publishSurvey(
  db: Database,
  jobs: Pick<JobRunner, "enqueue">,
  actor: Actor,
  surveyId: string,
  now: Date,
): Promise<void> {
  requireSurveyStaff(actor, "manage");
  const opened = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const stored = await managedSurvey(tx, actor, surveyId, now, { lock: true });
    if (stored.status !== "draft") throw new AppError("conflict", message("surveys:alreadyPublished"));
    assertClosesAhead(stored.closes_at, now);
    await tx.execute(sql`update surveys set status = 'published', updated_by = ${actor.realUser.sourcedId},
      updated_at = ${now} where id = ${surveyId}::uuid`);
    return openDueRounds(tx, now, surveyId);
  });
  await queueInvitations(jobs, opened);
}

/** Closes a published survey now: its open round closes with it. */
export async function closeSurvey(db: Database, actor: Actor, surveyId: string, now: Date): Promise<void> {
  requireSurveyStaff(actor, "manage");
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const stored = await managedSurvey(tx, actor, surveyId, now, { lock: true });
    if (stored.status !== "published" || stored.state === "closed")
      throw new AppError("conflict", message("surveys:notOpenToClose"));
    await tx.execute(sql`update surveys set closes_at = ${now}, updated_by = ${actor.realUser.sourcedId},
      updated_at = ${now} where id = ${surveyId}::uuid`);
    await alignOpenRound(tx, surveyId, now);
  });
}

/** Archives a survey: it leaves the list, asks no one any more, and its results stay. */
export async function archiveSurvey(db: Database, actor: Actor, surveyId: string, now: Date): Promise<void> {
  requireSurveyStaff(actor, "manage");
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const stored = await managedSurvey(tx, actor, surveyId, now, { lock: true });
    if (stored.status === "archived") throw new AppError("conflict", message("surveys:archived"));
    await tx.execute(sql`update surveys set status = 'archived', updated_by = ${actor.realUser.sourcedId},
      updated_at = ${now} where id = ${surveyId}::uuid`);
    await tx.execute(sql`update survey_rounds set closes_at = ${now}
      where survey_id = ${surveyId}::uuid and (closes_at is null or closes_at > ${now})`);
    await tx.execute(sql`delete from survey_drafts where round_id in
      (select id from survey_rounds where survey_id = ${surveyId}::uuid)`);
  });
}

/** Deletes a survey that was never published. */
export async function deleteSurvey(db: Database, actor: Actor, surveyId: string, now: Date): Promise<void> {
  requireSurveyStaff(actor, "manage");
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const stored = await managedSurvey(tx, actor, surveyId, now, { lock: true });
    if (stored.status !== "draft" || stored.has_rounds)
      throw new AppError("conflict", message("surveys:onlyDraftsDeleted"));
    await tx.execute(sql`delete from surveys where id = ${surveyId}::uuid`);
  });
}
