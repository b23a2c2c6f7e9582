import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { PublicConfig } from "../src/shared/contracts/config";
import type { DashRole } from "../src/shared/roles";
import { NAV_GROUPS, sidebarRoutes } from "../src/shared/routes";
import { apiSignIn, currentUrl, DESKTOP, PHONE, signInAs } from "./helpers";

/**
 * Journeys through the signed-in shell: the sidebar of each role, the route guards, search
 * validation on placeholder pages, role switching, viewing as someone else, the help button,
 * debug mode, Not Found and the route error screen.
 */

const ROLE_COOKIE = "selectedUserRole";
const AUTH_CACHE_KEY = "dash-auth";
const DEBUG_MODE_KEY = "debug-mode";
const SUPPORT_URL = "https://support.dash.school";
const DAY_SECONDS = 24 * 60 * 60;

test.use({ viewport: DESKTOP });

const sidebar = (page: Page) => page.getByRole("navigation", { name: "Main" });
const sidebarLink = (page: Page, title: string) =>
  sidebar(page).getByRole("link", { name: title, exact: true });
/** The header's Role select (exact: the home page also has a list labelled "Roles"). */
const roleSelect = (page: Page) => page.getByLabel("Role", { exact: true });
const helpLink = (page: Page) => page.getByRole("link", { name: "Get Help & Support" });
/** The header's "who am I" lines: the real user's name and the active role. */
const headerLine = (page: Page, text: string) =>
  page
    .getByRole("banner")
    .locator("p")
    .filter({ hasText: new RegExp(`^${text}$`) });
const impersonationBanner = (page: Page) => page.getByRole("status").filter({ hasText: "Viewing as" });

/** Waits until the address has this path (whatever its search). */
async function expectPath(page: Page, pathname: string) {
  await expect(page).toHaveURL((url) => url.pathname === pathname);
}

async function localStorageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((name) => localStorage.getItem(name), key);
}

async function roleCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === ROLE_COOKIE);
}

/** The sidebar titles the route table promises to the signed-in user in their active role, in order. */
async function expectedSidebar(page: Page): Promise<string[]> {
  const me = await (await page.request.get("/api/auth/me")).json();
  const config = (await (await page.request.get("/api/config")).json()) as PublicConfig;
  const user = me.impersonatedUser ?? me.user;
  const subject = {
    activeRole: me.selectedRole as DashRole | null,
    primaryOrgId: (user.primaryOrg?.sourcedId as string | undefined) ?? null,
    classLeaderboardOrgId: config.classLeaderboardOrgId,
  };
  return NAV_GROUPS.flatMap((group) => sidebarRoutes(group, subject).map((route) => route.title));
}

