import { expect, test } from "@playwright/test";
import { DESKTOP, loadAxe, SCREENS, screenshots, signInAs } from "./helpers";

/**
 * The administrators' credentials page: a OneRoster client is created, its secret shown once,
 * used for a token and revoked; a learning app is added, given a key that is shown once, used and
 * revoked.
 */

const unique = () => Math.random().toString(36).slice(2, 8);
const ONEROSTER_USERS = "/ims/oneroster/rostering/v1p2/users?limit=1";

test.use({ viewport: DESKTOP, permissions: ["clipboard-read", "clipboard-write"] });

test("an administrator creates a OneRoster client, sees its secret once, gets a token and revokes it", async ({
  page,
  baseURL,
}) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/credentials");
  await expect(page.getByRole("heading", { name: "Credentials", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "OneRoster clients" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText(`${baseURL}/oauth/token`)).toBeVisible();
  await expect(page.getByText(`${baseURL}/ims/oneroster/rostering/v1p2`, { exact: true })).toBeVisible();
  // The demo's SIS is already connected.
  await expect(page.getByRole("listitem", { name: "Demo SIS" })).toContainText("demo-sis");

  const name = `E2E SIS ${unique()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByRole("checkbox", { name: /Roster, all reads/ }).check();
  await page.getByRole("button", { name: "Create client" }).click();

  const shownOnce = page.getByRole("region", { name: `${name} is ready` });
  await expect(shownOnce).toBeVisible();
  await expect(shownOnce).toContainText("will not be shown again");
  const clientId = (await shownOnce.locator("code").nth(0).textContent()) ?? "";
  const clientSecret = (await shownOnce.locator("code").nth(1).textContent()) ?? "";
  expect(clientId).toMatch(/^dash-/);
  expect(clientSecret).toMatch(/^dash_cs_/);
  await shownOnce.getByRole("button", { name: "Copy client secret" }).click();
  await expect(shownOnce.getByRole("button", { name: "Copy client secret" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(clientSecret);
  await screenshots(page, "credentials-client-secret");

  const tokenResponse = await page.request.post("/oauth/token", {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
  expect(tokenResponse.status()).toBe(200);
  const { access_token: token, scope } = (await tokenResponse.json()) as {
    access_token: string;
    scope: string;
  };
  expect(scope.split(" ")).toHaveLength(2);
  const authorization = { authorization: `Bearer ${token}` };
  expect((await page.request.get(ONEROSTER_USERS, { headers: authorization })).status()).toBe(200);

  await shownOnce.getByRole("button", { name: "I have saved it" }).click();
  await expect(shownOnce).toBeHidden();
  const listed = page.getByRole("listitem", { name });
  await expect(listed).toContainText(clientId);
  await expect(listed).toContainText("Roster, all reads");
  await page.reload();
  await expect(page.getByRole("listitem", { name })).toBeVisible();
  await expect(page.locator("body")).not.toContainText(clientSecret);
  await screenshots(page, "credentials-clients");

  await page.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke ${name}?` });
  await expect(dialog).toContainText("stop working at once");
  await dialog.getByRole("button", { name: "Revoke client" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("listitem", { name })).toContainText("Revoked");
  await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);

  expect((await page.request.get(ONEROSTER_USERS, { headers: authorization })).status()).toBe(401);
  const refused = await page.request.post("/oauth/token", {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
  expect(refused.status()).toBe(401);
});

test("revoking can be called off", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/credentials");
  await page.getByRole("button", { name: "Revoke Demo SIS" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke Demo SIS?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Revoke Demo SIS" })).toBeVisible();
});

test("an administrator adds a learning app, makes a key that is shown once, uses it and revokes it", async ({
  page,
}) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/credentials?tab=apps");
  await expect(page.getByRole("tab", { name: "Learning apps" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("article", { name: "Math Academy" })).toContainText("Active");

  const name = `Fraction Forest ${unique()}`;
  await page.getByRole("button", { name: "Add app" }).click();
  await page.getByLabel("App name").fill(name);
  await page.getByLabel("Subjects").fill("Math, Science");
  await page.getByLabel("Launch URL").fill("https://fractions.example.org");
  await page.getByLabel("Icon").fill("🌳");
  await page.getByRole("button", { name: "Add app" }).click();
  const app = page.getByRole("article", { name });
  await expect(app).toContainText("Math, Science");
  await expect(app.getByRole("link", { name: "https://fractions.example.org" })).toBeVisible();

  await app.getByRole("button", { name: `API keys of ${name}` }).click();
  await expect(app).toContainText("No key yet.");
  await app.getByLabel("New key label").fill("Classroom server");
  await app.getByRole("button", { name: "Create key" }).click();
  const shownOnce = app.getByRole("region", { name: "New key “Classroom server”" });
  await expect(shownOnce).toContainText("will not be shown again");
  const secret = (await shownOnce.locator("code").textContent()) ?? "";
  expect(secret).toMatch(/^dash_/);
  await screenshots(page, "credentials-app-key");

  const report = () =>
    page.request.post("/api/ingest/activity", {
      headers: { authorization: `Bearer ${secret}` },
      data: { events: [{ eventId: `probe-${unique()}` }] },
    });
  expect((await report()).status()).toBe(200);

  await shownOnce.getByRole("button", { name: "I have saved it" }).click();
  const key = app.getByRole("listitem", { name: "Classroom server" });
  await expect(key).toContainText(secret.slice(0, 12));
  await expect(page.locator("body")).not.toContainText(secret);

  await key.getByRole("button", { name: "Revoke Classroom server" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke the key “Classroom server”?" });
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(key).toContainText("Revoked");
  expect((await report()).status()).toBe(401);

  await app.getByRole("button", { name: `Deactivate ${name}` }).click();
  await expect(app).toContainText("Inactive");
  await app.getByRole("button", { name: `Activate ${name}` }).click();
  await expect(app).toContainText("Active");

  await app.getByRole("button", { name: `Edit ${name}` }).click();
  await app.getByLabel("App name").fill(`${name} 2`);
  await app.getByRole("button", { name: "Save changes" }).click();
  // Switching the app off and on, and renaming it, kept everything else.
  await expect(page.getByRole("article", { name: `${name} 2` })).toContainText("Math, Science");
  await screenshots(page, "credentials-apps");
});

test("the server's refusal shows in words", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/credentials?tab=apps");
  await page.getByRole("button", { name: "Add app" }).click();
  await page.getByLabel("App name").fill("Broken link app");
  await page.getByLabel("Launch URL").fill("not a url");
  await page.getByRole("button", { name: "Add app" }).click();
  await expect(page.getByRole("alert")).toContainText("Give a full https:// address");
});

test("a Guide visiting credentials lands on the dashboard", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/admin/credentials");
  await expect(page).toHaveURL((url) => url.pathname === "/app");
});

/**
 * Students' app logins: an administrator adds Ava's login to Language Lab, reveals its password,
 * sees the reveal in the audit and the edit in the changes; a file with problems is refused row by row; Ava reveals her
 * own password from her home's app card, and the administrator sees that reveal too.
 */

const APP_LOGIN_USERNAME = "ava.lang.e2e";
const APP_LOGIN_PASSWORD = "e2e-Secret-42";

test.describe
  .serial("app logins", () => {
    test("an administrator adds a login, reveals it and sees the audit", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "admin@dash.demo", "/app/admin/credentials?tab=logins");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Credentials", level: 1 })).toBeVisible();
      await expect(main.getByRole("tab", { name: "App logins" })).toHaveAttribute("aria-selected", "true");

      await main.getByRole("button", { name: "Add a login" }).click();
      const dialog = page.getByRole("dialog", { name: "Add an app login" });
      await dialog.getByLabel("Search students").fill("student@dash.demo");
      await dialog.getByRole("button", { name: /^Ava Johnson/ }).click();
      await dialog.getByLabel("Learning app").selectOption({ label: "Language Lab" });
      await dialog.getByLabel("Username").fill(APP_LOGIN_USERNAME);
      await dialog.getByLabel("Password").fill(APP_LOGIN_PASSWORD);
      await dialog.getByRole("button", { name: "Save login" }).click();
      await expect(dialog).toBeHidden();

      await main.getByLabel("Search", { exact: true }).fill(APP_LOGIN_USERNAME);
      const row = main.getByRole("row", {
        name: new RegExp(`Ava Johnson.*Language Lab.*${APP_LOGIN_USERNAME}`),
      });
      await expect(row).toBeVisible();
      await expect(row).toContainText("by Alex Morgan");
      // The list never carries the password: it is fetched only when revealed.
      await expect(main).not.toContainText(APP_LOGIN_PASSWORD);
      await row.getByRole("button", { name: "Reveal password for Ava Johnson's Language Lab" }).click();
      await expect(row.getByText("•".repeat(12))).toBeVisible();
      await expect(row).toContainText(/Hidden again in \d+ seconds?\./);
      await row.getByRole("button", { name: "Show" }).click();
      await expect(row.getByText(APP_LOGIN_PASSWORD)).toBeVisible();
      await expect(
        row.getByRole("button", { name: "Copy the password for Ava Johnson's Language Lab" }),
      ).toBeVisible();

      const audit = main.getByRole("table", { name: "Who revealed a password" });
      await expect(audit.getByRole("row").nth(1)).toContainText("Alex Morgan (administrator)");
      await expect(audit.getByRole("row").nth(1)).toContainText("Ava JohnsonLanguage Lab");
      await row.getByRole("button", { name: "Hide" }).click();

      // Editing the login (the same password again) is kept in its history, names only.
      await row.getByRole("button", { name: "Edit Ava Johnson's login to Language Lab" }).click();
      const edit = page.getByRole("dialog", { name: "Change Ava Johnson's login to Language Lab" });
      await edit.getByLabel("New password").fill(APP_LOGIN_PASSWORD);
      await edit.getByRole("button", { name: "Save login" }).click();
      await expect(edit).toBeHidden();
      const changes = main.getByRole("table", { name: "Changes to app logins" });
      await expect(changes.getByRole("row").nth(1)).toContainText(
        "Alex MorganChangedAva JohnsonLanguage Lab",
      );
      await expect(changes).not.toContainText(APP_LOGIN_USERNAME);
      await screenshots(page, "credentials-admin", { axe: true });
    });

    test("a file with problems is refused, each problem named by its line", async ({ page }) => {
      await signInAs(page, "admin@dash.demo", "/app/admin/credentials?tab=logins");
      const main = page.getByRole("main");
      await main.getByLabel("CSV file").setInputFiles({
        name: "logins.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(
          "student,app,username,password\nstudent@dash.demo,Math Academy,ava.math,pw-1\nnobody@dash.demo,Math Academy,x,pw-2\n",
        ),
      });
      await main.getByRole("button", { name: "Import", exact: true }).click();
      const report = main.getByRole("alert").filter({ hasText: "Nothing was saved" });
      await expect(report).toContainText("Nothing was saved: 1 problem in 2 rows.");
      await expect(
        report.getByRole("row", { name: "3 No student has the id or email nobody@dash.demo" }),
      ).toBeVisible();
      await report.scrollIntoViewIfNeeded();
      await screenshots(page, "credentials-import-problems", { dark: false, fullPage: false });
    });

    test("the student reveals their own login from the app card", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "student@dash.demo", "/app");
      const card = page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: "Language Lab" }) });
      await expect(card).toContainText("Your login");
      // The demo's own login to Math Academy is there too.
      const math = page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: "Math Academy" }) });
      await expect(math).toContainText("ava.johnson");
      await expect(card).toContainText(APP_LOGIN_USERNAME);
      await card.getByRole("button", { name: "Reveal password for Language Lab" }).click();
      await card.getByRole("button", { name: "Show" }).click();
      await expect(card.getByText(APP_LOGIN_PASSWORD)).toBeVisible();
      await card.screenshot({ path: `${SCREENS}/credentials-student-card.png` });
      await screenshots(page, "credentials-student", { axe: true });

      await signInAs(page, "admin@dash.demo", "/app/admin/credentials?tab=logins");
      const audit = page.getByRole("main").getByRole("table", { name: "Who revealed a password" });
      await expect(audit.getByRole("row").nth(1)).toContainText("Ava Johnson (student)");
    });
  });
