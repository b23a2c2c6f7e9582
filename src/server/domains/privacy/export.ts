import { Readable } from "node:stream";
import { type SQL, sql } from "drizzle-orm";
import yazl from "yazl";
import { csvLine } from "../../../shared/csv";
import { type Database, queryRows } from "../../db/client";

/**
 * Everything Dash holds about one student, as a .zip of JSON (for structure) and CSV (for tables),
 * streamed: each file is read from the database as the archive is written, CSV a page at a time.
 */

const PAGE_SIZE = 2_000;
const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);
const day = (column: string) => sql.raw(`to_char(${column}, 'YYYY-MM-DD')`);
const nameOf = (alias: string) => sql.raw(`${alias}.given_name || ' ' || ${alias}.family_name`);

interface JsonFile {
  name: string;
  description: string;
  /** One row with a `document` column holding the file's JSON. */
  query: (studentId: string) => SQL;
}

interface CsvFile {
  name: string;
  description: string;
  columns: readonly string[];
  /** Selects the columns by name, in a stable order; the export adds the paging. */
  query: (studentId: string) => SQL;
}

const JSON_FILES: readonly JsonFile[] = [
  {
    name: "profile.json",
    description:
      "The student's record: names, identifiers, contact details, grades, timezone and status, with their demographics.",
    query: (studentId) => sql`select jsonb_build_object(
        'user', to_jsonb(u),
        'demographics', (select to_jsonb(d) from demographics d where d.sourced_id = u.sourced_id)
      ) as document
      from users u where u.sourced_id = ${studentId}`,
  },
  {
    name: "organisations.json",
    description:
      "The schools and district the student belongs to, through a role, a class or their primary organisation.",
    query: (
      studentId,
    ) => sql`select coalesce(jsonb_agg(to_jsonb(o) order by o.sourced_id), '[]'::jsonb) as document
      from orgs o where o.sourced_id in (
        select org_sourced_id from user_roles where user_sourced_id = ${studentId}
        union select school_sourced_id from enrollments where user_sourced_id = ${studentId}
        union select primary_org_sourced_id from users where sourced_id = ${studentId})`,
  },
];

