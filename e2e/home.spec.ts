import { expect, type Page, test } from "@playwright/test";
import { DESKTOP, signInAs } from "./helpers";

/**
 * The /app home of each role: a student's goals, streak, heatmap, week and apps; a Guide's
 * students; a family's children; an administrator's schools; a proctor's incidents.
 */

test.use({ viewport: DESKTOP });

const SUBJECTS = ["Math", "Reading", "Language", "Science"];
const CELL_LABEL = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), [A-Z][a-z]{2} \d{1,2}: [\d,.]+ XP$/;
const SELECTED_CHILD_KEY = "dash-selected-child";

const heatmapGrid = (page: Page) => page.getByRole("grid", { name: /daily XP/i });

test.describe("student home", () => {
  // A viewer far from the school: the days must still be the student's own.
  test.use({ timezoneId: "Pacific/Auckland" });

  test("shows today's goals, the streak, the week, the heatmap and the apps", async ({ page }) => {
    const heatmapRequest = page.waitForRequest("**/api/learning-metrics/analytics-xp-heatmap");
    const homeResponse = page.waitForResponse(/\/api\/students\/[^/]+\/home$/);
    await signInAs(page, "student@dash.demo");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Ava Johnson", level: 1 })).toBeVisible();
    const summary = (await (await homeResponse).json()).data.summary;

    // Today's XP per subject against its goal.
    const goals = main.getByRole("list", { name: "Today's goals" });
    await expect(main.getByRole("heading", { name: "Today's goals" })).toBeVisible();
    for (const subject of SUBJECTS) {
      const bar = goals.getByRole("progressbar", { name: `${subject} goal` });
      await expect(bar).toHaveAttribute("aria-valuetext", /^[\d,.]+ \/ \d+ XP/);
      await expect(goals.getByText(subject, { exact: true })).toBeVisible();
    }
    await expect(goals.getByText(/^[\d,.]+ \/ 30 XP$/).first()).toBeVisible();

    // The streak, in school days.
    await expect(main.getByText(/(\d+ school days?|No streak yet)$/).first()).toBeVisible();

    // This week: seven days, Sunday first.
    const week = main.getByRole("list", { name: "XP per day this week" }).getByRole("listitem");
    await expect(week).toHaveCount(7);
    await expect(week.first()).toHaveAttribute("aria-label", /^Sun, [A-Z][a-z]{2} \d/);
    await expect(week.last()).toHaveAttribute("aria-label", /^Sat, [A-Z][a-z]{2} \d/);

    // The heatmap asks in the student's timezone, not the browser's, and labels every day.
    const request = (await heatmapRequest).postDataJSON();
    expect(request.timezone).toBe(summary.timezone);
    expect(request.userId).toBe(summary.sourcedId);
    expect(request.endDate).toBe(summary.today);
    const grid = heatmapGrid(page);
    await expect(grid).toBeVisible();
    const cells = grid.getByRole("gridcell");
    expect(await cells.count()).toBeGreaterThan(110);
    await expect(cells.first()).toHaveAttribute("aria-label", CELL_LABEL);
    expect(await cells.first().getAttribute("title")).toBe(await cells.first().getAttribute("aria-label"));
    await expect(main.getByRole("list", { name: "Colour key" }).getByRole("listitem")).toHaveCount(5);

    // The daily XP is kept on the device per student, range and timezone.
    const stored = await page.evaluate(
      (id) => JSON.parse(localStorage.getItem(`dash-daily-xp:${id}`) ?? "null"),
      summary.sourcedId,
    );
    expect(stored.key).toBe(`${request.startDate}|${request.endDate}|${request.timezone}`);
    expect(stored.data.length).toBeGreaterThan(0);

    // The grid is one tab stop; arrow keys move the active day, which is announced.
    await grid.focus();
    await expect(grid).toBeFocused();
    const todayId = await grid.getAttribute("aria-activedescendant");
    expect(todayId).toBeTruthy();
    await page.keyboard.press("ArrowLeft");
    const weekAgoId = await grid.getAttribute("aria-activedescendant");
    expect(weekAgoId).not.toBe(todayId);
    const weekAgoLabel = await page.locator(`[id="${weekAgoId}"]`).getAttribute("aria-label");
    expect(weekAgoLabel).toMatch(CELL_LABEL);
    await expect(main.getByText(weekAgoLabel ?? "", { exact: true })).toBeVisible();

    // The apps, each with its freshness and a link that opens in a new tab.
    const mathApp = main
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Math Academy" }) });
    await expect(mathApp).toBeVisible();
    await expect(mathApp.getByText(/^(Last reported .+|No data yet)$/)).toBeVisible();
    const open = mathApp.getByRole("link", { name: "Open Math Academy (opens in a new tab)" });
    await expect(open).toHaveAttribute("href", "https://math.example.org");
    await expect(open).toHaveAttribute("target", "_blank");
    for (const name of ["Reading Quest", "Language Lab", "Science Explorer"]) {
      await expect(main.getByRole("heading", { name })).toBeVisible();
    }
  });

  test("a heatmap failure is said in words", async ({ page }) => {
    await page.route("**/api/learning-metrics/analytics-xp-heatmap", (route) =>
      route.fulfill({ status: 500, body: "" }),
    );
    await signInAs(page, "student@dash.demo");
    await expect(page.getByRole("alert").filter({ hasText: "Failed to load daily XP" })).toBeVisible();
    // The rest of the home still works.
    await expect(page.getByRole("heading", { name: "Today's goals" })).toBeVisible();
  });

  test("the server's own message is shown when it gives one", async ({ page }) => {
    await page.route("**/api/learning-metrics/analytics-xp-heatmap", (route) =>
      route.fulfill({
        status: 403,
        contentType: "application/json",
        body: JSON.stringify({
          success: false,
          data: [],
          error: "You do not have access to this student",
          code: "forbidden",
          message: "You do not have access to this student",
        }),
      }),
    );
    await signInAs(page, "student@dash.demo");
    await expect(
      page.getByRole("alert").filter({ hasText: "You do not have access to this student" }),
    ).toBeVisible();
  });
});

