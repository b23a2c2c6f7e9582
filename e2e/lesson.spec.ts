import { expect, type Page, test } from "@playwright/test";
import { CHOICE_ITEM, ESSAY_ITEM, TEMPLATE_ITEM } from "../src/server/domains/content/lesson-test-items";
import { demoId } from "../src/server/seed/demo-accounts";
import { apiSignIn, DESKTOP, loadAxe, PHONE, SCREENS, screenshots, signInAs } from "./helpers";

/**
 * A student takes a lesson: an administrator builds it (an article, three questions of the bank
 * and a YouTube video) in Ava's Math course; Ava starts it, answers in place, reloads and finds her
 * answers, finishes, reads her score and XP, and finds the XP in her history. She keeps a step for
 * later and finds it among her resources. Her Guide sees a preview, and reads along while viewing
 * Dash as her.
 */

const MAPLE_MATH = demoId("course-maple-grove-Math");
const FIRST_UNIT = demoId("component-maple-grove-Math-0");
const TITLE = `Even numbers ${Math.random().toString(36).slice(2, 7)}`;
const EXPECTED_XP = 12;
const VIDEO_URL = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";

/**
 * YouTube's privacy-enhanced player, stood in for: the tests reach no other site. The stand-in is
 * a page of its own in the frame, which axe checks with the rest.
 */