const CSV_FILES: readonly CsvFile[] = [
  {
    name: "roles.csv",
    description: "The student's roles and where they hold them.",
    columns: ["role", "roleType", "orgSourcedId", "orgName", "beginDate", "endDate"],
    query: (studentId) => sql`select r.role, r.role_type as "roleType", r.org_sourced_id as "orgSourcedId",
        o.name as "orgName", ${day("r.begin_date")} as "beginDate", ${day("r.end_date")} as "endDate"
      from user_roles r left join orgs o on o.sourced_id = r.org_sourced_id
      where r.user_sourced_id = ${studentId} order by r.role, r.org_sourced_id`,
  },
  {
    name: "enrollments.csv",
    description: "The student's enrollments in classes, with each class, its course and school.",
    columns: [
      "enrollmentSourcedId",
      "status",
      "role",
      "primary",
      "beginDate",
      "endDate",
      "classSourcedId",
      "classTitle",
      "courseTitle",
      "schoolName",
    ],
    query: (studentId) => sql`select e.sourced_id as "enrollmentSourcedId", e.status, e.role, e."primary",
        ${day("e.begin_date")} as "beginDate", ${day("e.end_date")} as "endDate",
        e.class_sourced_id as "classSourcedId", k.title as "classTitle", c.title as "courseTitle", s.name as "schoolName"
      from enrollments e
      left join classes k on k.sourced_id = e.class_sourced_id
      left join courses c on c.sourced_id = k.course_sourced_id
      left join orgs s on s.sourced_id = e.school_sourced_id
      where e.user_sourced_id = ${studentId} order by e.sourced_id`,
  },
  {
    name: "parents-and-guardians.csv",
    description: "The parents and guardians linked to the student: their names and relationship only.",
    columns: ["sourcedId", "givenName", "familyName", "relationship"],
    query: (
      studentId,
    ) => sql`select a.sourced_id as "sourcedId", a.given_name as "givenName", a.family_name as "familyName",
        (select string_agg(distinct lower(r.role), ' and ') from user_roles r
          where r.user_sourced_id = a.sourced_id and lower(r.role) in ('parent', 'guardian', 'relative')) as relationship
      from user_agents l join users a on a.sourced_id = l.agent_sourced_id
      where l.user_sourced_id = ${studentId} order by a.sourced_id`,
  },
  {
    name: "activity-events.csv",
    description: "Each activity a learning app reported for the student, with the XP it earned and why.",
    columns: [
      "occurredAt",
      "localDate",
      "app",
      "subject",
      "activityId",
      "activityName",
      "expectedXp",
      "totalQuestions",
      "correctQuestions",
      "masteredUnits",
      "scorePercent",
      "activeSeconds",
      "inactiveSeconds",
      "wasteSeconds",
      "antiPatternSeconds",
      "attempt",
      "awardedXp",
      "xpExplanation",
      "eventId",
      "receivedAt",
    ],
    query: (
      studentId,
    ) => sql`select ${iso("e.occurred_at")} as "occurredAt", ${day("e.local_date")} as "localDate",
        a.name as app, e.subject, e.activity_id as "activityId", e.activity_name as "activityName",
        e.expected_xp as "expectedXp", e.total_questions as "totalQuestions", e.correct_questions as "correctQuestions",
        e.mastered_units as "masteredUnits", e.score_percent as "scorePercent", e.active_seconds as "activeSeconds", e.inactive_seconds as "inactiveSeconds",
        e.waste_seconds as "wasteSeconds", e.anti_pattern_seconds as "antiPatternSeconds", e.attempt,
        e.awarded_xp as "awardedXp", e.xp_explanation as "xpExplanation", e.event_id as "eventId",
        ${iso("e.received_at")} as "receivedAt"
      from activity_events e left join learning_apps a on a.id = e.app_id
      where e.student_sourced_id = ${studentId} order by e.occurred_at, e.id`,
  },
  {
    name: "xp-ledger.csv",
    description: "Every XP award and deduction: from activities, or by hand with the reason and who gave it.",
    columns: ["createdAt", "localDate", "subject", "amount", "source", "reason", "app", "givenBy"],
    query: (
      studentId,
    ) => sql`select ${iso("x.created_at")} as "createdAt", ${day("x.local_date")} as "localDate",
        x.subject, x.amount, x.source, x.reason, a.name as app, ${nameOf("g")} as "givenBy"
      from xp_ledger x left join learning_apps a on a.id = x.app_id left join users g on g.sourced_id = x.actor_sourced_id
      where x.student_sourced_id = ${studentId} order by x.created_at, x.id`,
  },
  {
    name: "alphas-ledger.csv",
    description:
      "Every movement of the student's Alphas: earned, awarded, spent, saved, paid out, with the reason and who made it.",
    columns: ["createdAt", "account", "kind", "amount", "reason", "by", "requestId", "reversesEntry"],
    query: (studentId) => sql`select ${iso("l.created_at")} as "createdAt", l.account, l.kind, l.amount,
        coalesce(l.reason, l.reason_message ->> 'key') as reason, ${nameOf("g")} as by, l.redemption_id as "requestId",
        l.reverses_entry_id as "reversesEntry"
      from reward_ledger l left join users g on g.sourced_id = l.actor_sourced_id
      where l.student_sourced_id = ${studentId} order by l.id`,
  },
  {
    name: "emporium-requests.csv",
    description:
      "The student's requests from the emporium: the item, its price, and who decided and handed it out.",
    columns: [
      "createdAt",
      "item",
      "price",
      "status",
      "decidedBy",
      "decidedAt",
      "note",
      "fulfilledBy",
      "fulfilledAt",
    ],
    query: (
      studentId,
    ) => sql`select ${iso("r.created_at")} as "createdAt", r.item_name as item, r.price, r.status,
        ${nameOf("d")} as "decidedBy", ${iso("r.decided_at")} as "decidedAt", r.note, ${nameOf("f")} as "fulfilledBy",
        ${iso("r.fulfilled_at")} as "fulfilledAt"
      from reward_redemptions r left join users d on d.sourced_id = r.decided_by left join users f on f.sourced_id = r.fulfilled_by
      where r.student_sourced_id = ${studentId} order by r.created_at, r.id`,
  },
  {
    name: "daily-totals.csv",
    description: "Per day, subject and app: XP, time, questions and mastered units.",
    columns: [
      "localDate",
      "subject",
      "app",
      "xp",
      "activeSeconds",
      "wasteSeconds",
      "totalQuestions",
      "correctQuestions",
      "masteredUnits",
      "events",
      "lastEventAt",
    ],
    query: (studentId) => sql`select ${day("m.local_date")} as "localDate", m.subject,
        coalesce(a.name, m.app_key) as app, m.xp, m.active_seconds as "activeSeconds", m.waste_seconds as "wasteSeconds",
        m.total_questions as "totalQuestions", m.correct_questions as "correctQuestions",
        m.mastered_units as "masteredUnits", m.events, ${iso("m.last_event_at")} as "lastEventAt"
      from daily_student_metrics m left join learning_apps a on a.id::text = m.app_key
      where m.student_sourced_id = ${studentId} order by m.local_date, m.subject, m.app_key`,
  },
  {
    name: "goals.csv",
    description: "The student's own daily XP goals per subject (where the school default does not apply).",
    columns: ["subject", "dailyXp"],
    query: (studentId) => sql`select subject, daily_xp as "dailyXp" from student_daily_goals
      where student_sourced_id = ${studentId} order by subject`,
  },
  {
    name: "leagues.csv",
    description:
      "The student's weekly leagues: the week (from Sunday), the tier and the league's number in it.",
    columns: ["weekStart", "tier", "league"],
    query: (studentId) => sql`select ${day("week_start")} as "weekStart", tier, league from league_placements
      where student_sourced_id = ${studentId} order by week_start`,
  },
  {
    name: "leaderboard-hiding.csv",
    description: "Who hid the student from leaderboards (their family or staff), and when.",
    columns: ["hiddenBy", "by", "at"],
    query: (
      studentId,
    ) => sql`select o.hidden_by as "hiddenBy", ${nameOf("s")} as by, ${iso("o.created_at")} as at
      from leaderboard_opt_outs o left join users s on s.sourced_id = o.actor_sourced_id
      where o.student_sourced_id = ${studentId} order by o.created_at, o.hidden_by`,
  },
  {
    name: "weekly-and-target-goals.csv",
    description:
      "The student's own weekly XP goal and target goals (a course, a RIT score or units by a day): the target, the subject, the days and who set each.",
    columns: ["kind", "subject", "course", "target", "baseline", "startsOn", "deadline", "setBy", "setAt"],
    query: (studentId) => sql`select g.kind, g.subject, co.title as course, g.target, g.baseline,
        ${day("g.starts_on")} as "startsOn", ${day("g.deadline")} as deadline, ${nameOf("s")} as "setBy",
        ${iso("g.updated_at")} as "setAt"
      from goals g left join courses co on co.sourced_id = g.course_sourced_id
        left join users s on s.sourced_id = g.set_by_sourced_id
      where g.student_sourced_id = ${studentId} order by g.created_at, g.id`,
  },
  {
    name: "athletics.csv",
    description:
      "The student's log of physical activity: what, how many minutes, which day, the note, who logged, changed or removed each entry and when.",
    columns: [
      "activity",
      "minutes",
      "date",
      "note",
      "loggedBy",
      "loggedAt",
      "changedBy",
      "changedAt",
      "removedBy",
      "removedAt",
    ],
    query: (studentId) => sql`select a.activity, a.minutes, ${day("a.activity_date")} as date, a.note,
        ${nameOf("r")} as "loggedBy", ${iso("a.created_at")} as "loggedAt", ${nameOf("c")} as "changedBy",
        ${iso("a.updated_at")} as "changedAt", ${nameOf("d")} as "removedBy", ${iso("a.removed_at")} as "removedAt"
      from athletic_activities a left join users r on r.sourced_id = a.recorded_by
        left join users c on c.sourced_id = a.updated_by left join users d on d.sourced_id = a.removed_by
      where a.student_sourced_id = ${studentId} order by a.activity_date, a.created_at, a.id`,
  },
  {
    name: "focus-incidents.csv",
    description:
      "Focus incidents the monitoring agent reported: when, what kind, which app, the text it saw, and how the review ended. Screenshots are not part of the export.",
    columns: [
      "occurredAt",
      "type",
      "app",
      "confidence",
      "detectedText",
      "reviewStatus",
      "struckAt",
      "strikeExpiresAt",
    ],
    query: (
      studentId,
    ) => sql`select ${iso("occurred_at")} as "occurredAt", incident_type as type, app_name as app,
        confidence_score as confidence, detected_text as "detectedText", review_status as "reviewStatus",
        ${iso("struck_at")} as "struckAt", ${iso("strike_expires_at")} as "strikeExpiresAt"
      from integrity_incidents where student_sourced_id = ${studentId} order by occurred_at, id`,
  },
  {
    name: "focus-incident-reviews.csv",
    description:
      "Each step of the reviews of those incidents: confirmed, dismissed, escalated or appealed, by whom and why.",
    columns: ["incidentOccurredAt", "action", "by", "role", "note", "at"],
    query: (
      studentId,
    ) => sql`select ${iso("i.occurred_at")} as "incidentOccurredAt", d.action, ${nameOf("s")} as by,
        d.actor_role as role, d.note, ${iso("d.created_at")} as at
      from integrity_decisions d join integrity_incidents i on i.id = d.incident_id
        left join users s on s.sourced_id = d.actor_sourced_id
      where i.student_sourced_id = ${studentId} order by d.created_at, d.id`,
  },
  {
    name: "dashboard-lockouts.csv",
    description: "When the student's dashboard was locked after strikes, and when and why it was unlocked.",
    columns: ["lockedAt", "unlockedAt", "unlockedBy", "unlockReason", "unlockNote"],
    query: (
      studentId,
    ) => sql`select ${iso("l.locked_at")} as "lockedAt", ${iso("l.unlocked_at")} as "unlockedAt",
        ${nameOf("s")} as "unlockedBy", l.unlock_reason as "unlockReason", l.unlock_note as "unlockNote"
      from integrity_lockouts l left join users s on s.sourced_id = l.unlocked_by_sourced_id
      where l.student_sourced_id = ${studentId} order by l.locked_at, l.id`,
  },
  {
    name: "map-results.csv",
    description:
      "The student's NWEA MAP Growth tests: term, subject, RIT score, percentile, goal areas and the export's growth figures.",
    columns: [
      "term",
      "subject",
      "testName",
      "testDate",
      "rit",
      "standardError",
      "percentile",
      "grade",
      "goalAreas",
      "growth",
    ],
    query: (
      studentId,
    ) => sql`select term_name as term, subject, test_name as "testName", ${day("test_date")} as "testDate",
        rit, standard_error as "standardError", percentile, grade, goals as "goalAreas", growth
      from map_results where student_sourced_id = ${studentId} order by test_date, subject, id`,
  },
  {
    name: "placements.csv",
    description:
      "The student's level in each subject: the grade they started at and the one they work at now.",
    columns: ["subject", "startingGrade", "currentGrade", "changedBy", "changedAt"],
    query: (
      studentId,
    ) => sql`select p.subject, p.starting_grade as "startingGrade", p.current_grade as "currentGrade",
        ${nameOf("s")} as "changedBy", ${iso("p.updated_at")} as "changedAt"
      from placements p left join users s on s.sourced_id = p.updated_by
      where p.student_sourced_id = ${studentId} order by p.subject`,
  },
  {
    name: "placement-changes.csv",
    description: "Every change of the student's levels: from which grade to which, why, by whom and when.",
    columns: ["subject", "fromGrade", "toGrade", "reason", "by", "at"],
    query: (
      studentId,
    ) => sql`select c.subject, c.from_grade as "fromGrade", c.to_grade as "toGrade", c.reason,
        ${nameOf("s")} as by, ${iso("c.changed_at")} as at
      from placement_changes c left join users s on s.sourced_id = c.changed_by
      where c.student_sourced_id = ${studentId} order by c.changed_at, c.id`,
  },
  {
    name: "placement-tests.csv",
    description: "The student's placement tests: subject, grade, status, score and date.",
    columns: ["subject", "gradeLevel", "testName", "status", "score", "takenOn", "recordedBy", "recordedAt"],
    query: (
      studentId,
    ) => sql`select t.subject, t.grade_level as "gradeLevel", t.test_name as "testName", t.status,
        t.score, ${day("t.taken_on")} as "takenOn", ${nameOf("s")} as "recordedBy", ${iso("t.recorded_at")} as "recordedAt"
      from placement_tests t left join users s on s.sourced_id = t.recorded_by
      where t.student_sourced_id = ${studentId} order by t.subject, t.grade_level, t.test_name`,
  },
  {
    name: "screening.csv",
    description:
      "Admissions screening tests linked to the student: subject, grade, RIT, test, date and decision.",
    columns: ["applicantName", "subject", "grade", "rit", "testName", "testedOn", "decision", "notes"],
    query: (
      studentId,
    ) => sql`select applicant_name as "applicantName", subject, grade, rit, test_name as "testName",
        ${day("tested_on")} as "testedOn", decision, notes
      from screening_results where student_sourced_id = ${studentId} order by tested_on, id`,
  },
  {
    name: "check-chart-progress.csv",
    description:
      "The checks (skills) a Guide saw the student do on a check chart, with the day and who saw it.",
    columns: ["chart", "level", "check", "observedOn", "observedBy"],
    query: (
      studentId,
    ) => sql`select c.title as chart, l.name as level, k.name as check, ${day("o.observed_on")} as "observedOn",
        ${nameOf("s")} as "observedBy"
      from check_observations o join check_chart_checks k on k.id = o.check_id
        join check_chart_levels l on l.id = k.level_id join check_charts c on c.id = l.chart_id
        left join users s on s.sourced_id = o.observed_by
      where o.student_sourced_id = ${studentId} order by c.title, l.position, k.position`,
  },
  {
    name: "lesson-attempts.csv",
    description:
      "The student's attempts at Dash lessons: the lesson and its course, when, the score, right answers, mastery and time.",
    columns: [
      "course",
      "lesson",
      "attempt",
      "startedAt",
      "finishedAt",
      "scorePercent",
      "correctItems",
      "totalItems",
      "mastered",
      "activeSeconds",
    ],
    query: (studentId) => sql`select c.title as course, l.title as lesson, a.attempt_number as attempt,
        ${iso("a.started_at")} as "startedAt", ${iso("a.finished_at")} as "finishedAt", a.score_percent as "scorePercent",
        a.correct_items as "correctItems", a.total_items as "totalItems", a.mastered, a.active_seconds as "activeSeconds"
      from lesson_attempts a left join course_components l on l.sourced_id = a.lesson_id
        left join courses c on c.sourced_id = l.course_sourced_id
      where a.student_sourced_id = ${studentId} order by a.started_at, a.id`,
  },
  {
    name: "lesson-answers.csv",
    description:
      "The student's answers to the questions of Dash lessons (the latest answer per question and attempt), with their score.",
    columns: ["lesson", "attempt", "question", "answer", "score", "maxScore", "answeredAt"],
    query: (studentId) => sql`select l.title as lesson, a.attempt_number as attempt,
        coalesce(d.title, r.item_identifier) as question, r.response::text as answer, r.score, r.max_score as "maxScore",
        ${iso("r.answered_at")} as "answeredAt"
      from lesson_item_responses r join lesson_attempts a on a.id = r.attempt_id
        left join course_components l on l.sourced_id = a.lesson_id
        left join qti_documents d on d.kind = 'item' and d.identifier = r.item_identifier
      where a.student_sourced_id = ${studentId} order by a.started_at, a.id, r.answered_at, r.item_identifier`,
  },
  {
    name: "assignments.csv",
    description:
      "Lessons and courses assigned to the student by name (not those given to a whole class): the due date, the note, who assigned and who took it back.",
    columns: [
      "kind",
      "assigned",
      "course",
      "dueDate",
      "note",
      "assignedBy",
      "assignedAt",
      "removedBy",
      "removedAt",
    ],
    query: (studentId) => sql`select a.target_kind as kind,
        coalesce(l.title, c.title, a.target_id) as assigned, c.title as course, ${day("a.due_date")} as "dueDate",
        a.note, ${nameOf("b")} as "assignedBy", ${iso("a.assigned_at")} as "assignedAt",
        ${nameOf("r")} as "removedBy", ${iso("a.removed_at")} as "removedAt"
      from learning_assignments a
        left join course_components l on a.target_kind = 'lesson' and l.sourced_id = a.target_id
        left join courses c on c.sourced_id = case when a.target_kind = 'course' then a.target_id else l.course_sourced_id end
        left join users b on b.sourced_id = a.assigned_by left join users r on r.sourced_id = a.removed_by
      where a.assignee_kind = 'student' and a.assignee_id = ${studentId} order by a.assigned_at, a.id`,
  },
  {
    name: "saved-resources.csv",
    description: "The lesson resources the student kept for later: the resource, its lesson and when.",
    columns: ["resource", "kind", "lesson", "savedAt"],
    query: (
      studentId,
    ) => sql`select r.title as resource, r.kind, l.title as lesson, ${iso("s.saved_at")} as "savedAt"
      from saved_resources s join lesson_resources r on r.id = s.resource_id
        left join course_components l on l.sourced_id = r.lesson_id
      where s.student_sourced_id = ${studentId} order by s.saved_at, r.id`,
  },
  {
    name: "weekly-pulses.csv",
    description:
      "The weekly digests of the student's week sent to their family: XP and goals per subject, streak, units, Alphas, tests and focus records, as built (JSON).",
    columns: ["weekStart", "builtAt", "figures"],
    query: (studentId) => sql`select ${day("week_start")} as "weekStart", ${iso("built_at")} as "builtAt",
        figures::text as figures
      from weekly_pulses where student_sourced_id = ${studentId} order by week_start`,
  },
  {
    name: "weekly-pulse-notes.csv",
    description:
      "The notes a Guide wrote for the student's family about a week, with who wrote them last and when.",
    columns: ["weekStart", "note", "by", "updatedAt"],
    query: (studentId) => sql`select ${day("n.week_start")} as "weekStart", n.note, ${nameOf("a")} as by,
        ${iso("n.updated_at")} as "updatedAt"
      from pulse_notes n left join users a on a.sourced_id = n.author_sourced_id
      where n.student_sourced_id = ${studentId} order by n.week_start`,
  },
  {
    name: "weekly-pulse-note-history.csv",
    description: "Every wording of those notes, as each was saved, with who saved it and when.",
    columns: ["weekStart", "note", "by", "savedAt"],
    query: (studentId) => sql`select ${day("h.week_start")} as "weekStart", h.note, ${nameOf("a")} as by,
        ${iso("h.at")} as "savedAt"
      from pulse_note_changes h left join users a on a.sourced_id = h.author_sourced_id
      where h.student_sourced_id = ${studentId} order by h.week_start, h.id`,
  },
  {
    name: "weekly-pulse-deliveries.csv",
    description: "When each of the student's parents and guardians was sent the weekly digest of a week.",
    columns: ["weekStart", "sentTo", "sentAt"],
    query: (studentId) => sql`select ${day("d.week_start")} as "weekStart", ${nameOf("p")} as "sentTo",
        ${iso("d.delivered_at")} as "sentAt"
      from pulse_deliveries d join user_agents l on l.agent_sourced_id = d.parent_sourced_id
        join users p on p.sourced_id = d.parent_sourced_id
      where l.user_sourced_id = ${studentId} order by d.week_start, p.sourced_id`,
  },
  {
    name: "survey-answers.csv",
    description:
      "The student's answers to surveys that keep names (JSON, by question id). Anonymous answers hold nothing that names anyone, so they cannot be part of an export.",
    columns: ["survey", "round", "answeredOn", "role", "answers"],
    query: (
      studentId,
    ) => sql`select s.title as survey, r.number as round, ${day("a.submitted_on")} as "answeredOn",
        a.respondent_role as role, a.answers::text as answers
      from survey_responses a join survey_rounds r on r.id = a.round_id join surveys s on s.id = r.survey_id
      where a.user_sourced_id = ${studentId} order by a.submitted_on, s.title, r.number`,
  },
  {
    name: "survey-drafts.csv",
    description: "Answers to surveys the student started and has not sent yet (JSON, by question id).",
    columns: ["survey", "round", "savedAt", "answers"],
    query: (
      studentId,
    ) => sql`select s.title as survey, r.number as round, ${iso("d.updated_at")} as "savedAt",
        d.answers::text as answers
      from survey_drafts d join survey_rounds r on r.id = d.round_id join surveys s on s.id = r.survey_id
      where d.user_sourced_id = ${studentId} order by d.updated_at, s.title`,
  },
  {
    name: "survey-participation.csv",
    description:
      "Which rounds of which surveys the student answered, anonymous ones included (only that they answered, never what or when).",
    columns: ["survey", "round", "anonymous"],
    query: (studentId) => sql`select s.title as survey, r.number as round, s.is_anonymous as anonymous
      from survey_participation p join survey_rounds r on r.id = p.round_id join surveys s on s.id = r.survey_id
      where p.user_sourced_id = ${studentId} order by s.title, r.number`,
  },
  {
    name: "notifications.csv",
    description:
      "The student's notifications in Dash: what kind, its values (JSON), the page it opens, when it came and when it was read.",
    columns: ["type", "params", "link", "createdAt", "readAt"],
    query: (studentId) => sql`select type, params::text as params, link, ${iso("created_at")} as "createdAt",
        ${iso("read_at")} as "readAt"
      from notifications where user_sourced_id = ${studentId} order by created_at, id`,
  },
  {
    name: "app-logins.csv",
    description:
      "The student's logins to learning apps that the school keeps: the app, the username and when each was added or changed. Passwords are never exported.",
    columns: ["app", "username", "addedAt", "changedAt"],
    query: (studentId) => sql`select a.name as app, c.username, ${iso("c.created_at")} as "addedAt",
        ${iso("c.updated_at")} as "changedAt"
      from app_credentials c join learning_apps a on a.id = c.app_id
      where c.student_sourced_id = ${studentId} order by a.name, c.id`,
  },
  {
    name: "app-login-reveals.csv",
    description:
      "Each time one of those passwords was shown: to whom, in which role, for which app and when.",
    columns: ["at", "app", "revealedTo", "role"],
    query: (studentId) => sql`select ${iso("d.at")} as at, coalesce(a.name, d.app_id::text) as app,
        coalesce(${nameOf("p")}, d.decrypted_by) as "revealedTo", d.role
      from credential_decrypts d left join learning_apps a on a.id = d.app_id
        left join users p on p.sourced_id = d.decrypted_by
      where d.student_sourced_id = ${studentId} order by d.at, d.id`,
  },
  {
    name: "app-login-changes.csv",
    description:
      "Each time one of those logins was added, changed, imported from a file or removed: by whom and when. Neither usernames nor passwords are kept in this history.",
    columns: ["at", "app", "action", "by"],
    query: (studentId) => sql`select ${iso("h.at")} as at, coalesce(a.name, h.app_id::text) as app, h.action,
        coalesce(${nameOf("p")}, h.changed_by) as by
      from app_credential_changes h left join learning_apps a on a.id = h.app_id
        left join users p on p.sourced_id = h.changed_by
      where h.student_sourced_id = ${studentId} order by h.at, h.id`,
  },
  {
    name: "notification-preferences.csv",
    description:
      "The student's choices of how to be told per kind of notification (in the app, by email), and any digest day.",
    columns: ["type", "inApp", "email", "digestDay", "updatedAt"],
    query: (studentId) => sql`select type, in_app as "inApp", email, null::smallint as "digestDay",
        ${iso("updated_at")} as "updatedAt"
      from notification_preferences where user_sourced_id = ${studentId}
      union all select 'digest', null, null, digest_day, ${iso("updated_at")}
      from user_preferences where user_sourced_id = ${studentId}
      order by 1`,
  },
  {
    name: "guided-tours.csv",
    description:
      "The guided tours the student has done in Dash, how each ended (finished, skipped or closed) and when.",
    columns: ["tour", "outcome", "completedAt"],
    query: (studentId) => sql`select tour, outcome, ${iso("completed_at")} as "completedAt"
      from tour_completions where user_sourced_id = ${studentId} order by tour`,
  },
  {
    name: "analytics.csv",
    description:
      "The pages the student opened in Dash, their sign-ins and days of use, and the errors their browser met, with the role, school and day they count for.",
    columns: ["type", "path", "occurredAt", "day", "role", "schoolId", "message"],
    query: (
      studentId,
    ) => sql`select type, path, ${iso("occurred_at")} as "occurredAt", to_char(day, 'YYYY-MM-DD') as day,
        role, school_sourced_id as "schoolId", message
      from analytics_events where user_sourced_id = ${studentId} order by occurred_at, id`,
  },
  {
    name: "emails.csv",
    description:
      "Every email Dash wrote to the student: address, kind, subject, plain text, and whether and when it was sent.",
    columns: ["to", "category", "subject", "status", "createdAt", "sentAt", "text"],
    query: (
      studentId,
    ) => sql`select to_address as "to", category, subject, status, ${iso("created_at")} as "createdAt",
        ${iso("sent_at")} as "sentAt", text_body as text
      from email_outbox where recipient_sourced_id = ${studentId} order by created_at, id`,
  },
  {
    name: "report-schedules.csv",
    description:
      "Reports emailed on a schedule that the person set up, receives, or that are about them: the report, how often, its filters and the last period sent.",
    columns: ["reportId", "frequency", "createdByThem", "sentToThem", "filters", "createdAt", "lastPeriod"],
    query: (studentId) => sql`select report_id as "reportId", frequency,
        created_by = ${studentId} as "createdByThem", recipient_ids @> array[${studentId}]::text[] as "sentToThem",
        filters::text as filters, ${iso("created_at")} as "createdAt", last_period as "lastPeriod"
      from report_schedules
      where created_by = ${studentId} or recipient_ids @> array[${studentId}]::text[]
        or filters ->> 'studentId' = ${studentId}
      order by created_at, id`,
  },
  {
    name: "conversations.csv",
    description:
      "The conversations the student is in: who else is in each, when the student joined it and when they last read it.",
    columns: ["conversationId", "members", "joinedAt", "lastReadAt"],
    query: (studentId) => sql`select m.conversation_id as "conversationId",
        (select string_agg(${nameOf("o")}, ', ' order by o.family_name, o.given_name) from conversation_members x
          join users o on o.sourced_id = x.user_sourced_id
          where x.conversation_id = m.conversation_id and x.user_sourced_id <> m.user_sourced_id) as members,
        ${iso("m.joined_at")} as "joinedAt", ${iso("m.last_read_at")} as "lastReadAt"
      from conversation_members m where m.user_sourced_id = ${studentId} order by m.joined_at, m.conversation_id`,
  },
  {
    name: "messages.csv",
    description:
      "The messages of those conversations: who wrote each, when, its text (as HTML) and the names of its pictures. The pictures themselves are not part of the export.",
    columns: ["conversationId", "sentAt", "from", "text", "pictures"],
    query: (
      studentId,
    ) => sql`select x.conversation_id as "conversationId", ${iso("x.created_at")} as "sentAt",
        ${nameOf("a")} as "from", x.body_html as text,
        (select string_agg(p ->> 'name', ', ') from jsonb_array_elements(x.attachments) p) as pictures
      from messages x join conversation_members m on m.conversation_id = x.conversation_id and m.user_sourced_id = ${studentId}
        left join users a on a.sourced_id = x.author_sourced_id
      order by x.conversation_id, x.created_at, x.id`,
  },
  {
    name: "announcements.csv",
    description:
      "The announcements that reached the student: title, who sent it, when it arrived, when the student read it, and its text (as HTML).",
    columns: ["title", "from", "deliveredAt", "readAt", "text"],
    query: (
      studentId,
    ) => sql`select a.title, ${nameOf("s")} as "from", ${iso("r.delivered_at")} as "deliveredAt",
        ${iso("r.read_at")} as "readAt", a.body_html as text
      from announcement_recipients r join announcements a on a.id = r.announcement_id
        left join users s on s.sourced_id = a.created_by
      where r.user_sourced_id = ${studentId} order by r.delivered_at, a.id`,
  },
  {
    name: "sessions.csv",
    description:
      "The student's current sign-ins: when, from which address and browser. Session keys are never exported.",
    columns: ["signedInAt", "lastSeenAt", "expiresAt", "ipAddress", "userAgent"],
    query: (
      studentId,
    ) => sql`select ${iso("created_at")} as "signedInAt", ${iso("last_seen_at")} as "lastSeenAt",
        ${iso("expires_at")} as "expiresAt", ip_address as "ipAddress", user_agent as "userAgent"
      from sessions where user_sourced_id = ${studentId} order by created_at, token_hash`,
  },
  {
    name: "viewing-as-log.csv",
    description: "Each time a member of staff viewed Dash as the student: who, when, why and from where.",
    columns: ["at", "action", "by", "reason", "ipAddress"],
    query: (studentId) => sql`select ${iso("i.created_at")} as at, i.action, ${nameOf("s")} as by, i.reason,
        i.ip_address as "ipAddress"
      from impersonation_audit i left join users s on s.sourced_id = i.actor_sourced_id
      where i.target_sourced_id = ${studentId} order by i.created_at, i.id`,
  },
  {
    name: "roster-changes.csv",
    description: "Changes made in Dash to the student's roles, links and classes.",
    columns: ["at", "action", "by", "summary"],
    query: (studentId) => sql`select ${iso("r.created_at")} as at, r.action, ${nameOf("s")} as by, r.summary
      from roster_changes r left join users s on s.sourced_id = r.actor_sourced_id
      where r.target_user_sourced_id = ${studentId} order by r.created_at, r.seq`,
  },
  {
    name: "sensitive-access-log.csv",
    description: "Each access to the student's sensitive data: exports, viewing as them, anonymisation.",
    columns: ["at", "kind", "by", "detail"],
    query: (studentId) => sql`select ${iso("l.created_at")} as at, l.kind, ${nameOf("s")} as by, l.detail
      from sensitive_access_log l left join users s on s.sourced_id = l.real_actor_sourced_id
      where l.person_sourced_id = ${studentId} order by l.created_at, l.seq`,
  },
];

