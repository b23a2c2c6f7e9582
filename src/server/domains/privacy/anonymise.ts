import { sql } from "drizzle-orm";
import type { AnonymiseRequest, AnonymiseResponse } from "../../../shared/contracts/privacy";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { isStudent } from "../rostering/queries";
import { recordSensitiveAccess } from "./access-log";
import { studentAnonymisations } from "./schema";

/**
 * Anonymising a student: their personal data goes, what they did stays as anonymous figures.
 * See docs/decisions/009-anonymising-students.md for what is removed, what is kept and why.
 */

export interface AnonymiseContext {
  tx: Database;
  studentId: string;
  /** "Former student 0007": the record's name from now on. */
  displayName: string;
  /** The personal values the student's record held (names, email, username, identifiers, phones). */
  personalValues: string[];
  /** The email and username they could sign in with, lower case: sign-in throttling keys name them. */
  signInNames: string[];
  at: Date;
}

export type AnonymiseStep = (context: AnonymiseContext) => Promise<void>;

const run = (context: AnonymiseContext, query: ReturnType<typeof sql>) => context.tx.execute(query);

/** Sign-in: the password, every session, and sessions of staff viewing Dash as them end that view. */
const removeSignIn: AnonymiseStep = async (context) => {
  const { studentId, signInNames } = context;
  await run(context, sql`delete from user_credentials where user_sourced_id = ${studentId}`);
  await run(context, sql`delete from sessions where user_sourced_id = ${studentId}`);
  await run(
    context,
    sql`update sessions set impersonated_user_sourced_id = null, impersonation_reason = null,
          impersonation_started_at = null, impersonation_expires_at = null
        where impersonated_user_sourced_id = ${studentId}`,
  );
  for (const name of signInNames)
    await run(context, sql`delete from login_failures where throttle_key = ${`account:${name}`}`);
};

/** The roster record: names and contact details go; the id, grades, school and timezone stay for the figures. */
const clearRosterRecord: AnonymiseStep = async (context) => {
  const { studentId, at } = context;
  const number = context.displayName.replace("Former student ", "");
  await run(
    context,
    sql`update users set given_name = 'Former student', family_name = ${number}, middle_name = null,
          preferred_first_name = null, preferred_middle_name = null, preferred_last_name = null, pronouns = null,
          username = null, identifier = null, email = null, sms = null, phone = null, metadata = null,
          enabled_user = false, status = 'tobedeleted', date_last_modified = ${at.toISOString()}::timestamptz
        where sourced_id = ${studentId}`,
  );
  await run(context, sql`delete from demographics where sourced_id = ${studentId}`);
  await run(
    context,
    sql`delete from user_agents where user_sourced_id = ${studentId} or agent_sourced_id = ${studentId}`,
  );
  await run(
    context,
    sql`update enrollments set status = 'tobedeleted', date_last_modified = ${at.toISOString()}::timestamptz
        where user_sourced_id = ${studentId} and status <> 'tobedeleted'`,
  );
};

/**
 * Activity: raw events go (they carry the apps' own ids and free text); daily totals and the XP
 * ledger stay under the anonymised id. Reasons written by hand about the student go too.
 */
const removeRawActivity: AnonymiseStep = async (context) => {
  const { studentId } = context;
  await run(context, sql`delete from activity_events where student_sourced_id = ${studentId}`);
  await run(
    context,
    sql`update xp_ledger set reason = 'Manual award (reason removed when the student was anonymised)'
        where student_sourced_id = ${studentId} and source = 'manual'`,
  );
};