async function standInPlayer(page: Page) {
  await page.route("https://www.youtube-nocookie.com/embed/**", (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><title>Stand-in player</title></head>
        <body style="margin:0;height:100vh;display:grid;place-items:center;background:#000;color:#fff;font:20px sans-serif">
        <p>▶ Even numbers, the video</p></body></html>`,
    }),
  );
}

/** The lesson, made through the QTI bank's and the course builder's APIs. */
async function buildLesson(page: Page): Promise<string> {
  await apiSignIn(page, "admin@dash.demo");
  for (const xml of [CHOICE_ITEM, TEMPLATE_ITEM, ESSAY_ITEM]) {
    const imported = await page.request.post("/api/qti/items", {
      data: xml,
      headers: { "content-type": "application/xml" },
    });
    expect(imported.ok(), await imported.text()).toBe(true);
  }
  const syllabus = `/api/content/courses/${MAPLE_MATH}/syllabus`;
  const created = await page.request.post(`${syllabus}/lessons`, {
    data: { unitId: FIRST_UNIT, title: TITLE },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lessonId = (await created.json()).response.id as string;
  const settings = await page.request.patch(`${syllabus}/lessons/${lessonId}`, {
    data: {
      expectedXp: EXPECTED_XP,
      masteryPercent: 80,
      descriptionHtml: "<p>Numbers that pair up evenly.</p>",
    },
  });
  expect(settings.ok(), await settings.text()).toBe(true);
  for (const resource of [
    {
      kind: "article",
      title: "What makes a number even",
      articleHtml: "<p>An even number ends in 0, 2, 4, 6 or 8.</p>",
    },
    {
      kind: "qti",
      title: "Practice",
      qtiItems: ["dash-lesson-even", "dash-lesson-sum", "dash-lesson-essay"],
    },
    { kind: "video", title: "Pairs in a minute", videoUrl: VIDEO_URL },
  ]) {
    const added = await page.request.post(`${syllabus}/resources`, { data: { lessonId, ...resource } });
    expect(added.status(), await added.text()).toBe(201);
  }
  await page.request.post("/api/auth/logout");
  return lessonId;
}

test.use({ viewport: DESKTOP });

test.describe
  .serial("a lesson", () => {
    let lessonId = "";

    test.beforeEach(async ({ page }) => {
      await loadAxe(page);
      await standInPlayer(page);
    });

    test("a student takes the lesson and earns XP", async ({ page }) => {
      lessonId = await buildLesson(page);
      await signInAs(page, "student@dash.demo", `/app/lesson/${lessonId}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: TITLE, level: 1 })).toBeVisible();
      await expect(main.getByRole("navigation", { name: "Where this lesson is" })).toContainText("Math");
      await expect(main.getByText(`Worth ${EXPECTED_XP} XP`)).toBeVisible();
      await expect(main.getByText("Master it with 80% or more")).toBeVisible();
      await expect(main.getByText("This lesson has 3 steps with 3 questions.")).toBeVisible();
      await screenshots(page, "lesson-start", { axe: true });
      await main.getByRole("button", { name: "Start the lesson" }).click();

      const questions = main.getByTestId("lesson-question");
      await expect(questions).toHaveCount(3);
      await expect(main.getByRole("progressbar", { name: "Questions answered" })).toHaveAttribute(
        "aria-valuetext",
        "0 of 3 questions answered",
      );
      await expect(main.getByText("An even number ends in 0, 2, 4, 6 or 8.")).toBeVisible();
      // The YouTube video plays in the lesson, in the privacy-enhanced player.
      await expect(main.getByTitle("Video: Pairs in a minute")).toHaveAttribute(
        "src",
        "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
      );

      // Question 1: a choice; question 2: the sum the attempt shows; question 3: a few words.
      await questions.nth(0).getByText("4", { exact: true }).click();
      // The sum's two numbers, as the attempt fixed them (the lesson as Ava's browser reads it).
      const served = await (await page.request.get(`/api/content/lessons/${lessonId}`)).json();
      const sumXml: string = served.resources[1].items[1].rawXml;
      const [first, second] = ["A", "B"].map((name) =>
        Number(
          new RegExp(`identifier="${name}"[^>]*>\\s*<qti-default-value>\\s*<qti-value>(\\d+)<`).exec(
            sumXml,
          )?.[1],
        ),
      );
      // The player shows exactly those numbers.
      await expect(questions.nth(1)).toMatchAriaSnapshot(`
        - paragraph:
          - text: What is ${first} + ${second}?
      `);
      await questions
        .nth(1)
        .getByRole("textbox")
        .fill(String((first ?? 0) + (second ?? 0)));
      await questions.nth(2).getByRole("textbox").fill("Eight, because it is round.");
      // A written answer counts once the learner leaves the field.
      await page.keyboard.press("Tab");
      await expect(main.getByRole("progressbar", { name: "Questions answered" })).toHaveAttribute(
        "aria-valuetext",
        "3 of 3 questions answered",
      );
      await expect(main.getByText("Your answers are saved.")).toBeVisible();
      await screenshots(page, "lesson-answering", { axe: true });

      // A reload resumes the attempt with its answers.
      await page.reload();
      await expect(main.getByRole("progressbar", { name: "Questions answered" })).toHaveAttribute(
        "aria-valuetext",
        "3 of 3 questions answered",
      );
      await expect(questions.nth(2).getByRole("textbox")).toHaveValue("Eight, because it is round.");

      await main.getByRole("button", { name: "Finish the lesson" }).click();
      const result = main.getByTestId("lesson-result");
      await expect(result.getByRole("heading", { name: "Try 1: your result" })).toBeFocused();
      const earned = Math.floor(EXPECTED_XP * 1.25);
      await expect(result.getByTestId("lesson-result-sentence")).toHaveText(
        `You got 2 of 2 right and earned ${earned} XP. You mastered this lesson!`,
      );
      await expect(result.getByTestId("lesson-result-xp")).toHaveText(`${earned} XP`);
      await expect(result.getByText("All right on the first try earns bonus XP!")).toBeVisible();
      const review = result.getByRole("list", { name: "Your answers" });
      await expect(review.getByRole("listitem")).toHaveCount(3);
      await expect(review.getByRole("listitem").nth(0)).toContainText("Right");
      await expect(review.getByRole("listitem").nth(2)).toContainText("not scored");
      await expect(main.getByTestId("lesson-history")).toContainText("Try 1");
      await expect(main.getByText("Mastered").first()).toBeVisible();
      await screenshots(page, "lesson-result", { axe: true });

      // The XP is Ava's like any app's: in her history.
      await result.getByRole("link", { name: "See your XP" }).click();
      await expect(page.getByRole("heading", { name: "XP stats", level: 1 })).toBeVisible();
      await expect(page.getByRole("list", { name: "XP history" })).toContainText(TITLE);
    });

    test("trying again starts a second attempt", async ({ page }) => {
      await signInAs(page, "student@dash.demo", `/app/lesson/${lessonId}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Try 1: your result" })).toBeVisible();
      await main.getByRole("button", { name: "Try again" }).click();
      await expect(main.getByRole("progressbar", { name: "Questions answered" })).toHaveAttribute(
        "aria-valuetext",
        "0 of 3 questions answered",
      );
      await main.getByRole("button", { name: "Finish the lesson" }).click();
      const dialog = page.getByRole("dialog", { name: "Finish with questions left?" });
      await expect(dialog).toContainText("3 questions have no answer yet.");
      await dialog.getByRole("button", { name: "Finish now" }).click();
      const result = main.getByTestId("lesson-result");
      await expect(result.getByRole("heading", { name: "Try 2: your result" })).toBeVisible();
      await expect(result.getByTestId("lesson-result-sentence")).toHaveText(
        "You got 0 of 2 right and earned 0 XP. To master this lesson, get 80% or more. This time you got 0%.",
      );
      await main.getByRole("button", { name: "See the results of try 1" }).click();
      await expect(result.getByRole("heading", { name: "Try 1: your result" })).toBeVisible();
    });

    test("a Guide previews the lesson without saving", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", `/app/lesson/${lessonId}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: TITLE, level: 1 })).toBeVisible();
      await expect(main.getByText(/^Preview: this is the lesson as students see it/)).toBeVisible();
      await expect(main.getByTestId("lesson-question")).toHaveCount(3);
      await expect(main.getByRole("button", { name: "Finish the lesson" })).toHaveCount(0);
      // Staff keep nothing for later.
      await expect(main.getByRole("button", { name: /^Save for later/ })).toHaveCount(0);
      await screenshots(page, "lesson-preview", { axe: true });
    });

    test("a student keeps a step for later and finds it among her resources", async ({ page }) => {
      await signInAs(page, "student@dash.demo", `/app/lesson/${lessonId}`);
      const main = page.getByRole("main");
      await main.getByRole("button", { name: "Try again" }).click();
      await expect(main.getByTestId("lesson-question")).toHaveCount(3);
      const video = main.getByRole("region", { name: "Pairs in a minute" });
      // The player loads as it comes near the screen.
      await video.scrollIntoViewIfNeeded();
      await expect(video.frameLocator("iframe").getByText("▶ Even numbers, the video")).toBeVisible();

      const keep = main.getByRole("button", { name: "Save for later: What makes a number even" });
      await expect(keep).toHaveAttribute("aria-pressed", "false");
      await keep.click();
      const kept = main.getByRole("button", { name: "Saved: What makes a number even" });
      await expect(kept).toHaveAttribute("aria-pressed", "true");
      await expect(main.getByRole("button", { name: "Save for later: Practice" })).toHaveAttribute(
        "aria-pressed",
        "false",
      );
      await screenshots(page, "lesson-saving", { axe: true });
      // The step with the video as it first shows on the screen (a full page leaves the frame blank).
      for (const [width, viewport] of [
        [390, PHONE],
        [1280, DESKTOP],
      ] as const) {
        await page.setViewportSize(viewport);
        const sidebar = page.getByRole("navigation", { name: "Main" });
        if (width === 390) await expect(sidebar).not.toBeInViewport();
        else await expect(sidebar).toBeInViewport({ ratio: 1 });
        await video.scrollIntoViewIfNeeded();
        await expect(video.frameLocator("iframe").getByText("▶ Even numbers, the video")).toBeInViewport();
        await page.screenshot({ path: `${SCREENS}/lesson-video-${width}.png` });
      }

      // The server says so too: a reload shows it kept.
      await page.reload();
      await expect(kept).toHaveAttribute("aria-pressed", "true");

      // A request that fails puts the toggle back and says what went wrong.
      await page.route("**/api/content/saved-resources/**", (route) => route.abort("internetdisconnected"));
      await main.getByRole("button", { name: "Save for later: Pairs in a minute" }).click();
      await expect(video.getByRole("alert")).toHaveText(
        "“Pairs in a minute” could not be saved for later. Check the connection and try again.",
      );
      await expect(main.getByRole("button", { name: "Save for later: Pairs in a minute" })).toHaveAttribute(
        "aria-pressed",
        "false",
      );
      await page.unroute("**/api/content/saved-resources/**");

      await page.goto("/app/student-resources");
      await expect(page.getByRole("heading", { name: "My learning", level: 1 })).toBeVisible();
      const saved = page.getByRole("region", { name: "Saved for later" });
      await expect(saved.getByRole("heading", { name: "What makes a number even" })).toBeVisible();
      await expect(saved).toContainText(TITLE);
      await saved.getByRole("link", { name: "Open the lesson of What makes a number even" }).click();

      // Let go from the lesson: the resources page no longer lists it.
      await main.getByRole("button", { name: "Saved: What makes a number even" }).click();
      await expect(
        main.getByRole("button", { name: "Save for later: What makes a number even" }),
      ).toHaveAttribute("aria-pressed", "false");
      await page.goto("/app/student-resources");
      await expect(saved.getByText("Nothing saved")).toBeVisible();
      await expect(saved.getByRole("heading", { name: "What makes a number even" })).toHaveCount(0);
    });

    test("a Guide viewing Dash as the student reads along, with answered choices read-only", async ({
      page,
    }) => {
      // Ava's third try is open, its first question answered.
      await apiSignIn(page, "student@dash.demo");
      const served = await (await page.request.get(`/api/content/lessons/${lessonId}`)).json();
      const answered = await page.request.put(`/api/content/attempts/${served.openAttempt.id}/responses`, {
        data: {
          resourceId: served.resources[1].id,
          itemIdentifier: "dash-lesson-even",
          response: { RESPONSE: "B" },
        },
      });
      expect(answered.ok(), await answered.text()).toBe(true);
      await page.request.post("/api/auth/logout");

      await apiSignIn(page, "guide@dash.demo");
      const viewing = await page.request.post("/api/auth/impersonation", {
        data: { userId: demoId("student-ava"), reason: "Reading Ava's lesson with her (e2e)" },
      });
      expect(viewing.ok(), await viewing.text()).toBe(true);
      await page.goto(`/app/lesson/${lessonId}`);
      const main = page.getByRole("main");
      await expect(main.getByText(/^You are viewing this lesson as the student/)).toBeVisible();
      const questions = main.getByTestId("lesson-question");
      await expect(questions).toHaveCount(3);
      await expect(main.getByRole("button", { name: /^(Save for later|Saved):/ })).toHaveCount(0);
      // Her answer shows, and no choice can be changed.
      const choices = questions.nth(0).locator("qti-simple-choice");
      await expect(choices).toHaveCount(3);
      for (const choice of await choices.all()) {
        await expect(choice).toHaveAttribute("aria-disabled", "true");
        await expect(choice).not.toHaveAttribute("aria-readonly", /.*/);
      }
      await questions.nth(0).getByText("7", { exact: true }).click();
      const after = await (await page.request.get(`/api/content/lessons/${lessonId}`)).json();
      expect(after.openAttempt.responses).toEqual([
        expect.objectContaining({ itemIdentifier: "dash-lesson-even", response: { RESPONSE: "B" } }),
      ]);
      await screenshots(page, "lesson-viewing-as", { axe: true });
    });
  });
