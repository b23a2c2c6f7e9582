import { expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { apiSignIn, axeViolations, DESKTOP, loadAxe, screenshots, signInAs } from "./helpers";

/**
 * The course builder: a Guide opens it from their course, builds a unit with a lesson, adds an
 * article and questions of the bank, reorders by keyboard drag and drop and with Move up, and
 * previews the lesson as students see it; unsaved changes are not lost without a question; the
 * route's loader says when the syllabus cannot be fetched; an administrator edits the lesson's
 * settings from admin/lesson.
 */

const SCIENCE = demoId("course-maple-grove-Science");
const BUILDER = `/course-builder/${SCIENCE}`;
const SUFFIX = Math.random().toString(36).slice(2, 7);
const UNIT = `Weather ${SUFFIX}`;
const LESSON = `Clouds ${SUFFIX}`;
const ITEM_ID = `course-builder-clouds-${SUFFIX}`;

/** A small question of the project's own, imported into the bank for the lesson. */
const CLOUD_ITEM = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="${ITEM_ID}" title="Which cloud brings rain? ${SUFFIX}" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>B</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt>Which cloud brings rain?</qti-prompt>
      <qti-simple-choice identifier="A">Cirrus</qti-simple-choice>
      <qti-simple-choice identifier="B">Nimbostratus</qti-simple-choice>
      <qti-simple-choice identifier="C">Contrail</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;

const tree = (page: Page) => page.getByRole("list", { name: "Units" });
/** The resources of the lesson in the tree, top to bottom. */
const resourceTitles = (page: Page) =>
  page.getByRole("list", { name: `Resources of ${LESSON}` }).getByRole("button", { name: /^(?!Drag|Move)/ });

test.use({ viewport: DESKTOP });

test.describe
  .serial("the course builder", () => {
    test("a Guide builds a unit with a lesson, its article and questions, reorders and previews", async ({
      page,
    }) => {
      await apiSignIn(page, "guide@dash.demo");
      const imported = await page.request.post("/api/qti/items", {
        data: CLOUD_ITEM,
        headers: { "content-type": "application/xml" },
      });
      expect(imported.ok(), await imported.text()).toBe(true);

      await loadAxe(page);
      await signInAs(page, "guide@dash.demo", `/app/course/${SCIENCE}`);
      await page.getByRole("link", { name: "Build syllabus" }).click();
      await expect(page).toHaveURL(new RegExp(`${BUILDER}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Science/);
      await expect(page.getByText(/^Course builder ·/)).toBeVisible();
      await expect(page.getByRole("link", { name: "Back to the course" })).toBeVisible();

      // A unit, then a lesson in it: each new entry opens in the editor.
      await page.getByLabel("New unit's title").fill(UNIT);
      await page.getByRole("button", { name: "Add unit" }).click();
      await expect(page.getByRole("heading", { name: UNIT, level: 2 })).toBeVisible();
      await page.getByLabel("New lesson's title").fill(LESSON);
      await page.getByRole("button", { name: "Add lesson" }).click();
      await expect(page.getByRole("heading", { name: LESSON, level: 2 })).toBeVisible();

      // An article, written in the rich-text editor.
      await page.getByRole("button", { name: "Article", exact: true }).click();
      const articleDialog = page.getByRole("dialog", { name: "Add an article" });
      await articleDialog.getByLabel("Title").fill("About clouds");
      const editor = articleDialog.getByRole("textbox", { name: "Article" });
      await editor.click();
      await page.keyboard.type("Clouds are made of tiny drops of water. ");
      // The editor's shortcut keeps the focus where the typing goes (the toolbar's button hands it back later).
      await page.keyboard.press("Control+b");
      await page.keyboard.type("Look up!");
      await expect(editor.locator("strong")).toHaveText("Look up!");
      await screenshots(page, "course-builder-article-dialog", { dark: false });
      await articleDialog.getByRole("button", { name: "Add" }).click();
      await expect(articleDialog).toBeHidden();

      // Questions picked from the bank.
      await page.getByRole("button", { name: "Questions", exact: true }).click();
      const qtiDialog = page.getByRole("dialog", { name: "Add questions" });
      await qtiDialog.getByLabel("Title").fill("Check your clouds");
      await qtiDialog.getByLabel("Search the question bank").fill(SUFFIX);
      await qtiDialog.getByRole("button", { name: `Add Which cloud brings rain? ${SUFFIX}` }).click();
      await expect(qtiDialog.getByText("1 question chosen, in this order:")).toBeVisible();
      await screenshots(page, "course-builder-questions-dialog", { dark: false });
      expect(await axeViolations(page)).toEqual([]);
      await qtiDialog.getByRole("button", { name: "Add", exact: true }).click();
      await expect(qtiDialog).toBeHidden();
      await expect(resourceTitles(page)).toHaveText(["About clouds", "Check your clouds"]);

      // Keyboard drag and drop: the questions go first.
      // Each step waits for what screen readers hear, as a person would before the next key.
      const heard = page.locator('[id^="DndLiveRegion"]');
      await page.getByRole("button", { name: "Drag Check your clouds" }).focus();
      await page.keyboard.press("Space");
      await expect(heard).toHaveText("Picked up Check your clouds.");
      await page.keyboard.press("ArrowUp");
      await expect(heard).toHaveText("Check your clouds is over About clouds.");
      await page.keyboard.press("Space");
      await expect(heard).toHaveText("Dropped Check your clouds.");
      await expect(resourceTitles(page)).toHaveText(["Check your clouds", "About clouds"]);
      // Move up puts the article back on top, for those who do not drag.
      await page.getByRole("button", { name: "Move up: About clouds" }).click();
      await expect(resourceTitles(page)).toHaveText(["About clouds", "Check your clouds"]);
      // The last lesson of a unit steps down into the next unit, and back up with Move up.
      await page.getByRole("button", { name: `Move down: ${LESSON}` }).click();
      const lessonsOf = (unit: string) =>
        page
          .getByRole("list", { name: `Lessons of ${unit}` })
          .getByRole("button", { name: new RegExp(`^${LESSON}`) });
      await expect(lessonsOf("Investigations")).toBeVisible();
      await page.getByRole("button", { name: `Move up: ${LESSON}` }).click();
      await expect(lessonsOf(UNIT)).toBeVisible();
      await page.reload();
      await tree(page)
        .getByRole("button", { name: new RegExp(`^${LESSON}`) })
        .click();
      await expect(resourceTitles(page)).toHaveText(["About clouds", "Check your clouds"]);

      // The lesson as students see it: the article, then the question, answerable.
      await page.getByRole("tab", { name: "Preview" }).click();
      await expect(page.getByText("Clouds are made of tiny drops of water.")).toBeVisible();
      await expect(page.locator("strong", { hasText: "Look up!" })).toBeVisible();
      await expect(page.getByText("Which cloud brings rain?").first()).toBeVisible({ timeout: 15_000 });
      await screenshots(page, "course-builder-preview");
      // The question's own markup is the QTI player's (e2e/qti-embed.spec.ts): the builder's is checked here.
      const outsideTheQuestion = (await axeViolations(page)).filter(
        (finding) => !finding.includes("item-container"),
      );
      expect(outsideTheQuestion).toEqual([]);

      await page.getByRole("tab", { name: "Settings" }).click();
      await screenshots(page, "course-builder-lesson");
      expect(await axeViolations(page)).toEqual([]);

      // The history says who did what, newest first.
      await page.getByRole("button", { name: "History" }).click();
      const history = page.getByRole("dialog", { name: "Syllabus history" });
      const lines = history.getByRole("listitem");
      await expect(lines.first()).toHaveText(new RegExp(`^Maya Patel moved the lesson “${LESSON}”\\.`));
      await expect(history.getByText(`Maya Patel added the unit “${UNIT}”.`)).toBeVisible();
      await expect(history.getByText("Maya Patel added the resource “About clouds”.")).toBeVisible();
      await screenshots(page, "course-builder-history", { dark: false });
      expect(await axeViolations(page)).toEqual([]);
      await history.getByRole("button", { name: "Close" }).click();
      await expect(history).toBeHidden();
    });

    test("asks before unsaved changes are thrown away", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", BUILDER);
      await tree(page)
        .getByRole("button", { name: new RegExp(`^${UNIT}`) })
        .click();
      await page.getByLabel("Unit title").fill(`${UNIT} and climate`);
      await tree(page)
        .getByRole("button", { name: /^Life science/ })
        .click();
      const question = page.getByRole("dialog", { name: "Unsaved changes" });
      await expect(question).toBeVisible();
      await question.getByRole("button", { name: "Keep editing" }).click();
      await expect(page.getByLabel("Unit title")).toHaveValue(`${UNIT} and climate`);
      await page.getByRole("link", { name: "Back to the course" }).click();
      await expect(question).toBeVisible();
      await question.getByRole("button", { name: "Leave the page" }).click();
      await expect(page).toHaveURL(new RegExp(`/app/course/${SCIENCE}$`));
    });

    test("the lesson links from the course page, and students cannot open the builder", async ({ page }) => {
      await signInAs(page, "student@dash.demo", `/app/course/${SCIENCE}`);
      await expect(page.getByRole("link", { name: "Build syllabus" })).toHaveCount(0);
      await page.getByRole("link", { name: LESSON }).click();
      await expect(page).toHaveURL(/\/app\/lesson\//);
      await page.goto(BUILDER);
      await expect(page).toHaveURL(/\/app$/);
    });

    test("says when the syllabus cannot be fetched", async ({ page }) => {
      await signInAs(page, "guide@dash.demo");
      let calls = 0;
      await page.route("**/api/content/courses/*/syllabus", (route) => {
        calls += 1;
        return route.fulfill({ status: 500, contentType: "application/json", body: "{}" });
      });
      await page.goto(BUILDER);
      await expect(page.getByRole("heading", { name: "Something went wrong!" })).toBeVisible({
        timeout: 15_000,
      });
      await page.getByRole("button", { name: "Show error" }).click();
      await expect(page.getByText("Failed to fetch course syllabus")).toBeVisible();
      // Asked once and retried twice.
      expect(calls).toBe(3);
      await screenshots(page, "course-builder-load-failed", { dark: false });
    });

    test("an administrator finds the lesson in admin/lesson and edits its settings", async ({ page }) => {
      await signInAs(page, "admin@dash.demo", "/app/admin/lesson");
      await expect(page.getByRole("heading", { name: "Lessons", level: 1 })).toBeVisible();
      await page.getByLabel("Search by lesson, unit or course").fill(SUFFIX);
      await expect(page.getByText("1 lesson", { exact: true })).toBeVisible();
      const row = page.getByRole("row", { name: new RegExp(LESSON) });
      await expect(row).toBeVisible();
      await expect(row.getByRole("cell").nth(1)).toHaveText("2");
      await screenshots(page, "course-builder-admin-lessons");
      await row.getByRole("button", { name: `Edit the settings of ${LESSON}` }).click();
      const dialog = page.getByRole("dialog", { name: `Edit ${LESSON}` });
      await dialog.getByLabel("Expected XP").fill("25");
      await dialog.getByLabel("Mastery goal (%)").fill("90");
      await dialog.getByRole("button", { name: "Save lesson" }).click();
      await expect(dialog).toBeHidden();
      await expect(row.getByRole("cell").nth(2)).toHaveText("25");
      await expect(row.getByRole("cell").nth(3)).toHaveText("90%");
      await row.getByRole("link", { name: /course builder/ }).click();
      await expect(page).toHaveURL(new RegExp(`${BUILDER}$`));
    });
  });
