import { sql } from "drizzle-orm";
import type { Answers, Audience, Section } from "../../shared/contracts/surveys";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import { roundWindow } from "../domains/surveys/rounds";
import { surveyParticipation, surveyResponses, surveyRounds, surveys } from "../domains/surveys/schema";
import { demoId } from "./demo-accounts";
import { seededRandom } from "./demo-school";

/**
 * Two pulse surveys with answers: Maple Grove's weekly anonymous "How was your week?" for its
 * students, five weeks answered and the sixth open (Ava has not answered it yet: her one open
 * survey), with moods that lift over the weeks; and a named family feedback survey for every
 * parent and guardian, open for the term, that a good part of the families have answered (not Sam
 * Johnson nor Grace Miller, who still can).
 */

export const DEMO_MOOD_SURVEY_ID = demoId("survey-student-mood");
export const DEMO_FAMILY_SURVEY_ID = demoId("survey-family-feedback");

const DAY_MS = 24 * 60 * 60 * 1000;

const MOOD_SECTIONS: Section[] = [
  {
    id: "week",
    title: "Your week",
    description: "There are no right or wrong answers.",
    questions: [
      {
        id: "mood",
        kind: "mood",
        prompt: "How do you feel about school this week?",
        help: null,
        required: true,
        options: [],
        lowLabel: null,
        highLabel: null,
      },
      {
        id: "enjoy",
        kind: "scale",
        prompt: "How much did you enjoy learning this week?",
        help: null,
        required: true,
        options: [],
        lowLabel: "Not at all",
        highLabel: "A lot",
      },
      {
        id: "subject",
        kind: "single_choice",
        prompt: "Which subject did you like most this week?",
        help: null,
        required: false,
        options: ["Math", "Reading", "Language", "Science"].map((label) => ({
          id: label.toLowerCase(),
          label,
        })),
        lowLabel: null,
        highLabel: null,
      },
    ],
  },
  {
    id: "help",
    title: "Help with learning",
    description: null,
    questions: [
      {
        id: "helped",
        kind: "multiple_choice",
        prompt: "What helped you learn this week?",
        help: null,
        required: false,
        options: [
          { id: "guide", label: "My Guide" },
          { id: "classmates", label: "My classmates" },
          { id: "apps", label: "The learning apps" },
          { id: "breaks", label: "Breaks and games" },
          { id: "family", label: "My family" },
        ],
        lowLabel: null,
        highLabel: null,
      },
      {
        id: "went-well",
        kind: "short_text",
        prompt: "Tell us one thing that went well.",
        help: null,
        required: false,
        options: [],
        lowLabel: null,
        highLabel: null,
      },
    ],
  },
];

const FAMILY_SECTIONS: Section[] = [
  {
    id: "school",
    title: null,
    description: null,
    questions: [
      {
        id: "recommend",
        kind: "nps",
        prompt: "How likely are you to recommend our school to a friend?",
        help: null,
        required: true,
        options: [],
        lowLabel: "Not likely",
        highLabel: "Very likely",
      },
      {
        id: "informed",
        kind: "scale",
        prompt: "How well do we keep you informed about your child's learning?",
        help: null,
        required: true,
        options: [],
        lowLabel: "Not well",
        highLabel: "Very well",
      },
      {
        id: "channel",
        kind: "single_choice",
        prompt: "How would you like to hear from us?",
        help: null,
        required: false,
        options: [
          { id: "email", label: "Email" },
          { id: "messages", label: "Messages in Dash" },
          { id: "phone", label: "A phone call" },
          { id: "person", label: "In person" },
        ],
        lowLabel: null,
        highLabel: null,
      },
      {
        id: "uses",
        kind: "multiple_choice",
        prompt: "Which parts of Dash do you use?",
        help: null,
        required: false,
        options: [
          { id: "pulse", label: "The weekly pulse" },
          { id: "goals", label: "Goals" },
          { id: "emporium", label: "The emporium" },
          { id: "map", label: "MAP results" },
        ],
        lowLabel: null,
        highLabel: null,
      },
      {
        id: "anything",
        kind: "long_text",
        prompt: "Is there anything else you would like to tell us?",
        help: null,
        required: false,
        options: [],
        lowLabel: null,
        highLabel: null,
      },
    ],
  },
];

