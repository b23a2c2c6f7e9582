import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { STORED_FILES } from "../src/server/domains/rostering/bulk/spec";
import { filesOf, fixture, zipOf } from "../src/server/domains/rostering/bulk/test-support";
import { DESKTOP, screenshots, signInAs } from "./helpers";

/**
 * Roster import and export: an administrator previews and imports a OneRoster set and reads the
 * report; a set with errors shows each error and changes nothing; the roster downloads as a .zip.
 */

const SCREENS = "test-results/screens";
/** The project's school set as a delta: it adds a school to the demo district and removes nobody. */
async function schoolAsDelta(): Promise<Buffer> {
  const manifest = [
    "propertyName,value",
    "manifest.version,1.0",
    "oneroster.version,1.2",
    ...STORED_FILES.map((file) => `file.${file},delta`),
  ].join("\n");
  return zipOf({ ...(await filesOf(fixture("school-v1p2"))), "manifest.csv": manifest });
}

async function chooseZip(page: Page, name: string, buffer: Buffer) {
  await page.getByLabel("OneRoster set (.zip)").setInputFiles({ name, mimeType: "application/zip", buffer });
}

const fileRow = (page: Page, file: string) =>
  page.getByRole("table", { name: "Rows per file" }).getByRole("row").filter({ hasText: file });

test.use({ viewport: DESKTOP });

test("an administrator previews a set, imports it and reads the report", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roster-sync");
  await expect(page.getByRole("heading", { name: "Roster import and export", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();

  await chooseZip(page, "lakeside.zip", await schoolAsDelta());
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByRole("status")).toHaveText(/Preview: the set is valid\. Nothing was changed yet\./);
  await expect(page.getByRole("heading", { name: "Preview report" })).toBeVisible();
  await expect(fileRow(page, "users.csv")).toHaveText(/Delta\s*8\s*8\s*0\s*0\s*0/);
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  // The preview saved nothing.
  const before = await page.request.get("/api/users/viewable?search=Rosa%20D");
  expect((await before.json()).total).toBe(0);
  await screenshots(page, "roster-sync-preview");

  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/The roster was imported\./);
  await expect(fileRow(page, "users.csv")).toHaveText(/Delta\s*8\s*8\s*0\s*0\s*0/);
  await expect(fileRow(page, "enrollments.csv")).toHaveText(/9\s*9\s*0\s*0\s*0/);
  const after = await page.request.get("/api/users/viewable?search=Rosa%20D");
  expect((await after.json()).data.map((person: { email: string }) => person.email)).toEqual([
    "rosa.diaz@fixture.school",
  ]);

  // The same set again changes nothing.
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status")).toHaveText(/The roster was imported\./);
  await expect(fileRow(page, "users.csv")).toHaveText(/Delta\s*8\s*0\s*0\s*0\s*8/);
});

test("the upload and the processing show their progress", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roster-sync");
  // The server's answer is held until the progress has been looked at.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/admin/roster/import*", async (route) => {
    await held;
    await route.continue();
  });
  await chooseZip(page, "lakeside.zip", await schoolAsDelta());
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  const upload = page.getByRole("progressbar", { name: "Upload" });
  await expect(upload).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Preview" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Import" })).toBeDisabled();
  await page.screenshot({ path: `${SCREENS}/roster-sync-progress-1280.png` });
  release();
  await expect(page.getByRole("status")).toHaveText(/Preview: the set is valid/);
  await expect(upload).toHaveCount(0);
});

test("a set with errors shows each error with its place, and the list downloads as CSV", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roster-sync");
  await chooseZip(page, "broken.zip", await zipOf(await filesOf(fixture("with-errors"))));
  await page.getByRole("button", { name: "Import" }).click();
  // The 15 errors of the set, and a 16th: its bulk users.csv would remove the administrator.
  await expect(page.getByRole("status")).toHaveText(/Nothing was imported: the set has 16 errors\./);
  const problems = page.getByRole("table", { name: "Problems found in the set" });
  await expect(problems.getByRole("row").filter({ hasText: "would remove your own account" })).toHaveText(
    /users\.csv/,
  );
  await expect(problems.getByRole("row").filter({ hasText: "is also the email of er-teacher" })).toHaveText(
    /Error\s*users\.csv\s*3\s*email/,
  );
  await expect(problems.getByRole("row").filter({ hasText: "did you mean preferredGivenName?" })).toHaveText(
    /users\.csv\s*1\s*prefferedGivenName/,
  );
  await expect(problems.getByRole("row").filter({ hasText: "School is read as school" })).toHaveText(
    /Warning\s*orgs\.csv\s*2\s*type/,
  );
  await screenshots(page, "roster-sync-errors");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download the error list (.csv)" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("roster-import-problems.csv");
  const csv = readFileSync((await download.path()) as string, "utf8");
  expect(csv.split("\r\n")[0]).toBe("severity,file,line,column,message,rows");
  expect(csv).toContain("error,users.csv,4,enabledUser,yes is not true or false,1");
});

test("the strict checkbox refuses a set with warnings; without it the set is taken", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roster-sync");
  // An org whose parent is outside the set: a warning, not an error.
  const manifest = "propertyName,value\noneroster.version,1.2\nfile.orgs,delta\n";
  const orgs =
    "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId\n" +
    "e2e-hill,active,2025-08-01T08:00:00Z,Hill School,school,HILL,e2e-elsewhere\n";
  await chooseZip(page, "hill.zip", await zipOf({ "manifest.csv": manifest, "orgs.csv": orgs }));
  const strict = page.getByRole("checkbox", { name: "Refuse the set if there are warnings" });
  await strict.check();
  const [request] = await Promise.all([
    page.waitForRequest("**/api/admin/roster/import*"),
    page.getByRole("button", { name: "Preview (dry run)" }).click(),
  ]);
  expect(new URL(request.url()).searchParams.get("strict")).toBe("true");
  await expect(page.getByRole("status")).toHaveText(/Nothing was imported: the set has 1 warning/);
  await expect(
    page
      .getByRole("table", { name: "Problems found in the set" })
      .getByRole("row")
      .filter({ hasText: "e2e-elsewhere" }),
  ).toHaveText(/Warning\s*orgs\.csv\s*2\s*parentSourcedId/);
  await page.screenshot({ path: `${SCREENS}/roster-sync-strict-1280.png`, fullPage: true });

  await strict.uncheck();
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByRole("status")).toHaveText(/Preview: the set is valid/);
});

test("a file that is not a zip is refused with a readable message", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roster-sync");
  await page.getByLabel("OneRoster set (.zip)").setInputFiles({
    name: "users.zip",
    mimeType: "application/zip",
    buffer: Buffer.from("sourcedId,givenName\n1,Ada\n"),
  });
  await page.getByRole("button", { name: "Preview (dry run)" }).click();
  await expect(page.getByRole("alert")).toHaveText(/not a \.zip archive/);
});

test("the roster downloads as a .zip", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roster-sync");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download roster (.zip)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^oneroster-\d{4}-\d{2}-\d{2}\.zip$/);
  const bytes = readFileSync((await download.path()) as string);
  expect(bytes.subarray(0, 2).toString()).toBe("PK");
});

test("people who are not administrators are sent away from the page", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/admin/roster-sync");
  await expect(page).toHaveURL((url) => url.pathname === "/app");
});