/** The file names of the archive, in order: the README first. */
export const EXPORT_FILE_NAMES = [
  "README.txt",
  ...JSON_FILES.map((f) => f.name),
  ...CSV_FILES.map((f) => f.name),
];

function readme(generatedAt: Date): string {
  const lines = [
    "Everything Dash holds about one student",
    `Written ${generatedAt.toISOString()}.`,
    "",
    "JSON files hold records with their structure; CSV files are tables, one row per line, comma-separated,",
    "in UTF-8, with a header line. Times are in UTC (…Z); dates are the student's own calendar days.",
    "A cell a spreadsheet would read as a formula starts with an apostrophe.",
    "",
    ...[...JSON_FILES, ...CSV_FILES].map((file) => `${file.name}\n  ${file.description}`),
    "",
  ];
  return lines.join("\r\n");
}

async function* jsonDocument(db: Database, file: JsonFile, studentId: string): AsyncGenerator<string> {
  const [row] = await queryRows<{ document: unknown }>(db, file.query(studentId));
  yield JSON.stringify(row?.document ?? null, null, 2);
}

async function* csvLines(db: Database, file: CsvFile, studentId: string): AsyncGenerator<string> {
  yield csvLine(file.columns);
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const rows = await queryRows<Record<string, unknown>>(
      db,
      sql`select * from (${file.query(studentId)}) page limit ${PAGE_SIZE} offset ${offset}`,
    );
    if (rows.length > 0) yield rows.map((row) => csvLine(file.columns.map((column) => row[column]))).join("");
    if (rows.length < PAGE_SIZE) return;
  }
}

/**
 * A readable stream of the student's .zip. The caller has checked that the student exists and that
 * it may export them; the database is read as the stream is consumed.
 */
export function exportStudentZip(db: Database, studentId: string, generatedAt: Date): Readable {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  const lazy = (name: string, lines: () => AsyncGenerator<string>) =>
    zip.addReadStreamLazy(name, { mtime: generatedAt }, (callback) => {
      const stream = Readable.from(lines());
      // A failed query ends the download with an error rather than a truncated archive.
      stream.once("error", (error) => output.destroy(error));
      callback(null, stream);
    });
  zip.addBuffer(Buffer.from(readme(generatedAt)), "README.txt", { mtime: generatedAt });
  for (const file of JSON_FILES) lazy(file.name, () => jsonDocument(db, file, studentId));
  for (const file of CSV_FILES) lazy(file.name, () => csvLines(db, file, studentId));
  zip.end();
  return output;
}