const WENT_WELL = [
  "I finished my math unit!",
  "Reading with my friend.",
  "The science experiment was fun.",
  "I got all my goals on Tuesday.",
  "I helped a classmate.",
  "My spelling is getting better.",
  "We played a fractions game.",
  "I learned about octopuses.",
];

const FAMILY_NOTES = [
  "The weekly pulse helps us talk about school at dinner.",
  "We would love more notice before field trips.",
  "Thank you to the Guides for their patience.",
  "Could the app show homework more clearly?",
  "Our child is much more motivated this term.",
  "Pickup times at the end of the day could be better organised.",
];

type Pick = <T>(list: readonly T[]) => T;

/** A whole number from 1 to 5 around `centre`, spread a little. */
function around(centre: number, rand: () => number, max = 5, min = 1): number {
  const spread = (rand() + rand() + rand()) / 3 - 0.5;
  return Math.max(min, Math.min(max, Math.round(centre + spread * 3)));
}

function moodAnswers(round: number, rand: () => number, pick: Pick): Answers {
  // The moods lift a little each week.
  const answers: Answers = {
    mood: around(3 + round * 0.25, rand),
    enjoy: around(2.8 + round * 0.2, rand),
  };
  if (rand() < 0.85) answers.subject = pick(["math", "reading", "language", "science"]);
  if (rand() < 0.7) {
    const helped = ["guide", "classmates", "apps", "breaks", "family"].filter(() => rand() < 0.4);
    if (helped.length > 0) answers.helped = helped;
  }
  if (rand() < 0.35) answers["went-well"] = pick(WENT_WELL);
  return answers;
}

function familyAnswers(rand: () => number, pick: Pick): Answers {
  const answers: Answers = {
    recommend: around(8, rand, 10, 0),
    informed: around(3.7, rand),
  };
  if (rand() < 0.9) answers.channel = pick(["email", "email", "messages", "phone", "person"]);
  const uses = ["pulse", "goals", "emporium", "map"].filter(() => rand() < 0.5);
  if (uses.length > 0) answers.uses = uses;
  if (rand() < 0.3) answers.anything = pick(FAMILY_NOTES);
  return answers;
}

interface Respondent {
  id: string;
  role: string;
  school: string | null;
  grade: string | null;
}