/** Logs keep their entries (who did what, when) with the student's personal values replaced by their new name. */
const scrubLogs: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  // An empty pattern would match every row.
  if (personalValues.length === 0) return;
  const replaceIn = (column: string) => replacingAll(column, personalValues, displayName);
  await run(
    context,
    sql`update roster_changes set summary = ${replaceIn("summary")},
          details = (${replaceIn("details::text")})::jsonb,
          summary_message = (${replaceIn("summary_message::text")})::jsonb
        where target_user_sourced_id = ${studentId} or ${matchesAny("summary || coalesce(details::text, '') || coalesce(summary_message::text, '')", personalValues)}`,
  );
  await run(
    context,
    sql`update impersonation_audit set reason = ${replaceIn("reason")}
        where ${matchesAny("reason", personalValues)}`,
  );
  await run(
    context,
    sql`update sensitive_access_log set detail = ${replaceIn("detail")}
        where ${matchesAny("detail", personalValues)}`,
  );
  await run(
    context,
    sql`update xp_ledger set reason = ${replaceIn("reason")}
        where student_sourced_id = ${studentId} and ${matchesAny("reason", personalValues)}`,
  );
  // People's words about the student's Alphas: reasons, decisions' notes, a family's own rewards.
  await run(
    context,
    sql`update reward_ledger set reason = ${replaceIn("reason")}
        where student_sourced_id = ${studentId} and ${matchesAny("reason", personalValues)}`,
  );
  await run(
    context,
    sql`update reward_redemptions set note = ${replaceIn("note")}, item_name = ${replaceIn("item_name")}
        where student_sourced_id = ${studentId} and ${matchesAny("coalesce(note, '') || item_name", personalValues)}`,
  );
  await run(
    context,
    sql`update reward_items set name = ${replaceIn("name")}, description = ${replaceIn("description")}
        where audience_student_id = ${studentId} and ${matchesAny("name || description", personalValues)}`,
  );
};

/** Integrity: incidents and their reviews stay; the text the agent saw and people's notes lose the student's details. */
const scrubIntegrity: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  if (personalValues.length === 0) return;
  const replaceIn = (column: string) => replacingAll(column, personalValues, displayName);
  await run(
    context,
    sql`update integrity_incidents set detected_text = ${replaceIn("detected_text")}
        where student_sourced_id = ${studentId} and ${matchesAny("detected_text", personalValues)}`,
  );
  await run(
    context,
    sql`update integrity_decisions set note = ${replaceIn("note")}
        where incident_id in (select id from integrity_incidents where student_sourced_id = ${studentId})
          and ${matchesAny("note", personalValues)}`,
  );
  await run(
    context,
    sql`update integrity_lockouts set unlock_note = ${replaceIn("unlock_note")}
        where student_sourced_id = ${studentId} and ${matchesAny("coalesce(unlock_note, '')", personalValues)}`,
  );
};

/**
 * Assessment: results, placements and progress stay under the anonymised id; the export's own id
 * for the student (often the school's student number) goes, and so does what people wrote about
 * the student by name (reasons for level changes, a screening's name and notes).
 */
const scrubAssessment: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  await run(context, sql`delete from map_student_links where student_sourced_id = ${studentId}`);
  await run(
    context,
    sql`update map_results set nwea_student_id = ${displayName} where student_sourced_id = ${studentId}`,
  );
  await run(
    context,
    sql`update screening_results set applicant_name = ${displayName}, notes = null where student_sourced_id = ${studentId}`,
  );
  if (personalValues.length === 0) return;
  await run(
    context,
    sql`update placement_changes set reason = ${replacingAll("reason", personalValues, displayName)}
        where student_sourced_id = ${studentId} and ${matchesAny("reason", personalValues)}`,
  );
};

/**
 * Lessons: attempts keep their figures (score, mastery, time) under the anonymised id; the answers
 * go, since a written answer can say anything about the student.
 */
const removeLessonAnswers: AnonymiseStep = async (context) => {
  await run(
    context,
    sql`delete from lesson_item_responses
        where attempt_id in (select id from lesson_attempts where student_sourced_id = ${context.studentId})`,
  );
};

/**
 * Assignments: those given to the student by name stay (what was assigned, when, by whom), their
 * notes lose the student's details, as do notes of their classes' assignments; what the student
 * kept for later goes.
 */
const scrubLearningAssignments: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  await run(context, sql`delete from saved_resources where student_sourced_id = ${studentId}`);
  if (personalValues.length === 0) return;
  await run(
    context,
    sql`update learning_assignments set note = ${replacingAll("note", personalValues, displayName)}
        where ((assignee_kind = 'student' and assignee_id = ${studentId})
            or (assignee_kind = 'class' and assignee_id in (select class_sourced_id from enrollments where user_sourced_id = ${studentId})))
          and ${matchesAny("note", personalValues)}`,
  );
};

