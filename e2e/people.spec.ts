import { expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, PHONE, signInAs, submitSignIn } from "./helpers";

/**
 * Organisations, roles and onboarding: an administrator walks the organisations, their tree and
 * explorer; changes a person's roles; links and unlinks a guardian; onboards a new student, who
 * then signs in with the password shown.
 */

const SCREENS = "test-results/screens";
const unique = () => Math.random().toString(36).slice(2, 8);

async function screenshot(page: Page, name: string) {
  for (const [width, viewport] of [
    [390, PHONE],
    [1280, DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    const sidebar = page.getByRole("navigation", { name: "Main" });
    if (width === 390) await expect(sidebar).not.toBeInViewport();
    else await expect(sidebar).toBeInViewport();
    await page.screenshot({ path: `${SCREENS}/people-${name}-${width}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.screenshot({ path: `${SCREENS}/people-${name}-dark-1280.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });
}

test.use({ viewport: DESKTOP });

test("organizations list → hierarchy tree → explorer", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/organizations");
  await expect(page.getByRole("heading", { name: "Organizations", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: /Organizations with their students/ });
  await expect(table.getByRole("row")).toHaveCount(4);
  await page.getByLabel("Search organizations").fill("MGS");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("link", { name: "Maple Grove School", exact: true })).toBeVisible();
  await page.getByLabel("Search organizations").fill("");
  await expect(table.getByRole("row")).toHaveCount(4);
  await screenshot(page, "organizations");

  await page.getByRole("link", { name: "Hierarchy of Dash Demo District" }).click();
  await expect(page.getByRole("heading", { name: "Organization hierarchy", level: 1 })).toBeVisible();
  const tree = page.getByRole("tree");
  const district = tree.getByRole("treeitem", { name: /Dash Demo District/ });
  await expect(district).toHaveAttribute("aria-expanded", "true");
  const maple = tree.getByRole("treeitem", { name: /^Maple Grove School/ });
  await expect(maple).toHaveAttribute("aria-expanded", "false");

  // Keyboard: focus the tree, go down to Maple Grove, open it, go into its first class.
  await district.focus();
  await page.keyboard.press("ArrowDown");
  await expect(maple).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(maple).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowRight");
  const firstClass = maple.getByRole("treeitem").first();
  await expect(firstClass).toBeFocused();
  await expect(firstClass).toHaveAttribute("aria-level", "3");
  await expect(page.getByRole("heading", { level: 2, name: /· .* group$/ })).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(maple).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(maple).toHaveAttribute("aria-expanded", "false");
  await screenshot(page, "hierarchy");

  await page.getByRole("link", { name: "Explore Maple Grove School" }).click();
  await expect(page.getByRole("heading", { name: "Maple Grove School", level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: /Bar chart of students per grade/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Students per grade" })).toContainText("Grade 3");
  await screenshot(page, "explorer");

  await page.getByRole("tab", { name: "Classes" }).click();
  await page.getByLabel("Search classes").fill("patel");
  const classes = page.getByRole("table", { name: /Classes of Maple Grove School/ });
  await expect(classes.getByRole("row")).toHaveCount(5);
  await expect(classes.getByRole("row", { name: /Science · Patel group/ })).toContainText("Jordan Lee, Maya Patel");

  await page.getByRole("tab", { name: "People" }).click();
  await page.getByLabel("Role").selectOption("teacher");
  const people = page.getByRole("list", { name: "People" });
  await expect(people.getByRole("listitem").filter({ hasText: "Maya Patel" })).toBeVisible();
  await page.getByLabel("Search people").fill("jordan");
  await expect(people.locator(":scope > li")).toHaveCount(1);
  await expect(people).toContainText("multi@dash.demo");
  await screenshot(page, "explorer-people");

  await page.goto("/app/admin/org-explorer/no-such-org");
  await expect(page.getByRole("heading", { name: "Organization not found" })).toBeVisible();
});

test("a Guide sees only their own school, and another school's explorer is refused", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/admin/organizations");
  const table = page.getByRole("table", { name: /Organizations with their students/ });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText("Maple Grove School");
  await expect(page.getByRole("button", { name: /^Edit/ })).toHaveCount(0);
  await page.getByRole("link", { name: "Explore Maple Grove School" }).click();
  await expect(page.getByRole("heading", { name: "Maple Grove School", level: 1 })).toBeVisible();
  await page.goto(`/app/admin/org-explorer/${demoId("riverside")}`);
  await expect(page.getByRole("heading", { name: "This organization is not yours to see" })).toBeVisible();
  await expect(page.getByText("Guides can only see the organizations they teach at")).toBeVisible();
});
