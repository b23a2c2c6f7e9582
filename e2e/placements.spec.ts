import { expect, test } from "@playwright/test";
import { DESKTOP, signInAs } from "./helpers";

/**
 * Placements: Ava's Guide moves her up a level in Math with a reason, and Ava sees the new level,
 * its course and the reason on her own page. An administrator then moves her in Science with a
 * bulk change and imports a level from a CSV file after checking it.
 */

test.use({ viewport: DESKTOP });

test.describe
  .serial("placements", () => {
    test("a Guide changes a student's level with a reason", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", "/app/teacher/placements");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Class placements", level: 1 })).toBeVisible();
      await main.getByLabel("Search by name or email").fill("Ava Johnson");
      const row = main.getByRole("row", { name: /Ava Johnson/ });
      await expect(row).toHaveCount(1);
      await expect(row.getByRole("cell").first()).toContainText("Grade 4");

      await row.getByRole("button", { name: "Change level for Ava Johnson" }).click();
      const dialog = page.getByRole("dialog", { name: "Change a level for Ava Johnson" });
      await dialog.getByLabel("Subject").selectOption("Math");
      await expect(dialog).toContainText("Now at Grade 4 in Math.");
      await dialog.getByLabel("New level").selectOption({ label: "Grade 5" });
      // The reason is required: without one nothing is sent.
      await dialog.getByRole("button", { name: "Save level" }).click();
      await expect(dialog.getByRole("alert")).toHaveText("Write the reason for the change.");
      await dialog.getByLabel("Reason").fill("Finished the grade 4 work early and passed its test");
      await dialog.getByRole("button", { name: "Save level" }).click();
      await expect(dialog).toBeHidden();
      await expect(
        main.getByRole("status").filter({ hasText: "Ava Johnson is now at Grade 5 in Math." }),
      ).toBeVisible();
      await expect(row.getByRole("cell").first()).toContainText("Grade 5");
      await expect(row.getByRole("cell").first()).toContainText("from Grade 3");
    });

    test("the student sees the new level, its course and why", async ({ page }) => {
      await signInAs(page, "student@dash.demo", "/app/placements");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Placements", level: 1 })).toBeVisible();
      const math = main.getByRole("region", { name: "Math" });
      await expect(math).toContainText("Started at Grade 3");
      await expect(math).toContainText("Now at Grade 5");
      await expect(math).toContainText("Finished the grade 4 work early and passed its test");
      await expect(math).toContainText("Current course: Math 5");
      await expect(math).toContainText("Math placement grade 5");
      // A student changes nothing here.
      await expect(main.getByRole("button", { name: "Change level" })).toHaveCount(0);
    });

    test("an administrator moves chosen students at once and imports a checked CSV", async ({ page }) => {
      await signInAs(page, "admin@dash.demo", "/app/admin/placements");
      const main = page.getByRole("main");
      await main.getByLabel("Search by name or email").fill("Ava Johnson");
      const row = main.getByRole("row", { name: /Ava Johnson/ });
      await expect(row).toHaveCount(1);
      await row.getByRole("checkbox").check();
      await expect(main.getByText("1 student chosen.")).toBeVisible();
      await main.getByRole("button", { name: "Change level of chosen" }).click();
      const dialog = page.getByRole("dialog", { name: "Change the level of 1 student" });
      await dialog.getByLabel("Subject").selectOption("Science");
      await dialog.getByLabel("New level").selectOption({ label: "Grade 4" });
      await dialog.getByLabel("Reason").fill("Science fair project at grade 4 level");
      await dialog.getByRole("button", { name: "Change 1 student" }).click();
      await expect(dialog).toBeHidden();
      await expect(
        main.getByText("1 student moved to Grade 4 in Science; none was already there."),
      ).toBeVisible();

      const csv = "email,subject,grade,reason\nstudent@dash.demo,Writing,2,Writing sample at grade 2\n";
      await main
        .getByLabel("File", { exact: true })
        .setInputFiles({ name: "levels.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await main.getByRole("button", { name: "Check the file" }).click();
      await expect(main.getByText(/^The file is ready to import\. 1 row read: 1 to change/)).toBeVisible();
      await main.getByRole("button", { name: "Import 1 change" }).click();
      await expect(main.getByText(/^Imported\. 1 row read: 1 to change/)).toBeVisible();
      await expect(main.getByRole("columnheader", { name: "Writing" })).toBeVisible();
      await expect(row).toContainText("Grade 2");

      const history = await (
        await page.request.get("/api/assessment/placements/changes?subject=Writing")
      ).json();
      expect(history.changes[0]).toMatchObject({ reason: "Writing sample at grade 2", toGrade: 2 });
    });
  });