/**
 * The weekly pulse: the digests' figures stay under the anonymised id (they hold no names); the
 * Guides' notes lose the student's details. A family's deliveries name the parent and the week
 * only, nothing of the student, so they stay as they are.
 */
const scrubWeeklyPulse: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  if (personalValues.length === 0) return;
  await run(
    context,
    sql`update pulse_notes set note = ${replacingAll("note", personalValues, displayName)}
        where student_sourced_id = ${studentId} and ${matchesAny("note", personalValues)}`,
  );
  await run(
    context,
    sql`update pulse_note_changes set note = ${replacingAll("note", personalValues, displayName)}
        where student_sourced_id = ${studentId} and ${matchesAny("note", personalValues)}`,
  );
};

/**
 * Surveys: what the student started and never sent goes; their named answers keep their figures
 * (scales, moods, choices) under the anonymised id and lose their written ones, which can say
 * anything about them. That they answered a round stays, as a count. Anonymous answers name no one.
 */
const scrubSurveyAnswers: AnonymiseStep = async (context) => {
  await run(context, sql`delete from survey_drafts where user_sourced_id = ${context.studentId}`);
  await run(
    context,
    sql`update survey_responses a set answers = a.answers - array(
          select q ->> 'id' from survey_rounds r join surveys s on s.id = r.survey_id,
            jsonb_array_elements(s.sections) sec, jsonb_array_elements(sec -> 'questions') q
          where r.id = a.round_id and q ->> 'kind' in ('short_text', 'long_text'))
        where a.user_sourced_id = ${context.studentId}`,
  );
};

/**
 * Notifications and email: the student's own notifications, choices and guided tours go; what others were told
 * of them (a strike, a reward request) and every mail that names them lose the student's details;
 * the outbox keeps no address of theirs, and mail not yet sent to them never leaves.
 */
const scrubNotifications: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  await run(context, sql`delete from notifications where user_sourced_id = ${studentId}`);
  await run(context, sql`delete from notification_preferences where user_sourced_id = ${studentId}`);
  await run(context, sql`delete from user_preferences where user_sourced_id = ${studentId}`);
  await run(context, sql`delete from tour_completions where user_sourced_id = ${studentId}`);
  // Their page use goes; a parent's sign-in keeps its row, without them in its sample of children.
  await run(context, sql`delete from analytics_events where user_sourced_id = ${studentId}`);
  await run(
    context,
    sql`update analytics_events set linked_ids = array_remove(linked_ids, ${studentId})
        where linked_ids @> array[${studentId}]::text[]`,
  );
  await run(
    context,
    sql`update email_outbox set to_address = '',
          status = case when status = 'queued' then 'failed' else status end,
          last_error = case when status = 'queued' then 'The recipient was anonymised before it was sent' else last_error end
        where recipient_sourced_id = ${studentId}`,
  );
  if (personalValues.length === 0) return;
  await run(
    context,
    sql`update notifications set params = (${replacingAll("params::text", personalValues, displayName)})::jsonb
        where ${matchesAny("params::text", personalValues)}`,
  );
  await run(
    context,
    sql`update email_outbox set subject = ${replacingAll("subject", personalValues, displayName)},
          text_body = ${replacingAll("text_body", personalValues, displayName)},
          html_body = ${replacingAll("html_body", personalValues, displayName)},
          to_address = case when ${matchesAny("to_address", personalValues)} then '' else to_address end
        where ${matchesAny("subject", personalValues)} or ${matchesAny("text_body", personalValues)}
          or ${matchesAny("html_body", personalValues)} or ${matchesAny("to_address", personalValues)}`,
  );
};

/**
 * Messaging: the student's conversations and the announcements they received stay (who was in what,
 * who read what); the words of their own messages go, and their pictures' names (the messaging job
 * deletes the files: the storage cannot take part in this transaction). Others' messages and
 * announcements that name them lose the student's details.
 */