export async function seedDemoSurveys(db: Database, today: Date): Promise<void> {
  const rand = seededRandom(20261117);
  const pick: Pick = (list) => list[Math.floor(rand() * list.length)] as (typeof list)[number];
  const admin = demoId("admin");
  const mapleGrove = demoId("maple-grove");
  const ava = demoId("student-ava");

  const moodPlan = {
    opensAt: new Date(today.getTime() - (5 * 7 + 3) * DAY_MS),
    closesAt: null,
    repeat: "weekly" as const,
  };
  const familyPlan = {
    opensAt: new Date(today.getTime() - 10 * DAY_MS),
    closesAt: new Date(today.getTime() + 20 * DAY_MS),
    repeat: "none" as const,
  };
  const moodAudience: Audience = { roles: ["student"], schoolIds: [mapleGrove], grades: [], classIds: [] };
  const familyAudience: Audience = { roles: ["parent", "guardian"], schoolIds: [], grades: [], classIds: [] };
  await db.insert(surveys).values([
    {
      id: DEMO_MOOD_SURVEY_ID,
      title: "How was your week?",
      description:
        "A few quick questions every week. Your answers are anonymous: nobody can see who said what.",
      sections: MOOD_SECTIONS,
      audience: moodAudience,
      isAnonymous: true,
      opensAt: moodPlan.opensAt,
      closesAt: null,
      repeat: "weekly",
      status: "published",
      createdBy: admin,
      createdAt: new Date(moodPlan.opensAt.getTime() - DAY_MS),
      updatedBy: admin,
      updatedAt: new Date(moodPlan.opensAt.getTime() - DAY_MS),
    },
    {
      id: DEMO_FAMILY_SURVEY_ID,
      title: "Family feedback this term",
      description: "Tell us how the term is going for your family.",
      sections: FAMILY_SECTIONS,
      audience: familyAudience,
      isAnonymous: false,
      opensAt: familyPlan.opensAt,
      closesAt: familyPlan.closesAt,
      repeat: "none",
      status: "published",
      createdBy: admin,
      createdAt: new Date(familyPlan.opensAt.getTime() - DAY_MS),
      updatedBy: admin,
      updatedAt: new Date(familyPlan.opensAt.getTime() - DAY_MS),
    },
  ]);

  const students = await queryRows<Respondent>(
    db,
    sql`select u.sourced_id as id, 'student' as role, u.primary_org_sourced_id as school, u.grades[1] as grade
      from users u join user_roles r on r.user_sourced_id = u.sourced_id and lower(r.role) = 'student'
      where u.primary_org_sourced_id = ${mapleGrove} order by u.sourced_id`,
  );
  const families = await queryRows<Respondent>(
    db,
    sql`select distinct on (u.sourced_id) u.sourced_id as id, lower(r.role) as role,
        u.primary_org_sourced_id as school, null::text as grade
      from users u join user_roles r on r.user_sourced_id = u.sourced_id and lower(r.role) in ('parent', 'guardian')
      where u.email is distinct from 'parent@dash.demo' and u.email is distinct from 'guardian@dash.demo'
      order by u.sourced_id, lower(r.role) desc`,
  );

  const rounds: (typeof surveyRounds.$inferInsert)[] = [];
  const participation: (typeof surveyParticipation.$inferInsert)[] = [];
  const responses: (typeof surveyResponses.$inferInsert)[] = [];
  const answerFor = (
    roundId: string,
    window: { opensAt: Date },
    daysOpen: number,
    person: Respondent,
    answers: Answers,
    named: boolean,
  ) => {
    participation.push({ roundId, userSourcedId: person.id });
    const day = new Date(window.opensAt.getTime() + Math.floor(rand() * daysOpen) * DAY_MS);
    responses.push({
      // Stable from one seed to the next; their order says nothing of who answered.
      id: demoId(`survey-response-${responses.length}`),
      roundId,
      userSourcedId: named ? person.id : null,
      answers,
      respondentRole: person.role,
      respondentSchoolId: person.school,
      respondentGrade: person.grade,
      submittedOn: localDateOf(day, SCHOOL_TIME_ZONE),
    });
  };

  // Five weeks answered by half to four fifths of the school; the sixth week open, Ava still to answer.
  for (let number = 1; number <= 6; number++) {
    const window = roundWindow(moodPlan, number);
    const roundId = demoId(`survey-student-mood-round-${number}`);
    rounds.push({ id: roundId, surveyId: DEMO_MOOD_SURVEY_ID, number, ...window });
    const isCurrent = number === 6;
    const share = isCurrent ? 0.2 : 0.5 + number * 0.06;
    for (const student of students) {
      if (student.id === ava && isCurrent) continue;
      if (rand() < share)
        answerFor(roundId, window, isCurrent ? 3 : 5, student, moodAnswers(number, rand, pick), false);
    }
  }

  const familyRound = demoId("survey-family-feedback-round-1");
  const familyWindow = roundWindow(familyPlan, 1);
  rounds.push({ id: familyRound, surveyId: DEMO_FAMILY_SURVEY_ID, number: 1, ...familyWindow });
  for (const person of families)
    if (rand() < 0.45) answerFor(familyRound, familyWindow, 10, person, familyAnswers(rand, pick), true);

  await db.insert(surveyRounds).values(rounds);
  for (let start = 0; start < responses.length; start += 500) {
    await db.insert(surveyParticipation).values(participation.slice(start, start + 500));
    await db.insert(surveyResponses).values(responses.slice(start, start + 500));
  }
}
