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

/** Signs in through the API, opens `path` and waits for the shell. */
export async function signInAs(page: Page, email: string, path = "/app") {
  // A page still open on an earlier session hears it end and goes to the sign-in page itself,
  // which would race the navigation below: leave it first.
  if (page.url() !== "about:blank") await page.goto("about:blank");
  await apiSignIn(page, email);
  await page.goto(path);
  // The shell's main landmark (the sidebar is out of sight on a phone until the menu opens).
  await expect(page.locator("main#main")).toBeAttached();
}

/** The WCAG 2.0, 2.1 and 2.2 A and AA rules of axe. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Loads axe-core (the engine of `@axe-core/playwright`) into every document the page opens, once:
 * injecting it for each check, as AxeBuilder does, cost half a second a check.
 */
export async function loadAxe(page: Page) {
  await page.addInitScript({ path: "node_modules/axe-core/axe.min.js" });
}

/** axe on the open page (after `loadAxe`): one line per rule broken, with up to five of its elements. */
export async function axeViolations(page: Page, rules?: string[]): Promise<string[]> {
  const violations = await page.evaluate(
    async ({ tags, rules }) => {
      const { axe } = window as unknown as { axe: typeof import("axe-core") };
      const result = await axe.run(document, {
        runOnly: rules ? { type: "rule", values: rules } : { type: "tag", values: tags },
        resultTypes: ["violations"],
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
      }));
    },
    { tags: WCAG_TAGS, rules },
  );
  return violations.map(
    (violation) => `${violation.id}: ${violation.help} — ${violation.targets.join(", ")}`,
  );
}

export const SCREENS = "test-results/screens";

/**
 * Pictures of the open page for people to look at: at a phone's width and a laptop's, then dark
 * at the laptop's, saved as `test-results/screens/<name>-<width>[-dark].png`. With `axe` each
 * picture is also checked (after `loadAxe`). The page stays light, at the laptop's width.
 */
export async function screenshots(
  page: Page,
  name: string,
  { dark = true, fullPage = true, axe = false }: { dark?: boolean; fullPage?: boolean; axe?: boolean } = {},
) {
  const take = async (suffix: string) => {
    await page.screenshot({ path: `${SCREENS}/${name}-${suffix}.png`, fullPage });
    if (axe) expect(await axeViolations(page), `${name} ${suffix}`).toEqual([]);
  };
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    // The phone's sidebar slides away, and back on a laptop: wait until it has, all the way (pages
    // outside the shell have none).
    const sidebar = page.getByRole("navigation", { name: "Main" });
    if ((await sidebar.count()) > 0) {
      if (viewport === PHONE) await expect(sidebar).not.toBeInViewport();
      else await expect(sidebar).toBeInViewport({ ratio: 1 });
    }
    await take(String(viewport.width));
  }
  if (!dark) return;
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/dark/);
  await take(`dark-${DESKTOP.width}`);
  await page.emulateMedia({ colorScheme: "light" });
}
