import { expect, test } from "@playwright/test";
import { currentUrl, DEMO_ACCOUNTS, DEMO_PASSWORD, signIn, submitSignIn } from "./helpers";

const SESSION_COOKIE = "dash_session";

test.describe("sign-in page", () => {
  test("has the Dash title, labelled fields, a Sign in button and the demo accounts", async ({ page }) => {
    await page.goto("/login");
    await expect(page).toHaveTitle("Dash");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveAttribute("type", "password");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();

    const demo = page.getByRole("region", { name: "Demo school accounts" });
    await expect(demo).toBeVisible();
    await expect(demo.getByText(DEMO_PASSWORD, { exact: true })).toBeVisible();
    for (const account of DEMO_ACCOUNTS) {
      await expect(demo.getByText(account.email, { exact: true })).toBeVisible();
    }
  });

  test("choosing a demo account fills the form", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: /student@dash\.demo/ }).click();
    await expect(page.getByLabel("Email")).toHaveValue("student@dash.demo");
    await expect(page.getByLabel("Password")).toHaveValue(DEMO_PASSWORD);
    await expect(page).toHaveURL(/\/login$/);

    await page.getByRole("button", { name: /guide@dash\.demo/ }).click();
    await expect(page.getByLabel("Email")).toHaveValue("guide@dash.demo");
  });

  test("a wrong password is refused and the page stays on /login", async ({ page, context }) => {
    await page.goto("/login");
    await submitSignIn(page, "student@dash.demo", "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    expect(currentUrl(page).pathname).toBe("/login");
    expect((await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  });

  test("an identity provider's error description is shown", async ({ page }) => {
    await page.goto("/login?error=access_denied&error_description=Your+school+account+is+not+active");
    await expect(page.getByRole("alert")).toHaveText("Your school account is not active");
  });

  test("an identity provider's bare error code reads as a sentence", async ({ page }) => {
    await page.goto("/login?error=access_denied");
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText(/^Access was denied\b.*\.$/);
    await expect(alert).not.toContainText("access_denied");
  });
});

test.describe("sign-in of every demo account", () => {
  for (const account of DEMO_ACCOUNTS) {
    test(`${account.email} lands on /app with name, roles and organisations`, async ({ page, context }) => {
      await page.goto("/login");
      await page.getByLabel("Email").fill(account.email);
      await page.getByLabel("Password").fill(DEMO_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();

      await expect(page).toHaveURL(/\/app$/);
      expect(currentUrl(page).pathname).toBe("/app");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: account.name })).toBeVisible();
      await expect(main.getByText(account.email, { exact: true })).toBeVisible();
      const roles = main.getByRole("list", { name: "Roles" });
      for (const role of account.roles) {
        await expect(roles.getByText(role, { exact: true })).toBeVisible();
      }
      const organisations = main.getByRole("list", { name: "Organisations" });
      for (const organisation of account.organisations) {
        await expect(organisations.getByText(organisation, { exact: true })).toBeVisible();
      }

      const session = (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE);
      expect(session, "the session cookie is set").toBeDefined();
      expect(session?.httpOnly).toBe(true);
      expect(session?.sameSite).toBe("Lax");
      expect(session?.path).toBe("/");
      expect(session?.value.length).toBeGreaterThan(20);
    });
  }
});

test.describe("session", () => {
  test("signing out returns to /login and /app then needs a new sign-in", async ({ page, context }) => {
    await signIn(page, "guide@dash.demo");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    expect((await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE)).toBeUndefined();

    await page.goto("/app");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel("Email")).toBeVisible();
  });

  test("a signed-in visit to /login goes to /app", async ({ page }) => {
    await signIn(page, "admin@dash.demo");
    await page.goto("/login");
    await expect(page).toHaveURL(/\/app$/);
    await expect(page.getByRole("main").getByRole("heading", { name: "Alex Morgan" })).toBeVisible();
  });

  test("an unknown address shows Not Found when signed in", async ({ page }) => {
    await signIn(page, "student@dash.demo");
    for (const path of ["/app/nope/zzz", "/nope"]) {
      await page.goto(path);
      expect(currentUrl(page).pathname).toBe(path);
      await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Go to your dashboard" })).toBeVisible();
    }
  });
});

test.describe("redirects", () => {
  const deepLink = "/app/learning-metrics?view=weekly&schoolId=s1&role=teacher";

  test("a signed-out deep link goes through /login and comes back after sign-in", async ({ page }) => {
    await page.goto(deepLink);
    await expect(page).toHaveURL(/\/login\?/);
    const login = currentUrl(page);
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("redirect")).toBe(deepLink);
    expect(login.searchParams.get("schoolId")).toBe("s1");
    expect(login.searchParams.get("role")).toBe("teacher");

    await submitSignIn(page, "guide@dash.demo");
    await expect(page).toHaveURL((url) => url.pathname !== "/login");
    const back = currentUrl(page);
    expect(back.pathname).toBe("/app/learning-metrics");
    expect(back.searchParams.get("view")).toBe("weekly");
    expect(back.searchParams.get("schoolId")).toBe("s1");
    expect(back.searchParams.get("role")).toBe("teacher");
    expect(`${back.pathname}${back.search}`).toBe(deepLink);
  });

  for (const target of ["//evil.example/x", "https://evil.example/"]) {
    test(`redirect=${target} is refused and sign-in lands on /app`, async ({ page, baseURL }) => {
      await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
      await submitSignIn(page, "student@dash.demo");
      await expect(page).toHaveURL((url) => url.pathname !== "/login");
      const landed = currentUrl(page);
      expect(landed.origin).toBe(new URL(baseURL ?? "").origin);
      expect(landed.pathname).toBe("/app");
      await expect(page.getByRole("main").getByRole("heading", { name: "Ava Johnson" })).toBeVisible();
    });
  }
});
