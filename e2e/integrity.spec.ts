import { type Browser, expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, signInAs } from "./helpers";

/**
 * Focus incidents from the agent to the lockout and back: the monitoring agent reports one for Ava,
 * her Guide confirms it, an administrator confirms it too and the third strike locks her dashboard;
 * her open page goes to the locked page by itself, she reads her code, her Guide unlocks with it and
 * her page goes home. Her parent then appeals the new strike and the proctor upholds the appeal, so
 * Ava ends as she began: unlocked, with her two demo strikes.
 */

test.use({ viewport: DESKTOP });

const AVA = demoId("student-ava");
const AVA_NAME = "Ava Johnson";
/** The spec's lockout poll: every 30 seconds, with room for the answer. */
const ONE_POLL = 40_000;

async function pageAs(browser: Browser, email: string, path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signInAs(page, email, path);
  return page;
}

/** The queue's card of the incident this journey reported. */
const cardOf = (page: Page, app: string) =>
  page.getByRole("main").getByRole("article", { name: AVA_NAME }).filter({ hasText: app });

test.describe
  .serial("integrity", () => {
    const app = `E2E Arcade ${Date.now()}`;

    test("an incident confirmed by two reviewers locks Ava; her Guide unlocks her with her code", async ({
      browser,
      request,
    }) => {
      test.setTimeout(180_000);
      // Ava is on her home, with her two strikes and what they mean.
      const ava = await pageAs(browser, "student@dash.demo", "/app");
      const strikes = ava.getByRole("region", { name: "Your focus strikes" });
      await expect(strikes).toContainText("You have 2 strikes. At 3, your dashboard locks");
      await strikes.getByRole("button", { name: "See your strikes and why" }).click();
      await expect(strikes.getByRole("button", { name: "Appeal this strike" }).first()).toBeVisible();

      // The monitoring agent reports an incident with its key.
      const reported = await request.post("/api/integrity/incidents", {
        headers: { Authorization: "Bearer demo-agent-key" },
        data: {
          client_id: `e2e-${app}`,
          user_id: "student@dash.demo",
          incident_type: "off_task_app",
          confidence_score: 0.9,
          app_name: app,
          detected_text: "Level 9 — 12,000 points",
          created_at: new Date().toISOString(),
        },
      });
      expect(reported.status()).toBe(201);
      const incident = (await reported.json()) as { id: string };

      // Her Guide finds it in the queue, with its evidence, and confirms it with a note.
      const guide = await pageAs(browser, "guide@dash.demo", "/app/flow/cheating/pending");
      await guide.getByLabel("Student", { exact: true }).selectOption({ label: AVA_NAME });
      const card = cardOf(guide, app);
      await expect(card).toContainText("Level 9 — 12,000 points");
      await expect(card).toContainText("90%");
      await expect(card.getByText("No screenshot")).toBeVisible();
      await expect(card.getByText("Waiting for review")).toBeVisible();
      await expect(card).toContainText("2 strikes of 3");
      await card.getByRole("button", { name: "Confirm" }).click();
      const confirm = guide.getByRole("dialog", { name: `Confirm this incident for ${AVA_NAME}?` });
      await confirm.getByRole("button", { name: "Confirm" }).click();
      await expect(confirm.getByLabel("Note")).toHaveAttribute("aria-invalid", "true");
      await confirm.getByLabel("Note").fill("An arcade game was open during the Math session.");
      await confirm.getByRole("button", { name: "Confirm" }).click();
      await expect(confirm).toBeHidden();
      await expect(guide.getByRole("status").filter({ hasText: "Confirmed once." })).toBeVisible();
      // It waits for a second reviewer, and she may not be that reviewer.
      await expect(card.getByText("Needs a second reviewer")).toBeVisible();
      await expect(card.getByRole("button", { name: "Confirm" })).toBeDisabled();
      await expect(card).toContainText("You confirmed this incident. Another reviewer must confirm it too");
      await expect(card).toContainText("Maya Patel (Guide) confirmed it");
      const twice = await guide.request.post(`/api/integrity/incidents/${incident.id}/review`, {
        data: { decision: "confirm", note: "Confirming once more." },
      });
      expect(twice.status()).toBe(409);

      // An administrator confirms it: the third strike locks Ava's dashboard.
      const admin = await pageAs(browser, "admin@dash.demo", "/app/flow/cheating/pending");
      const adminCard = cardOf(admin, app);
      await adminCard.getByRole("button", { name: "Confirm" }).click();
      const second = admin.getByRole("dialog", { name: `Confirm this incident for ${AVA_NAME}?` });
      await second.getByLabel("Note").fill("Agreed: the game was in front for most of the session.");
      await second.getByRole("button", { name: "Confirm" }).click();
      await expect(second).toBeHidden();
      await expect(admin.getByRole("status")).toContainText(`Confirmed: it is now a strike for ${AVA_NAME}`);

      // Ava's page goes to the locked page by itself, within one poll.
      await expect(ava).toHaveURL(/\/app\/dashboard-locked$/, { timeout: ONE_POLL });
      await expect(
        ava.getByRole("heading", { name: "Your dashboard is locked for now", level: 1 }),
      ).toBeVisible();
      await expect(ava.getByRole("main")).toContainText("You have 3 strikes");
      await expect(ava.getByText("Read this code to your Guide.")).toBeVisible();
      const code = (await ava.locator("[data-lockout-code]").getAttribute("data-lockout-code")) ?? "";
      expect(code).toMatch(/^\d{6}$/);
      await expect(ava.getByRole("article", { name: `While using ${app}` })).toContainText(
        "Agreed: the game was in front",
      );
      // Elsewhere takes her back, and the server refuses her other calls.
      await ava.goto("/app/goals");
      await expect(ava).toHaveURL(/\/app\/dashboard-locked$/);
      const refused = await ava.request.get("/api/goals");
      expect(refused.status()).toBe(403);
      expect((await refused.json()).code).toBe("dashboard_locked");

      // Her Guide unlocks her dashboard with the code she reads out; a wrong code is refused.
      await guide.reload();
      const locked = guide.getByRole("region", { name: "Locked dashboards" });
      await expect(locked).toContainText("Dashboard locked");
      await locked.getByRole("button", { name: `Unlock ${AVA_NAME}'s dashboard` }).click();
      const unlock = guide.getByRole("dialog", { name: `Unlock ${AVA_NAME}'s dashboard` });
      const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
      await unlock.getByLabel("Code from the student's screen (optional)").fill(wrong);
      await unlock.getByLabel("Note").fill("We talked about keeping games for after school.");
      await unlock.getByRole("button", { name: "Unlock" }).click();
      await expect(unlock.getByRole("alert")).toContainText("does not match");
      await unlock.getByLabel("Code from the student's screen (optional)").fill(code);
      await unlock.getByRole("button", { name: "Unlock" }).click();
      await expect(unlock).toBeHidden();
      await expect(guide.getByRole("status")).toContainText(`${AVA_NAME}'s dashboard is unlocked.`);
      await expect(guide.getByRole("region", { name: "Locked dashboards" })).toHaveCount(0);

      // Ava's page goes home by itself, within one poll.
      await expect(ava).toHaveURL(/\/app$/, { timeout: ONE_POLL });
      await expect(ava.getByRole("region", { name: "Your focus strikes" })).toContainText(
        "You have 3 strikes",
      );
    });

    test("her parent reads the strike's reasons and appeals it; the proctor upholds the appeal", async ({
      browser,
    }) => {
      test.setTimeout(90_000);
      const parent = await pageAs(browser, "parent@dash.demo", "/app");
      const child = parent.getByRole("main").getByRole("article", { name: AVA_NAME });
      await expect(child).toContainText("A note about Ava's focus");
      await expect(child).toContainText("3 strikes of 3");
      await child.getByRole("button", { name: "See Ava's strikes and their reasons" }).click();
      const strike = child.getByRole("article", { name: `While using ${app}` });
      await expect(strike).toContainText("Level 9 — 12,000 points");
      await expect(strike).toContainText("“An arcade game was open during the Math session.”");
      await strike.getByRole("button", { name: "Appeal this strike" }).click();
      const appeal = parent.getByRole("dialog", { name: "Ask for another look" });
      await expect(appeal).toContainText("A reviewer who did not confirm it will look at it again");
      await appeal.getByRole("button", { name: "Send the appeal" }).click();
      await expect(appeal.getByLabel("Why do you think it is a mistake?")).toHaveAttribute(
        "aria-invalid",
        "true",
      );
      await appeal
        .getByLabel("Why do you think it is a mistake?")
        .fill("Her cousin was using the laptop then.");
      await appeal.getByRole("button", { name: "Send the appeal" }).click();
      await expect(appeal).toBeHidden();
      await expect(child.getByRole("status")).toContainText("Your appeal was sent.");
      await expect(strike.getByText("Appeal being looked at")).toBeVisible();
      await expect(strike.getByRole("button", { name: "Appeal this strike" })).toHaveCount(0);

      // The proctor, who confirmed none of it, decides the appeal: the strike is removed.
      const proctor = await pageAs(browser, "proctor@dash.demo", "/app/flow/cheating/pending");
      const card = cardOf(proctor, app);
      await expect(card.getByText("Appealed", { exact: true })).toBeVisible();
      await expect(card).toContainText("Her cousin was using the laptop then.");
      await card.getByRole("button", { name: "Remove the strike" }).click();
      const remove = proctor.getByRole("dialog", { name: `Remove ${AVA_NAME}'s strike?` });
      await remove.getByLabel("Note").fill("The family's explanation holds: removed.");
      await remove.getByRole("button", { name: "Remove the strike" }).click();
      await expect(remove).toBeHidden();
      await expect(proctor.getByRole("status")).toContainText(
        `The appeal is upheld: ${AVA_NAME}'s strike is removed.`,
      );

      // Ava is back to her two demo strikes, unlocked.
      const standing = await (await proctor.request.get(`/api/integrity/students/${AVA}`)).json();
      expect(standing).toMatchObject({ activeStrikes: 2, isLocked: false });

      // The resolved incidents show who decided and why.
      await proctor.goto("/app/flow/cheating/resolved");
      const resolved = cardOf(proctor, app);
      await expect(resolved.getByText("Dismissed", { exact: true })).toBeVisible();
      await expect(resolved).toContainText("Pat Rivera (Proctor) dismissed it");
      await expect(resolved).toContainText("The family's explanation holds: removed.");
    });

    test("an administrator registers a monitoring agent, whose key reports incidents and no activity", async ({
      page,
    }) => {
      await signInAs(page, "admin@dash.demo", "/app/admin/credentials?tab=apps");
      await expect(page.getByRole("article", { name: "Focus Monitor" })).toContainText("Monitoring agent");
      await expect(page.getByRole("article", { name: "Math Academy" })).toContainText("Learning app");
      const name = `Hall Monitor ${Date.now()}`;
      await page.getByRole("button", { name: "Add app" }).click();
      await page.getByRole("radio", { name: "Monitoring agent" }).check();
      // An agent has no subjects and nothing to launch.
      await expect(page.getByLabel("Subjects")).toHaveCount(0);
      await expect(page.getByLabel("Launch URL")).toHaveCount(0);
      await page.getByLabel("App name").fill(name);
      await page.getByRole("button", { name: "Add app" }).click();
      const agent = page.getByRole("article", { name });
      await expect(agent).toContainText("Monitoring agent");
      await expect(agent).toContainText("Reports focus incidents");
      await agent.getByRole("button", { name: `API keys of ${name}` }).click();
      await agent.getByLabel("New key label").fill("Lab laptops");
      await agent.getByRole("button", { name: "Create key" }).click();
      const secret =
        (await agent.getByRole("region", { name: "New key “Lab laptops”" }).locator("code").textContent()) ??
        "";
      const headers = { authorization: `Bearer ${secret}` };
      const reported = await page.request.post("/api/integrity/incidents", {
        headers,
        data: {
          client_id: `e2e-agent-${name}`,
          user_id: "student@dash.demo",
          incident_type: "tab_switch",
          confidence_score: 0.4,
          detected_text: "",
          created_at: new Date().toISOString(),
        },
      });
      expect(reported.status()).toBe(201);
      const activity = await page.request.post("/api/ingest/activity", {
        headers,
        data: { events: [{ eventId: `e2e-agent-${name}` }] },
      });
      expect(activity.ok()).toBe(false);
      // The queue stays as it was: the probe is dismissed.
      const { id } = (await reported.json()) as { id: string };
      const dismissed = await page.request.post(`/api/integrity/incidents/${id}/review`, {
        data: { decision: "dismiss", note: "A probe of the new agent's key." },
      });
      expect(dismissed.ok()).toBe(true);
    });

    test("the review queue is for reviewers only", async ({ page }) => {
      await signInAs(page, "parent@dash.demo", "/app/flow/cheating/pending");
      await expect(page).toHaveURL(/\/app$/);
      expect((await page.request.get("/api/integrity/summary")).status()).toBe(403);
      await signInAs(page, "student@dash.demo", "/app/flow/cheating/resolved");
      await expect(page).toHaveURL(/\/app$/);
      const review = await page.request.post(
        "/api/integrity/incidents/00000000-0000-4000-8000-000000000000/review",
        {
          data: { decision: "dismiss", note: "Not my call." },
        },
      );
      expect([403, 404]).toContain(review.status());
    });
  });
