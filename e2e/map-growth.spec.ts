import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, PHONE, signInAs } from "./helpers";

/**
 * MAP Growth as each reader sees it, over the demo's three terms: Ava grew 2.2× the projection in
 * Mathematics and fell short in Reading. Her parent reads the same in plain words, her Guide finds
 * her among the students below projection, and an administrator imports a file in two steps.
 */

const AVA = demoId("student-ava");

test.describe("MAP Growth", () => {
  test("a student sees her RIT over the year, her goal areas and her growth against the 2× line", async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, "student@dash.demo", "/app/map-growth");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "My MAP Growth", level: 1 })).toBeVisible();
    const math = main.locator("section", {
      has: page.getByRole("heading", { name: "Mathematics", level: 2 }),
    });
    await expect(
      math.getByRole("img", { name: /^Line chart of Mathematics RIT scores: Fall \d{4}-\d{4}: \d+/ }),
    ).toBeVisible();
    await expect(
      math.getByText(
        /^Amazing! You grew \d+ points, 2\.2\d? times what was projected\. That is the 2× goal!$/,
      ),
    ).toBeVisible();
    await expect(math.getByRole("heading", { name: "Goal areas on the latest test" })).toBeVisible();
    const reading = main.locator("section", {
      has: page.getByRole("heading", { name: "Reading", level: 2 }),
    });
    await expect(
      reading.getByText(/^You grew \d+ points\. The projection was \d+\. Let's work toward it together\.$/),
    ).toBeVisible();

    await main.getByText("What do these numbers mean?").click();
    await expect(main.getByText(/^Your RIT score shows what you are ready to learn\./)).toBeVisible();
  });

  test("a parent reads each child's results in plain words, in English and in Spanish", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, "parent@dash.demo", "/app/parent-map-growth");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Ava Johnson's results" })).toBeVisible();
    await expect(
      main.getByText(
        /^Grew \d+ points: 2\.2\d? times the projected growth\. That meets the school's 2× goal\.$/,
      ),
    ).toBeVisible();
    await expect(
      main
        .getByText(/^Scored as well as or better than \d+ of every 100 students in the same grade\.$/)
        .first(),
    ).toBeVisible();

    await main
      .getByRole("navigation", { name: "Choose a child" })
      .getByRole("link", { name: "Leo Johnson" })
      .click();
    await expect(page).toHaveURL(/childId=/);
    await expect(main.getByRole("heading", { name: "Leo Johnson's results" })).toBeVisible();

    await page.locator("header").getByLabel("Language").selectOption("es");
    await expect(main.getByRole("heading", { name: "Resultados de Leo Johnson" })).toBeVisible();
    await expect(main.getByText("¿Qué significan estos números?")).toBeVisible();
    // The choice is kept with the account: back to English for the journeys after this one.
    await page.locator("header").getByLabel("Idioma").selectOption("en");
    await expect(main.getByRole("heading", { name: "Leo Johnson's results" })).toBeVisible();
  });

  test("a Guide finds the students below projection and opens one student's results", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, "guide@dash.demo", "/app/guide/map-growth");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Class MAP Growth", level: 1 })).toBeVisible();
    await main.getByRole("checkbox", { name: "Only students below projection" }).check();
    await expect(page).toHaveURL(/belowProjection=true/);
    const ava = main.getByRole("row", { name: /Ava Johnson/ });
    await expect(ava.getByText("Below projection")).toBeVisible();

    await ava.getByRole("link", { name: "Ava Johnson" }).click();
    await expect(page).toHaveURL(new RegExp(`/app/guide/map-growth/${AVA}$`));
    await expect(main.getByRole("heading", { name: "Ava Johnson: MAP Growth", level: 1 })).toBeVisible();
    const windows = main.getByRole("table", { name: "Every growth window of this subject" }).first();
    await expect(windows.getByRole("rowheader", { name: /^Fall to spring/ })).toBeVisible();
  });

  test("an administrator checks an export, imports it, and sees its row waiting for a student", async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signInAs(page, "admin@dash.demo", "/app/admin/map-growth");
    const main = page.getByRole("main");
    const file = [
      "StudentID,TermName,MeasurementScale,TestStartDate,TestRITScore,TestPercentile",
      "student-ava,Fall 2026-2027,Mathematics,2026-09-16,214,88",
      "NWEA-404,Fall 2026-2027,Mathematics,2026-09-16,190,40",
    ].join("\r\n");
    await main
      .getByLabel("File")
      .setInputFiles({ name: "AssessmentResults.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    await main.getByRole("button", { name: "Check the file" }).click();
    await expect(main.getByText(/^The file is ready to import\. 2 rows read: 1 new/)).toBeVisible();
    await expect(
      main.getByText("1 row matches no student: after the import they wait on the Unmatched rows tab."),
    ).toBeVisible();
    await main.getByRole("button", { name: "Import 1 change" }).click();
    await expect(main.getByText(/^Imported\. 2 rows read: 1 new/)).toBeVisible();

    await main.getByRole("tab", { name: "Unmatched rows" }).click();
    await expect(main.getByRole("row", { name: /NWEA-404/ })).toBeVisible();
    await main.getByRole("tab", { name: "Terms" }).click();
    await expect(main.getByRole("rowheader", { name: "Fall 2026-2027" })).toBeVisible();
  });
});
