import { expect, test } from "@playwright/test";
import yauzl from "yauzl";
import { screenshots, signInAs } from "./helpers";

/**
 * The privacy centre: an administrator finds a student, downloads everything Dash holds about
 * them, is asked to type the name before anonymising, and changes how long raw events are kept.
 */

function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: false }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on("entry", (entry: yauzl.Entry) => names.push(entry.fileName));
      zip.on("end", () => resolve(names));
      zip.on("error", reject);
    }),
  );
}

test("an administrator downloads a student's data and changes a retention setting", async ({ page }) => {
  // A long journey with a download and eight screenshots: more than the default half minute.
  test.setTimeout(120_000);
  await signInAs(page, "admin@dash.demo", "/app/admin/privacy");
  await expect(page.getByRole("heading", { level: 1, name: "Privacy" })).toBeVisible();
  await expect(page.getByText("Choose a student on the left.")).toBeVisible();
  await screenshots(page, "privacy-empty", { dark: false });

  await page.getByRole("searchbox", { name: "Search students" }).fill("Ava Johnson");
  await page.getByRole("button", { name: "Data of Ava Johnson" }).click();
  await expect(page.getByRole("heading", { name: "Ava Johnson", exact: true })).toBeVisible();
  await screenshots(page, "privacy-student", { dark: false });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download all data of Ava Johnson" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^dash-student-.+\.zip$/);
  const entries = await zipEntries((await download.path()) as string);
  expect(entries).toEqual(
    expect.arrayContaining(["README.txt", "profile.json", "activity-events.csv", "xp-ledger.csv"]),
  );

  // The export is in the log at once, about her.
  await page.reload();
  await page.getByRole("searchbox", { name: "Search students" }).fill("Ava Johnson");
  await page.getByRole("button", { name: "Data of Ava Johnson" }).click();
  await expect(page.getByRole("cell", { name: "Downloaded their data" }).first()).toBeVisible();

  // Anonymising asks for the name; a wrong one is refused in words and nothing happens.
  await page.getByRole("button", { name: "Anonymise Ava Johnson…" }).click();
  const dialog = page.getByRole("dialog", { name: "Anonymise Ava Johnson?" });
  await dialog.getByRole("textbox", { name: /^Type .Ava Johnson. to confirm$/ }).fill("Ava");
  await dialog.getByRole("textbox", { name: "Reason" }).fill("Checking the confirmation");
  await dialog.getByRole("button", { name: "Anonymise" }).click();
  await expect(dialog.getByRole("alert")).toContainText("The confirmation does not match");
  await screenshots(page, "privacy-confirm", { dark: false });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);

  const rawEvents = page.getByRole("group", { name: "Raw activity events" });
  await expect(rawEvents.getByLabel("Days to keep")).toHaveValue("400");
  await rawEvents.getByLabel("Days to keep").fill("200");
  await page.getByRole("button", { name: "Save retention settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await screenshots(page, "privacy-retention", { dark: false });
  await page.reload();
  await expect(
    page.getByRole("group", { name: "Raw activity events" }).getByLabel("Days to keep"),
  ).toHaveValue("200");
});
