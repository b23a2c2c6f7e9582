import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { apiSignIn, axeViolations, DESKTOP, loadAxe, screenshots, signInAs } from "./helpers";

/**
 * The notification centre from a parent's side: the bell's unread count, its panel, marking read,
 * a new notification arriving without a reload when their child asks for a reward, the full list,
 * and choosing how to be told on the preferences page.
 */

test.use({ viewport: DESKTOP });

const SNACK = demoId("reward-item-snack");
const UNREAD = /^Notifications, (\d+) unread$/;

const bellOf = (page: Page) => page.getByRole("banner").getByRole("button", { name: /^Notifications/ });

async function unreadOn(page: Page): Promise<number> {
  const name = (await bellOf(page).getAttribute("aria-label")) ?? "";
  return Number(UNREAD.exec(name)?.[1] ?? 0);
}

test.describe
  .serial("notifications", () => {
    test("a parent sees the bell's count, opens it, marks read, and hears of a new request live", async ({
      page,
      browser,
    }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo");
      const bell = bellOf(page);
      await expect(bell).toHaveAccessibleName(UNREAD);
      const before = await unreadOn(page);
      expect(before).toBeGreaterThan(0);

      await bell.click();
      await expect(bell).toHaveAttribute("aria-expanded", "true");
      const panel = page.getByRole("dialog", { name: "Notifications" });
      await expect(panel).toBeVisible();
      await expect(panel.getByRole("listitem").first()).toBeVisible();
      await expect(panel.getByText("Unread").first()).toBeAttached();
      await screenshots(page, "notifications-bell", { dark: true, fullPage: false, axe: true });

      // Opening one marks it read and goes to its page.
      await page.setViewportSize(DESKTOP);
      if (!(await panel.isVisible())) await bell.click();
      const first = panel.getByRole("link").filter({ hasText: "Unread" }).first();
      await first.click();
      await expect(page).not.toHaveURL(/\/app$/);
      await expect(bell).toHaveAccessibleName(
        before - 1 === 0 ? "Notifications" : `Notifications, ${before - 1} unread`,
      );

      // All of them at once.
      await bell.click();
      await page
        .getByRole("dialog", { name: "Notifications" })
        .getByRole("button", { name: "Mark all as read" })
        .click();
      await expect(bell).toHaveAccessibleName("Notifications");
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog", { name: "Notifications" })).toBeHidden();
      await expect(bell).toBeFocused();

      // Ava asks for a snack: her parent's bell counts it without a reload.
      const child = await browser.newPage();
      await apiSignIn(child, "student@dash.demo");
      const asked = await child.request.post("/api/rewards/redemptions", {
        data: { itemId: SNACK, idempotencyKey: randomUUID() },
      });
      expect(asked.status()).toBe(201);
      await child.close();
      await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
      await bell.click();
      // The new one, unread (an earlier journey may have asked for the same snack).
      await expect(
        page
          .getByRole("dialog", { name: "Notifications" })
          .getByRole("link")
          .filter({ hasText: "Unread" })
          .filter({ hasText: "Ava Johnson asked to spend 60 Alphas on “Snack of your choice”." }),
      ).toBeVisible();
      await page
        .getByRole("dialog", { name: "Notifications" })
        .getByRole("link", { name: "See all" })
        .click();
      await expect(page).toHaveURL(/\/app\/notifications$/);
    });

    test("the notifications page lists them all, newest first, and marks them read", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", "/app/notifications");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
      await expect(main.getByText(/^\d+ unread$/)).toBeVisible();
      const rows = main.getByRole("listitem");
      await expect(rows.first()).toContainText("Ava Johnson asked to spend 60 Alphas");
      expect(await rows.count()).toBeGreaterThan(3);
      await screenshots(page, "notifications-page", { axe: true });
      await main.getByRole("button", { name: "Mark all as read" }).click();
      await expect(
        main.getByRole("status").filter({ hasText: "All notifications are marked as read." }),
      ).toBeVisible();
      await expect(main.getByText("All read")).toBeVisible();
      await expect(bellOf(page)).toHaveAccessibleName("Notifications");
    });

    test("a parent chooses to get reward requests by email and a digest day, and it stays", async ({
      page,
    }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", "/app/preferences");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Preferences", level: 1 })).toBeVisible();
      const byEmail = main.getByRole("switch", { name: "Reward requests: By email" });
      await expect(byEmail).not.toBeChecked();
      await expect(main.getByRole("switch", { name: "Strikes: By email" })).toBeChecked();
      await expect(main.getByText("Emails go to parent@dash.demo.")).toBeVisible();
      await screenshots(page, "preferences", { axe: true });

      await byEmail.check();
      await main.getByLabel("Day of the weekly pulse").selectOption({ label: "Thursday" });
      await expect(main.getByText("You have changes that are not saved yet.")).toBeVisible();
      // A time zone that is none is said beside the field, and nothing is sent.
      const zone = main.getByLabel("Time zone");
      await zone.fill("Mars/Olympus");
      await expect(zone).toHaveAttribute("aria-invalid", "true");
      await expect(main.getByRole("button", { name: "Save preferences" })).toBeDisabled();
      await zone.fill("America/Chicago");
      await main.getByRole("button", { name: "Save preferences" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Your preferences are saved." })).toBeVisible();

      await page.reload();
      await expect(main.getByRole("switch", { name: "Reward requests: By email" })).toBeChecked();
      await expect(main.getByLabel("Day of the weekly pulse")).toHaveValue("4");
      await expect(main.getByLabel("Time zone")).toHaveValue("America/Chicago");
      expect(await axeViolations(page)).toEqual([]);
    });

    test("a student has the bell but no preferences page", async ({ page }) => {
      await signInAs(page, "student@dash.demo");
      await expect(bellOf(page)).toHaveAccessibleName(UNREAD);
      const preferences = await page.request.get("/api/notifications/preferences");
      expect(preferences.status()).toBe(403);
    });
  });