test.describe("Guide home", () => {
  test("lists the Guide's students with links to their day, sortable, and the View-as panel", async ({
    page,
  }) => {
    await signInAs(page, "guide@dash.demo");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Maya Patel", level: 1 })).toBeVisible();
    const table = main.getByRole("table", { name: /Your students today/ });
    await expect(table).toBeVisible();
    const ava = table.getByRole("link", { name: "Ava Johnson" });
    await expect(ava).toHaveAttribute("href", /^\/app\/flow\/student\/[^/?]+$/);
    for (const column of ["Student", "XP today", "Goals met", "Streak", "Last activity"]) {
      await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
    }
    await expect(
      table
        .getByRole("row")
        .nth(1)
        .getByText(/^\d+\/\d+/),
    ).toBeVisible();

    // Sorting: names A–Z first; a figure column starts high to low, and a second click flips it.
    const studentHeader = table.getByRole("columnheader", { name: "Student" });
    await expect(studentHeader).toHaveAttribute("aria-sort", "ascending");
    const xpHeader = table.getByRole("columnheader", { name: "XP today" });
    await xpHeader.getByRole("button").click();
    await expect(xpHeader).toHaveAttribute("aria-sort", "descending");
    await expect(studentHeader).toHaveAttribute("aria-sort", "none");
    const xpValues = await table.locator("tbody tr td:nth-child(2)").allTextContents();
    const numbers = xpValues.map((value) => Number(value.replace(/,/g, "")));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    await xpHeader.getByRole("button").click();
    await expect(xpHeader).toHaveAttribute("aria-sort", "ascending");

    await ava.click();
    await expect(page).toHaveURL(/\/app\/flow\/student\/[^/?]+$/);
    await page.goBack();
    await expect(main.getByRole("heading", { name: "Your students", exact: true })).toBeVisible();
    await expect(main.getByLabel("Search people")).toBeVisible();
  });
});