/** Opens the View-as dialog of a person listed in the panel and starts viewing with a reason. */
async function startViewingAs(page: Page, search: string, name: string, reason: string) {
  await page.getByLabel("Search people").fill(search);
  await page.getByRole("button", { name: `View as ${name}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `View as ${name}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Reason").fill(reason);
  await dialog.getByRole("button", { name: "Start viewing" }).click();
  await expect(impersonationBanner(page)).toContainText(`Viewing as ${name}`);
  await expectPath(page, "/app");
}

async function stopViewing(page: Page) {
  await impersonationBanner(page).getByRole("button", { name: "Stop" }).click();
  await expect(impersonationBanner(page)).toHaveCount(0);
  await expectPath(page, "/app");
}

test.describe("sidebar per role", () => {
  const cases: { email: string; shows: string[]; hides: string[] }[] = [
    {
      email: "student@dash.demo",
      shows: ["Home", "Learning metrics", "Goals", "Emporium", "XP stats", "My learning report"],
      hides: ["Roles", "Manual XP", "Emporium monitor", "My children", "Pending incidents"],
    },
    {
      email: "guide@dash.demo",
      shows: ["Manual XP", "Emporium monitor", "Goals", "Leaderboards", "Pending incidents"],
      hides: ["Roles", "My children", "Manage courses", "My learning report"],
    },
    {
      email: "parent@dash.demo",
      shows: ["My children", "Children's progress", "Leaderboards", "Emporium approvals"],
      hides: ["Goals", "Emporium", "Roles", "Manual XP", "Check chart"],
    },
    {
      email: "admin@dash.demo",
      shows: ["Roles", "Manage courses", "Manual XP", "Manage enrollments", "District leaderboards"],
      hides: ["My children", "Leaderboards", "My learning report", "Children's progress"],
    },
    {
      email: "proctor@dash.demo",
      shows: ["Home", "Pending incidents", "Resolved incidents", "Courses"],
      hides: ["Learning metrics", "XP stats", "Goals", "Roles"],
    },
  ];

  for (const { email, shows, hides } of cases) {
    test(`${email} sees the pages of the role and no others`, async ({ page }) => {
      await signInAs(page, email);
      const nav = sidebar(page);
      await expect(nav).toBeVisible();
      for (const title of shows) await expect(sidebarLink(page, title), `${title} is listed`).toBeVisible();
      for (const title of hides)
        await expect(sidebarLink(page, title), `${title} is not listed`).toHaveCount(0);

      // The whole list follows the route table, group by group.
      await expect(nav.locator("li a")).toHaveText(await expectedSidebar(page));
      await expect(sidebarLink(page, "Home")).toHaveAttribute("aria-current", "page");
    });
  }
});

test.describe("denied pages redirect", () => {
  test("a student is sent away from staff pages", async ({ page }) => {
    await signInAs(page, "student@dash.demo");
    for (const [from, to] of [
      ["/app/admin/roles", "/app"],
      ["/app/xp/manual", "/app/xp-stats"],
      ["/app/courses", "/app"],
      ["/app/app-store", "/app"],
    ] as const) {
      await page.goto(from);
      await expectPath(page, to);
      await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toBeVisible();
    }
    await expect(page.getByRole("main").getByRole("heading", { name: "Ava Johnson" })).toBeVisible();
    await page.goto("/app/xp/manual");
    await expectPath(page, "/app/xp-stats");
    await expect(page.getByRole("heading", { name: "XP stats", level: 1 })).toBeVisible();
  });

  test("a parent is sent away from Goals and the app store", async ({ page }) => {
    await signInAs(page, "parent@dash.demo");
    for (const from of ["/app/goals", "/app/app-store"]) {
      await page.goto(from);
      await expectPath(page, "/app");
      await expect(page.getByRole("main").getByRole("heading", { name: "Sam Johnson" })).toBeVisible();
    }
  });

  test("an administrator's old courses page and the app store always redirect", async ({ page }) => {
    await signInAs(page, "admin@dash.demo");
    await page.goto("/app/admin/courses");
    await expectPath(page, "/app/admin/manage-courses");
    await expect(page.getByRole("heading", { name: "Manage courses", level: 1 })).toBeVisible();
    await page.goto("/app/app-store");
    await expectPath(page, "/app");
    await expect(page.getByRole("main").getByRole("heading", { name: "Alex Morgan" })).toBeVisible();
  });
});

test.describe("pages validate their search", () => {
  test("District leaderboards keep a valid period and drop an unknown scope", async ({ page }) => {
    await signInAs(page, "admin@dash.demo", "/app/admin/leaderboards?scope=league&tf=month");
    await expect(page.getByRole("heading", { name: "District leaderboards", level: 1 })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Everyone", exact: true })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await expect(page.getByRole("tab", { name: "This month", exact: true })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  });
});

test.describe("role switching", () => {
  test("a Guide who is also a student switches to Student and back with Reset", async ({ page, context }) => {
    await signInAs(page, "multi@dash.demo");
    const role = roleSelect(page);
    await expect(role.locator("option")).toHaveText(["Guide", "Student"]);
    await expect(role.locator("option:checked")).toHaveText("Guide");
    await expect(headerLine(page, "Jordan Lee")).toBeVisible();
    await expect(headerLine(page, "Guide")).toBeVisible();
    await expect(page.getByRole("button", { name: "Reset" })).toHaveCount(0);
    expect(await roleCookie(context)).toBeUndefined();

    await role.selectOption({ label: "Student" });
    // The page reloads and the server answers in the new role.
    await expect(headerLine(page, "Student")).toBeVisible();
    await expect(role.locator("option:checked")).toHaveText("Student");
    const cookie = await roleCookie(context);
    expect(cookie?.value).toBe("student");
    expect(cookie?.path).toBe("/");
    expect(cookie?.sameSite).toBe("Lax");
    const thirtyDays = Date.now() / 1000 + 30 * DAY_SECONDS;
    expect(Math.abs((cookie?.expires ?? 0) - thirtyDays)).toBeLessThan(DAY_SECONDS);

    await expect(sidebarLink(page, "Manual XP")).toHaveCount(0);
    await expect(sidebarLink(page, "My learning report")).toBeVisible();
    await page.goto("/app/xp/manual");
    await expectPath(page, "/app/xp-stats");
    await expect(helpLink(page)).toHaveCount(0);

    await page.getByRole("button", { name: "Reset" }).click();
    await expect(headerLine(page, "Guide")).toBeVisible();
    await expect(role.locator("option:checked")).toHaveText("Guide");
    await expect(page.getByRole("button", { name: "Reset" })).toHaveCount(0);
    expect(await roleCookie(context)).toBeUndefined();
    await expect(helpLink(page)).toBeVisible();
    await page.goto("/app/xp/manual");
    await expectPath(page, "/app/xp/manual");
    await expect(page.getByRole("heading", { name: "Manual XP", level: 1 })).toBeVisible();
  });

  test("someone with a single role has no Role select", async ({ page }) => {
    for (const email of ["student@dash.demo", "admin@dash.demo"]) {
      await signInAs(page, email);
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
      await expect(roleSelect(page)).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Reset" })).toHaveCount(0);
    }
  });
});

test.describe("viewing as someone else", () => {
  test("an administrator views as Ava Johnson, loses admin pages, stops, and the log shows it", async ({
    page,
  }) => {
    const reason = "Checking what Ava sees (e2e)";
    await signInAs(page, "admin@dash.demo", "/app/admin/roles");
    await expect(page.getByRole("tab", { name: "Users" })).toHaveAttribute("aria-selected", "true");
    await startViewingAs(page, "Ava", "Ava Johnson", reason);

    await expect(impersonationBanner(page)).toContainText("(Student)");
    await expect(headerLine(page, "Alex Morgan")).toBeVisible();
    await expect(headerLine(page, "Student")).toBeVisible();
    await expect(page.getByRole("main").getByRole("heading", { name: "Ava Johnson" })).toBeVisible();
    await expect(sidebarLink(page, "Roles")).toHaveCount(0);
    await expect(helpLink(page)).toHaveCount(0);

    const me = await (await page.request.get("/api/auth/me")).json();
    expect(me.impersonatedUser?.givenName).toBe("Ava");
    const cache = JSON.parse((await localStorageItem(page, AUTH_CACHE_KEY)) ?? "null");
    expect(cache).toMatchObject({ onerosterId: me.user.sourcedId, isImpersonated: true });

    await page.goto("/app/admin/roles");
    await expectPath(page, "/app");
    await expect(impersonationBanner(page)).toBeVisible();

    await stopViewing(page);
    await expect(headerLine(page, "Administrator")).toBeVisible();
    await expect(page.getByRole("main").getByRole("heading", { name: "Alex Morgan" })).toBeVisible();
    const after = JSON.parse((await localStorageItem(page, AUTH_CACHE_KEY)) ?? "null");
    expect(after).toMatchObject({ onerosterId: me.user.sourcedId, isImpersonated: false });

    await page.goto("/app/admin/roles");
    await expectPath(page, "/app/admin/roles");
    await expect(page.getByRole("heading", { name: "Viewing-as log" })).toBeVisible();
    const started = page
      .getByRole("row")
      .filter({ hasText: "Ava Johnson" })
      .filter({ hasText: "Started" })
      .filter({ hasText: reason });
    await expect(started).toHaveCount(1);
    await expect(started).toContainText("Alex Morgan");
    await expect(
      page.getByRole("row").filter({ hasText: "Ava Johnson" }).filter({ hasText: "Stopped" }),
    ).toHaveCount(1);
  });

  test("a Guide views as one of their students, not as someone else's", async ({ page }) => {
    await signInAs(page, "guide@dash.demo");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Your students" })).toBeVisible();

    // Leo Johnson, Ava's brother, is at another school: not one of Maya Patel's students. (Her
    // group has a Leo of its own, Leo Scott, so the search is for the full name.)
    const search = page.getByLabel("Search people");
    await search.fill("Leo");
    await expect(main.getByRole("button", { name: "View as Leo Scott" })).toBeVisible();
    await expect(main.getByRole("button", { name: "View as Leo Johnson" })).toHaveCount(0);
    // Families are listed under their student: Ava's parent and guardian under Ava.
    await search.fill("Sam Johnson");
    const avasFamily = main.getByRole("list", { name: "Family of Ava Johnson" });
    await expect(avasFamily.getByRole("button", { name: "View as Sam Johnson" })).toBeVisible();
    await expect(avasFamily.getByRole("button", { name: "View as Grace Miller" })).toBeVisible();
    await search.fill("Leo Johnson");
    await expect(main.getByText("Nobody matches.")).toBeVisible();
    await expect(main.getByRole("button", { name: /^View as / })).toHaveCount(0);

    await startViewingAs(page, "Ava", "Ava Johnson", "Helping Ava find her goals");
    await expect(headerLine(page, "Maya Patel")).toBeVisible();
    await expect(headerLine(page, "Student")).toBeVisible();
    await expect(main.getByRole("heading", { name: "Your students" })).toHaveCount(0);

    await stopViewing(page);
    await expect(headerLine(page, "Guide")).toBeVisible();
    await expect(main.getByRole("heading", { name: "Your students" })).toBeVisible();
  });
});

test.describe("help button", () => {
  test("shows for a Guide, a parent and an administrator, and not for a student", async ({ page }) => {
    for (const email of ["guide@dash.demo", "parent@dash.demo", "admin@dash.demo"]) {
      await signInAs(page, email);
      const help = helpLink(page);
      await expect(help, email).toBeVisible();
      await expect(help).toHaveAttribute("target", "_blank");
      await expect(help).toHaveAttribute("href", SUPPORT_URL);
      await expect(help).toHaveAttribute("rel", /noopener/);
    }
    await signInAs(page, "student@dash.demo");
    await expect(page.getByRole("main").getByRole("heading", { name: "Ava Johnson" })).toBeVisible();
    await expect(helpLink(page)).toHaveCount(0);
  });
});

test.describe("debug mode", () => {
  test("Ctrl+Shift+D toggles it for an administrator; a student's stored flag is cleared", async ({
    page,
  }) => {
    await signInAs(page, "admin@dash.demo");
    const badge = page.getByRole("banner").getByText("Debug", { exact: true });
    await expect(page.getByRole("main").getByRole("heading", { name: "Alex Morgan" })).toBeVisible();
    await expect(badge).toHaveCount(0);

    await page.keyboard.press("Control+Shift+D");
    await expect(badge).toBeVisible();
    expect(await localStorageItem(page, DEBUG_MODE_KEY)).toBe("true");
    await page.reload();
    await expect(badge, "debug mode survives a reload").toBeVisible();

    await page.keyboard.press("Control+Shift+D");
    await expect(badge).toHaveCount(0);
    expect(await localStorageItem(page, DEBUG_MODE_KEY)).toBeNull();

    await signInAs(page, "student@dash.demo");
    await page.evaluate((key) => localStorage.setItem(key, "true"), DEBUG_MODE_KEY);
    await page.reload();
    await expect(page.getByRole("main").getByRole("heading", { name: "Ava Johnson" })).toBeVisible();
    await expect.poll(() => localStorageItem(page, DEBUG_MODE_KEY)).toBeNull();
    await expect(badge).toHaveCount(0);
    await page.keyboard.press("Control+Shift+D");
    await expect(badge).toHaveCount(0);
    expect(await localStorageItem(page, DEBUG_MODE_KEY)).toBeNull();
  });
});

test.describe("unknown and failing pages", () => {
  test("an unknown address inside /app shows Not Found within the shell", async ({ page }) => {
    await signInAs(page, "guide@dash.demo", "/app/does-not-exist");
    expect(currentUrl(page).pathname).toBe("/app/does-not-exist");
    await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
    await expect(sidebar(page)).toBeVisible();
    await expect(sidebarLink(page, "Manual XP")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  });

  test("a failing /api/config shows the error screen, and Try Again recovers", async ({ page }) => {
    const message = "The configuration is unavailable (e2e)";
    await apiSignIn(page, "admin@dash.demo");
    await page.route("**/api/config", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ code: "internal", message }),
      }),
    );
    await page.goto("/app");

    const screen = page
      .getByRole("alert")
      .filter({ has: page.getByRole("heading", { name: "Something went wrong!" }) });
    await expect(screen).toBeVisible();
    await expect(sidebar(page)).toHaveCount(0);
    await expect(screen.getByText(message)).toHaveCount(0);
    await screen.getByRole("button", { name: "Show error" }).click();
    await expect(screen.getByText(message)).toBeVisible();
    await screen.getByRole("button", { name: "Hide error" }).click();
    await expect(screen.getByText(message)).toHaveCount(0);
    await expect(screen.getByRole("button", { name: "Show error" })).toBeVisible();
    // The signed-in layout failed, not the root: the way out is Go Back, not Home.
    await expect(screen.getByRole("button", { name: "Go Back" })).toBeVisible();
    await expect(screen.getByRole("link", { name: "Home" })).toHaveCount(0);

    await page.unroute("**/api/config");
    await screen.getByRole("button", { name: "Try Again" }).click();
    await expect(sidebar(page)).toBeVisible();
    await expect(page.getByRole("main").getByRole("heading", { name: "Alex Morgan" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Something went wrong!" })).toHaveCount(0);
  });
});

/** A full-page screenshot in test-results/screens, once transitions are over, and no sideways scrolling. */
async function screenshot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage, animations: "disabled" });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name}: no sideways scrolling`).toBeLessThanOrEqual(0);
}

test.describe("screenshots", () => {
  test("on a phone the menu slides in and closes", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInAs(page, "student@dash.demo");
    await expect(sidebar(page)).not.toBeInViewport();
    await page.getByRole("button", { name: "Menu" }).click();
    // The menu slides in: wait until it is all the way in.
    await expect.poll(async () => (await sidebar(page).boundingBox())?.x).toBe(0);
    await screenshot(page, `shell-student-${PHONE.width}-menu`, false);
    // Focus moves in and stays in; Escape closes and returns it to the Menu button.
    const close = sidebar(page).getByRole("button", { name: "Close", exact: true });
    await expect(close).toBeFocused();
    for (const key of ["Shift+Tab", "Shift+Tab", "Tab", "Tab", "Tab"]) {
      await page.keyboard.press(key);
      await expect(sidebar(page).locator(":focus"), `${key} stays in the menu`).toHaveCount(1);
    }
    await page.keyboard.press("Escape");
    await expect(sidebar(page)).not.toBeInViewport();
    await expect(page.getByRole("button", { name: "Menu" })).toBeFocused();
    // Closed, its links are out of the Tab order.
    await expect(sidebar(page).getByRole("link").first()).toBeHidden();

    await page.getByRole("button", { name: "Menu" }).click();
    await close.click();
    await expect(sidebar(page)).not.toBeInViewport();
  });

  test("the viewing-as banner at phone and desktop widths", async ({ page }) => {
    await signInAs(page, "admin@dash.demo", "/app/admin/roles");
    await startViewingAs(page, "Ava", "Ava Johnson", "Screenshot of the banner");
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await page.goto("/app/surveys");
      await expect(impersonationBanner(page)).toBeVisible();
      await screenshot(page, `shell-impersonation-${size.width}`);
      // A short page does not scroll just because the banner is there.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(size.height);

      // On a long page, scrolled down, the banner and the header below it both stay in view.
      await page.evaluate(() => document.querySelector("main")?.style.setProperty("min-height", "3000px"));
      await page.mouse.wheel(0, 1500);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
      const control = page.getByRole("button", { name: size === PHONE ? "Menu" : "Sign out" });
      await expect(impersonationBanner(page)).toBeInViewport({ ratio: 1 });
      await expect(control).toBeInViewport({ ratio: 1 });
      const bannerBox = await impersonationBanner(page).boundingBox();
      const controlBox = await control.boundingBox();
      expect(controlBox?.y ?? 0, "the header is below the banner, not under it").toBeGreaterThanOrEqual(
        (bannerBox?.y ?? 0) + (bannerBox?.height ?? 0),
      );
      await screenshot(page, `shell-impersonation-${size.width}-scrolled`, false);
      await control.click({ trial: true });
    }
    await stopViewing(page);
  });
});
