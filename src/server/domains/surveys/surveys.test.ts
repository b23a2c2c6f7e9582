import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  Question,
  Section,
  SurveyDetail,
  SurveyForm,
  SurveyInput,
  SurveyList,
  SurveyResults,
} from "../../../shared/contracts/surveys";
import { queryRows } from "../../db/client";
import { DEMO_PASSWORD, demoId } from "../../seed/demo-accounts";
import { DEMO_FAMILY_SURVEY_ID, DEMO_MOOD_SURVEY_ID } from "../../seed/demo-surveys";
import { createTestApp, type TestApp } from "../../test/harness";
import { hashPassword } from "../auth/password";
import { groupsToHide } from "./results";
import { dueRoundNumber, roundWindow } from "./rounds";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const SAM = demoId("parent-sam");
const PATEL = demoId("guide-patel");
const MAPLE_GROVE = demoId("maple-grove");
const RIVERSIDE = demoId("riverside");
const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");
const OKORO_MATH = demoId("class-maple-grove-guide-okoro-Math");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

async function call(
  cookie: string | undefined,
  path: string,
  init: { method?: string; json?: unknown } = {},
) {
  const response = await t.request(`/api/surveys${path}`, { ...init, cookie });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, body: body as never, text, headers: response.headers };
}

/** A survey with one question of every kind (the mood and scale ones required). */
function surveyInput(overrides: Partial<SurveyInput> = {}): SurveyInput {
  return {
    title: "Pulse check",
    description: "A few questions",
    sections: [
      {
        id: "s1",
        title: "Feelings",
        description: null,
        questions: [
          {
            id: "mood",
            kind: "mood",
            prompt: "How do you feel?",
            help: null,
            required: true,
            options: [],
            lowLabel: null,
            highLabel: null,
          },
          {
            id: "scale",
            kind: "scale",
            prompt: "How busy?",
            help: null,
            required: true,
            options: [],
            lowLabel: "Calm",
            highLabel: "Busy",
          },
          {
            id: "nps",
            kind: "nps",
            prompt: "Recommend us?",
            help: null,
            required: false,
            options: [],
            lowLabel: null,
            highLabel: null,
          },
        ],
      },
      {
        id: "s2",
        title: null,
        description: null,
        questions: [
          {
            id: "one",
            kind: "single_choice",
            prompt: "Favourite subject?",
            help: null,
            required: false,
            options: [
              { id: "math", label: "Math" },
              { id: "reading", label: "Reading" },
            ],
            lowLabel: null,
            highLabel: null,
          },
          {
            id: "many",
            kind: "multiple_choice",
            prompt: "What helped?",
            help: null,
            required: false,
            options: [
              { id: "guide", label: "My Guide" },
              { id: "apps", label: "Apps" },
              { id: "friends", label: "Friends" },
            ],
            lowLabel: null,
            highLabel: null,
          },
          {
            id: "short",
            kind: "short_text",
            prompt: "One word?",
            help: null,
            required: false,
            options: [],
            lowLabel: null,
            highLabel: null,
          },
          {
            id: "long",
            kind: "long_text",
            prompt: "Anything else?",
            help: null,
            required: false,
            options: [],
            lowLabel: null,
            highLabel: null,
          },
        ],
      },
    ],
    audience: { roles: ["student"], schoolIds: [MAPLE_GROVE], grades: [], classIds: [] },
    isAnonymous: false,
    opensAt: new Date(t.clock.now().getTime() - MINUTE).toISOString(),
    closesAt: null,
    repeat: "none",
    ...overrides,
  };
}

function sectionOf(input: SurveyInput, index: number): Section {
  const section = input.sections[index];
  if (!section) throw new Error(`no section ${index}`);
  return section;
}

function questionOf(input: SurveyInput, section: number, index: number): Question {
  const question = sectionOf(input, section).questions[index];
  if (!question) throw new Error(`no question ${section}.${index}`);
  return question;
}

async function createAndPublish(cookie: string | undefined, input: SurveyInput): Promise<string> {
  const created = await call(cookie, "", { json: input });
  expect(created.status, created.text).toBe(201);
  const id = (created.body as { id: string }).id;
  const published = await call(cookie, `/${id}/publish`, { method: "POST" });
  expect(published.status, published.text).toBe(204);
  return id;
}

const goodAnswers = {
  mood: 4,
  scale: 2,
  nps: 9,
  one: "math",
  many: ["guide", "apps"],
  short: "Fun",
  long: "It was a good week.",
};

