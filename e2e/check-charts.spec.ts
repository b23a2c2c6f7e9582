import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../src/shared/time-zone";
import { axeViolations, DESKTOP, loadAxe, PHONE, signInAs } from "./helpers";

/**
 * Check charts from both sides: Maya Patel ticks a check of the demo chart for Ava Johnson with
 * the day she saw it, and Ava then sees that tick on her own progress.
 */

test.use({ viewport: DESKTOP });

const CHART = demoId("check-chart-math-facts");
const AVA = demoId("student-ava");
/** Not ticked for Ava in the demo: the last check of her working level. */
const CHECK = "Subtracts within 10 in under 3 seconds";
const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");

const observedOn = addDays(localDateOf(new Date(), SCHOOL_TIME_ZONE), -2);
/** The day as the page writes it: "Nov 3, 2025". */
const shownDay = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" }).format(
  new Date(`${observedOn}T12:00:00Z`),
);

test.describe
  .serial("check charts", () => {
    test("a Guide ticks a check for a student with the day she saw it", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", "/app/check-chart");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Check charts", level: 1 })).toBeVisible();
      await main.getByRole("link", { name: "Tick a student's checks in Math facts fluency" }).click();
      await expect(main.getByRole("heading", { name: "Math facts fluency", level: 1 })).toBeVisible();

      await main.getByLabel("Student", { exact: true }).selectOption(AVA);
      await expect(page).toHaveURL(new RegExp(`studentId=${AVA}`));
      await expect(main.getByText("Ava Johnson is working on Level 2: Subtracting within 10")).toBeVisible();

      await main.getByLabel("Day observed").fill(observedOn);
      const box = main.getByRole("checkbox", { name: CHECK });
      await expect(box).not.toBeChecked();
      await box.check();
      await expect(
        main.getByRole("status").filter({ hasText: `Ticked: ${CHECK}, seen on ${shownDay}.` }),
      ).toBeVisible();
      await expect(box).toBeChecked();
      await expect(box).toHaveAccessibleDescription(`Seen on ${shownDay} by Maya Patel`);
      // Every check of level 2 is done now: Ava works at level 3.
      await expect(
        main.getByText("Ava Johnson is working on Level 3: Adding and subtracting within 20"),
      ).toBeVisible();

      // The class's dashboard counts the tick.
      await page.goto(`/app/check-chart?view=dashboard&chartId=${CHART}`);
      await main.getByLabel("Class").selectOption({ label: "Math · Patel group · Maple Grove School" });
      const row = main.getByRole("row", { name: /Ava Johnson/ });
      await expect(row.getByText("Level 2: Subtracting within 10: 4 of 4 done")).toBeAttached();
      await expect(
        row.getByRole("cell", { name: "Level 3: Adding and subtracting within 20", exact: true }),
      ).toBeVisible();
    });

    test("the student sees the tick on her own progress", async ({ page }) => {
      await page.setViewportSize(PHONE);
      await signInAs(page, "student@dash.demo", "/app/check-chart");
      const main = page.getByRole("main");
      const card = main.getByRole("article", { name: "Math facts fluency" });
      await expect(card.getByText("Working on Level 3: Adding and subtracting within 20")).toBeVisible();
      await card.getByRole("link", { name: "See my progress in Math facts fluency" }).click();
      await expect(main.getByRole("heading", { name: "Math facts fluency", level: 1 })).toBeVisible();
      await expect(
        main.getByText("You are working on Level 3: Adding and subtracting within 20"),
      ).toBeVisible();
      const level = main.getByRole("region", { name: "Level 2: Subtracting within 10" });
      await expect(level.getByText(`${CHECK} (done)`)).toBeVisible();
      await expect(level.getByText(`Seen on ${shownDay} by Maya Patel`)).toBeVisible();
      // A student reads the ticks; she cannot change them.
      await expect(main.getByRole("checkbox")).toHaveCount(0);
    });
  });

