import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { addDays } from "../src/shared/time-zone";
import { DESKTOP, signInAs } from "./helpers";

/**
 * Goals from the student's side and the Guide's: Ava sets herself a goal with a date and sees how
 * it is going; her Guide changes its target; the Guide runs her class from its page. Demo goals
 * may or may not be there, so only the goal added here is counted on.
 */

test.use({ viewport: DESKTOP });

const AVA = demoId("student-ava");
const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");
/** The goal Ava adds: Science units, so that no seeded goal has its title. */
const ADDED = /^Master 37 units in Science by /;
const EDITED = /^Master 45 units in Science by /;
const FORECAST =
  /^(At your pace you'll get there|Do some learning to see when|Done!|The deadline passed|At this pace|No learning lately)/;

test.describe
  .serial("goals", () => {
    test("a student sees the week's goal, adds a goal with a date and sees its forecast", async ({
      page,
    }) => {
      await signInAs(page, "student@dash.demo", "/app/goals");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Goals", level: 1 })).toBeVisible();

      // This week's XP goal, in figures and as a ring; today's goals; the streak.
      const weekly = main.getByRole("progressbar", { name: "Weekly XP goal" });
      await expect(weekly).toHaveAttribute("aria-valuetext", /^[\d,]+ of [\d,]+ XP, \d+%$/);
      await expect(main.getByText(/^[\d,]+ of [\d,]+ XP this week$/)).toBeVisible();
      await expect(main.getByRole("progressbar", { name: "Math goal" })).toBeVisible();
      await expect(main.getByText(/(\d+ school days?|No streak yet)$/).first()).toBeVisible();

      // A goal of her own: 37 Science units, a month from her today.
      const { today } = await (await page.request.get("/api/goals")).json();
      await main.getByRole("button", { name: "Add a goal" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a goal" });
      await expect(dialog).toContainText("For Ava Johnson.");
      await dialog.getByLabel("Kind of goal").selectOption({ label: "Master units" });
      await dialog.getByLabel("Subject").selectOption("Science");
      // A target out of bounds is said beside its field, before anything is sent.
      await dialog.getByLabel("Units to master").fill("0");
      await dialog.getByLabel("By when").fill(addDays(today, 30));
      await dialog.getByRole("button", { name: "Add goal" }).click();
      const target = dialog.getByLabel("Units to master");
      await expect(target).toHaveAttribute("aria-invalid", "true");
      await expect(target).toHaveAccessibleDescription(/^Enter a whole number from 1 to 1,000\./);
      await dialog.getByLabel("Units to master").fill("37");
      await dialog.getByRole("button", { name: "Add goal" }).click();
      await expect(dialog).toBeHidden();
      await expect(main.getByRole("status").filter({ hasText: "Goal added." })).toBeVisible();

      const card = main.getByRole("article", { name: ADDED });
      await expect(card).toBeVisible();
      await expect(card.getByText("Your own goal")).toBeVisible();
      await expect(card.getByText(/^\d+ units? \/ 37 units$/)).toBeVisible();
      await expect(card.getByRole("progressbar", { name: /^Progress: Master 37 units/ })).toHaveAttribute(
        "aria-valuetext",
        /^\d+ units? of 37 units, \d+%$/,
      );
      await expect(card.getByText(/^(Reached|On track|Behind|No pace yet)$/)).toBeVisible();
      await expect(card.getByText(FORECAST)).toBeVisible();
      await expect(card.getByText(/^Due [A-Z][a-z]{2} \d{1,2}(, \d{4})?/)).toBeVisible();
    });

    test("her Guide opens her goals and changes that goal's target", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", `/app/goals?studentId=${AVA}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Ava Johnson's goals" })).toBeVisible();
      await expect(main.getByLabel("Student", { exact: true })).toHaveValue(AVA);

      const card = main.getByRole("article", { name: ADDED });
      await expect(card.getByText("Ava Johnson's own goal")).toBeVisible();
      await card.getByRole("button", { name: /^Edit goal: Master 37 units/ }).click();
      const dialog = page.getByRole("dialog", { name: "Edit goal" });
      await dialog.getByLabel("Units to master").fill("45");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog).toBeHidden();
      await expect(main.getByRole("status").filter({ hasText: "Goal saved." })).toBeVisible();

      const edited = main.getByRole("article", { name: EDITED });
      await expect(edited).toBeVisible();
      await expect(edited.getByText(/^\d+ units? \/ 45 units$/)).toBeVisible();
      await expect(edited.getByText("Ava Johnson's own goal")).toBeVisible();
      await expect(main.getByRole("article", { name: ADDED })).toHaveCount(0);
    });

    test("a Guide opens their class page from their home: every student, and the week's leaderboard", async ({
      page,
    }) => {
      await signInAs(page, "guide@dash.demo", "/app");
      const main = page.getByRole("main");
      await main.getByRole("link", { name: /^Math · Patel group/ }).click();
      await expect(page).toHaveURL(new RegExp(`/app/teacher/class/${PATEL_MATH}$`));
      await expect(main.getByRole("heading", { name: "Math · Patel group", level: 1 })).toBeVisible();
      await expect(main.getByText("Maple Grove School", { exact: true })).toBeVisible();

      // The summary tiles.
      for (const tile of ["Active today", "Met their daily goal", "On track this week"])
        await expect(main.getByRole("term").filter({ hasText: new RegExp(`^${tile}$`) })).toBeVisible();

      // A row per student of the class, each with the ways into their day, metrics and goals.
      const { students } = await (await page.request.get(`/api/goals/classes/${PATEL_MATH}`)).json();
      expect(students.length).toBeGreaterThan(1);
      const table = main.getByRole("table", { name: /Each student of Math · Patel group/ });
      await expect(table.getByRole("row")).toHaveCount(students.length + 1);
      for (const student of students as { name: string }[])
        await expect(table.getByRole("rowheader", { name: new RegExp(`^${student.name}`) })).toBeVisible();
      const ava = table.getByRole("row", { name: /^Ava Johnson/ });
      await expect(ava.getByRole("progressbar", { name: "XP this week for Ava Johnson" })).toHaveAttribute(
        "aria-valuetext",
        /^[\d,]+ of [\d,]+ XP$/,
      );
      await expect(ava.getByRole("link", { name: "Ava Johnson's day" })).toHaveAttribute(
        "href",
        `/app/flow/student/${AVA}`,
      );
      await expect(ava.getByRole("link", { name: "Learning metrics of Ava Johnson" })).toHaveAttribute(
        "href",
        `/app/learning-metrics?studentId=${AVA}`,
      );
      await ava.getByRole("link", { name: "Goals of Ava Johnson" }).click();
      await expect(page).toHaveURL(new RegExp(`/app/goals\\?studentId=${AVA}$`));
      await expect(main.getByRole("heading", { name: "Ava Johnson's goals" })).toBeVisible();
      await page.goBack();

      // The class's top ten this week, ranked.
      const board = main.getByRole("list", { name: "This week's leaderboard" });
      const places = board.getByRole("listitem");
      await expect(places.first()).toContainText("Rank 1");
      expect(await places.count()).toBeLessThanOrEqual(10);
      await expect(places.first()).toContainText(/[\d,]+ XP$/);
    });

    test("goals of a student or a class that is not there say so kindly", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", "/app/goals?studentId=no-such-student");
      const main = page.getByRole("main");
      const refusal = main.getByRole("alert").filter({ hasText: "We couldn't open these goals" });
      await expect(refusal).toContainText("Student not found");
      // The choice of student and class stays there to pick another.
      await expect(main.getByLabel("Class", { exact: true })).toBeVisible();

      await page.goto("/app/teacher/class/no-such-class");
      const classRefusal = main.getByRole("alert").filter({ hasText: "We couldn't open this class" });
      await expect(classRefusal).toContainText("Class not found");
      await expect(classRefusal.getByRole("link", { name: "Back to your home" })).toBeVisible();
    });
  });
