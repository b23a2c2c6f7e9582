import { expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "dash-demo";

export interface DemoAccount {
  email: string;
  name: string;
  roles: string[];
  organisations: string[];
}

/** The demo school's sign-in accounts and what their home page shows (see src/server/seed). */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    email: "admin@dash.demo",
    name: "Alex Morgan",
    roles: ["Administrator"],
    organisations: ["Dash Demo District"],
  },
  { email: "guide@dash.demo", name: "Maya Patel", roles: ["Guide"], organisations: ["Maple Grove School"] },
  {
    email: "student@dash.demo",
    name: "Ava Johnson",
    roles: ["Student"],
    organisations: ["Maple Grove School"],
  },
  {
    email: "parent@dash.demo",
    name: "Sam Johnson",
    roles: ["Parent"],
    organisations: ["Maple Grove School", "Riverside School"],
  },
  {
    email: "guardian@dash.demo",
    name: "Grace Miller",
    roles: ["Guardian"],
    organisations: ["Maple Grove School"],
  },
  {
    email: "proctor@dash.demo",
    name: "Pat Rivera",
    roles: ["Proctor"],
    organisations: ["Maple Grove School"],
  },
  {
    email: "multi@dash.demo",
    name: "Jordan Lee",
    roles: ["Guide", "Student"],
    organisations: ["Maple Grove School"],
  },
];

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Types the credentials into the labelled fields of the sign-in page that is open, then submits. */
export async function submitSignIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Opens the sign-in page, signs in and waits for the dashboard. */
export async function signIn(page: Page, email: string) {
  await page.goto("/login");
  await submitSignIn(page, email);
  await expect(page).toHaveURL(/\/app$/);
}

/** The page's URL, parsed. */
export function currentUrl(page: Page): URL {
  return new URL(page.url());
}

/**
 * Signs in through the API, without the sign-in page (e2e/auth.spec.ts covers that): the browser
 * context then holds the session cookie. A refused sign-in fails at once and is never retried, as
 * failures count towards the sign-in throttle.
 */
export async function apiSignIn(page: Page, email: string) {
  const response = await page.request.post("/api/auth/login", { data: { email, password: DEMO_PASSWORD } });
  if (!response.ok()) {
    throw new Error(`sign-in of ${email} refused: ${response.status()} ${await response.text()}`);
  }
}

/** Signs in through the API, opens `path` and waits for the shell's sidebar. */
export async function signInAs(page: Page, email: string, path = "/app") {
  // A page still open on an earlier session hears it end and goes to the sign-in page itself,
  // which would race the navigation below: leave it first.
  if (page.url() !== "about:blank") await page.goto("about:blank");
  await apiSignIn(page, email);
  await page.goto(path);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeAttached();
}
