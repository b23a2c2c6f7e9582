import { type Browser, expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { apiSignIn, axeViolations, DESKTOP, loadAxe, PHONE, SCREENS, signInAs } from "./helpers";

/**
 * The guided tours: a student's starts by itself at first sign-in and is kept as done on the
 * server, so another browser does not show it again; every role's has its number of steps; Back,
 * Next, Skip, Close and Escape; a tour under way resumes after a reload; a step on another page
 * is opened and waited for. The demo seed marks the demo student's tour done (other journeys sign
 * in as her): these tests restart it through the API first.
 */

test.use({ viewport: DESKTOP });

const AVA = demoId("student-ava");
/** The server takes a state-changing request only when it says JSON, as the web app's do. */
const JSON_TYPE = { "content-type": "application/json" };
const tourStep = (page: Page) => page.getByTestId("tour-step");

async function restartStudentTour(page: Page) {
  const response = await page.request.delete("/api/tours/student", { headers: JSON_TYPE });
  expect(response.status()).toBe(204);
}

async function completions(page: Page) {
  return (await (await page.request.get("/api/tours")).json()) as { tour: string; outcome: string }[];
}

async function expectStep(page: Page, title: string, position: string) {
  const step = tourStep(page);
  await expect(step.getByRole("heading", { name: title })).toBeVisible({ timeout: 10_000 });
  await expect(step).toContainText(position);
}

async function newStudentPage(browser: Browser) {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await apiSignIn(page, "student@dash.demo");
  return { context, page };
}

test.describe
  .serial("guided tours", () => {
    test("a student's tour starts at first sign-in, resumes after a reload and is done everywhere once closed", async ({
      page,
      browser,
    }) => {
      await apiSignIn(page, "student@dash.demo");
      await restartStudentTour(page);
      await page.goto("/app");

      const welcome = page.getByRole("dialog", { name: "Welcome to Dash" });
      await expect(welcome).toBeVisible();
      await expect(welcome).toContainText("Step 1 of 21");
      // Focus is in the tooltip, on Next; the keyboard moves on.
      await expect(welcome.getByRole("button", { name: "Next" })).toBeFocused();
      await expect(welcome.getByRole("button", { name: "Back" })).toHaveCount(0);
      await expect(welcome.getByRole("button", { name: "Skip tour" })).toBeVisible();
      await expect(welcome.getByRole("button", { name: "Close the tour" })).toBeVisible();
      await page.keyboard.press("Enter");
      await expectStep(page, "Your menu", "Step 2 of 21");
      await tourStep(page).getByRole("button", { name: "Next" }).click();
      await expectStep(page, "Today's goals", "Step 3 of 21");
      await tourStep(page).getByRole("button", { name: "Back" }).click();
      await expectStep(page, "Your menu", "Step 2 of 21");

      // Saved as it goes: a reload resumes at the same step.
      await page.reload();
      await expectStep(page, "Your menu", "Step 2 of 21");

      // Next from the home's last step opens the next page and waits for its header.
      for (const title of ["Today's goals", "Your week", "Every day in colour"]) {
        await tourStep(page).getByRole("button", { name: "Next" }).click();
        await expectStep(page, title, "of 21");
      }
      await tourStep(page).getByRole("button", { name: "Next" }).click();
      await expect(page).toHaveURL(/\/app\/learning-metrics$/);
      await expectStep(page, "Learning metrics", "Step 6 of 21");
      // Back goes to the page of the step before.
      await tourStep(page).getByRole("button", { name: "Back" }).click();
      await expect(page).toHaveURL(/\/app$/);
      await expectStep(page, "Every day in colour", "Step 5 of 21");

      // Escape closes: back to step 0 at home, done on the server and on this device.
      await page.keyboard.press("Escape");
      await expect(tourStep(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/app$/);
      await expect
        .poll(() => completions(page))
        .toEqual([expect.objectContaining({ tour: "student", outcome: "closed" })]);
      const kept = await page.evaluate(() =>
        Object.entries(localStorage).find(([key]) => key.startsWith("dash-tour:")),
      );
      expect(JSON.parse(kept?.[1] ?? "{}")).toMatchObject({ studentTourCompleted: true, progress: {} });
      await page.reload();
      await expect(page.locator("[data-tour=home-apps]")).toBeVisible();
      await expect(tourStep(page)).toHaveCount(0);

      // Another browser (another device) has nothing saved, and is not shown it either.
      const other = await newStudentPage(browser);
      await other.page.goto("/app");
      await expect(other.page.locator("[data-tour=home-apps]")).toBeVisible();
      await other.page.waitForTimeout(1_000);
      await expect(tourStep(other.page)).toHaveCount(0);
      await other.context.close();
    });

    test("a second browser does not show a tour finished in the first; restarting offers it again", async ({
      page,
      browser,
    }) => {
      await signInAs(page, "student@dash.demo");
      // The tour menu beside the user menu: students have no help button.
      await page.getByRole("button", { name: "Guided tour" }).click();
      await page.getByRole("button", { name: "Take the tour" }).click();
      await expectStep(page, "Welcome to Dash", "Step 1 of 21");
      // Taken again from the start: not done, on every device, until it ends.
      await expect.poll(() => completions(page)).toEqual([]);

      // Skip ends it from anywhere: done, back home.
      await tourStep(page).getByRole("button", { name: "Next" }).click();
      await expectStep(page, "Your menu", "Step 2 of 21");
      await tourStep(page).getByRole("button", { name: "Skip tour" }).click();
      await expect(tourStep(page)).toHaveCount(0);
      await expect
        .poll(() => completions(page))
        .toEqual([expect.objectContaining({ tour: "student", outcome: "skipped" })]);

      const other = await newStudentPage(browser);
      await other.page.goto("/app");
      await expect(other.page.locator("[data-tour=home-apps]")).toBeVisible();
      await other.page.waitForTimeout(1_000);
      await expect(tourStep(other.page)).toHaveCount(0);

      // Restarted (on the server): a fresh browser shows it at once.
      await restartStudentTour(other.page);
      const third = await newStudentPage(browser);
      await third.page.goto("/app");
      await expectStep(third.page, "Welcome to Dash", "Step 1 of 21");
      await third.page.getByRole("button", { name: "Close the tour" }).click();
      await expect(tourStep(third.page)).toHaveCount(0);
      await expect
        .poll(() => completions(third.page))
        .toEqual([expect.objectContaining({ outcome: "closed" })]);
      await other.context.close();
      await third.context.close();
    });

    test("a step on another page is opened and waited for, and the last step ends the tour at home", async ({
      page,
    }) => {
      await signInAs(page, "student@dash.demo");
      // A tour left on a step of the goals page, resumed from the home: the tour opens the page
      // and waits for the page's header, which comes late here.
      await page.route("**/assets/goals-page-*.js", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      });
      await restartStudentTour(page);
      await page.evaluate(() => {
        const key = Object.keys(localStorage).find((name) => name.startsWith("dash-tour:"));
        if (key) localStorage.removeItem(key);
      });
      const userId = (await (await page.request.get("/api/auth/me")).json()).user.sourcedId as string;
      await page.evaluate(
        (id) =>
          localStorage.setItem(
            `dash-tour:${id}`,
            JSON.stringify({ progress: { student: { index: 9, path: "/app/goals" } } }),
          ),
        userId,
      );
      await page.goto("/app");
      await expect(page).toHaveURL(/\/app\/goals$/);
      await expectStep(page, "Goals", "Step 10 of 21");
      await expect(page.locator("[data-tour=page-header]")).toBeVisible();

      // "Tour this page" starts at the page's own step.
      await page.keyboard.press("Escape");
      await expect(page).toHaveURL(/\/app$/);
      await page.goto("/app/placements");
      await page.getByRole("button", { name: "Guided tour" }).click();
      await page.getByRole("button", { name: "Tour this page" }).click();
      await expectStep(page, "Placements", "Step 15 of 21");
      // On to the last step: Last ends it, at home.
      for (let index = 16; index <= 21; index++) {
        await tourStep(page).getByRole("button", { name: "Next" }).click();
        await expect(tourStep(page)).toContainText(`Step ${index} of 21`, { timeout: 10_000 });
      }
      await expect(tourStep(page).getByRole("button", { name: "Last" })).toBeVisible();
      await tourStep(page).getByRole("button", { name: "Last" }).click();
      await expect(tourStep(page)).toHaveCount(0);
      await expect(page).toHaveURL(/\/app$/);
      await expect.poll(() => completions(page)).toEqual([expect.objectContaining({ outcome: "finished" })]);
    });

    test("a step whose target does not come within 5 s is told in the middle of its page", async ({
      page,
    }) => {
      await signInAs(page, "student@dash.demo");
      await restartStudentTour(page);
      // The goals page's code takes longer to come than the tour waits.
      await page.route("**/assets/goals-page-*.js", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 8_000));
        await route.continue();
      });
      const userId = (await (await page.request.get("/api/auth/me")).json()).user.sourcedId as string;
      await page.evaluate(
        (id) =>
          localStorage.setItem(
            `dash-tour:${id}`,
            JSON.stringify({ progress: { student: { index: 9, path: "/app/goals" } } }),
          ),
        userId,
      );
      const startedAt = Date.now();
      await page.goto("/app");
      await expect(page).toHaveURL(/\/app\/goals$/);
      await expectStep(page, "Goals", "Step 10 of 21");
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(5_000);
      await expect(page.locator("[data-tour=page-header]")).toHaveCount(0);
      await page.keyboard.press("Escape");
      await expect(tourStep(page)).toHaveCount(0);
      await expect.poll(() => completions(page)).toEqual([expect.objectContaining({ outcome: "closed" })]);
    });

    for (const [email, steps, firstPage] of [
      ["guide@dash.demo", 7, "Learning metrics"],
      ["parent@dash.demo", 10, "My children"],
      ["guardian@dash.demo", 10, "My children"],
      ["admin@dash.demo", 15, "Learning metrics"],
    ] as const) {
      test(`${email} takes a tour of ${steps} steps from the help menu`, async ({ page }) => {
        await signInAs(page, email);
        const sidebar = page.getByRole("navigation", { name: "Main" });
        await sidebar.getByRole("button", { name: "Take the tour" }).click();
        await expectStep(page, "Welcome to Dash", `Step 1 of ${steps}`);
        await tourStep(page).getByRole("button", { name: "Next" }).click();
        await expectStep(page, "Your menu", `Step 2 of ${steps}`);
        await tourStep(page).getByRole("button", { name: "Next" }).click();
        await expectStep(page, firstPage, `Step 3 of ${steps}`);
        await page.keyboard.press("Escape");
        await expect(tourStep(page)).toHaveCount(0);
        await expect(page).toHaveURL(/\/app$/);
      });
    }

    test("a proctor has no tour, and a tour taken while viewing as someone is not recorded for them", async ({
      page,
    }) => {
      await signInAs(page, "proctor@dash.demo");
      await expect(page.getByRole("button", { name: "Take the tour" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Guided tour" })).toHaveCount(0);

      await page.goto("about:blank");
      await apiSignIn(page, "student@dash.demo");
      await restartStudentTour(page);
      await apiSignIn(page, "admin@dash.demo");
      const viewing = await page.request.post("/api/auth/impersonation", {
        data: { userId: AVA, reason: "Checking the student's tour" },
      });
      expect(viewing.status()).toBe(200);
      await page.goto("/app");
      await expect(page.locator("[data-tour=home-apps]")).toBeVisible();
      await page.waitForTimeout(1_000);
      // Not started by itself for the viewed student…
      await expect(tourStep(page)).toHaveCount(0);
      // …but it can be taken, and ending it records nothing for her.
      await page.getByRole("button", { name: "Guided tour" }).click();
      await page.getByRole("button", { name: "Take the tour" }).click();
      await expectStep(page, "Welcome to Dash", "Step 1 of 21");
      await page.keyboard.press("Escape");
      await expect(tourStep(page)).toHaveCount(0);
      await page.waitForTimeout(500);
      expect(await completions(page)).toEqual([]);
      const refused = await page.request.put("/api/tours/student", { data: { outcome: "closed" } });
      expect(refused.status()).toBe(403);
      expect((await page.request.delete("/api/auth/impersonation", { headers: JSON_TYPE })).status()).toBe(
        200,
      );
    });

    test("a tour step, on a phone and a laptop, light and dark, passes axe's WCAG 2.2 AA checks", async ({
      page,
    }) => {
      await loadAxe(page);
      await signInAs(page, "student@dash.demo");
      for (const [viewport, name] of [
        [PHONE, "390"],
        [DESKTOP, "1280"],
      ] as const) {
        for (const scheme of ["light", "dark"] as const) {
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme: scheme });
          await page.goto("/app");
          await page.getByRole("button", { name: "Guided tour" }).click();
          await page.getByRole("button", { name: "Take the tour" }).click();
          await expectStep(page, "Welcome to Dash", "Step 1 of 21");
          await tourStep(page).getByRole("button", { name: "Next" }).click();
          await expectStep(page, "Your menu", "Step 2 of 21");
          await page.waitForTimeout(400);
          await page.screenshot({
            path: `${SCREENS}/tour-step-${name}${scheme === "dark" ? "-dark" : ""}.png`,
          });
          // The open tooltip with its buttons, over the page it points at.
          expect(await axeViolations(page)).toEqual([]);
          await page.keyboard.press("Escape");
          await expect(tourStep(page)).toHaveCount(0);
        }
      }
    });
  });