test.describe("family home", () => {
  test("shows a card per child and the selected child's heatmap, remembered", async ({ page }) => {
    await signInAs(page, "parent@dash.demo");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Sam Johnson", level: 1 })).toBeVisible();
    const children = main.getByRole("list", { name: "Your children" });
    for (const name of ["Ava Johnson", "Leo Johnson"]) {
      const card = children.getByRole("article", { name });
      await expect(card).toBeVisible();
      await expect(card.getByText("XP this week")).toBeVisible();
      await expect(card.getByRole("progressbar", { name: "Math goal" })).toBeVisible();
      await expect(card.getByText(/(\d+ school days?|No streak yet)$/)).toBeVisible();
      const progress = card.getByRole("link", { name: `See progress of ${name}` });
      await expect(progress).toHaveAttribute("href", /^\/app\/children-progress\?childId=[^&]+$/);
    }

    // The first child by default; choosing another is remembered.
    await expect(main.getByRole("heading", { name: "Ava's daily XP" })).toBeVisible();
    await expect(heatmapGrid(page).getByRole("gridcell").first()).toHaveAttribute("aria-label", CELL_LABEL);
    const leoRequest = page.waitForRequest(
      (request) => request.url().endsWith("/analytics-xp-heatmap") && request.method() === "POST",
    );
    await main.getByLabel("Child", { exact: true }).selectOption({ label: "Leo Johnson" });
    await expect(main.getByRole("heading", { name: "Leo's daily XP" })).toBeVisible();
    const leoId = (await leoRequest).postDataJSON().userId;
    expect(await page.evaluate((key) => localStorage.getItem(key), SELECTED_CHILD_KEY)).toBe(leoId);
    await page.reload();
    await expect(main.getByRole("heading", { name: "Leo's daily XP" })).toBeVisible();

    await children
      .getByRole("article", { name: "Leo Johnson" })
      .getByRole("link", { name: "See progress of Leo Johnson" })
      .click();
    await expect(page).toHaveURL(new RegExp(`/app/children-progress\\?childId=${leoId}$`));
  });
});

test.describe("administrator home", () => {
  test("shows totals per school, four weeks of XP, the schools that need attention and quick actions", async ({
    page,
  }) => {
    await signInAs(page, "admin@dash.demo");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Alex Morgan", level: 1 })).toBeVisible();
    const table = main.getByRole("table", { name: /per school/ });
    for (const school of ["Maple Grove School", "Riverside School"]) {
      const row = table.getByRole("row", { name: new RegExp(school) });
      await expect(row).toBeVisible();
      await expect(row.getByRole("cell")).toHaveCount(5);
      // The change on the same days of last week, in words.
      await expect(row.getByRole("cell").last()).toHaveText(/on last week|as last week|^–$/);
    }
    for (const tile of ["Students", "Active today", "XP today", "XP this week"]) {
      await expect(main.getByRole("term").filter({ hasText: new RegExp(`^${tile}$`) })).toBeVisible();
    }
    const trend = main.getByRole("img", { name: /^Bar chart of XP per day over the last four weeks\./ });
    await expect(trend).toBeVisible();
    // Every one of the 28 days is named for screen readers.
    expect((await trend.getAttribute("aria-label"))?.split(";")).toHaveLength(28);
    await expect(main.getByRole("heading", { name: "Needs attention" })).toBeVisible();
    await expect(
      main
        .getByText("Every school is on track this week.")
        .or(main.getByText(/students have learned this week|XP is down/).first()),
    ).toBeVisible();
    const onboarding = main.getByRole("link", { name: /^Onboarding/ });
    await expect(onboarding).toHaveAttribute("href", "/app/admin/onboarding");
    await onboarding.click();
    await expect(page).toHaveURL(/\/app\/admin\/onboarding$/);
  });
});

test.describe("proctor home", () => {
  test("points to the pending incidents", async ({ page }) => {
    await signInAs(page, "proctor@dash.demo");
    const pending = page.getByRole("main").getByRole("link", { name: "Review pending incidents" });
    await expect(pending).toHaveAttribute("href", "/app/flow/cheating/pending");
    await pending.click();
    await expect(page).toHaveURL(/\/app\/flow\/cheating\/pending$/);
  });
});