const scrubMessaging: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  await run(
    context,
    sql`update messages set body_html = '',
          attachments = (select coalesce(jsonb_agg(p || jsonb_build_object('name', 'picture')), '[]'::jsonb)
            from jsonb_array_elements(attachments) p)
        where author_sourced_id = ${studentId}`,
  );
  if (personalValues.length === 0) return;
  await run(
    context,
    sql`update messages set body_html = ${replacingAll("body_html", personalValues, displayName)},
          attachments = (${replacingAll("attachments::text", personalValues, displayName)})::jsonb
        where ${matchesAny("body_html || attachments::text", personalValues)}`,
  );
  await run(
    context,
    sql`update conversations set subject = ${replacingAll("subject", personalValues, displayName)}
        where ${matchesAny("subject", personalValues)}`,
  );
  await run(
    context,
    sql`update announcements set title = ${replacingAll("title", personalValues, displayName)},
          body_html = ${replacingAll("body_html", personalValues, displayName)}
        where ${matchesAny("title || body_html", personalValues)}`,
  );
};

/**
 * Athletics: the log keeps what was done, for how long and when under the anonymised id; the
 * activity's name and note (free text) lose the student's details.
 */
const scrubAthletics: AnonymiseStep = async (context) => {
  const { studentId, displayName, personalValues } = context;
  if (personalValues.length === 0) return;
  await run(
    context,
    sql`update athletic_activities set activity = ${replacingAll("activity", personalValues, displayName)},
          note = ${replacingAll("note", personalValues, displayName)}
        where student_sourced_id = ${studentId} and ${matchesAny("activity || coalesce(note, '')", personalValues)}`,
  );
};

/**
 * App logins: the student's usernames and encrypted passwords go; the decrypt audit and the logins'
 * history stay, as they hold only ids (who revealed or changed which login of which app, when).
 */
const removeAppCredentials: AnonymiseStep = async (context) => {
  await run(context, sql`delete from app_credentials where student_sourced_id = ${context.studentId}`);
};

/**
 * Scheduled reports: the person no longer gets any (a schedule left with no one is deleted), and
 * a schedule of a report about them alone goes.
 */
const scrubReportSchedules: AnonymiseStep = async (context) => {
  const { studentId } = context;
  await run(
    context,
    sql`delete from report_schedules
        where filters ->> 'studentId' = ${studentId} or recipient_ids = array[${studentId}]::text[]`,
  );
  await run(
    context,
    sql`update report_schedules set recipient_ids = array_remove(recipient_ids, ${studentId})
        where recipient_ids @> array[${studentId}]::text[]`,
  );
};

/**
 * Each domain's part, run in order in one transaction. Domains that keep more about students
 * (incident evidence and its files, survey answers, messages…) add their step here.
 */
export const ANONYMISE_STEPS: readonly AnonymiseStep[] = [
  removeSignIn,
  clearRosterRecord,
  removeRawActivity,
  scrubLogs,
  scrubIntegrity,
  scrubAssessment,
  removeLessonAnswers,
  scrubLearningAssignments,
  scrubWeeklyPulse,
  scrubSurveyAnswers,
  scrubNotifications,
  scrubMessaging,
  scrubAthletics,
  removeAppCredentials,
  scrubReportSchedules,
];

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A regular expression matching any of the values, for PostgreSQL's ~* and regexp_replace. */
function patternOf(values: string[]): string {
  return values.map(escapeRegex).join("|");
}

function replacingAll(column: string, values: string[], replacement: string) {
  return sql`regexp_replace(${sql.raw(column)}, ${patternOf(values)}, ${replacement}, 'gi')`;
}

function matchesAny(column: string, values: string[]) {
  return sql`coalesce(${sql.raw(column)} ~* ${patternOf(values)}, false)`;
}

interface StudentRecord {
  sourcedId: string;
  givenName: string;
  familyName: string;
  middleName: string | null;
  preferredFirstName: string | null;
  preferredLastName: string | null;
  email: string | null;
  username: string | null;
  identifier: string | null;
  sms: string | null;
  phone: string | null;
  isStudent: boolean;
  anonymisedAt: string | null;
  number: number | null;
}

