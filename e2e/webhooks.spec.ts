import { expect, test } from "@playwright/test";
import { isSignedBy, startReceiver } from "../src/server/domains/webhooks/test-receiver";
import { DEMO_APP_KEY, demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, loadAxe, screenshots, signInAs } from "./helpers";

/**
 * The webhook monitor: an administrator subscribes a receiver this test runs on 127.0.0.1, an app
 * reports activity, the XP it awarded reaches the receiver signed with the secret, and the
 * administrator sees the delivery succeed and sends it again. A Guide only looks. The server
 * starts its jobs 30 s after it starts, so the first delivery may take that long.
 */

test.use({ viewport: DESKTOP });

const SECRET = "e2e-webhook-secret-0123456789";
const AVA = demoId("student-ava");

test.describe
  .serial("webhook monitor", () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    test.beforeAll(async () => {
      receiver = await startReceiver();
    });
    test.afterAll(async () => {
      await receiver?.close();
    });

    test("an administrator subscribes a receiver, sees a delivery succeed and replays it", async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await loadAxe(page);
      await signInAs(page, "admin@dash.demo", "/app/webhook-monitor?tab=subscriptions");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Webhook monitor", level: 1 })).toBeVisible();

      await main.getByRole("button", { name: "Add subscription" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a subscription" });
      await dialog.getByLabel("Address (URL)").fill(receiver.url("/e2e"));
      await dialog.getByLabel("Description (optional)").fill("Test receiver");
      await dialog.getByLabel("XP awarded").check();
      await dialog.getByLabel("Secret", { exact: true }).fill("short");
      await dialog.getByRole("button", { name: "Add subscription" }).click();
      // The browser refuses a secret under 16 characters before anything is sent.
      await expect(dialog).toBeVisible();
      await dialog.getByLabel("Secret", { exact: true }).fill(SECRET);
      await dialog.getByRole("button", { name: "Add subscription" }).click();
      await expect(dialog).toBeHidden();
      await expect(main.getByRole("status").filter({ hasText: "The subscription is added." })).toBeVisible();
      await expect(main.getByText("Test receiver")).toBeVisible();
      await expect(main.getByText(`Secret ending …${SECRET.slice(-4)}`)).toBeVisible();
      await expect(page.getByText(SECRET)).toHaveCount(0);

      // A learning app reports activity: the XP it awarded is an event.
      const reported = await page.request.post("/api/ingest/activity", {
        headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
        data: {
          events: [
            {
              eventId: `e2e-webhook-${Date.now()}`,
              studentId: AVA,
              occurredAt: new Date(Date.now() - 60_000).toISOString(),
              subject: "Math",
              activityName: "Fractions",
              expectedXp: 5,
              totalQuestions: 10,
              correctQuestions: 9,
              activeSeconds: 300,
            },
          ],
        },
      });
      expect(reported.status()).toBe(200);
      await expect.poll(() => receiver.received.length, { timeout: 90_000 }).toBeGreaterThanOrEqual(1);
      const [first] = receiver.received;
      expect(first && isSignedBy(first, SECRET)).toBe(true);
      expect(first?.headers["x-dash-event"]).toBe("xp.awarded");

      await main.getByRole("tab", { name: "Deliveries" }).click();
      const table = main.getByRole("table");
      const row = table.getByRole("row").filter({ hasText: "XP awarded" }).first();
      await expect(row).toContainText("Delivered");
      await expect(row).toContainText("1 of 8");
      await expect(row).toContainText("200");
      await screenshots(page, "webhook-monitor-deliveries", { axe: true });

      await row.getByRole("button", { name: "Details" }).click();
      const details = page.getByRole("dialog", { name: "XP awarded" });
      await expect(details).toContainText('"type": "xp.awarded"');
      await expect(details).toContainText(AVA);
      await details.getByRole("button", { name: "Send again" }).click();
      await expect(details).toBeHidden();
      await expect(main.getByRole("status").filter({ hasText: "1 delivery is queued again." })).toBeVisible();
      await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
      const replay = receiver.received[1];
      expect(replay?.body).toBe(first?.body);
      expect(replay?.headers["x-dash-delivery"]).not.toBe(first?.headers["x-dash-delivery"]);
      await expect(table.getByText("Sent again")).toBeVisible({ timeout: 20_000 });

      // Filters live in the address.
      await main.getByLabel("Status").selectOption({ label: "Failed" });
      await expect(page).toHaveURL(/state=failed/);
      await expect(main.getByText("No deliveries match")).toBeVisible();

      await main.getByRole("tab", { name: "Ingestion log" }).click();
      await expect(main.getByRole("heading", { name: "Ingestion by app" })).toBeVisible();
      await expect(main.getByRole("listitem").filter({ hasText: "Math Academy" })).toContainText(
        /\d+ requests?/,
      );
      await expect(main.getByRole("table").getByText("Math Academy").first()).toBeVisible();
      await screenshots(page, "webhook-monitor-ingestion", { axe: true });
      await main.getByRole("tab", { name: "Subscriptions" }).click();
      await screenshots(page, "webhook-monitor-subscriptions", { axe: true });
    });

    test("a Guide sees the monitor read-only", async ({ page }) => {
      await signInAs(page, "guide@dash.demo", "/app/webhook-monitor");
      const main = page.getByRole("main");
      await expect(main.getByText(/Administrators manage the subscriptions; you can look\./)).toBeVisible();
      await expect(main.getByRole("row").filter({ hasText: "XP awarded" }).first()).toBeVisible();
      await expect(
        main.getByRole("button", { name: /Send chosen again|Send the filtered ones again/ }),
      ).toHaveCount(0);
      await main
        .getByRole("row")
        .filter({ hasText: "XP awarded" })
        .first()
        .getByRole("button", { name: "Details" })
        .click();
      const details = page.getByRole("dialog", { name: "XP awarded" });
      await expect(details).toContainText("Only administrators see what a delivery carried.");
      await expect(details.getByRole("button", { name: "Send again" })).toHaveCount(0);
      await details.getByRole("button", { name: "Close" }).click();
      await main.getByRole("tab", { name: "Subscriptions" }).click();
      await expect(main.getByText("Test receiver")).toBeVisible();
      await expect(main.getByRole("button", { name: "Add subscription" })).toHaveCount(0);
      await screenshots(page, "webhook-monitor-guide", { dark: false });
    });
  });