/** Gives more demo students a password, and signs them in (the demo's own accounts are few). */
async function signInStudents(count: number, where = sql`u.primary_org_sourced_id = ${MAPLE_GROVE}`) {
  const rows = await queryRows<{ id: string; email: string }>(
    t.db,
    sql`select u.sourced_id as id, u.email from users u join user_roles r on r.user_sourced_id = u.sourced_id
      where lower(r.role) = 'student' and ${where} and u.sourced_id <> ${AVA}
        and u.email is not null and u.status = 'active'
      order by u.sourced_id limit ${count}`,
  );
  const hash = await hashPassword(DEMO_PASSWORD, { N: 2 ** 10, r: 8, p: 1 });
  const signedIn: { id: string; cookie: string }[] = [];
  for (const row of rows) {
    await t.db.execute(sql`insert into user_credentials (user_sourced_id, password_hash)
      values (${row.id}, ${hash}) on conflict (user_sourced_id) do nothing`);
    signedIn.push({ id: row.id, cookie: await t.signIn(row.email) });
  }
  return signedIn;
}

describe("building surveys", () => {
  it("is for administrators and Guides: other roles are refused, and a caller without a session", async () => {
    for (const who of ["student", "parent", "guardian", "proctor"]) {
      expect((await call(cookies[who], "")).status, who).toBe(403);
      expect((await call(cookies[who], "", { json: surveyInput() })).status, who).toBe(403);
      expect((await call(cookies[who], "/audience-options")).status, who).toBe(403);
      expect((await call(cookies[who], `/${DEMO_MOOD_SURVEY_ID}/results`)).status, who).toBe(403);
    }
    expect((await call(undefined, "")).status).toBe(401);
    expect((await call(undefined, "/mine")).status).toBe(401);
  });

  it("keeps a draft with every kind of question, who made it and when, and counts its audience", async () => {
    const created = await call(cookies.admin, "", { json: surveyInput({ title: "Draft only" }) });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const detail = await call(cookies.admin, `/${id}`);
    expect(detail.status).toBe(200);
    const survey = detail.body as SurveyDetail;
    expect(survey).toMatchObject({
      title: "Draft only",
      state: "draft",
      isLocked: false,
      createdBy: "Alex Morgan",
    });
    expect(survey.sections.flatMap((s) => s.questions.map((q) => q.kind))).toEqual([
      "mood",
      "scale",
      "nps",
      "single_choice",
      "multiple_choice",
      "short_text",
      "long_text",
    ]);
    const list = (await call(cookies.admin, "")).body as SurveyList;
    expect(list.data.find((entry) => entry.id === id)).toMatchObject({
      state: "draft",
      questionCount: 7,
      rounds: 0,
    });

    const counted = await call(cookies.admin, "/audience-count", {
      json: { audience: surveyInput().audience },
    });
    const [students] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(distinct u.sourced_id)::int as n from users u join user_roles r on r.user_sourced_id = u.sourced_id
        where lower(r.role) = 'student' and u.status = 'active' and u.enabled_user
          and (u.primary_org_sourced_id = ${MAPLE_GROVE} or r.org_sourced_id = ${MAPLE_GROVE})`,
    );
    expect(counted.body).toEqual({ count: students?.n });

    expect((await call(cookies.admin, `/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await call(cookies.admin, `/${id}`)).status).toBe(404);
  });

  it("refuses a survey that does not hold together, naming the field", async () => {
    const bad = surveyInput();
    questionOf(bad, 1, 0).options = [{ id: "only", label: "Only one" }];
    const oneChoice = await call(cookies.admin, "", { json: bad });
    expect(oneChoice.status).toBe(400);
    expect((oneChoice.body as { issues: { path: string; message: string }[] }).issues).toContainEqual({
      path: "sections.1.questions.0.options",
      message: "Give at least two choices",
    });
    const backwards = await call(cookies.admin, "", {
      json: surveyInput({ closesAt: new Date(t.clock.now().getTime() - DAY).toISOString() }),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain("The survey must close after it opens");
    const twice = surveyInput();
    questionOf(twice, 1, 0).id = "mood";
    expect((await call(cookies.admin, "", { json: twice })).status).toBe(400);
    expect(
      (
        await call(cookies.admin, "", {
          json: surveyInput({ audience: { roles: [], schoolIds: [], grades: [], classIds: [] } }),
        })
      ).status,
    ).toBe(400);
    const unknownClass = await call(cookies.admin, "", {
      json: surveyInput({
        audience: { roles: ["student"], schoolIds: [], grades: [], classIds: ["no-such-class"] },
      }),
    });
    expect(unknownClass.status).toBe(400);
    expect(unknownClass.text).toContain("One of these classes does not exist");
  });

  it("lets a Guide ask only the students and families of their own classes", async () => {
    const own = {
      roles: ["student" as const, "parent" as const],
      schoolIds: [],
      grades: [],
      classIds: [PATEL_MATH],
    };
    const created = await call(cookies.guide, "", {
      json: surveyInput({ title: "Patel class check", audience: own }),
    });
    expect(created.status).toBe(201);
    const notHers = await call(cookies.guide, "", {
      json: surveyInput({ audience: { ...own, classIds: [OKORO_MATH] } }),
    });
    expect(notHers.status).toBe(404);
    const staff = await call(cookies.guide, "", {
      json: surveyInput({ audience: { ...own, roles: ["teacher"] } }),
    });
    expect(staff.status).toBe(403);
    const noClass = await call(cookies.guide, "", {
      json: surveyInput({ audience: { ...own, classIds: [] } }),
    });
    expect(noClass.status).toBe(400);

    // Her list holds her class's survey and no school-wide one; those are not found for her.
    const list = (await call(cookies.guide, "")).body as SurveyList;
    expect(list.data.map((entry) => entry.title)).toContain("Patel class check");
    expect(list.data.map((entry) => entry.id)).not.toContain(DEMO_MOOD_SURVEY_ID);
    expect((await call(cookies.guide, `/${DEMO_MOOD_SURVEY_ID}`)).status).toBe(404);
    expect((await call(cookies.guide, `/${DEMO_MOOD_SURVEY_ID}/results`)).status).toBe(404);
    expect((await call(cookies.guide, `/${DEMO_MOOD_SURVEY_ID}/responses.csv`)).status).toBe(404);
    expect((await call(cookies.guide, `/${DEMO_MOOD_SURVEY_ID}/publish`, { method: "POST" })).status).toBe(
      404,
    );

    // Her options are her classes, their school and grades.
    const options = (await call(cookies.guide, "/audience-options")).body as {
      roles: string[];
      classes: { id: string }[];
      schools: { id: string }[];
      mustChooseClasses: boolean;
    };
    expect(options.roles).toEqual(["student", "parent", "guardian"]);
    expect(options.classes.map((entry) => entry.id)).toContain(PATEL_MATH);
    expect(options.classes.map((entry) => entry.id)).not.toContain(OKORO_MATH);
    expect(options.schools.map((entry) => entry.id)).toEqual([MAPLE_GROVE]);
    expect(options.mustChooseClasses).toBe(true);

    // The administrator sees and manages it too.
    const id = (created.body as { id: string }).id;
    expect((await call(cookies.admin, `/${id}`)).status).toBe(200);
  });
});