test("a Guide makes a chart with the keyboard, and removing a ticked check asks first", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/check-chart?view=create");
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { name: "New check chart", level: 1 })).toBeVisible();

  // An empty chart is refused before anything is sent, and focus goes to the first problem.
  await main.getByRole("button", { name: "Create chart" }).click();
  await expect(main.getByRole("alert")).toHaveText("Fix the 4 problems marked above to save.");
  await expect(main.getByLabel("Title")).toBeFocused();
  await expect(main.getByLabel("Title")).toHaveAccessibleDescription(/^Give the chart a title\./);

  await main.getByLabel("Title").fill("Phonics");
  await main.getByLabel("Subject").fill("Reading");
  await main.getByLabel("Name of level 1").fill("Sounds");
  await main.getByLabel("Check 1", { exact: true }).fill("Short vowels");
  await main.getByRole("button", { name: "Add a check to Sounds" }).press("Enter");
  await expect(main.getByLabel("Check 2", { exact: true })).toBeFocused();
  await page.keyboard.type("Blends");
  const moveUp = main.getByRole("button", { name: "Move Blends up" });
  await moveUp.focus();
  await page.keyboard.press("Enter");
  await expect(main.getByRole("status")).toHaveText("Blends is now check 1.");
  await expect(main.getByLabel("Check 1", { exact: true })).toHaveValue("Blends");
  // The button keeps focus at the top, where it can move no further.
  await expect(moveUp).toBeFocused();
  await expect(moveUp).toHaveAttribute("aria-disabled", "true");

  await main.getByRole("button", { name: "Add a level" }).press("Enter");
  await expect(main.getByLabel("Name of level 2")).toBeFocused();
  await page.keyboard.type("Words");
  await main.getByLabel("Check 1", { exact: true }).nth(1).fill("Sight words");
  await main.getByRole("button", { name: "Create chart" }).press("Enter");
  await expect(main.getByRole("status")).toHaveText("Chart created.");
  await expect(page).toHaveURL(/view=edit&chartId=/);
  await expect(main.getByRole("heading", { name: "Edit check chart", level: 1 })).toBeVisible();

  // Ava shows the blends; removing that check then asks, and saving takes her tick with it.
  const chartId = new URL(page.url()).searchParams.get("chartId") as string;
  const chart = await (await page.request.get(`/api/assessment/check-charts/${chartId}`)).json();
  const blends = chart.levels[0].checks[0].id as string;
  const ticked = await page.request.put(
    `/api/assessment/check-charts/${chartId}/students/${AVA}/checks/${blends}`,
    {
      data: { observedOn },
    },
  );
  expect(ticked.status()).toBe(200);
  await page.reload();
  await expect(main.getByLabel("Check 1", { exact: true }).first()).toHaveAccessibleDescription(
    "Ticked for 1 student",
  );
  await main.getByRole("button", { name: "Remove Blends" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove Blends?" });
  await expect(dialog).toContainText("It is ticked for 1 student.");
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(main.getByRole("status")).toHaveText("Blends removed. Save to keep the change.");
  await main.getByRole("button", { name: "Save chart" }).click();
  await expect(main.getByRole("status")).toHaveText("Chart saved.");
  const saved = await (await page.request.get(`/api/assessment/check-charts/${chartId}`)).json();
  expect(saved.levels[0].checks.map((check: { name: string }) => check.name)).toEqual(["Short vowels"]);
});

test("the views beyond the list pass axe, light on a laptop and dark on a phone", async ({ page }) => {
  test.setTimeout(90_000);
  await loadAxe(page);
  const found: string[] = [];
  const check = async (address: string, ready: () => Promise<void>) => {
    for (const [viewport, colorScheme] of [
      [DESKTOP, "light"],
      [PHONE, "dark"],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
      await page.goto(address);
      await ready();
      await expect(page.locator("[data-loading], [aria-busy='true']")).toHaveCount(0);
      expect(await page.locator("h1").count(), address).toBe(1);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (overflow > 0) found.push(`${address} [${colorScheme}] scrolls ${overflow}px sideways`);
      for (const line of await axeViolations(page)) found.push(`${address} [${colorScheme}] ${line}`);
    }
  };
  const main = page.getByRole("main");

  await signInAs(page, "guide@dash.demo", "/app/check-chart");
  await check(`/app/check-chart?view=progress&chartId=${CHART}&studentId=${AVA}`, () =>
    expect(main.getByRole("checkbox").first()).toBeVisible(),
  );
  await check(`/app/check-chart?view=dashboard&chartId=${CHART}&classId=${PATEL_MATH}`, () =>
    expect(main.getByRole("table")).toBeVisible(),
  );
  await check(`/app/check-chart?view=edit&chartId=${CHART}`, () =>
    expect(main.getByLabel("Title")).toHaveValue("Math facts fluency"),
  );
  await check("/app/check-chart?view=create", async () => {
    await main.getByRole("button", { name: "Create chart" }).click();
    await expect(main.getByText("Give the chart a title.")).toBeVisible();
  });

  await signInAs(page, "admin@dash.demo", "/app");
  await check("/admin/check-chart-legacy-review", async () => {
    await main.getByRole("button", { name: /^List the students of Level 2/ }).click();
    await expect(main.getByRole("table")).toBeVisible();
  });
  await check("/app/admin/check-chart-simple-test", async () => {
    await main.getByLabel("Chart to preview").selectOption(CHART);
    await expect(main.getByRole("checkbox").first()).toBeVisible();
  });
  expect(found).toEqual([]);
});
