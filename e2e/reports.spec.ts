import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, screenshots, signInAs } from "./helpers";

/**
 * Every report page renders its figures, a chart and its tables, and downloads as CSV and PDF:
 * the administrators' reports, a student's own learning reports, and a parent opening their
 * child's.
 */

test.use({ viewport: DESKTOP });

const AVA = demoId("student-ava");

/** The page's CSV and PDF downloads, each checked for its name and its first bytes. */
async function downloadsBoth(page: Page, id: string) {
  for (const [name, extension, start] of [
    ["Download CSV", "csv", "\uFEFF"],
    ["Download PDF", "pdf", "%PDF-"],
  ] as const) {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${id}-\\d{4}-\\d{2}-\\d{2}\\.${extension}$`));
    const bytes = await readFile((await download.path()) as string);
    expect(bytes.toString("utf8", 0, start === "%PDF-" ? 5 : 3)).toBe(start);
  }
}

/** The latest of the last ten days on which the demo school had a learning session. */
async function lastDayWithSessions(page: Page): Promise<string> {
  for (let back = 1; back <= 10; back++) {
    const day = new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const answer = await page.request.get(`/api/reports/session-report?startDate=${day}&endDate=${day}`);
    const { data } = await answer.json();
    if (data.figures.find((figure: { key: string }) => figure.key === "sessions")?.value > 0) return day;
  }
  throw new Error("no day with sessions in the last ten");
}

const ADMIN_REPORTS = [
  ["/app/daily-metrics", "daily-metrics", "Daily metrics", "By class"],
  ["/app/week-report", "week-report", "Week report", "By class"],
  ["/app/month-report", "month-report", "Month report", "By class"],
  ["/app/session-report", "session-report", "Session report", "By student"],
  ["/app/student-xp-report", "student-xp-report", "Student XP report", null],
  [
    "/app/overall_students_subject_report",
    "overall_students_subject_report",
    "Subject report",
    "Students by subject",
  ],
] as const;

test.describe("the administrators' reports", () => {
  for (const [path, id, title, table] of ADMIN_REPORTS) {
    test(`${title} shows its figures, a chart and tables, and downloads both files`, async ({ page }) => {
      await signInAs(page, "admin@dash.demo", path);
      // Sessions are a day's: open the latest school day that had some (a holiday may come before).
      if (id === "session-report") await page.goto(`${path}?startDate=${await lastDayWithSessions(page)}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { level: 1, name: title })).toBeVisible();
      await expect(main.getByRole("img").first()).toBeVisible();
      await expect(main.getByRole("table").first()).toBeVisible();
      if (table) await expect(main.getByRole("heading", { level: 2, name: table })).toBeVisible();
      await downloadsBoth(page, id);
    });
  }

  test("the week report's filters live in the address and its main table sorts", async ({ page }) => {
    await signInAs(page, "admin@dash.demo", "/app/week-report");
    const main = page.getByRole("main");
    await main.getByRole("combobox", { name: "School" }).selectOption({ label: "Maple Grove School" });
    await expect(page).toHaveURL(/schoolId=/);
    await expect(main.getByRole("heading", { level: 1, name: "Week report" })).toBeVisible();
    await expect(page.getByText(/· Maple Grove School$/)).toBeVisible();
    // Only the main table's headings sort.
    await main.getByRole("button", { name: "XP", exact: true }).click();
    await expect(page).toHaveURL(/sort=xp/);
    const byClass = main.getByRole("region", { name: "By class, scrollable" });
    await expect(byClass.getByRole("columnheader", { name: "XP", exact: true })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    await screenshots(page, "week-report");
    // A bad date in the address falls back to this week.
    await page.goto("/app/week-report?date=2026-02-31");
    await expect(main.getByRole("heading", { level: 1, name: "Week report" })).toBeVisible();
    await expect(main.getByRole("img").first()).toBeVisible();
  });
});

test.describe("the learning reports", () => {
  test("a student reads their own report, with highlights in plain words, and keeps it as a PDF", async ({
    page,
  }) => {
    await signInAs(page, "student@dash.demo", "/app/my-learning-report");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: "Learning report" })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Highlights" })).toBeVisible();
    await expect(main.getByRole("listitem").filter({ hasText: /^Your best week was/ })).toBeVisible();
    await expect(main.getByRole("img", { name: /^XP per week/ })).toBeVisible();
    await screenshots(page, "my-learning-report");
    await downloadsBoth(page, "my-learning-report");

    await page.goto("/app/my-learning-report-2");
    await expect(main.getByRole("heading", { level: 1, name: "Learning by subject and app" })).toBeVisible();
    await expect(main.getByRole("heading", { level: 2, name: "By app" })).toBeVisible();
    await downloadsBoth(page, "my-learning-report-2");
  });

  test("a parent opens their child's report", async ({ page }) => {
    await signInAs(page, "parent@dash.demo", `/app/my-learning-report?studentId=${AVA}`);
    const main = page.getByRole("main");
    await expect(main.getByText(/Ava Johnson · Maple Grove School/)).toBeVisible();
    await expect(
      main.getByRole("listitem").filter({ hasText: /^Ava Johnson's best week was/ }),
    ).toBeVisible();
  });
});
