import { expect, test } from "@playwright/test";
import { currentUrl, signInAs, submitSignIn } from "./helpers";

/**
 * Passwords: an administrator makes a one-time link for a Guide of the demo school (who has no
 * password yet), the link chooses one in a browser without a session, the Guide signs in with it
 * and then changes it from the header. Other journeys' demo accounts keep their password.
 */
const RACHEL = { name: "Rachel Hughes", email: "rachel.hughes@staff.dash.demo" };
const FIRST_PASSWORD = "maple leaves in october";
const SECOND_PASSWORD = "seven quiet harbour lights";

test("an administrator's link sets a password, which signs in and can be changed", async ({
  page,
  browser,
}) => {
  // One long journey with several password hashes (scrypt, deliberately slow).
  test.setTimeout(120_000);
  await signInAs(page, "admin@dash.demo", "/app/admin/roles");
  await page.getByLabel("Search users", { exact: true }).fill(RACHEL.name);
  await page.getByRole("button", { name: `Roles of ${RACHEL.name}` }).click();
  await page.getByRole("button", { name: "Make a password link" }).click();
  const issued = page.getByRole("region", { name: `Password link for ${RACHEL.name}` });
  await expect(issued).toBeVisible();
  await expect(issued.getByRole("button", { name: "Copy password link" })).toBeVisible();
  const link = (await issued.locator("code").textContent()) ?? "";
  expect(link).toMatch(/\/reset-password\?token=reset_[\w-]{43}$/);
  await issued.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/passwords-link-issued.png" });
  await issued.getByRole("button", { name: "Done" }).click();
  await expect(issued).toBeHidden();
  await expect(page.getByText(`Issued ${RACHEL.name} a link to choose a new password`).first()).toBeVisible();

  // The person opens the link in a browser of their own, without a session.
  const theirs = await browser.newContext();
  const person = await theirs.newPage();
  await person.goto(link);
  await expect(person.getByRole("heading", { name: "Choose a password" })).toBeVisible();
  // The token is dropped from the address once read.
  await expect.poll(() => currentUrl(person).search).toBe("");
  expect(currentUrl(person).pathname).toBe("/reset-password");

  const field = person.getByLabel("New password", { exact: true });
  const rules = person.getByRole("list", { name: "Password rules" });
  await field.fill("short");
  await expect(rules.getByRole("listitem").first()).toContainText("(not yet)");
  await field.fill("password1");
  await person.getByRole("button", { name: "Set password" }).click();
  await expect(person.getByText(/^This password is too common/).first()).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await field.fill(FIRST_PASSWORD);
  await expect(rules.getByRole("listitem").first()).toContainText("(done)");
  await person.screenshot({ path: "test-results/passwords-reset-page.png" });
  await person.getByRole("button", { name: "Set password" }).click();
  await expect(person.getByRole("heading", { name: "Your password is set" })).toBeFocused();

  // The link works once.
  await person.goto(link);
  await person.getByLabel("New password", { exact: true }).fill("another good password");
  await person.getByRole("button", { name: "Set password" }).click();
  await expect(person.getByRole("alert")).toContainText("This link to choose a password does not work");

  await person.goto("/login");
  await submitSignIn(person, RACHEL.email, FIRST_PASSWORD);
  await expect(person).toHaveURL(/\/app$/);

  // Signed in, the Guide changes the password from the header.
  await person.getByRole("button", { name: "Change password" }).click();
  const dialog = person.getByRole("dialog", { name: "Change password" });
  await expect(dialog.getByLabel("Current password", { exact: true })).toBeFocused();
  await dialog.getByLabel("Current password", { exact: true }).fill("not my password");
  await dialog.getByLabel("New password", { exact: true }).fill("rachel rides the bus");
  await expect(
    dialog.getByRole("list", { name: "Password rules" }).getByRole("listitem").nth(3),
  ).toContainText("(not yet)");
  await dialog.getByRole("button", { name: "Change password" }).click();
  // Each refusal is beside its field, read with it by screen readers.
  await expect(dialog.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(
    /^Leave your name, email, username and the word “Dash” out of your password/,
  );
  await dialog.getByLabel("New password", { exact: true }).fill(SECOND_PASSWORD);
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(dialog.getByLabel("Current password", { exact: true })).toHaveAccessibleDescription(
    "That is not your current password",
  );
  await person.screenshot({ path: "test-results/passwords-change-dialog.png" });
  await dialog.getByLabel("Current password", { exact: true }).fill(FIRST_PASSWORD);
  await dialog.getByRole("button", { name: "Change password" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Your password is changed. You stay signed in here.");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  await person.getByRole("button", { name: "Sign out" }).click();
  await expect(person).toHaveURL(/\/login$/);
  await submitSignIn(person, RACHEL.email, SECOND_PASSWORD);
  await expect(person).toHaveURL(/\/app$/);
  await theirs.close();
});
