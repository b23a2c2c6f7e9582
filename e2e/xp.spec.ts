import { expect, type Page, test } from "@playwright/test";
import { DESKTOP, screenshots, signInAs } from "./helpers";

/**
 * XP pages: a Guide awards XP by hand and sees it in the history, students are sent from the
 * manual XP page to their stats, and the debug page explains each event's XP.
 */

const unique = () => Math.random().toString(36).slice(2, 8);

async function expectPath(page: Page, pathname: string) {
  await expect(page).toHaveURL((url) => url.pathname === pathname);
}

/** Chooses a student in the Guide's "Student" select by their name. */
async function chooseStudent(page: Page, name: string) {
  const select = page.getByLabel("Student", { exact: true });
  const value = await select.locator("option", { hasText: name }).first().getAttribute("value");
  await select.selectOption(value ?? "");
}

test.use({ viewport: DESKTOP });

test("a Guide awards XP to Ava with a reason and sees it in her history", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/xp/manual");
  await expect(page.getByRole("heading", { name: "Manual XP", level: 1 })).toBeVisible();
  await chooseStudent(page, "Ava Johnson");
  await expect(page.getByRole("heading", { name: "Recent XP of Ava Johnson" })).toBeVisible();

  const reason = `Helped a classmate with fractions ${unique()}`;
  await page.getByRole("radio", { name: /Award/ }).check();
  await page.getByLabel("Amount (XP)").fill("5");
  await page.getByLabel("Subject").selectOption("Math");
  await page.getByLabel("Reason").fill(reason);
  // A double click still records one award.
  await page.getByRole("button", { name: "Award XP" }).dblclick();

  await expect(page.getByText("Awarded 5 XP in Math to Ava Johnson.")).toBeVisible();
  const history = page.getByRole("list", { name: "Recent XP of Ava Johnson" });
  const entry = history.getByRole("listitem").filter({ hasText: reason });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("+5 XP");
  await expect(entry).toContainText("by Maya Patel");
  await screenshots(page, "xp-manual");
});

test("the form shows the server's refusal in words", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/xp/manual");
  await chooseStudent(page, "Ava Johnson");
  await page.getByRole("radio", { name: /Deduct/ }).check();
  await page.getByLabel("Amount (XP)").fill("501");
  await page.getByLabel("Subject").selectOption("Reading");
  await page.getByLabel("Reason").fill("Too much");
  await page.getByRole("button", { name: "Deduct XP" }).click();
  await expect(page.getByRole("alert")).toContainText("At most 500 XP at a time");
});

test("a student visiting manual XP lands on their XP stats", async ({ page }) => {
  await signInAs(page, "student@dash.demo", "/app/xp/manual");
  await expectPath(page, "/app/xp-stats");
  await expect(page.getByRole("heading", { name: "XP stats", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your XP per day" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "XP history" })).toBeVisible();
  await screenshots(page, "xp-stats");
});

test("XP debug explains how each event's XP was computed", async ({ page }) => {
  const activityName = `Fractions check ${unique()}`;
  await signInAs(page, "guide@dash.demo");
  const ingested = await page.request.post("/api/ingest/activity", {
    headers: { Authorization: "Bearer demo-app-key" },
    data: {
      events: [
        {
          eventId: `e2e-${unique()}`,
          email: "student@dash.demo",
          occurredAt: new Date(Date.now() - 120_000).toISOString(),
          subject: "Math",
          activityName,
          expectedXp: 20,
          totalQuestions: 10,
          correctQuestions: 9,
          activeSeconds: 900,
          wasteSeconds: 300,
        },
      ],
    },
  });
  expect(ingested.ok()).toBe(true);
  expect((await ingested.json()).accepted).toHaveLength(1);

  await page.goto("/app/xp-debug");
  await expect(page.getByRole("heading", { name: "XP debug", level: 1 })).toBeVisible();
  await chooseStudent(page, "Ava Johnson");
  const event = page.getByRole("article").filter({ has: page.getByRole("heading", { name: activityName }) });
  await expect(event.getByTestId("xp-explanation")).toContainText("expected 20 XP");
  await expect(event.getByTestId("xp-explanation")).toContainText("= 15 XP");
  await expect(page.getByRole("heading", { name: /^Totals for/ })).toBeVisible();
  await expect(page).toHaveURL((url) => url.pathname === "/app/xp-debug");

  await page.getByRole("button", { name: /Previous day/ }).click();
  await expect(page).toHaveURL((url) => /^\d{4}-\d{2}-\d{2}$/.test(url.searchParams.get("date") ?? ""));
  await expect(event).toHaveCount(0);
  await page.getByRole("button", { name: "Today" }).click();
  await expect(event.getByTestId("xp-explanation")).toContainText("expected");
  await screenshots(page, "xp-debug");
});

test("the admin XP debugger finds a student and recomputes XP in the what-if calculator", async ({
  page,
}) => {
  await signInAs(page, "admin@dash.demo", "/app/debug/xp");
  await expect(page.getByRole("heading", { name: "XP debugger", level: 1 })).toBeVisible();
  await page.getByLabel("Search students").fill("Ava");
  await page
    .getByRole("button", { name: /Ava Johnson/ })
    .first()
    .click();
  await expect(page.getByText(/Showing Ava Johnson/)).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Totals for/ })).toBeVisible();

  await page.getByLabel("Correct").fill("10");
  await expect(page.getByText("expected 20 XP × 1.25 (first attempt, accuracy 100%) = 25 XP")).toBeVisible();
  await page.getByLabel("Correct").fill("5");
  await expect(page.getByText("expected 20 XP × 0 (accuracy 50% is below 80%) = 0 XP")).toBeVisible();
  await screenshots(page, "xp-debugger");
});

test("an administrator changes the XP rules and the calculator follows them", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/debug/xp");
  const rules = page.getByRole("region", { name: "XP rules and daily goals" });
  const perfect = rules.getByLabel("First attempt, 100%");
  await expect(perfect).toHaveValue("1.25");
  await perfect.fill("1.5");
  await rules.getByRole("button", { name: "Save rules and goals" }).click();
  await expect(rules.getByText("Saved.")).toBeVisible();
  await page.getByLabel("Correct").fill("10");
  await expect(page.getByText("expected 20 XP × 1.5 (first attempt, accuracy 100%) = 30 XP")).toBeVisible();

  // An impossible value is refused in words, and what was saved stays.
  await rules.getByLabel("Math daily goal in XP").fill("-4");
  await rules.getByRole("button", { name: "Save rules and goals" }).click();
  await expect(rules.getByText(/dailyGoals\.Math/)).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole("region", { name: "XP rules and daily goals" }).getByLabel("Math daily goal in XP"),
  ).not.toHaveValue("-4");

  // Back to the defaults for the journeys that follow.
  await page
    .getByRole("region", { name: "XP rules and daily goals" })
    .getByLabel("First attempt, 100%")
    .fill("1.25");
  await page
    .getByRole("region", { name: "XP rules and daily goals" })
    .getByRole("button", { name: "Save rules and goals" })
    .click();
  await expect(page.getByText("Saved.")).toBeVisible();
});
