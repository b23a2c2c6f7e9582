import { expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, loadAxe, screenshots, signInAs } from "./helpers";

/**
 * The last small pages: Ava logs an activity and sees her week move toward the goal, her Guide
 * sees it, her parent reads it from her page in the family's hub; the time check shows its three clocks; /protected says who is signed in and until
 * when; the app store and the old course list always send people on.
 */

test.use({ viewport: DESKTOP });

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");

async function minutesThisWeek(page: Page): Promise<number> {
  const ring = page.getByRole("main").getByRole("progressbar", { name: "Minutes toward the weekly goal" });
  const text = (await ring.getAttribute("aria-valuetext")) ?? "";
  const match = /^(\d+) of (\d+) minutes \(\d+%\)$/.exec(text);
  expect(match, text).not.toBeNull();
  return Number(match?.[1]);
}

test.describe
  .serial("athletics", () => {
    test("a student logs an activity and sees the week's progress", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "student@dash.demo", "/app/athletics");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Athletics", level: 1 })).toBeVisible();
      await expect(main.getByRole("heading", { name: "This week", exact: true })).toBeVisible();
      const before = await minutesThisWeek(page);
      await expect(main.getByRole("img", { name: /^Bar chart of Ava Johnson's minutes/ })).toBeVisible();

      // Minutes out of bounds are said beside the field, before anything is sent.
      await main.getByLabel("Activity", { exact: true }).fill("Hula hoop");
      await main.getByLabel("Minutes", { exact: true }).fill("700");
      await main.getByRole("button", { name: "Log it" }).click();
      await expect(main.getByLabel("Minutes", { exact: true })).toHaveAttribute("aria-invalid", "true");
      await main.getByLabel("Minutes", { exact: true }).fill("25");
      await main.getByLabel("Note (optional)").fill("In the garden");
      await main.getByRole("button", { name: "Log it" }).click();
      await expect(
        main.getByRole("status").filter({ hasText: "Logged: Hula hoop, 25 minutes." }),
      ).toBeVisible();

      await expect(main.getByText("In the garden")).toBeVisible();
      await expect.poll(() => minutesThisWeek(page)).toBe(before + 25);
      await expect(main.getByText(/^You moved for \d+ minutes? this week\.$/)).toBeVisible();

      await screenshots(page, "athletics-student", { axe: true });

      // She changes it: the dialog keeps her entry's fields, and the week counts the new minutes.
      await main.getByRole("button", { name: /^Change Hula hoop on / }).click();
      const dialog = page.getByRole("dialog", { name: "Change the activity" });
      await expect(dialog.getByLabel("Activity", { exact: true })).toHaveValue("Hula hoop");
      await dialog.getByLabel("Minutes", { exact: true }).fill("30");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog).toBeHidden();
      await expect.poll(() => minutesThisWeek(page)).toBe(before + 30);
    });

    test("her Guide sees it, and an administrator sets the weekly goal", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "guide@dash.demo", "/app/athletics");
      const main = page.getByRole("main");
      await main.getByLabel("Student", { exact: true }).selectOption(AVA);
      await expect(main.getByRole("heading", { name: "Log an activity for Ava Johnson" })).toBeVisible();
      await expect(main.getByText("In the garden")).toBeVisible();
      await expect(main.getByText(/^Ava Johnson moved for \d+ minutes? this week\.$/)).toBeVisible();
      await screenshots(page, "athletics-guide", { axe: true, dark: false });

      await signInAs(page, "admin@dash.demo", "/app/athletics");
      const settings = page.getByRole("main").getByRole("region", { name: "Weekly activity goal" });
      await settings.getByLabel("Minutes a week").fill("160");
      await settings.getByRole("button", { name: "Save the goal" }).click();
      await expect(settings.getByRole("status")).toContainText("Saved.");
      await expect(settings.getByText(/^Set by .+ on /)).toBeVisible();
      await settings.getByLabel("Minutes a week").fill("150");
      await settings.getByRole("button", { name: "Save the goal" }).click();
      await expect(settings.getByRole("status")).toContainText("Saved.");
    });

    test("her parent opens athletics from her page and reads her week", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", `/app/child/${AVA}`);
      const main = page.getByRole("main");
      await main.getByRole("link", { name: /^Athletics/ }).click();
      await expect(page).toHaveURL(new RegExp(`/app/athletics\\?childId=${AVA}$`));
      await expect(main.getByRole("heading", { name: "Athletics", level: 1 })).toBeVisible();
      const children = main.getByRole("navigation", { name: "Your children" });
      await expect(children.getByRole("link", { name: "Ava Johnson" })).toHaveAttribute(
        "aria-current",
        "page",
      );
      await expect(main.getByRole("heading", { name: "Ava Johnson's activities" })).toBeVisible();
      await expect(main.getByText(/^Ava Johnson moved for \d+ minutes? this week\.$/)).toBeVisible();
      await expect(
        main.getByText(/^Each week, Sunday to Saturday, students aim for 150 minutes/),
      ).toBeVisible();
      await expect(main.getByText("In the garden")).toBeVisible();
      // Families read the log; they neither log nor change an activity.
      await expect(main.getByRole("button", { name: "Log it" })).toHaveCount(0);
      await expect(main.getByRole("button", { name: /^Change / })).toHaveCount(0);
      await expect(main.getByRole("img", { name: /^Bar chart of Ava Johnson's minutes/ })).toBeVisible();
      // The pointer, left where the hub's card was, would open a bar's tooltip in every picture.
      await page.mouse.move(0, 0);
      await screenshots(page, "athletics-parent", { axe: true });

      await main.getByRole("button", { name: "Earlier" }).click();
      await expect(main.getByRole("heading", { name: /^Week of / })).toBeVisible();
      await expect(main.getByText(/^Ava Johnson moved for \d+ minutes? that week\.$/)).toBeVisible();

      await children.getByRole("link", { name: "Leo Johnson" }).click();
      await expect(page).toHaveURL(new RegExp(`childId=${LEO}$`));
      await expect(main.getByRole("heading", { name: "Leo Johnson's activities" })).toBeVisible();
      await expect(main.getByRole("heading", { name: "This week", exact: true })).toBeVisible();
    });

    test("the time check shows the student's, the device's and the server's clocks", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "student@dash.demo", "/app/debug/time-hand-test");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Time check", level: 1 })).toBeVisible();
      await expect(main.getByRole("timer")).toHaveCount(3);
      await expect(main.getByRole("timer", { name: "Ava Johnson's time" })).toContainText("America/New_York");
      await expect(main.getByRole("timer", { name: "This device's time" })).toBeVisible();
      await expect(main.getByRole("timer", { name: "The server's time" })).toBeVisible();
      await expect(main.getByText(/^This device's clock is (in step|\d+ seconds?)/)).toBeVisible();
      await expect(main.getByRole("alert")).toHaveCount(0);
      await screenshots(page, "time-check-student", { axe: true });

      await signInAs(page, "guide@dash.demo", "/app/debug/time-hand-test");
      await expect(page.getByRole("main").getByRole("timer", { name: "The school's time" })).toBeVisible();
    });

    test("/protected shows who is signed in and when the session ends", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "student@dash.demo", "/protected");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "You are signed in", level: 1 })).toBeVisible();
      await expect(main.getByText("Ava Johnson")).toBeVisible();
      await expect(main.getByText("student@dash.demo")).toBeVisible();
      await expect(main.getByText("Ends at the latest")).toBeVisible();
      await expect(main.getByText(/after 120 minutes without using Dash/)).toBeVisible();
      await screenshots(page, "protected", { axe: true });
      await main.getByRole("link", { name: "Go to your home page" }).click();
      await expect(page).toHaveURL(/\/app$/);
    });

    test("the app store and the old course list send people on", async ({ page }) => {
      await signInAs(page, "student@dash.demo", "/app/app-store");
      await expect(page).toHaveURL(/\/app$/);
      await signInAs(page, "admin@dash.demo", "/app/admin/courses");
      await expect(page).toHaveURL(/\/app\/admin\/manage-courses(\?|$)/);
    });
  });
