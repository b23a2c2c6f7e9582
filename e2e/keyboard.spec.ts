import { expect, type Locator, type Page, test } from "@playwright/test";
import { DEMO_PASSWORD, DESKTOP, signInAs } from "./helpers";

/**
 * Journeys made with the keyboard alone, and one made in Spanish. Every stop of the Tab key shows
 * where focus is (an outline or a ring), and focus never sticks on one element.
 */

test.use({ viewport: DESKTOP });

/** What has focus, and whether it shows it. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { tag: "body", text: "", isShown: false };
    const style = getComputedStyle(element);
    const hasOutline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
    const hasRing = style.boxShadow !== "none";
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 60),
      isShown: hasOutline || hasRing,
    };
  });
}

/** Presses Tab until `target` has focus; every stop on the way must show its focus. */
async function tabTo(page: Page, target: Locator, maxStops = 40) {
  for (let stop = 0; stop < maxStops; stop += 1) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    expect(now.isShown, `focus is visible on <${now.tag}> "${now.text}"`).toBe(true);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach the element within ${maxStops} stops`);
}

test("sign-in with the keyboard alone", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await tabTo(page, page.getByLabel("Email"));
  await page.keyboard.type("student@dash.demo");
  await tabTo(page, page.getByLabel("Password"), 3);
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole("main").getByRole("heading", { name: "Ava Johnson", level: 1 })).toBeVisible();
});

test("a student's home from the keyboard: the skip link, then every control in turn", async ({ page }) => {
  await signInAs(page, "student@dash.demo");
  await expect(page.getByRole("list", { name: "Today's goals" })).toBeVisible();

  // The first stop is the skip link, which shows itself and moves focus to the page's content.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();

  // From there Tab visits the page's controls, each showing its focus, and leaves the page at the
  // end instead of sticking anywhere.
  const seen: string[] = [];
  for (let stop = 0; stop < 60; stop += 1) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (now.tag === "body") break;
    expect(now.isShown, `focus is visible on <${now.tag}> "${now.text}"`).toBe(true);
    const key = `${now.tag}:${now.text}`;
    expect(seen.at(-1), `focus moved on from <${now.tag}> "${now.text}"`).not.toBe(key);
    seen.push(key);
  }
  expect(seen.length).toBeGreaterThan(3);

  // The role's pages are reached from the sidebar by keyboard too.
  await page.getByRole("link", { name: "Skip to content" }).focus();
  await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "XP stats" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "XP stats", level: 1 })).toBeVisible();
});

test("a parent switches to Spanish: the pages, dates and numbers follow, and the choice stays", async ({
  page,
}) => {
  await signInAs(page, "parent@dash.demo");
  const main = page.getByRole("main");
  await expect(main.getByRole("list", { name: "Your children" })).toBeVisible();

  await page.locator("header").getByLabel("Language").selectOption("es");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(main.getByRole("list", { name: "Sus hijos" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Principal" })).toBeVisible();
  // The heatmap's days are written in Spanish.
  const cells = main.getByRole("grid").first().getByRole("gridcell");
  await expect(cells.first()).toHaveAttribute(
    "aria-label",
    /^(dom|lun|mar|mié|jue|vie|sáb), \d{1,2} de [a-z]{3}\.?: [\d.,\s]+ XP$/,
  );

  // The choice is kept with the account: a new visit opens in Spanish.
  await page.reload();
  await expect(main.getByRole("list", { name: "Sus hijos" })).toBeVisible();

  // And back to English, as the rest of the suite expects of this account.
  await page.locator("header").getByLabel("Idioma").selectOption("en");
  await expect(main.getByRole("list", { name: "Your children" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("a student asks for an item from the emporium with the keyboard alone", async ({ page }) => {
  await signInAs(page, "student@dash.demo", "/app/emporium");
  const request = page.getByRole("button", { name: "Request Snack of your choice" });
  await expect(request).toBeEnabled();
  await page.getByRole("link", { name: "Skip to content" }).focus();
  await tabTo(page, request, 120);
  await page.keyboard.press("Enter");

  // The dialog takes focus and holds it; its confirm button is a few stops away.
  const dialog = page.getByRole("dialog", { name: "Ask for Snack of your choice?" });
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole("button", { name: "Yes, ask for it" }), 4);
  await page.keyboard.press("Enter");
  await expect(page.getByText("You asked for Snack of your choice.")).toBeVisible();
  await expect(dialog).toBeHidden();
  expect((await focused(page)).tag).not.toBe("body");
});

test("a parent approves a child's request with the keyboard alone", async ({ page }) => {
  await signInAs(page, "parent@dash.demo", "/app/parent-emporium");
  const approve = page.getByRole("button", { name: "Approve Sticker pack" });
  await expect(approve).toBeVisible();
  await page.getByRole("link", { name: "Skip to content" }).focus();
  await tabTo(page, approve, 80);
  await page.keyboard.press("Enter");

  const dialog = page.getByRole("dialog", { name: "Approve Sticker pack?" });
  await expect(dialog).toBeVisible();
  // Escape closes the dialog and gives focus back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(approve).toBeFocused();

  await page.keyboard.press("Enter");
  await tabTo(page, dialog.getByRole("button", { name: "Approve", exact: true }), 4);
  await page.keyboard.press("Enter");
  await expect(page.getByText("You approved Sticker pack.")).toBeVisible();
});