describe("who a survey asks", () => {
  it("matches students by school, grade and class, families through a child, staff by school and class", async () => {
    const audienceOf = async (audience: SurveyInput["audience"]) => {
      const id = await createAndPublish(
        cookies.admin,
        surveyInput({ title: `Audience ${Math.random()}`, audience }),
      );
      const rows = await queryRows<{ id: string }>(
        t.db,
        sql`select m.sourced_id as id from (${(await import("./audience")).audienceMemberIds(audience)}) m (sourced_id)`,
      );
      return { id, members: new Set(rows.map((row) => row.id)) };
    };
    const grade3 = await audienceOf({
      roles: ["student"],
      schoolIds: [MAPLE_GROVE],
      grades: ["03"],
      classIds: [],
    });
    expect(grade3.members.has(AVA)).toBe(true);
    expect(grade3.members.has(LEO)).toBe(false);
    const riversideFamilies = await audienceOf({
      roles: ["parent"],
      schoolIds: [RIVERSIDE],
      grades: [],
      classIds: [],
    });
    expect(riversideFamilies.members.has(SAM)).toBe(true);
    expect(riversideFamilies.members.has(AVA)).toBe(false);
    const patelClass = await audienceOf({
      roles: ["teacher", "student"],
      schoolIds: [],
      grades: [],
      classIds: [PATEL_MATH],
    });
    expect(patelClass.members.has(PATEL)).toBe(true);
    expect(patelClass.members.has(AVA)).toBe(true);
    expect(patelClass.members.has(demoId("guide-okoro"))).toBe(false);
    const staff = await audienceOf({
      roles: ["administrator", "proctor"],
      schoolIds: [],
      grades: [],
      classIds: [],
    });
    expect(staff.members.has(demoId("admin"))).toBe(true);
    expect(staff.members.has(AVA)).toBe(false);

    // Ava's list holds the surveys that ask her (the grade 3 one, Patel's class), never Riverside's families'.
    const mine = (await call(cookies.student, "/mine")).body as {
      data: { surveyId: string; state: string }[];
    };
    const ids = mine.data.map((entry) => entry.surveyId);
    expect(ids).toContain(grade3.id);
    expect(ids).toContain(patelClass.id);
    expect(ids).toContain(DEMO_MOOD_SURVEY_ID);
    expect(ids).not.toContain(riversideFamilies.id);
    expect(ids).not.toContain(staff.id);
    // Sam is asked as a parent (of Leo, at Riverside); the form of one that does not ask him is not found.
    const samMine = (await call(cookies.parent, "/mine")).body as { data: { surveyId: string }[] };
    expect(samMine.data.map((entry) => entry.surveyId)).toEqual(
      expect.arrayContaining([riversideFamilies.id, DEMO_FAMILY_SURVEY_ID]),
    );
    expect((await call(cookies.parent, `/${grade3.id}/form`)).status).toBe(404);
    expect((await call(cookies.student, `/${riversideFamilies.id}/form`)).status).toBe(404);
    expect((await call(cookies.student, "/not-a-uuid/form")).status).toBe(404);
  });
});

