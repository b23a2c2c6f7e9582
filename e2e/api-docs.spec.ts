import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { DESKTOP, loadAxe, PHONE, SCREENS, screenshots, signInAs } from "./helpers";

/**
 * The administrators' API reference: read from /api/openapi.json, filtered, its webhook section
 * with the signature check, and the document downloaded as it is. Other roles are sent away.
 */

test.use({ viewport: DESKTOP });

test("an administrator filters the API reference to webhooks and downloads openapi.json", async ({
  page,
}) => {
  await loadAxe(page);
  await signInAs(page, "admin@dash.demo", "/app/admin/api-docs");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Getting started" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Ingestion" })).toBeVisible();
  await screenshots(page, "admin-api-docs", { axe: true });

  await page.getByLabel("Filter operations and events").fill("webhook");
  await expect(page.getByRole("heading", { name: "Leaderboards" })).toHaveCount(0);
  const replay = page.locator("details", { hasText: "/api/admin/webhooks/deliveries/{id}/replay" });
  await expect(replay).toHaveAttribute("open", "");
  await expect(replay.getByText("Replay one delivery")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Verifying a delivery's signature" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Verifying a signature in Node.js" })).toContainText(
    "timingSafeEqual",
  );
  await expect(page.locator("details", { hasText: "xp.awarded" }).first()).toBeVisible();
  await screenshots(page, "admin-api-docs-webhooks", { axe: true });
  await page.setViewportSize(PHONE);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({
    path: `${SCREENS}/admin-api-docs-webhooks-dark-${PHONE.width}.png`,
    fullPage: true,
  });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download openapi.json" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("openapi.json");
  const document = JSON.parse(await readFile(await download.path(), "utf8")) as {
    openapi: string;
    paths: Record<string, unknown>;
  };
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/api/ingest/activity");
});

test("a Guide is sent away from the API reference", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/admin/api-docs");
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toHaveCount(0);
});
