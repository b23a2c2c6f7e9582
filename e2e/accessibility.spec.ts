import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import type { PublicConfig } from "../src/shared/contracts/config";
import type { DashRole } from "../src/shared/roles";
import { type AccessSubject, decideAccess, type PageRoute, routes } from "../src/shared/routes";
import { apiSignIn, axeViolations, loadAxe } from "./helpers";

/**
 * The walk: every page of the route table, for each role allowed there and signed out for the
 * public ones. On each page, axe checks WCAG 2.0, 2.1 and 2.2 A and AA in the light theme at a
 * laptop's width and in the dark theme at a phone's; the page has one h1 and a main landmark, and
 * scrolls sideways at none of the phone, tablet and laptop widths; a phone-width screenshot goes
 * to test-results/screens/walk. A page added to the table is walked without anyone adding it here.
 *
 * Some pages: `WALK_PAGE=/app/xp-stats,/app/goals npx playwright test e2e/accessibility.spec.ts`.
 */

const SCREENS = "test-results/screens/walk";

const LAPTOP = { width: 1366, height: 900 };
const TABLET = { width: 768, height: 1024 };
const PHONE = { width: 360, height: 740 };

/** Demo values for the route table's path parameters: a page with a new parameter adds it here. */
const PARAMS: Record<string, string> = {
  studentId: demoId("student-ava"),
  childId: demoId("student-ava"),
  courseId: demoId("course-maple-grove-Math"),
  sourcedId: demoId("course-maple-grove-Math"),
  classId: demoId("class-maple-grove-guide-patel-Math"),
  orgId: demoId("maple-grove"),
  qtiId: "demo-item",
  lessonId: demoId("lesson-ocean-octopus"),
  surveyId: demoId("survey-student-mood"),
};

/** One demo account per role. */
const WALKERS: { email: string; role: DashRole }[] = [
  { email: "student@dash.demo", role: "student" },
  { email: "guide@dash.demo", role: "teacher" },
  { email: "parent@dash.demo", role: "parent" },
  { email: "guardian@dash.demo", role: "guardian" },
  { email: "proctor@dash.demo", role: "proctor" },
  { email: "admin@dash.demo", role: "administrator" },
];

function addressOf(route: PageRoute): string {
  const path = route.path.replace(/\$(\w+)/g, (_, name: string) => {
    const value = PARAMS[name];
    if (!value) throw new Error(`the walk has no demo value for $${name} (${route.path}): add one to PARAMS`);
    return value;
  });
  return path === "/app/" ? "/app" : path.replace(/(.)\/$/, "$1");
}

const onlyPages = process.env.WALK_PAGE?.split(",");
const walked = (route: PageRoute) =>
  !route.alwaysRedirectTo && (!onlyPages || onlyPages.includes(addressOf(route)));

interface Finding {
  page: string;
  problem: string;
}

/**
 * Opens a page. The first of a walk loads the app; the others go through the app's own history,
 * as a click on a link does, so that the walk spends its time on the pages and not on reloading.
 */
async function open(page: Page, address: string, route: PageRoute, isFirst: boolean) {
  if (isFirst) await page.goto(address);
  else
    await page.evaluate((to) => {
      const state = window.history.state ?? {};
      window.history.pushState({ ...state, __TSR_index: (state.__TSR_index ?? 0) + 1 }, "", to);
    }, address);
  await expect(page.locator("#route-announcer")).toHaveText(route.title);
  await expect(page.locator("[data-loading], [aria-busy='true']")).toHaveCount(0);
}

/** How far the page scrolls sideways, once charts have followed a new width. */
async function sidewaysScroll(page: Page) {
  let overflow = 0;
  await expect
    .poll(
      async () => {
        overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        return overflow;
      },
      { timeout: 2_000 },
    )
    .toBeLessThanOrEqual(0)
    .catch(() => undefined);
  return overflow;
}

/** Every check of one open page; answers what it found. */
async function check(page: Page, label: string, screenshotName: string): Promise<Finding[]> {
  const found: string[] = [];
  const structure = await page.evaluate(() => ({
    h1: document.querySelectorAll("h1").length,
    main: document.querySelectorAll("main, [role='main']").length,
  }));
  if (structure.h1 !== 1) found.push(`${structure.h1} h1 headings instead of one`);
  if (structure.main !== 1) found.push(`${structure.main} main landmarks instead of one`);

  await page.setViewportSize(LAPTOP);
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  found.push(...(await axeViolations(page)).map((line) => `[light] ${line}`));
  const laptopOverflow = await sidewaysScroll(page);
  if (laptopOverflow > 0) found.push(`scrolls ${laptopOverflow}px sideways at ${LAPTOP.width}px`);

  await page.setViewportSize(TABLET);
  const tabletOverflow = await sidewaysScroll(page);
  if (tabletOverflow > 0) found.push(`scrolls ${tabletOverflow}px sideways at ${TABLET.width}px`);

  await page.setViewportSize(PHONE);
  await page.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
  const phoneOverflow = await sidewaysScroll(page);
  if (phoneOverflow > 0) found.push(`scrolls ${phoneOverflow}px sideways at ${PHONE.width}px`);
  found.push(...(await axeViolations(page)).map((line) => `[dark, phone] ${line}`));
  await page.screenshot({ path: `${SCREENS}/${screenshotName}.png`, fullPage: true, animations: "disabled" });
  return found.map((problem) => ({ page: label, problem }));
}

function screenshotNameOf(address: string, who: string) {
  return `${who}${address.replaceAll("/", "_") || "_"}`;
}

const report = (findings: Finding[]) => findings.map((finding) => `${finding.page} ${finding.problem}`);

test.describe("the walk", () => {
  test.describe.configure({ timeout: 10 * 60_000 });
  test.beforeAll(() => mkdirSync(SCREENS, { recursive: true }));

  test("signed out: the public pages", async ({ page }) => {
    await loadAxe(page);
    const findings: Finding[] = [];
    const pages = (routes as readonly PageRoute[]).filter(
      (route) => route.access === "public" && walked(route),
    );
    for (const route of pages) {
      const address = addressOf(route);
      await page.setViewportSize(LAPTOP);
      await open(page, address, route, true);
      findings.push(...(await check(page, address, screenshotNameOf(address, "public"))));
    }
    expect(report(findings)).toEqual([]);
  });

  for (const walker of WALKERS) {
    test(`${walker.role}: every page the role may open`, async ({ page }) => {
      await loadAxe(page);
      await apiSignIn(page, walker.email);
      const me = await (await page.request.get("/api/auth/me")).json();
      const config = (await (await page.request.get("/api/config")).json()) as PublicConfig;
      const subject: AccessSubject = {
        activeRole: me.selectedRole,
        primaryOrgId: me.user.primaryOrg?.sourcedId ?? null,
        classLeaderboardOrgId: config.classLeaderboardOrgId,
      };
      expect(subject.activeRole).toBe(walker.role);
      const pages = (routes as readonly PageRoute[]).filter(
        (route) => route.access !== "public" && walked(route) && decideAccess(route, subject).allowed,
      );
      const findings: Finding[] = [];
      for (const [index, route] of pages.entries()) {
        const address = addressOf(route);
        await page.setViewportSize(LAPTOP);
        await open(page, address, route, index === 0);
        findings.push(
          ...(await check(page, `${address} (${walker.role})`, screenshotNameOf(address, walker.role))),
        );
      }
      expect(report(findings)).toEqual([]);
    });
  }
});
