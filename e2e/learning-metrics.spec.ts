import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { addDays, localDateOf } from "../src/shared/time-zone";
import { DESKTOP, PHONE, signInAs } from "./helpers";

/**
 * The learning metrics page: its controls live in the address (bad values fall back to the
 * defaults), it draws XP per period and lists the same numbers, and the list downloads as CSV.
 */

test.use({ viewport: DESKTOP });

const PAGE = "/app/learning-metrics";
const SCREENS = "test-results/screens";

/** Reports some activity for Ava through the demo app, so the last 30 days are never empty. */
async function reportActivity(page: Page) {
  const occurredAt = new Date(Date.now() - 60 * 60_000).toISOString();
  const events = ["Math", "Reading"].map((subject) => ({
    eventId: `e2e-metrics-${subject}-${Date.now()}`,
    email: "student@dash.demo",
    occurredAt,
    subject,
    expectedXp: 20,
    totalQuestions: 10,
    correctQuestions: 9,
    activeSeconds: 900,
  }));
  const response = await page.request.post("/api/ingest/activity", {
    data: { events },
    headers: { authorization: "Bearer demo-app-key" },
  });
  expect(response.ok()).toBe(true);
}

const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });

async function screenshots(page: Page, role: string) {
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/learning-metrics-${role}-1280.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/learning-metrics-${role}-390.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: `${SCREENS}/learning-metrics-${role}-390-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);
}

test("a student's metrics: bad search values fall back, views live in the URL, the table downloads", async ({
  page,
}) => {
  await reportActivity(page);
  await signInAs(page, "student@dash.demo", `${PAGE}?view=yearly&startDate=2026-02-30&groupByApp=maybe`);
  await expect(page.getByRole("heading", { name: "Learning metrics", level: 1 })).toBeVisible();

  const today = localDateOf(new Date(), "America/New_York");
  await expect(tab(page, "Daily")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "Weekly")).toHaveAttribute("aria-selected", "false");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(addDays(today, -29));
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(today);
  await expect(page.getByLabel("Group by app")).not.toBeChecked();
  await expect(page.getByLabel("Show daily goal")).toBeChecked();
  // A student sees their own metrics: there is nobody to pick.
  await expect(page.getByLabel("Student", { exact: true })).toHaveCount(0);

  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  const table = page.getByRole("table");
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Day" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Math XP" })).toBeVisible();
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  await screenshots(page, "student");

  await tab(page, "Weekly").click();
  await expect(page).toHaveURL((url) => url.searchParams.get("view") === "weekly");
  await expect(tab(page, "Weekly")).toHaveAttribute("aria-selected", "true");
  await expect(table.getByRole("columnheader", { name: "Week starting" })).toBeVisible();

  await page.getByLabel("Show all metrics").check();
  await expect(page).toHaveURL((url) => url.searchParams.get("showAllMetrics") === "true");
  await expect(table.getByRole("columnheader", { name: "Accuracy %" })).toBeVisible();

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`learning-metrics-${addDays(today, -29)}-${today}.csv`);
  const csv = readFileSync(await download.path(), "utf8");
  const [header, ...lines] = csv.trim().split(/\r?\n/);
  expect(header).toMatch(/^Week starting,.*Math XP,.*Total XP,Active minutes,.*Accuracy %,Units mastered$/);
  expect(lines.length).toBe((await table.locator("tbody tr").count()) as number);
});

test("a Guide picks among their students", async ({ page }) => {
  await reportActivity(page);
  await signInAs(page, "guide@dash.demo", PAGE);
  const picker = page.getByLabel("Student", { exact: true });
  await expect(picker).toHaveValue("__all");
  await expect(picker.locator("option", { hasText: "Ava Johnson" })).toHaveCount(1);
  await expect(picker.locator("option", { hasText: "Leo Johnson" })).toHaveCount(0);
  await expect(page.getByRole("table").getByRole("columnheader", { name: "Student" })).toBeVisible();
  await screenshots(page, "guide");

  await picker.selectOption({ label: "Ava Johnson" });
  await expect(page).toHaveURL((url) => Boolean(url.searchParams.get("studentId")));
  await expect(page.getByText("Ava Johnson,", { exact: false }).first()).toBeVisible();
  await expect(page.getByRole("table").getByRole("columnheader", { name: "Student" })).toHaveCount(0);
});
