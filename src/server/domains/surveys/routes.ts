import { Hono } from "hono";
import { z } from "zod";
import {
  answersRequestSchema,
  audienceCountRequestSchema,
  responsesCsvQuerySchema,
  resultsQuerySchema,
  surveyInputSchema,
  surveyListQuerySchema,
} from "../../../shared/contracts/surveys";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { csvDownload } from "../../lib/csv-download";
import { readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import { mySurveys, saveDraft, submitAnswers, surveyForm } from "./answering";
import { assertAudienceAllowed, audienceOptions, countAudience, requireSurveyStaff } from "./audience";
import { responsesCsv, surveyResults } from "./results";
import {
  archiveSurvey,
  closeSurvey,
  createSurvey,
  deleteSurvey,
  getSurvey,
  listSurveys,
  publishSurvey,
  updateSurvey,
} from "./surveys";

const surveyParam = z.object({ surveyId: z.string().trim().min(1).max(200) });

/**
 * Pulse surveys. Staff (administrators, and Guides for their own classes) build, publish and read
 * them; whoever a survey asks answers it. Every check of who may do what is in the queries.
 */
export function surveysRoutes({ db, auth, jobs }: AppDeps) {
  const surveyIdOf = (c: Parameters<typeof readParams>[0]) => readParams(c, surveyParam).surveyId;
  return new Hono<AppEnv>()
    .get("/mine", async (c) => c.json(await mySurveys(db, currentActor(c), auth.now())))
    .get("/audience-options", async (c) => {
      const actor = currentActor(c);
      requireSurveyStaff(actor, "manage");
      return c.json(await audienceOptions(db, actor));
    })
    .post("/audience-count", async (c) => {
      const actor = currentActor(c);
      requireSurveyStaff(actor, "manage");
      const { audience } = await readJsonBody(c, audienceCountRequestSchema);
      await assertAudienceAllowed(db, actor, audience);
      return c.json({ count: await countAudience(db, audience) });
    })
    .get("/", async (c) =>
      c.json(await listSurveys(db, currentActor(c), readQuery(c, surveyListQuerySchema), auth.now())),
    )
    .post("/", async (c) => {
      const input = await readJsonBody(c, surveyInputSchema);
      return c.json(await createSurvey(db, currentActor(c), input), 201);
    })
    .get("/:surveyId", async (c) => c.json(await getSurvey(db, currentActor(c), surveyIdOf(c), auth.now())))
    .put("/:surveyId", async (c) => {
      const surveyId = surveyIdOf(c);
      const input = await readJsonBody(c, surveyInputSchema);
      await updateSurvey(db, jobs, currentActor(c), surveyId, input, auth.now());
      return c.body(null, 204);
    })
    .delete("/:surveyId", async (c) => {
      await deleteSurvey(db, currentActor(c), surveyIdOf(c), auth.now());
      return c.body(null, 204);
    })
    .post("/:surveyId/publish", async (c) => {
      await publishSurvey(db, jobs, currentActor(c), surveyIdOf(c), auth.now());
      return c.body(null, 204);
    })
    .post("/:surveyId/close", async (c) => {
      await closeSurvey(db, currentActor(c), surveyIdOf(c), auth.now());
      return c.body(null, 204);
    })
    .post("/:surveyId/archive", async (c) => {
      await archiveSurvey(db, currentActor(c), surveyIdOf(c), auth.now());
      return c.body(null, 204);
    })
    .get("/:surveyId/form", async (c) =>
      c.json(await surveyForm(db, currentActor(c), surveyIdOf(c), auth.now())),
    )
    .put("/:surveyId/draft", async (c) => {
      const surveyId = surveyIdOf(c);
      const { answers } = await readJsonBody(c, answersRequestSchema);
      return c.json(await saveDraft(db, currentActor(c), surveyId, answers, auth.now()));
    })
    .post("/:surveyId/responses", async (c) => {
      const surveyId = surveyIdOf(c);
      const { answers } = await readJsonBody(c, answersRequestSchema);
      return c.json(await submitAnswers(db, currentActor(c), surveyId, answers, auth.now()), 201);
    })
    .get("/:surveyId/results", async (c) => {
      const surveyId = surveyIdOf(c);
      const query = readQuery(c, resultsQuerySchema);
      return c.json(await surveyResults(db, currentActor(c), surveyId, query, auth.now()));
    })
    .get("/:surveyId/responses.csv", async (c) => {
      const surveyId = surveyIdOf(c);
      const { round } = readQuery(c, responsesCsvQuerySchema);
      const actor = currentActor(c);
      const now = auth.now();
      const lines = responsesCsv(db, actor, surveyId, round, requestLanguage(c), now);
      // The first part (the checks and the header) before the download starts, so a refusal is an error answer.
      const first = await lines.next();
      const fileName = `survey-responses${round ? `-round-${round}` : ""}.csv`;
      return csvDownload(c, fileName, resumed(first, lines));
    });
}

/** A generator's first result followed by the rest. */
async function* resumed(first: IteratorResult<string>, rest: AsyncGenerator<string>): AsyncGenerator<string> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
