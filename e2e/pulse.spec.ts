import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, loadAxe, screenshots, signInAs } from "./helpers";

/**
 * The weekly parent pulse: a parent reads a child's week at the top of the child's hub, goes to an
 * earlier week and its Guide's note, and gives the week's bonus in one click (a second click gives
 * nothing more); the child's Guide writes the family's note from their view of the student.
 */

test.use({ viewport: DESKTOP });

const AVA = demoId("student-ava");
const NOTE = "Ava read two chapter books this week and explained them to her group.";

test.describe
  .serial("weekly pulse", () => {
    test("a parent reads the pulse, an earlier week and its note, and gives the weekly bonus once", async ({
      page,
    }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", `/app/child/${AVA}/`);
      const main = page.getByRole("main");
      const pulse = main.getByRole("region", { name: "Weekly pulse" });
      await expect(pulse).toBeVisible();
      await expect(pulse.getByText("This week so far")).toBeVisible();
      const glance = pulse.getByRole("definition").first();
      await expect(glance).toHaveText(/^[\d,.]+$/);
      await expect(main.getByRole("list", { name: "XP per subject this week" })).toContainText("Math");
      await expect(main.getByRole("region", { name: "Focus" })).toBeVisible();
      await screenshots(page, "pulse-parent", { axe: true });

      // The week before: its Guide's note, and the way back.
      await pulse.getByRole("link", { name: "Earlier week" }).click();
      await expect(page).toHaveURL(/[?&]week=\d{4}-\d{2}-\d{2}/);
      await expect(pulse.getByText("This week so far")).toBeHidden();
      const note = main.getByRole("region", { name: "A note from the Guide" });
      await expect(note.locator("blockquote")).toContainText("Ava");
      await expect(note.locator("figcaption")).toContainText("Maya Patel");
      await pulse.getByRole("link", { name: "Later week" }).click();
      await expect(pulse.getByText("This week so far")).toBeVisible();

      // The bonus in one click: a double click gives it once.
      const { rewardKey } = await (await page.request.get(`/api/families/pulse?childId=${AVA}`)).json();
      const reward = main.getByRole("region", { name: "Reward the week" });
      await reward.getByRole("button", { name: "Give the weekly bonus (+30)" }).dblclick();
      await expect(
        reward.getByRole("status").filter({ hasText: /^You gave Ava the weekly bonus of 30 Alphas on / }),
      ).toBeVisible();
      await expect(reward.getByRole("button")).toHaveCount(0);
      const { data } = await (await page.request.get(`/api/rewards/students/${AVA}/ledger?limit=100`)).json();
      const bonuses = (data as { kind: string; reason: string }[]).filter(
        (entry) => entry.kind === "parent_bonus" && entry.reason.startsWith("Weekly bonus for the week of"),
      );
      expect(bonuses).toHaveLength(1);
      // The same key again (another tab, a retry) gives nothing more.
      const again = await page.request.post("/api/rewards/grants", {
        data: {
          studentId: AVA,
          kind: "parent_bonus",
          reason: "Weekly bonus again",
          idempotencyKey: rewardKey,
        },
      });
      expect(again.status()).toBe(201);
      const after = await (await page.request.get(`/api/rewards/students/${AVA}/ledger?limit=100`)).json();
      expect(
        (after.data as { kind: string }[]).filter((entry) => entry.kind === "parent_bonus"),
      ).toHaveLength((data as { kind: string }[]).filter((entry) => entry.kind === "parent_bonus").length);
      await page.reload();
      await expect(
        main
          .getByRole("region", { name: "Reward the week" })
          .getByText(/^You gave Ava the weekly bonus of 30 Alphas on /),
      ).toBeVisible();
      await screenshots(page, "pulse-parent-rewarded", { dark: false });
    });

    test("the child's Guide writes the week's note, and the family reads it", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "guide@dash.demo", `/app/flow/student/${AVA}`);
      const section = page.getByRole("region", { name: "Weekly note for the family" });
      await expect(section).toBeVisible();
      const field = section.getByLabel(/^Note for Ava's family, week of /);
      await field.fill("a");
      await section.getByRole("button", { name: "Save the note" }).click();
      await expect(section.getByRole("alert")).toHaveText("Write a note of at least 3 characters");
      await field.fill(NOTE);
      await section.getByRole("button", { name: "Save the note" }).click();
      await expect(section.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
      await screenshots(page, "pulse-guide-note", { axe: true });

      await signInAs(page, "parent@dash.demo", `/app/child/${AVA}/`);
      const note = page.getByRole("region", { name: "A note from the Guide" });
      await expect(note.locator("blockquote")).toHaveText(NOTE);
      await expect(note.locator("figcaption")).toContainText("Maya Patel");
    });

    test("a parent sees no pulse of a child who is not theirs", async ({ page }) => {
      await signInAs(page, "parent@dash.demo", "/app");
      // Jordan is a student of the demo school, but not Sam's child.
      const others = await page.request.get(`/api/families/pulse?childId=${demoId("multi")}`);
      expect(others.status()).toBe(404);
      expect((await page.request.get(`/api/families/pulse?childId=${demoId("student-leo")}`)).status()).toBe(
        200,
      );
    });
  });
