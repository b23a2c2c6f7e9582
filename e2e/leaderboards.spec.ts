import { expect, type Page, test } from "@playwright/test";
import { currentUrl, DESKTOP, signInAs } from "./helpers";

/**
 * The leaderboards as each reader meets them: a student finds their place and moves between
 * scopes and periods (kept in the address, bad values falling back to the defaults), a parent sees
 * their children's standing with other children left anonymous, a Guide puts the class on the
 * screen, and an administrator narrows the district to a school.
 */

test.use({ viewport: DESKTOP });

const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
const board = (page: Page) => page.getByRole("tabpanel");
/** The reader's own row (or their child's): on the podium or in the list. */
const ownRow = (page: Page) => board(page).locator('[aria-current="true"]');

test("a student finds their place and switches scope and period in the address", async ({ page }) => {
  await signInAs(page, "student@dash.demo", "/app/leaderboards");
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboards" })).toBeVisible();
  await expect(tab(page, "Class")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "This week")).toHaveAttribute("aria-selected", "true");
  await expect(board(page).getByRole("heading", { name: "Class · This week" })).toBeVisible();
  await expect(ownRow(page)).toHaveCount(1);
  await expect(ownRow(page)).toContainText("Ava Johnson");
  await expect(ownRow(page)).toContainText("You");
  await expect(ownRow(page)).toContainText(/\d XP/);
  // Classmates show by first name and initial, never in full.
  await expect(
    board(page)
      .getByText(/^[A-Z][a-z]+ [A-Z]\.$/)
      .first(),
  ).toBeVisible();

  await tab(page, "School").click();
  await expect(page).toHaveURL(/scope=school/);
  await expect(tab(page, "School")).toHaveAttribute("aria-selected", "true");
  await expect(board(page).getByRole("heading", { name: "School · This week" })).toBeVisible();
  await expect(ownRow(page)).toContainText("You");

  await tab(page, "Today").click();
  await expect(page).toHaveURL(/tf=today/);
  await expect(board(page).getByRole("heading", { name: "School · Today" })).toBeVisible();
  await tab(page, "This week").click();
  await expect(page).toHaveURL(/tf=week/);
  expect(currentUrl(page).searchParams.get("scope")).toBe("school");
  await expect(board(page).getByRole("heading", { name: "School · This week" })).toBeVisible();

  // The arrow keys move between the tabs; Enter opens the one in focus.
  await tab(page, "School").focus();
  await page.keyboard.press("ArrowRight");
  await expect(tab(page, "League")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/scope=league/);
  await expect(board(page).getByText(/Top 7 move up, bottom 5 move down on/)).toBeVisible();
  await expect(ownRow(page)).toContainText("You");
});

test("bad search parameters fall back to the defaults without an error", async ({ page }) => {
  await signInAs(page, "student@dash.demo", "/app/leaderboards?scope=bogus&tf=year&p=-3");
  await expect(tab(page, "Class")).toHaveAttribute("aria-selected", "true");
  await expect(tab(page, "This week")).toHaveAttribute("aria-selected", "true");
  await expect(board(page).getByRole("heading", { name: "Class · This week" })).toBeVisible();
  await expect(ownRow(page)).toContainText("You");
  await expect(page.getByRole("alert")).toHaveCount(0);
  // The class fits on one page: no pager, so no page beyond the first.
  await expect(page.getByText(/^Page \d+ of/)).toHaveCount(0);
});

test("a parent sees each child's standing, other children anonymous, and may hide a child", async ({
  page,
}) => {
  await signInAs(page, "parent@dash.demo", "/app/leaderboards");
  const children = page.getByRole("navigation", { name: "Your children" });
  await expect(children.getByRole("link", { name: "Ava Johnson" })).toHaveAttribute("aria-current", "page");
  await expect(ownRow(page)).toContainText("Ava Johnson");
  await expect(ownRow(page)).toContainText("Your child");
  await expect(board(page).getByText("A student").first()).toBeVisible();

  const hideAva = page.getByRole("switch", { name: "Hide Ava from other students' leaderboards" });
  await expect(hideAva).not.toBeChecked();
  // A click and then the state the server answered: the switch shows the request's value while it runs.
  await hideAva.click();
  await expect(page.getByText("Ava is now hidden from other students' leaderboards.")).toBeVisible();
  await expect(hideAva).toBeChecked();
  await hideAva.click();
  await expect(page.getByText("Ava shows on leaderboards again.")).toBeVisible();
  await expect(hideAva).not.toBeChecked();

  // Leo's family hid him from the start (the demo school's data).
  await children.getByRole("link", { name: "Leo Johnson" }).click();
  await expect(page).toHaveURL(/child=/);
  await expect(ownRow(page)).toContainText("Leo Johnson");
  await expect(
    page.getByRole("switch", { name: "Hide Leo from other students' leaderboards" }),
  ).toBeChecked();
});

test("a Guide puts the class's top ten on the screen", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/class-leaderboard");
  await expect(page.getByRole("heading", { level: 1, name: "Class leaderboard" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /· This week$/ })).toBeVisible();
  await expect(page.getByText(/^Updated \d/)).toBeVisible();
  const places = board(page).getByRole("listitem");
  expect(await places.count()).toBeLessThanOrEqual(10);
  await tab(page, "Today").click();
  await expect(tab(page, "Today")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { level: 2, name: /· Today$/ })).toBeVisible();
});

test("an administrator ranks the district and narrows it to a school", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/leaderboards");
  await expect(page.getByRole("heading", { level: 1, name: "District leaderboards" })).toBeVisible();
  await expect(tab(page, "Everyone")).toHaveAttribute("aria-selected", "true");
  const table = page.getByRole("table");
  await expect(table.locator("tbody tr")).toHaveCount(25);
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await expect(page.getByText(/^153 students ·/)).toBeVisible();
  // Full names, each opening the student's learning metrics.
  await expect(table.locator("tbody").getByRole("link").first()).toHaveAttribute(
    "href",
    /\/app\/learning-metrics\?studentId=/,
  );

  await page.getByLabel("School", { exact: true }).selectOption({ label: "Maple Grove School" });
  await expect(page).toHaveURL(/school=/);
  await expect(page.getByText(/^77 students ·/)).toBeVisible();
  await expect(table.locator("tbody tr").first()).toBeVisible();

  await tab(page, "One school").click();
  await expect(page).toHaveURL(/scope=school/);
  await expect(page.getByText(/^77 students ·/)).toBeVisible();
  expect(currentUrl(page).searchParams.get("school")).toBeTruthy();

  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText(/^Page 2 of 4$/)).toBeVisible();
});
