import { expect, test } from "@playwright/test";
import { DESKTOP, PHONE, signInAs } from "./helpers";

/**
 * The Operations page: an administrator sees the background jobs, runs one now and sees it run;
 * other roles never reach the page.
 */

const SCREENS = "test-results/screens";

test("an administrator runs a scheduled job now and sees how it went", async ({ page }) => {
  // The server's runner starts polling 30 s after the server: the run waits for it.
  test.setTimeout(120_000);
  await signInAs(page, "admin@dash.demo", "/app/admin/operations");
  await expect(page.getByRole("heading", { level: 1, name: "Operations" })).toBeVisible();
  const sweep = page.getByRole("row", { name: /sessions\.sweep/ });
  await expect(sweep.getByRole("cell", { name: "Every hour" })).toBeVisible();
  await expect(page.getByRole("row", { name: /privacy\.retention/ })).toContainText("Daily at 02:00 (UTC)");

  await sweep.getByRole("button", { name: "Run now: sessions.sweep" }).click();
  await expect(page.getByText("sessions.sweep was queued to run now.")).toBeVisible();
  // The table refreshes itself while the job waits, until it has run.
  await expect(sweep.getByText("Run by hand")).toBeVisible({ timeout: 90_000 });
  await expect(sweep.getByText("Succeeded")).toBeVisible();
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `${SCREENS}/operations-${viewport.width}.png`, fullPage: true });
  }
});

test("a Guide is sent away from the Operations page", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/admin/operations");
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole("heading", { level: 1, name: "Operations" })).toHaveCount(0);
});
