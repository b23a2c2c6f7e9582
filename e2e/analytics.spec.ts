import { expect, type Page, test } from "@playwright/test";
import type { AnalyticsReport } from "../src/shared/contracts/analytics";
import { DESKTOP, PHONE, signInAs } from "./helpers";

/**
 * Dash's own analytics from the browser to the administrators' page: a student's page views reach
 * the collector (the last page's with sendBeacon as the page is left), and errors thrown in the
 * page show up grouped by message on admin/analytics.
 */

test.use({ viewport: DESKTOP });
const SCREENS = "test-results/screens";

/** Views of a page by students, from the administrators' report (the page's API). */
async function studentViewsOf(page: Page, path: string): Promise<number> {
  const response = await page.request.get("/api/admin/analytics?role=student");
  expect(response.status()).toBe(200);
  const report = (await response.json()) as AnalyticsReport;
  return report.topPages.find((row) => row.path === path)?.views ?? 0;
}

test.describe
  .serial("analytics", () => {
    test("browsing a few pages records a page view of each, the last sent as the page is left", async ({
      page,
      browser,
    }) => {
      // The administrator reads the counts in a window of her own, so the student stays signed in
      // until her last beacon has arrived, whenever that is.
      const adminPage = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await signInAs(adminPage, "admin@dash.demo", "/app");
      const before = {
        goals: await studentViewsOf(adminPage, "/app/goals"),
        leaderboards: await studentViewsOf(adminPage, "/app/leaderboards"),
      };

      await signInAs(page, "student@dash.demo", "/app/goals");
      // Within the app: the router tells of the new path.
      await page.getByRole("link", { name: "Leaderboards" }).first().click();
      await expect(page).toHaveURL(/\/app\/leaderboards/);
      // Hidden, the page sends what waits at once (sendBeacon, JSON): the counts below prove it
      // arrived, as a beacon's answer is not always seen by the test.
      await page.evaluate(() => {
        Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
      });

      await expect
        .poll(() => studentViewsOf(adminPage, "/app/goals"), { timeout: 10_000 })
        .toBeGreaterThan(before.goals);
      await expect
        .poll(() => studentViewsOf(adminPage, "/app/leaderboards"), { timeout: 10_000 })
        .toBeGreaterThan(before.leaderboards);
      await adminPage.context().close();
    });

    test("errors thrown in a page show up grouped by message on admin/analytics", async ({ page }) => {
      const message = `Analytics check ${Date.now()}`;
      await signInAs(page, "student@dash.demo", "/app/goals");
      // The collector's batch with the errors, sent while she is still signed in (a beacon sent as
      // the page is left could reach the server after the sign-out below, and count as no one's).
      const collected = page.waitForResponse(
        (response) =>
          response.url().endsWith("/api/analytics/events") &&
          response.status() === 202 &&
          (response.request().postData() ?? "").includes(message),
        { timeout: 15_000 },
      );
      await page.evaluate((text) => {
        setTimeout(() => {
          throw new Error(text);
        });
        setTimeout(() => {
          throw new Error(text);
        }, 10);
        void Promise.reject(new Error(`${text} (rejected)`));
      }, message);
      await collected;
      await signInAs(page, "admin@dash.demo", "/app/admin/analytics?role=student");

      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
      // The browser words an uncaught error "Uncaught Error: …"; a rejection is the error itself.
      const group = (text: string) =>
        main.locator("[data-error-group]").filter({ has: page.getByText(text, { exact: true }) });
      const thrown = group(`Uncaught Error: ${message}`);
      await expect(async () => {
        await page.reload();
        await expect(thrown.first()).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await expect(thrown.first()).toContainText(/2 times, 1 person/);
      await expect(thrown.first()).toContainText("/app/goals");
      const rejected = group(`Error: ${message} (rejected)`);
      await expect(rejected).toContainText(/1 time, 1 person/);
      await thrown.first().getByText("Show a recent stack trace").click();
      await expect(thrown.first().locator("pre")).toContainText(message);

      await expect(main.getByRole("heading", { name: "Daily active people" })).toBeVisible();
      await expect(main.getByRole("heading", { name: "Top pages" })).toBeVisible();
      await page.screenshot({ path: `${SCREENS}/admin-analytics-1280.png`, fullPage: true });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: `${SCREENS}/admin-analytics-390.png`, fullPage: true });
      await page.setViewportSize({ width: 360, height: 800 });
      await expect(main.getByRole("heading", { name: "Errors" })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow).toBe(false);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: `${SCREENS}/admin-analytics-360-dark.png`, fullPage: true });
    });
  });