describe("answering", () => {
  it("keeps a draft, checks required questions on the server, and takes the answers once", async () => {
    const id = await createAndPublish(cookies.admin, surveyInput({ title: "Answer once" }));
    const form = (await call(cookies.student, `/${id}/form`)).body as SurveyForm;
    expect(form).toMatchObject({ state: "open", draft: null, isReadOnly: false, round: { number: 1 } });

    const draft = await call(cookies.student, `/${id}/draft`, {
      method: "PUT",
      json: { answers: { mood: 3, short: "" } },
    });
    expect(draft.status).toBe(200);
    const reread = (await call(cookies.student, `/${id}/form`)).body as SurveyForm;
    expect(reread.draft?.answers).toEqual({ mood: 3 });
    const mine = (await call(cookies.student, "/mine")).body as {
      data: { surveyId: string; state: string }[];
    };
    expect(mine.data.find((entry) => entry.surveyId === id)?.state).toBe("draft");

    // Answers that do not fit, or to no question, are refused even in a draft.
    const wrong = await call(cookies.student, `/${id}/draft`, {
      method: "PUT",
      json: { answers: { mood: 9, one: "history", ghost: 1 } },
    });
    expect(wrong.status).toBe(400);
    expect((wrong.body as { issues: { path: string }[] }).issues.map((issue) => issue.path).sort()).toEqual([
      "answers.ghost",
      "answers.mood",
      "answers.one",
    ]);

    const missing = await call(cookies.student, `/${id}/responses`, { json: { answers: { mood: 3 } } });
    expect(missing.status).toBe(400);
    expect((missing.body as { issues: { path: string; message: string }[] }).issues).toEqual([
      { path: "answers.scale", message: "This question needs an answer" },
    ]);

    const submitted = await call(cookies.student, `/${id}/responses`, { json: { answers: goodAnswers } });
    expect(submitted.status).toBe(201);
    expect((submitted.body as { submittedOn: string }).submittedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const again = await call(cookies.student, `/${id}/responses`, { json: { answers: goodAnswers } });
    expect(again.status).toBe(409);
    expect(
      (await call(cookies.student, `/${id}/draft`, { method: "PUT", json: { answers: {} } })).status,
    ).toBe(409);

    const [left] = await queryRows<{ drafts: number; named: number }>(
      t.db,
      sql`select (select count(*)::int from survey_drafts d join survey_rounds r on r.id = d.round_id where r.survey_id = ${id}::uuid) as drafts,
        (select count(*)::int from survey_responses a join survey_rounds r on r.id = a.round_id
          where r.survey_id = ${id}::uuid and a.user_sourced_id = ${AVA}) as named`,
    );
    expect(left).toEqual({ drafts: 0, named: 1 });
    expect(((await call(cookies.student, `/${id}/form`)).body as SurveyForm).state).toBe("answered");
  });

  it("takes one of two submissions sent at the same time", async () => {
    const id = await createAndPublish(cookies.admin, surveyInput({ title: "Raced" }));
    const [first, second] = await Promise.all([
      call(cookies.student, `/${id}/responses`, { json: { answers: goodAnswers } }),
      call(cookies.student, `/${id}/responses`, { json: { answers: goodAnswers } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
  });

  it("shows, but does not take answers from, staff viewing Dash as the student", async () => {
    const id = await createAndPublish(cookies.admin, surveyInput({ title: "Viewed as" }));
    const guide = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      cookie: guide,
      json: { userId: AVA, reason: "Checking her surveys with her" },
    });
    expect(started.status).toBe(200);
    const form = await call(guide, `/${id}/form`);
    expect(form.status).toBe(200);
    expect((form.body as SurveyForm).isReadOnly).toBe(true);
    expect(
      (await call(guide, `/${id}/draft`, { method: "PUT", json: { answers: { mood: 2 } } })).status,
    ).toBe(403);
    expect((await call(guide, `/${id}/responses`, { json: { answers: goodAnswers } })).status).toBe(403);
  });

  it("refuses answers once the survey is closed, and keeps what was said", async () => {
    const id = await createAndPublish(cookies.admin, surveyInput({ title: "Closing soon" }));
    expect((await call(cookies.admin, `/${id}/close`, { method: "POST" })).status).toBe(204);
    expect(((await call(cookies.student, `/${id}/form`)).body as SurveyForm).state).toBe("closed");
    expect((await call(cookies.student, `/${id}/responses`, { json: { answers: goodAnswers } })).status).toBe(
      409,
    );
    expect((await call(cookies.admin, `/${id}/close`, { method: "POST" })).status).toBe(409);
  });
});

describe("an anonymous survey", () => {
  let surveyId: string;
  let students: { id: string; cookie: string }[];
  beforeAll(async () => {
    surveyId = await createAndPublish(
      cookies.admin,
      surveyInput({ title: "Anonymous pulse", isAnonymous: true }),
    );
    students = await signInStudents(6);
  });

  it("stores the answers without the person, the day only, and who answered apart without a time", async () => {
    const submitted = await call(cookies.student, `/${surveyId}/responses`, {
      json: { answers: goodAnswers },
    });
    expect(submitted.status).toBe(201);
    const rows = await queryRows<Record<string, unknown>>(
      t.db,
      sql`select a.user_sourced_id, a.submitted_on::text as day, a.respondent_role, a.respondent_grade
        from survey_responses a join survey_rounds r on r.id = a.round_id where r.survey_id = ${surveyId}::uuid`,
    );
    expect(rows).toEqual([
      {
        user_sourced_id: null,
        day: (submitted.body as { submittedOn: string }).submittedOn,
        respondent_role: "student",
        respondent_grade: "03",
      },
    ]);
    // Nothing in the answers' table can name the person, and participation keeps no time.
    const columns = await queryRows<{ table_name: string; column_name: string; data_type: string }>(
      t.db,
      sql`select table_name, column_name, data_type from information_schema.columns
        where table_schema = 'public' and table_name in ('survey_responses', 'survey_participation')
        order by table_name, ordinal_position`,
    );
    expect(columns.filter((c) => c.table_name === "survey_participation").map((c) => c.column_name)).toEqual([
      "round_id",
      "user_sourced_id",
    ]);
    expect(columns.filter((c) => c.data_type.startsWith("timestamp")).map((c) => c.column_name)).toEqual([]);
    const [participation] = await queryRows<{ ava: boolean }>(
      t.db,
      sql`select exists (select 1 from survey_participation p join survey_rounds r on r.id = p.round_id
        where r.survey_id = ${surveyId}::uuid and p.user_sourced_id = ${AVA}) as ava`,
    );
    expect(participation?.ava).toBe(true);
    // A second answer is refused for her all the same.
    expect(
      (await call(cookies.student, `/${surveyId}/responses`, { json: { answers: goodAnswers } })).status,
    ).toBe(409);
  });

  it("hides a round with fewer than five answers, its text and its groups", async () => {
    const results = await call(cookies.admin, `/${surveyId}/results?round=1&groupBy=grade`);
    expect(results.status).toBe(200);
    const body = results.body as SurveyResults;
    expect(body.isHidden).toBe(true);
    expect(body.questions).toEqual([]);
    expect(body.groups).toBeNull();
    expect(body.rounds[0]).toMatchObject({ number: 1, answered: 1, isHidden: true });
    expect(body.trends[0]).toMatchObject({ isHidden: true, scores: {} });
    // Every round together leaves out the hidden one.
    const all = (await call(cookies.admin, `/${surveyId}/results`)).body as SurveyResults;
    expect(all.answered).toBe(0);
    expect(
      all.questions.every((question) => question.answered === 0 && question.texts.items.length === 0),
    ).toBe(true);
    const csv = await call(cookies.admin, `/${surveyId}/responses.csv`);
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split("\r\n")).toHaveLength(1);
  });

  it("shows a round once five have answered, text without who or when, and no group under five", async () => {
    for (const [index, student] of students.entries()) {
      const answered = await call(student.cookie, `/${surveyId}/responses`, {
        json: { answers: { ...goodAnswers, mood: 1 + (index % 5), short: `Word ${index}` } },
      });
      expect(answered.status, answered.text).toBe(201);
    }
    const body = (await call(cookies.admin, `/${surveyId}/results?round=1&groupBy=grade`))
      .body as SurveyResults;
    expect(body.isHidden).toBe(false);
    expect(body.answered).toBe(7);
    const mood = body.questions.find((question) => question.id === "mood");
    expect(mood?.counts.reduce((sum, entry) => sum + entry.count, 0)).toBe(7);
    expect(mood?.counts.map((entry) => entry.value)).toEqual(["1", "2", "3", "4", "5"]);
    const short = body.questions.find((question) => question.id === "short");
    expect(short?.texts.total).toBe(7);
    for (const item of short?.texts.items ?? [])
      expect(item).toMatchObject({ respondent: null, submittedOn: null });
    const nps = body.questions.find((question) => question.id === "nps");
    expect(nps?.nps).toEqual({ score: 100, promoters: 7, passives: 0, detractors: 0 });

    // The grades that answered: each shown group has at least five, and hidden ones say nothing.
    const [byGrade] = await queryRows<{ grades: Record<string, number> }>(
      t.db,
      sql`select json_object_agg(g, n) as grades from (select coalesce(respondent_grade, '') as g, count(*)::int as n
        from survey_responses a join survey_rounds r on r.id = a.round_id where r.survey_id = ${surveyId}::uuid group by 1) x`,
    );
    const rows = body.groups?.rows ?? [];
    expect(rows.map((row) => row.key).sort()).toEqual(Object.keys(byGrade?.grades ?? {}).sort());
    for (const row of rows) {
      if (row.isHidden) expect(row).toMatchObject({ answered: null, scores: {} });
      else expect(row.answered).toBeGreaterThanOrEqual(5);
    }
    const hiddenTotal = Object.entries(byGrade?.grades ?? {})
      .filter(([key]) => rows.find((row) => row.key === key)?.isHidden)
      .reduce((sum, [, n]) => sum + n, 0);
    expect(hiddenTotal === 0 || hiddenTotal >= 5).toBe(true);

    // The CSV: the round and the answers, no names, no ids, no days.
    const csv = await call(cookies.admin, `/${surveyId}/responses.csv?round=1`);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "Round,How do you feel?,How busy?,Recommend us?,Favourite subject?,What helped?,One word?,Anything else?",
    );
    expect(lines).toHaveLength(8);
    expect(lines[1]).toMatch(/^1,[1-5],2,9,Math,My Guide; Apps,(Fun|Word \d),It was a good week\.$/);
    expect(csv.text).not.toContain(AVA);
    expect(csv.text).not.toContain("Ava");
  });

  it("cannot become named once answered, nor lose a question or a choice", async () => {
    const stored = (await call(cookies.admin, `/${surveyId}`)).body as SurveyDetail;
    expect(stored.isLocked).toBe(true);
    const base: SurveyInput = {
      title: stored.title,
      description: stored.description,
      sections: stored.sections,
      audience: stored.audience,
      isAnonymous: stored.isAnonymous,
      opensAt: stored.opensAt,
      closesAt: stored.closesAt,
      repeat: stored.repeat,
    };
    const named = await call(cookies.admin, `/${surveyId}`, {
      method: "PUT",
      json: { ...base, isAnonymous: false },
    });
    expect(named.status).toBe(409);
    const fewer = structuredClone(base);
    sectionOf(fewer, 1).questions.pop();
    const removed = await call(cookies.admin, `/${surveyId}`, { method: "PUT", json: fewer });
    expect(removed.status).toBe(409);
    expect(removed.text).toContain('the question \\"Anything else?\\" cannot be removed');
    const kind = structuredClone(base);
    questionOf(kind, 0, 1).kind = "nps";
    expect((await call(cookies.admin, `/${surveyId}`, { method: "PUT", json: kind })).status).toBe(409);
    const choice = structuredClone(base);
    questionOf(choice, 1, 1).options.pop();
    expect((await call(cookies.admin, `/${surveyId}`, { method: "PUT", json: choice })).status).toBe(409);

    // Wording, order, a new question and a new choice are fine, and say who changed it.
    const reworded = structuredClone(base);
    reworded.title = "Anonymous pulse (reworded)";
    questionOf(reworded, 0, 0).prompt = "How do you feel today?";
    sectionOf(reworded, 0).questions.reverse();
    questionOf(reworded, 1, 1).options.push({ id: "family", label: "Family" });
    sectionOf(reworded, 1).questions.push({
      id: "extra",
      kind: "scale",
      prompt: "A new one",
      help: null,
      required: false,
      options: [],
      lowLabel: null,
      highLabel: null,
    });
    const saved = await call(cookies.admin, `/${surveyId}`, { method: "PUT", json: reworded });
    expect(saved.status, saved.text).toBe(204);
    const [who] = await queryRows<{ updated_by: string }>(
      t.db,
      sql`select updated_by from surveys where id = ${surveyId}::uuid`,
    );
    expect(who?.updated_by).toBe(demoId("admin"));
  });
});

describe("a named survey's results", () => {
  it("say who answered and when, in the results and the CSV", async () => {
    const results = (await call(cookies.admin, `/${DEMO_FAMILY_SURVEY_ID}/results?round=1&groupBy=role`))
      .body as SurveyResults;
    expect(results.survey.isAnonymous).toBe(false);
    expect(results.answered).toBeGreaterThan(0);
    const text = results.questions.find((question) => question.id === "anything");
    expect(text?.texts.items[0]?.respondent).toMatch(/\S+ \S+/);
    expect(text?.texts.items[0]?.submittedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(results.groups?.by).toBe("role");
    expect(results.groups?.rows.map((row) => row.key)).toContain("parent");
    const nps = results.questions.find((question) => question.id === "recommend");
    expect(nps?.nps?.score).toEqual(expect.any(Number));

    const csv = await call(cookies.admin, `/${DEMO_FAMILY_SURVEY_ID}/responses.csv`);
    const lines = csv.text.trim().split("\r\n");
    expect(lines[0]).toMatch(/^Round,Person ID,Name,Role,School,Grade,Answered on,How likely/);
    expect(lines.length - 1).toBe(results.answered);
  });

  it("and the demo's weekly mood survey shows trends over its rounds", async () => {
    const results = (await call(cookies.admin, `/${DEMO_MOOD_SURVEY_ID}/results`)).body as SurveyResults;
    expect(results.rounds.length).toBeGreaterThanOrEqual(6);
    const shown = results.trends.filter((trend) => !trend.isHidden);
    expect(shown.length).toBeGreaterThanOrEqual(5);
    for (const trend of shown) expect(trend.scores.mood).toEqual(expect.any(Number));
    expect(results.rounds.every((round) => round.invited >= round.answered)).toBe(true);
    // Ava has the open round of it to answer.
    const form = (await call(cookies.student, `/${DEMO_MOOD_SURVEY_ID}/form`)).body as SurveyForm;
    expect(form.state).toBe("open");
  });
});

describe("rounds and invitations", () => {
  it("place weekly and monthly rounds after the opening, cut short by the closing", () => {
    const opensAt = new Date("2026-01-31T13:00:00Z");
    const weekly = { opensAt, closesAt: new Date("2026-02-20T00:00:00Z"), repeat: "weekly" as const };
    expect(dueRoundNumber(weekly, new Date("2026-01-30T00:00:00Z"))).toBeNull();
    expect(dueRoundNumber(weekly, new Date("2026-02-07T12:59:00Z"))).toBe(1);
    expect(dueRoundNumber(weekly, new Date("2026-02-07T13:00:00Z"))).toBe(2);
    expect(roundWindow(weekly, 3)).toEqual({
      opensAt: new Date("2026-02-14T13:00:00Z"),
      closesAt: new Date("2026-02-20T00:00:00Z"),
    });
    expect(dueRoundNumber(weekly, new Date("2026-02-20T00:00:00Z"))).toBeNull();
    const monthly = { opensAt, closesAt: null, repeat: "monthly" as const };
    expect(roundWindow(monthly, 2).opensAt).toEqual(new Date("2026-02-28T13:00:00Z"));
    expect(dueRoundNumber(monthly, new Date("2026-03-30T00:00:00Z"))).toBe(2);
    expect(dueRoundNumber(monthly, new Date("2026-03-31T13:00:00Z"))).toBe(3);
    const once = { opensAt, closesAt: null, repeat: "none" as const };
    expect(roundWindow(once, 1)).toEqual({ opensAt, closesAt: null });
    expect(dueRoundNumber(once, new Date("2030-01-01T00:00:00Z"))).toBe(1);
  });

  it("open a weekly survey's rounds with the job and invite its audience to each, once", async () => {
    const id = await createAndPublish(
      cookies.guide,
      surveyInput({
        title: "Weekly class pulse",
        repeat: "weekly",
        audience: { roles: ["student"], schoolIds: [], grades: [], classIds: [PATEL_MATH] },
      }),
    );
    const invitations = async () =>
      queryRows<{ user: string; key: string; link: string }>(
        t.db,
        sql`select user_sourced_id as user, dedupe_key as key, link from notifications
          where type = 'survey.invited' and link = ${`/app/survey/${id}`} order by dedupe_key, user_sourced_id`,
      );
    await t.jobs.runDueJobs();
    const first = await invitations();
    const [classSize] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from enrollments e join users u on u.sourced_id = e.user_sourced_id
        where e.class_sourced_id = ${PATEL_MATH} and e.role = 'student' and e.status = 'active' and u.status = 'active'`,
    );
    expect(first.length).toBe(classSize?.n);
    expect(first.map((row) => row.user)).toContain(AVA);
    await t.jobs.runDueJobs();
    expect(await invitations()).toHaveLength(first.length);

    // A week on, the second round opens and everyone is asked again.
    t.clock.advance(7 * DAY);
    await t.jobs.runDueJobs();
    const [rounds] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from survey_rounds where survey_id = ${id}::uuid`,
    );
    expect(rounds?.n).toBe(2);
    const both = await invitations();
    expect(both).toHaveLength(2 * first.length);
    expect(new Set(both.map((row) => row.key)).size).toBe(2);
    // Each round keeps how many it asked, whatever the roster becomes.
    const counted = await queryRows<{ invited: number }>(
      t.db,
      sql`select invited_count as invited from survey_rounds where survey_id = ${id}::uuid order by number`,
    );
    expect(counted.map((round) => round.invited)).toEqual([first.length, first.length]);
    // Sessions idle for a week have ended: Ava signs in again.
    const ava = await t.signIn("student@dash.demo");
    const form = (await call(ava, `/${id}/form`)).body as SurveyForm;
    expect(form.round?.number).toBe(2);
  });
});

describe("small groups", () => {
  it("hide those under five, and the next smallest while the hidden ones add up to fewer than five", () => {
    expect(
      groupsToHide([
        { key: "a", answered: 10 },
        { key: "b", answered: 7 },
      ]),
    ).toEqual(new Set());
    expect(
      groupsToHide([
        { key: "a", answered: 10 },
        { key: "b", answered: 6 },
        { key: "c", answered: 2 },
      ]),
    ).toEqual(new Set(["b", "c"]));
    expect(
      groupsToHide([
        { key: "a", answered: 10 },
        { key: "b", answered: 3 },
        { key: "c", answered: 2 },
      ]),
    ).toEqual(new Set(["b", "c"]));
    expect(groupsToHide([{ key: "a", answered: 4 }])).toEqual(new Set(["a"]));
  });
});

describe("a student's privacy", () => {
  it("exports her named answers, drafts and rounds answered; anonymising keeps figures and drops her words", async () => {
    // Sessions of a week ago (the rounds above moved the clock) have ended: sign in again.
    const admin = await t.signIn("admin@dash.demo");
    const named = await createAndPublish(admin, surveyInput({ title: "Named with words" }));
    const started = await createAndPublish(admin, surveyInput({ title: "Started only" }));
    const ava = await t.signIn("student@dash.demo");
    expect(
      (
        await call(ava, `/${named}/responses`, {
          json: { answers: { ...goodAnswers, long: "I am Ava Johnson" } },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(ava, `/${started}/draft`, {
          method: "PUT",
          json: { answers: { short: "Ava Johnson was here" } },
        })
      ).status,
    ).toBe(200);

    const exported = await t.request(`/api/admin/privacy/students/${AVA}/export`, { cookie: admin });
    expect(exported.status).toBe(200);
    const zip = Buffer.from(await exported.arrayBuffer()).toString("latin1");
    for (const file of ["survey-answers.csv", "survey-drafts.csv", "survey-participation.csv"])
      expect(zip).toContain(file);

    const anonymised = await t.request(`/api/admin/privacy/students/${AVA}/anonymise`, {
      cookie: admin,
      json: { confirm: "Ava Johnson", reason: "The family asked us to erase her data" },
    });
    expect(anonymised.status).toBe(200);
    const [left] = await queryRows<{
      drafts: number;
      answers: Record<string, unknown> | null;
      rounds: number;
    }>(
      t.db,
      sql`select (select count(*)::int from survey_drafts where user_sourced_id = ${AVA}) as drafts,
        (select a.answers from survey_responses a join survey_rounds r on r.id = a.round_id
          where r.survey_id = ${named}::uuid and a.user_sourced_id = ${AVA}) as answers,
        (select count(*)::int from survey_participation where user_sourced_id = ${AVA}) as rounds`,
    );
    expect(left?.drafts).toBe(0);
    expect(left?.answers).toEqual({ mood: 4, scale: 2, nps: 9, one: "math", many: ["guide", "apps"] });
    expect(left?.rounds).toBeGreaterThan(0);
    const [found] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from survey_responses where answers::text ilike '%Ava Johnson%'`,
    );
    expect(found?.n).toBe(0);
  });
});
