import { expect, test } from "@playwright/test";
import { signInAs } from "./helpers";

/** The last Saturday before today (a day without seeded school activity, inside ingestion's window). */
const SATURDAY = (() => {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 1) % 7 || 7));
  return day.toISOString().slice(0, 10);
})();
/** 10:00 in New York on that day, whether it is on standard or daylight time. */
const TEN_IN_NEW_YORK = (() => {
  const zone = new Date(`${SATURDAY}T12:00:00Z`).toLocaleString("en-US", {
    timeZone: "America/New_York",
    timeZoneName: "shortOffset",
  });
  const hoursBehind = -Number(zone.match(/GMT([+-]\d+)/)?.[1] ?? -5);
  return `${SATURDAY}T${String(10 + hoursBehind).padStart(2, "0")}:00:00Z`;
})();

// One Math activity of Ava's, reported by the demo math app at 10:00 New York time on a Saturday.
test.beforeAll(async ({ request }) => {
  const response = await request.post("/api/ingest/activity", {
    headers: { authorization: "Bearer demo-app-key" },
    data: {
      events: [
        {
          eventId: "e2e-flow-1",
          email: "student@dash.demo",
          occurredAt: TEN_IN_NEW_YORK,
          subject: "Math",
          activityName: "Fractions on a number line",
          expectedXp: 20,
          totalQuestions: 10,
          correctQuestions: 10,
          activeSeconds: 1200,
          wasteSeconds: 300,
        },
      ],
    },
  });
  expect(response.ok()).toBe(true);
});

test("a Guide sees the class's day and opens one student's timeline and chunks", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", `/app/flow?date=${SATURDAY}`);
  await expect(page.getByRole("heading", { name: "Flow", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Class")).toHaveValue("");
  const ava = page.getByRole("link", { name: "Ava Johnson" });
  await expect(ava).toBeVisible();
  await expect(page.getByRole("img", { name: /Ava Johnson: \d+ activit(y|ies)/ })).toBeVisible();
  await ava.click();
  await expect(page).toHaveURL(new RegExp(`/app/flow/student/[^/?]+\\?date=${SATURDAY}`));
  await expect(page.getByRole("heading", { name: "Ava Johnson", level: 1 })).toBeVisible();
  await expect(page.getByText("09:35–10:00 · Math")).toBeVisible();
  await expect(page.getByText("Fractions on a number line in Math Academy")).toBeVisible();

  await page.getByRole("link", { name: "See as chunks" }).click();
  await expect(page).toHaveURL(new RegExp(`/chunks\\?date=${SATURDAY}`));
  await expect(page.getByRole("heading", { name: /09:35–10:00 · 25 min/ })).toBeVisible();
});

test("the time search parameter marks the activity at that moment", async ({ page }) => {
  await signInAs(page, "student@dash.demo", `/app/flow?date=${SATURDAY}`);
  await page.getByRole("link", { name: "Ava Johnson" }).click();
  await page.goto(`${page.url().split("?")[0]}?date=${SATURDAY}&time=09:40`);
  const marked = page.locator("[aria-current=time]");
  await expect(marked).toContainText("09:35–10:00 · Math");
});

test("timeback shows time on task, back and wasted for the student", async ({ page }) => {
  await signInAs(page, "student@dash.demo", "/app/timeback");
  await expect(page.getByRole("heading", { name: "Timeback", level: 1 })).toBeVisible();
  await expect(page.getByText("Time on task")).toBeVisible();
  await expect(page.getByText("Time back", { exact: true })).toBeVisible();
  await page.getByText("Last 12 weeks, by week").click();
  await expect(page.getByRole("columnheader", { name: "Week of" })).toBeVisible();
});
