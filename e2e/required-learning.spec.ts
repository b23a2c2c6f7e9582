import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { addDays, localDateOf } from "../src/shared/time-zone";
import { DESKTOP, PHONE, screenshots, signInAs } from "./helpers";

/**
 * Required learning end to end, on the ocean lessons of the demo's Science K–04 course (two of its lessons are
 * assigned already, and most of the class has taken them): the demo Guide assigns a third lesson
 * to her class with a due date; Ava sees it on her home and on her learning page, and starts it;
 * her parent reads the same page; the administrator sees the course's progress and downloads it.
 */

const SCREENS = "test-results/screens";
const COURSE = demoId("course-maple-grove-Science");
const CLASS = demoId("class-maple-grove-guide-patel-Science");
const LESSON_ID = demoId("lesson-ocean-deep");
const AVA = demoId("student-ava");
const LESSON = "The deep, dark ocean";
const NOTE = "Bring a torch to class on Friday.";
const due = addDays(localDateOf(new Date(), "America/New_York"), 7);

test.use({ viewport: DESKTOP });

test.describe
  .serial("required learning", () => {
    test("a Guide assigns a lesson to her class with a due date", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", "/app/guide/required-learning");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Required learning", level: 1 })).toBeVisible();
      // The demo's overdue assignment comes first, flagged.
      const first = main.getByRole("article").first();
      await expect(first.getByRole("heading", { name: "Meet the octopus" })).toBeVisible();
      await expect(first).toContainText("Past due date");
      await expect(first).toContainText(/^.*\d+ of \d+ done · \d+ mastered/);

      await main.getByRole("button", { name: "Assign" }).click();
      const dialog = page.getByRole("dialog", { name: "Assign learning" });
      // Nothing chosen: the dialog says what is missing.
      await dialog.getByRole("button", { name: "Assign" }).click();
      await expect(dialog.getByRole("alert")).toHaveText("Choose a course.");
      await dialog
        .getByLabel("Course", { exact: true })
        .selectOption({ label: "Science K–04 · Maple Grove School" });
      await dialog
        .getByLabel("Lesson", { exact: true })
        .selectOption({ label: `Measuring the ocean — ${LESSON}` });
      await dialog.getByRole("button", { name: "Assign" }).click();
      await expect(dialog.getByRole("alert")).toHaveText("Choose at least one class or student.");
      await dialog.getByRole("checkbox", { name: /^Science · Patel group/ }).check();
      await dialog.getByLabel("Due date (optional)").fill(due);
      await dialog.getByLabel("Note for the students (optional)").fill(NOTE);
      await screenshots(page, "required-learning-assign-dialog");
      await dialog.getByRole("button", { name: "Assign" }).click();
      await expect(dialog).toBeHidden();
      await expect(main.getByRole("status").filter({ hasText: "Assigned to" })).toHaveText(
        "Assigned to 1 class or student.",
      );

      const card = main.getByRole("article", { name: LESSON });
      await expect(card).toContainText("Science K–04 › Measuring the ocean");
      await expect(card).toContainText("Science · Patel group");
      await expect(card).toContainText(/Due [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      await expect(card).toContainText(NOTE);
      await expect(card.getByText(/^0 of \d+ done · 0 mastered · 0 started$/)).toBeVisible();
      await expect(
        card.getByRole("img", { name: /^Progress on The deep, dark ocean: \d+ students; 0 done/ }),
      ).toBeVisible();
      await screenshots(page, "required-learning-guide");

      // The Guide moves the due date: the dialog shows what is set now.
      await card
        .getByRole("button", {
          name: `Change the due date or note of ${LESSON} for Science · Patel group`,
        })
        .click();
      const change = page.getByRole("dialog", { name: "Change the assignment" });
      await expect(change.getByLabel("Due date (optional)")).toHaveValue(due);
      await change.getByLabel("Due date (optional)").fill(addDays(due, 1));
      await change.getByRole("button", { name: "Save" }).click();
      await expect(change).toBeHidden();
      await expect(main.getByRole("status").filter({ hasText: "was changed" })).toHaveText(
        `${LESSON}: the assignment was changed.`,
      );
    });

    test("the student sees it on her home and on her learning page, and starts it", async ({ page }) => {
      await signInAs(page, "student@dash.demo");
      const assigned = page.getByRole("region", { name: "Assigned to you" });
      await expect(assigned).toContainText("You have 1 thing to do.");
      await expect(assigned.getByRole("heading", { name: LESSON })).toBeVisible();
      await expect(assigned).toContainText("Not started");
      const start = assigned.getByRole("link", { name: `Start: ${LESSON}` });
      await expect(start).toHaveAttribute("href", `/app/lesson/${LESSON_ID}`);
      await assigned.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENS}/required-learning-home-1280.png` });
      await page.setViewportSize(PHONE);
      await assigned.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENS}/required-learning-home-390.png` });
      await page.setViewportSize(DESKTOP);

      // She starts the lesson: it shows as started.
      const started = await page.request.post(`/api/content/lessons/${LESSON_ID}/attempts`, {
        headers: { "content-type": "application/json" },
      });
      expect(started.ok(), await started.text()).toBe(true);

      await page.goto("/app/student-resources");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "My learning", level: 1 })).toBeVisible();
      const todo = main.getByRole("region", { name: "Things to do" });
      await expect(todo.getByRole("heading", { name: LESSON })).toBeVisible();
      await expect(todo).toContainText("Started");
      await expect(todo).toContainText(`Note from your Guide: ${NOTE}`);
      await expect(todo).toContainText("For the class Science · Patel group");
      await expect(todo.getByRole("link", { name: `Keep going: ${LESSON}` })).toBeVisible();
      const courses = main.getByRole("region", { name: "My courses" });
      await expect(courses.getByRole("heading", { name: "Science K–04" })).toBeVisible();
      await expect(
        courses.getByRole("img", {
          // The course-builder journey may have added a lesson of its own to the course.
          name: /^Science K–04: \d+ lessons; 2 done, 2 of them mastered; 2 started; \d+ not started$/,
        }),
      ).toBeVisible();
      await expect(courses.getByRole("link", { name: "Open the course Science K–04" })).toHaveAttribute(
        "href",
        `/app/course/${COURSE}`,
      );
      const apps = main.getByRole("region", { name: "Learning apps" });
      await expect(
        apps.getByRole("link", { name: "Open Science Explorer (opens in a new tab)" }),
      ).toHaveAttribute("href", "https://science.example.org");
      await expect(main.getByRole("region", { name: "Saved for later" })).toContainText("Nothing saved");
      await screenshots(page, "required-learning-student");
    });

    test("her parent reads the same page in plain words, without lesson links", async ({ page }) => {
      await signInAs(page, "parent@dash.demo", `/app/student-resources/${AVA}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Ava Johnson's learning", level: 1 })).toBeVisible();
      await expect(main.getByText("Ava has 1 thing to do.")).toBeVisible();
      const assigned = main.getByRole("region", { name: "Assigned" });
      await expect(assigned.getByRole("heading", { name: LESSON })).toBeVisible();
      await expect(assigned.getByRole("link")).toHaveCount(0);
      await screenshots(page, "required-learning-parent");
    });

    test("the administrator sees the course's progress and downloads it", async ({ page }) => {
      await signInAs(page, "admin@dash.demo", "/app/admin/course-progress?view=sideways");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Course progress", level: 1 })).toBeVisible();
      await expect(
        main.getByText("Pick a course to see its students' progress through its lessons."),
      ).toBeVisible();
      await main
        .getByLabel("Course", { exact: true })
        .selectOption({ label: "Science K–04 · Maple Grove School" });
      await expect(page).toHaveURL(new RegExp(`courseId=${COURSE}`));

      // A bad view in the address fell back to classes.
      await expect(main.getByRole("tab", { name: "By class" })).toHaveAttribute("aria-selected", "true");
      await expect(
        main.getByRole("img", {
          name: /^Science · Patel group: \d+ lessons; \d+ done, \d+ of them mastered; 2 started/,
        }),
      ).toBeVisible();
      await main.getByRole("tab", { name: "By unit" }).click();
      await expect(page).toHaveURL(/view=units/);
      await expect(main.getByRole("img", { name: /^Measuring the ocean: \d+ lessons;/ })).toBeVisible();

      const table = main.getByRole("table", { name: "Students" });
      const ava = table.getByRole("row", { name: /Ava Johnson/ });
      await expect(ava).toContainText("Science · Patel group");
      // Done, mastered, started, not started: two of each but the last.
      await expect(ava.getByRole("cell").nth(1)).toHaveText("2");
      await expect(ava.getByRole("cell").nth(3)).toHaveText("2");
      await main.getByLabel("Class", { exact: true }).selectOption({ label: "Science · Patel group" });
      await expect(page).toHaveURL(new RegExp(`classId=${CLASS}`));
      await screenshots(page, "required-learning-admin");

      const downloading = page.waitForEvent("download");
      await main.getByRole("link", { name: "Download CSV" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe("course-progress.csv");
      const lines = (await readFile((await download.path()) as string, "utf8")).split("\r\n");
      expect(lines[0]).toBe(
        "Student id,Student,Classes,Lessons,Completed,Mastered,In progress,Not started,Percent complete,Percent mastered,Last activity (UTC)",
      );
      const avaLine = lines.find((line) => line.startsWith(`${AVA},`)) ?? "";
      expect(avaLine).toMatch(
        new RegExp(`^${AVA},Ava Johnson,Science · Patel group,\\d+,2,2,2,\\d+,\\d+,\\d+,\\d{4}-`),
      );
      expect(lines.filter(Boolean).length).toBeGreaterThan(2);
    });
  });