const normalised = (value: string) => value.trim().replace(/\s+/g, " ").toLowerCase();
const displayNameOf = (number: number) => `Former student ${String(number).padStart(4, "0")}`;

/** Personal values worth finding in free text: long enough not to match parts of ordinary words. */
function personalValuesOf(student: StudentRecord): string[] {
  const names = [
    `${student.givenName} ${student.familyName}`,
    student.middleName && `${student.givenName} ${student.middleName} ${student.familyName}`,
    student.preferredFirstName &&
      `${student.preferredFirstName} ${student.preferredLastName ?? student.familyName}`,
  ];
  const values = [...names, student.email, student.username, student.identifier, student.sms, student.phone];
  return [...new Set(values.filter((value): value is string => Boolean(value && value.trim().length >= 4)))];
}

/**
 * Removes a student's personal data, once: a repeat answers with the first result and changes
 * nothing. The caller confirms with the student's current full name or id.
 */
export async function anonymiseStudent(
  db: Database,
  actor: Actor,
  studentId: string,
  input: AnonymiseRequest,
  at: Date,
): Promise<AnonymiseResponse["data"]> {
  if (studentId === actor.realUser.sourcedId || studentId === actor.user.sourcedId)
    throw new AppError("bad_request", message("privacy:anonymise.notYourself"));

  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    // Locks the record so two requests anonymise it once.
    const [student] = await queryRows<StudentRecord>(
      tx,
      sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName",
            u.middle_name as "middleName", u.preferred_first_name as "preferredFirstName",
            u.preferred_last_name as "preferredLastName", u.email, u.username, u.identifier, u.sms, u.phone,
            ${isStudent(sql`u.sourced_id`)} as "isStudent",
            a.number, to_char(a.anonymised_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "anonymisedAt"
          from users u left join student_anonymisations a on a.student_sourced_id = u.sourced_id
          where u.sourced_id = ${studentId}
          for update of u`,
    );
    if (!student) throw new AppError("not_found", message("privacy:students.notFound"));
    if (!student.isStudent) throw new AppError("bad_request", message("privacy:anonymise.onlyStudents"));
    const confirmation = normalised(input.confirm);
    if (
      confirmation !== normalised(`${student.givenName} ${student.familyName}`) &&
      confirmation !== normalised(student.sourcedId)
    ) {
      throw new AppError("bad_request", message("privacy:anonymise.confirmationMismatch"));
    }
    if (student.anonymisedAt && student.number !== null) {
      return {
        sourcedId: studentId,
        displayName: displayNameOf(student.number),
        anonymisedAt: student.anonymisedAt,
        wasAlreadyAnonymised: true,
      };
    }

    const personalValues = personalValuesOf(student);
    const scrub = (text: string) =>
      personalValues.reduce(
        (result, value) => result.replace(new RegExp(escapeRegex(value), "gi"), "the student"),
        text,
      );
    const reason = scrub(input.reason);
    const [record] = await tx
      .insert(studentAnonymisations)
      .values({
        studentSourcedId: studentId,
        actorSourcedId: actor.realUser.sourcedId,
        reason,
        anonymisedAt: at,
      })
      .returning({ number: studentAnonymisations.number });
    const displayName = displayNameOf(record?.number ?? 0);
    const context: AnonymiseContext = {
      tx,
      studentId,
      displayName,
      personalValues,
      signInNames: [student.email, student.username].flatMap((name) =>
        name ? [name.trim().toLowerCase()] : [],
      ),
      at,
    };
    for (const step of ANONYMISE_STEPS) await step(context);
    await recordSensitiveAccess(tx, {
      actorId: actor.user.sourcedId,
      realActorId: actor.realUser.sourcedId,
      personId: studentId,
      kind: "anonymise",
      detail: `Removed their personal data. Reason: ${reason}`,
      at,
    });
    return { sourcedId: studentId, displayName, anonymisedAt: at.toISOString(), wasAlreadyAnonymised: false };
  });
}
