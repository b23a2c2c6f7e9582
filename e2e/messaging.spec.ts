import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { drawDemoScreenshot } from "../src/server/seed/demo-screenshots";
import { axeViolations, DESKTOP, loadAxe, screenshots, signInAs } from "./helpers";

/**
 * Messaging: a parent and their child's Guide write to each other in two browsers, each seeing the
 * other's message arrive without a reload, with the unread count in the header; a parent begins a
 * conversation with the school office; an administrator sends an announcement to the parents of a
 * class and the parent reads it.
 */

test.use({ viewport: DESKTOP });

const UNREAD = /^Messages(, (\d+) unread)?$/;
/** A picture for a parent to send. */
const PNG = drawDemoScreenshot("chat");

const messagesLinkOf = (page: Page) => page.getByRole("banner").getByRole("link", { name: UNREAD });

async function unreadOn(page: Page): Promise<number> {
  const name = (await messagesLinkOf(page).getAttribute("aria-label")) ?? "";
  return Number(UNREAD.exec(name)?.[2] ?? 0);
}

async function write(page: Page, editorName: string | RegExp, text: string) {
  const editor = page.getByRole("textbox", { name: editorName });
  await editor.click();
  await page.keyboard.type(text);
}

test.describe
  .serial("messaging", () => {
    test("a parent and a Guide exchange messages live, with the unread count in the header", async ({
      page,
      browser,
    }) => {
      await loadAxe(page);
      // Maya Patel, Ava's Guide, is on her home page.
      // Maya has a colleague's message to read (demo data): the count shows once it has loaded.
      await signInAs(page, "guide@dash.demo");
      await expect(messagesLinkOf(page)).toHaveAccessibleName(/^Messages, \d+ unread$/);
      const guideUnread = await unreadOn(page);

      // Sam Johnson, Ava's parent, opens his messages: Ms Patel's latest messages are unread.
      const parentContext = await browser.newContext({ viewport: DESKTOP });
      const parent = await parentContext.newPage();
      await loadAxe(parent);
      await signInAs(parent, "parent@dash.demo", "/app/messages");
      const main = parent.getByRole("main");
      await expect(main.getByRole("heading", { name: "Messages", level: 1 })).toBeVisible();
      await expect(messagesLinkOf(parent)).toHaveAccessibleName(/^Messages, \d+ unread$/);
      const parentUnread = await unreadOn(parent);
      const withMaya = main
        .getByRole("navigation", { name: "Conversations" })
        .getByRole("link", { name: /Maya Patel/ });
      await expect(withMaya).toContainText("unread");
      await withMaya.click();
      const thread = main.getByRole("log", { name: "Messages with Maya Patel" });
      await expect(thread.getByText("Ava designed this game in our coding club on Friday.")).toBeVisible();
      await expect(thread.getByRole("img", { name: "Picture: ava-coding-club-game.png" })).toBeVisible();
      // Reading it clears those messages from the count.
      await expect.poll(() => unreadOn(parent)).toBeLessThan(parentUnread);
      await screenshots(parent, "messaging-parent-thread", { axe: true });

      // Sam writes, with a picture; Ms Patel's count goes up on her home page, without a reload.
      const question = `Could Ava bring her game on Friday? ${randomUUID().slice(0, 8)}`;
      await write(parent, "Reply to Maya Patel", question);
      await main
        .getByLabel("Add pictures")
        .setInputFiles({ name: "drawing.png", mimeType: "image/png", buffer: PNG });
      await expect(main.getByRole("list", { name: "Pictures to send" })).toContainText("drawing.png");
      await main.getByRole("button", { name: "Send", exact: true }).click();
      await expect(thread.getByText(question)).toBeVisible();
      await expect(thread.getByRole("img", { name: "Picture: drawing.png" })).toBeVisible();
      await expect(messagesLinkOf(page)).toHaveAccessibleName(`Messages, ${guideUnread + 1} unread`);

      // She opens it from the header: the conversation is on top, and reading it clears the count.
      await messagesLinkOf(page).click();
      const guideMain = page.getByRole("main");
      const withSam = guideMain.getByRole("navigation", { name: "Conversations" }).getByRole("link").first();
      await expect(withSam).toContainText("Sam Johnson");
      await expect(withSam).toContainText("Parent of Ava Johnson");
      await withSam.click();
      const guideThread = guideMain.getByRole("log", { name: "Messages with Sam Johnson" });
      await expect(guideThread.getByText(question)).toBeVisible();
      await expect(messagesLinkOf(page)).toHaveAccessibleName(
        guideUnread === 0 ? "Messages" : `Messages, ${guideUnread} unread`,
      );

      // Her answer reaches Sam's open conversation by itself.
      const answer = `Yes, please bring it! ${randomUUID().slice(0, 8)}`;
      await write(page, "Reply to Sam Johnson", answer);
      await page.keyboard.press("Control+Enter");
      await expect(guideThread.getByText(answer)).toBeVisible();
      await expect(thread.getByText(answer)).toBeVisible();
      await screenshots(page, "messaging-guide-thread", { axe: true });
      await parentContext.close();
    });

    test("a parent writes to the school office, and may not write to another Guide", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", "/app/messages");
      const main = page.getByRole("main");
      await main.getByRole("button", { name: "New message" }).click();
      const dialog = page.getByRole("dialog", { name: "New message" });
      await expect(dialog.getByRole("button", { name: /Hannah Fischer/ })).toContainText(
        "Guide of Leo Johnson",
      );
      // Daniel Okoro teaches neither child: he is not offered.
      await dialog.getByLabel("Search by name").fill("Okoro");
      await expect(dialog.getByText("No one you can write to matches this search.")).toBeVisible();
      await dialog.getByLabel("Search by name").fill("");
      // Alex Morgan, the school office, is someone Sam already talks with: that conversation opens.
      await expect(dialog.getByRole("button", { name: /Alex Morgan/ })).toContainText("School office");
      await dialog.getByLabel("Search by name").fill("Fischer");
      await screenshots(page, "messaging-new-message", { dark: false, fullPage: false, axe: true });
      await dialog.getByRole("button", { name: /Hannah Fischer/ }).click();
      await expect(dialog.getByText("To Hannah Fischer")).toBeVisible();
      const text = `Leo will be away on Monday. ${randomUUID().slice(0, 8)}`;
      await write(page, "Message to Hannah Fischer", text);
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(
        main.getByRole("log", { name: "Messages with Hannah Fischer" }).getByText(text),
      ).toBeVisible();
      await expect(page).toHaveURL(/conversation=/);

      // The server refuses a Guide who teaches neither child, with a sentence.
      const refused = await page.request.post("/api/messaging/messages", {
        data: { recipientId: demoId("guide-okoro"), bodyHtml: "<p>Hi</p>" },
      });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).message).toBe(
        "Parents and guardians can write to their children's Guides and to the school office only.",
      );
    });

    test("an administrator sends an announcement to the parents of a class, and a parent reads it", async ({
      page,
      browser,
    }) => {
      await loadAxe(page);
      await signInAs(page, "admin@dash.demo", "/app/admin/messaging");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Messaging", level: 1 })).toBeVisible();
      const title = `Class trip to the aquarium ${randomUUID().slice(0, 6)}`;
      await main.getByLabel("Title").fill(title);
      await write(page, "Announcement", "Please sign the permission slip by Wednesday.");
      await main.getByLabel("Audience").selectOption({ label: "The parents of a class" });
      await main.getByLabel("School", { exact: true }).selectOption({ label: "Maple Grove School" });
      await main.getByLabel("Class").selectOption({ label: "Math · Patel group" });
      const reach = main.getByText(/^It reaches \d+ people\.$/);
      await expect(reach).toBeVisible();
      const people = Number(/(\d+)/.exec((await reach.textContent()) ?? "")?.[1]);
      await screenshots(page, "messaging-admin-compose", { axe: true });
      await main.getByRole("button", { name: "Send announcement" }).click();
      const confirm = page.getByRole("dialog", { name: "Send this announcement now?" });
      await expect(confirm).toContainText(`It goes to ${people} people now`);
      await confirm.getByRole("button", { name: "Send announcement" }).click();
      await expect(main.getByRole("status").getByText(`Sent to ${people} people.`)).toBeVisible();

      await main.getByRole("tab", { name: "Announcements sent" }).click();
      const row = main.getByRole("row", { name: new RegExp(title) });
      await expect(row).toContainText("Parents of Math · Patel group");
      await expect(row).toContainText(String(people));
      await screenshots(page, "messaging-admin-sent", { axe: true });
      await main.getByRole("tab", { name: "Scheduled" }).click();
      await expect(
        main.getByRole("heading", { name: "Family conferences: sign up next week" }),
      ).toBeVisible();
      await screenshots(page, "messaging-admin-scheduled", { dark: false, axe: true });
      await main.getByRole("tab", { name: "Students' messages" }).click();
      await expect(
        main.getByRole("switch", { name: "Students may write to their Guides" }).first(),
      ).toBeVisible();
      await screenshots(page, "messaging-admin-students", { dark: false, axe: true });
      await main.getByRole("tab", { name: "Sent", exact: true }).click();
      await screenshots(page, "messaging-admin-outbox", { dark: false, axe: true });

      // Sam reads it under Announcements; the read count goes up.
      const parent = await browser.newPage({ viewport: DESKTOP });
      await loadAxe(parent);
      await signInAs(parent, "parent@dash.demo", "/app/messages");
      await parent.getByRole("tab", { name: /^Announcements/ }).click();
      const item = parent.getByRole("main").getByText(title);
      await expect(item).toBeVisible();
      await item.click();
      await expect(parent.getByText("Please sign the permission slip by Wednesday.")).toBeVisible();
      expect(await axeViolations(parent)).toEqual([]);
      await screenshots(parent, "messaging-parent-announcements", { dark: false });
      await parent.close();
      await page.reload();
      await main.getByRole("tab", { name: "Announcements sent" }).click();
      await expect(main.getByRole("row", { name: new RegExp(title) })).toContainText(/1 \(\d+%\)/);
    });

    test("a student whose school keeps messages off reads announcements and is told why, in Spanish too", async ({
      page,
    }) => {
      await loadAxe(page);
      await signInAs(page, "student@dash.demo", "/app/messages");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Messages", level: 1 })).toBeVisible();
      await expect(main.getByText("Your school has not turned on messages for students.")).toBeVisible();
      await expect(main.getByRole("button", { name: "New message" })).toHaveCount(0);
      await page.getByRole("banner").getByLabel("Language").selectOption("es");
      await expect(main.getByRole("heading", { name: "Mensajes", level: 1 })).toBeVisible();
      await expect(
        main.getByText("Tu escuela no ha activado los mensajes para los estudiantes."),
      ).toBeVisible();
      await screenshots(page, "messaging-student-es", { dark: false, axe: true });
      await page.getByRole("banner").getByLabel("Idioma").selectOption("en");
      await expect(main.getByRole("heading", { name: "Messages", level: 1 })).toBeVisible();
    });
  });
