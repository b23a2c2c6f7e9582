import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, loadAxe, PHONE, screenshots, signInAs } from "./helpers";

/**
 * Pulse surveys end to end: an administrator builds a survey and publishes it; Ava answers it, her
 * draft kept across a reload, and sends it once; the results show her answers. The demo's weekly
 * anonymous survey shows its trends; the component gallery shows every question in every state.
 */

test.use({ viewport: DESKTOP });

const TITLE = "How was your science week?";
const MOOD_SURVEY = demoId("survey-student-mood");

test.describe
  .serial("pulse surveys", () => {
    let surveyPath = "";

    test("an administrator builds a survey and publishes it to grade 3 at Maple Grove", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "admin@dash.demo", "/app/admin/surveys");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Surveys", level: 1 })).toBeVisible();
      await expect(main.getByRole("row", { name: /How was your week\?/ })).toBeVisible();
      await screenshots(page, "surveys-admin-list", { axe: true });

      await main.getByRole("button", { name: "New survey" }).click();
      await expect(main.getByRole("heading", { name: "New survey" })).toBeVisible();
      await main.getByLabel("Title", { exact: true }).fill(TITLE);
      await main
        .getByLabel("Description", { exact: true })
        .fill("Three quick questions about science this week.");

      // The first question is a mood question; then one choice, then a long answer.
      const first = main.getByRole("listitem", { name: "Question 1" });
      await first.getByLabel("Question", { exact: true }).fill("How do you feel about science?");
      await main.getByLabel("Kind of the new question").selectOption({ label: "One choice" });
      await main.getByRole("button", { name: "Add a question" }).click();
      const second = main.getByRole("listitem", { name: "Question 2" });
      await second.getByLabel("Question", { exact: true }).fill("Which part did you like most?");
      await second.getByLabel("Choice 1", { exact: true }).fill("Experiments");
      await second.getByLabel("Choice 2", { exact: true }).fill("Reading about animals");
      await second.getByRole("button", { name: "Add a choice" }).click();
      await second.getByLabel("Choice 3", { exact: true }).fill("Drawing diagrams");
      await main.getByLabel("Kind of the new question").selectOption({ label: "Long answer" });
      await main.getByRole("button", { name: "Add a question" }).click();
      const third = main.getByRole("listitem", { name: "Question 3" });
      await third.getByLabel("Question", { exact: true }).fill("What would make science even better?");
      await expect(third.getByLabel("Required")).not.toBeChecked();
      // Reordered: the long answer moves above the choice, then back.
      await third.getByRole("button", { name: "Move Question 3 up" }).click();
      await expect(
        main.getByRole("listitem", { name: "Question 2" }).getByLabel("Question", { exact: true }),
      ).toHaveValue("What would make science even better?");
      await main.getByRole("button", { name: "Move Question 2 down" }).click();

      // Grade 3 students at Maple Grove, with their names (not anonymous).
      await main.getByRole("group", { name: "Schools" }).getByLabel("Maple Grove School").check();
      await main.getByRole("group", { name: "Grades" }).getByLabel("Grade 3").check();
      await expect(main.getByText(/^\d+ people would be asked today\.$/)).toBeVisible();
      await main.getByLabel("Anonymous").uncheck();

      await main.getByRole("button", { name: "Show preview" }).click();
      await expect(main.getByRole("group", { name: /1\. How do you feel about science\?/ })).toBeVisible();
      await screenshots(page, "surveys-builder", { axe: true });

      await main.getByRole("button", { name: "Publish" }).click();
      const dialog = page.getByRole("dialog", { name: "Publish this survey?" });
      await expect(dialog).toContainText("It opens now");
      await dialog.getByRole("button", { name: "Publish" }).click();
      await expect(main.getByRole("status").filter({ hasText: `“${TITLE}” was published.` })).toBeVisible();
      const row = main.getByRole("row", { name: new RegExp(TITLE.replace("?", "\\?")) });
      await expect(row.getByText("Open", { exact: true })).toBeVisible();
      await expect(row.getByText(/^0 of \d+ · 0%$/)).toBeVisible();
      const results = row.getByRole("link", { name: `Results of ${TITLE}` });
      surveyPath = (await results.getAttribute("href")) ?? "";
      expect(surveyPath).toMatch(/^\/app\/admin\/survey-responses\/[0-9a-f-]{36}$/);
    });

    test("Ava answers it: her draft stays across a reload, and she sends it once", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "student@dash.demo", "/app/surveys");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Surveys", level: 1 })).toBeVisible();
      await expect(main.getByRole("heading", { name: "2 surveys to answer" })).toBeVisible();
      await screenshots(page, "surveys-mine", { axe: true });

      // The page says it is loading while the survey is on its way.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(
        "**/api/surveys/*/form",
        async (route) => {
          await held;
          await route.continue();
        },
        { times: 1 },
      );
      await main.getByRole("link", { name: `Answer ${TITLE}` }).click();
      await expect(main.getByText("Loading survey...")).toBeVisible();
      release();
      await expect(main.getByRole("heading", { name: TITLE, level: 1 })).toBeVisible();
      await expect(main.getByText("Your name is kept with your answers.")).toBeVisible();

      // A face, then the draft saves by itself; a reload brings it back.
      await main.getByRole("radio", { name: "Happy", exact: true }).check();
      await expect(main.getByText(/^Saved at /)).toBeVisible();
      await page.reload();
      await expect(main.getByRole("radio", { name: "Happy", exact: true })).toBeChecked();

      // The choice question is required: sending without it points at it.
      await main.getByRole("button", { name: "Send my answers" }).click();
      await expect(main.getByText("One question needs your answer.")).toBeVisible();
      const choice = main.getByRole("group", { name: /2\. Which part did you like most\?/ });
      await expect(choice.getByText("Please answer this question.")).toBeVisible();
      await screenshots(page, "surveys-answer-missing", { dark: false });

      await choice.getByRole("radio", { name: "Experiments" }).check();
      await main
        .getByLabel(/3\. What would make science even better\?/)
        .fill("More experiments with magnets!");
      await screenshots(page, "surveys-answer", { axe: true });
      await main.getByRole("button", { name: "Send my answers" }).click();
      await expect(main.getByRole("heading", { name: "Thank you!" })).toBeVisible();
      await screenshots(page, "surveys-thanks", { axe: true });

      // Once: a second sending is refused, and the page says it was answered.
      const surveyId = page.url().split("/").at(-1) as string;
      const again = await page.request.post(`/api/surveys/${surveyId}/responses`, {
        data: { answers: { mood: 2 } },
      });
      expect(again.status()).toBe(409);
      await page.reload();
      await expect(main.getByText("You already answered this survey. Thank you!")).toBeVisible();
      await page.goto("/app/surveys");
      await expect(main.getByRole("heading", { name: "Already answered" })).toBeVisible();
    });

    test("the results show her answers, and the weekly survey its trends with small rounds hidden", async ({
      page,
    }) => {
      await loadAxe(page);
      await signInAs(page, "admin@dash.demo", surveyPath);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: TITLE, level: 1 })).toBeVisible();
      await expect(main.getByText(/^1 of \d+ people answered$/)).toBeVisible();
      await expect(main.getByText("More experiments with magnets!")).toBeVisible();
      await expect(main.getByText("Ava Johnson", { exact: false }).first()).toBeVisible();
      const choices = main.getByRole("list", {
        name: "Bar chart of the answers to “Which part did you like most?”",
      });
      await expect(choices.getByRole("listitem").filter({ hasText: "Experiments" })).toHaveText(
        /Experiments\s*1 \(100%\)/,
      );
      const download = main.getByRole("link", { name: "Download CSV" });
      const csv = await page.request.get((await download.getAttribute("href")) as string);
      expect(csv.headers()["content-type"]).toContain("text/csv");
      const lines = (await csv.text()).trim().split("\r\n");
      expect(lines[0]).toBe(
        "Round,Person ID,Name,Role,School,Grade,Answered on,How do you feel about science?,Which part did you like most?,What would make science even better?",
      );
      expect(lines[1]).toContain(",Ava Johnson,student,Maple Grove School,03,");
      expect(lines[1]).toMatch(/,4,Experiments,More experiments with magnets!$/);
      await screenshots(page, "surveys-results", { axe: true });

      await page.goto(`/app/admin/survey-responses/${MOOD_SURVEY}`);
      await expect(main.getByRole("heading", { name: "How was your week?", level: 1 })).toBeVisible();
      await expect(
        main.getByRole("img", { name: /Line chart of the average answer per round/ }),
      ).toBeVisible();
      await main.getByLabel("Round", { exact: true }).selectOption({ index: 1 });
      await main.getByLabel("Compare by").selectOption({ label: "Grade" });
      await expect(main.getByRole("table", { name: "Answers by Grade" })).toBeVisible();
      await screenshots(page, "surveys-results-anonymous", { axe: true });
    });

    test("the component gallery draws every question in every state", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "admin@dash.demo", "/admin/surveys/test-components");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Survey components", level: 1 })).toBeVisible();
      for (const kind of [
        "Scale from 1 to 5",
        "Mood (faces)",
        "One choice",
        "Several choices",
        "Long answer",
      ])
        await expect(main.getByRole("heading", { name: kind, level: 2 })).toBeVisible();
      await expect(main.getByText("Please answer this question.")).toHaveCount(7);
      await page.setViewportSize(PHONE);
      await screenshots(page, "surveys-components", { axe: true, dark: false });
    });
  });
