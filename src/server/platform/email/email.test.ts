import { createServer } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import type { FileStorage } from "../storage";
import { emailHtml, paragraphsHtml } from "./layout";
import { appUrl, queueEmail } from "./mailer";
import { MAX_SEND_ATTEMPTS } from "./sender";
import { startSmtpReceiver } from "./test-receiver";
import { unsubscribeToken } from "./unsubscribe";

const PARENT = demoId("parent-sam");
const STUDENT = demoId("student-ava");
/** The sending job runs once per period: a test moves the clock past it to run it again. */
const NEXT_PERIOD_MS = 16_000;

async function outboxRow(t: TestApp, id: string) {
  const [row] = await queryRows<{
    status: string;
    attempts: number;
    last_error: string | null;
    message_id: string | null;
    sent_at: string | null;
  }>(
    t.db,
    sql`select status, attempts, last_error, message_id, sent_at::text from email_outbox where id = ${id}::uuid`,
  );
  return row;
}

/** The test app's storage, counting the files it holds that were put through it. */
function trackedStorage(storage: FileStorage) {
  const held = new Set<string>();
  const tracked: FileStorage = {
    ...storage,
    put: async (input, options) => {
      const stored = await storage.put(input, options);
      held.add(stored.key);
      return stored;
    },
    delete: async (key) => {
      await storage.delete(key);
      held.delete(key);
    },
  };
  return { storage: tracked, held };
}

async function runSendJob(t: TestApp) {
  t.clock.advance(NEXT_PERIOD_MS);
  await t.jobs.runDueJobs();
}

function mailTo(address: string, category: string, subject: string, dedupeKey?: string) {
  return {
    to: { address },
    category,
    subject,
    text: `Hello.\n\nSee the week: ${appUrl("/app/notifications")}`,
    html: emailHtml({ language: "en", title: subject, bodyHtml: paragraphsHtml("Hello.") }),
    dedupeKey,
  };
}

describe("email through an SMTP server", () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
    t = await createTestApp({
      env: {
        SMTP_URL: receiver.url,
        MAIL_FROM: "Maple Grove <office@maple.example>",
        PUBLIC_URL: "https://dash.example.org/",
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it("sends a queued mail with a text part, an HTML part, the footer and the unsubscribe headers", async () => {
    const id = await queueEmail(t.db, mailTo("parent@dash.demo", "announcement", "Field trip on Friday"));
    expect(id).toBeTruthy();
    await runSendJob(t);
    const mail = receiver.mails.find((received) => received.subject === "Field trip on Friday");
    expect(mail).toBeDefined();
    if (!mail) return;
    expect(mail.to).toEqual(["parent@dash.demo"]);
    expect(mail.from).toBe("office@maple.example");
    expect(mail.headers.get("from")).toContain("Maple Grove");
    expect(mail.text).toContain("See the week: https://dash.example.org/app/notifications");
    expect(mail.text).toContain("You receive this email because you have a Dash account");
    expect(mail.html).toContain('<p style="margin:0 0 16px">Hello.</p>');
    expect(mail.html).toContain("Stop these emails");
    const listUnsubscribe = mail.headers.get("list-unsubscribe") ?? "";
    expect(listUnsubscribe).toMatch(
      /^<https:\/\/dash\.example\.org\/api\/email\/unsubscribe\?token=[\w.-]+>$/,
    );
    expect(mail.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const row = await outboxRow(t, id as string);
    expect(row).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    expect(row?.message_id).toBeTruthy();
    expect(row?.sent_at).toBeTruthy();
  });

  it("writes a mail once per dedupe key", async () => {
    expect(
      await queueEmail(t.db, mailTo("parent@dash.demo", "announcement", "Once", "once-key")),
    ).toBeTruthy();
    expect(await queueEmail(t.db, mailTo("parent@dash.demo", "announcement", "Once", "once-key"))).toBeNull();
  });

  it("sends attachments from the file storage, lists them in Sent email, and then deletes the files", async () => {
    const csv = "\uFEFFName,XP\nAva,12.5\n";
    const pdf = new TextEncoder().encode("%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
    const withFiles = {
      ...mailTo("guide@dash.demo", "report", "Week report"),
      attachments: [
        { fileName: "week-report.pdf", contentType: "application/pdf", content: pdf },
        { fileName: "week-report.csv", contentType: "text/csv; charset=utf-8", content: csv },
      ],
    };
    const { storage, held } = trackedStorage(t.storage);
    const id = (await queueEmail(t.db, { ...withFiles, dedupeKey: "files-once" }, { storage })) as string;
    expect(id).toBeTruthy();
    const [queued] = await queryRows<{ attachments: { fileName: string; storageKey: string }[] }>(
      t.db,
      sql`select attachments from email_outbox where id = ${id}::uuid`,
    );
    const keys = (queued?.attachments ?? []).map((file) => file.storageKey);
    expect(queued?.attachments.map((file) => file.fileName)).toEqual(["week-report.pdf", "week-report.csv"]);
    for (const key of keys) expect(await t.storage.exists(key)).toBe(true);

    // The same dedupe key again writes no mail and keeps no file.
    expect(await queueEmail(t.db, { ...withFiles, dedupeKey: "files-once" }, { storage })).toBeNull();
    expect([...held]).toEqual(keys);

    await runSendJob(t);
    const mail = receiver.mails.find((received) => received.subject === "Week report");
    expect(mail?.attachments.map((file) => [file.fileName, file.contentType])).toEqual([
      ["week-report.pdf", "application/pdf"],
      ["week-report.csv", "text/csv"],
    ]);
    expect(mail?.attachments[0]?.content.equals(Buffer.from(pdf))).toBe(true);
    expect(mail?.attachments[1]?.content.toString("utf8")).toBe(csv);
    expect(mail?.text).toContain("See the week");
    expect(await outboxRow(t, id)).toMatchObject({ status: "sent" });
    for (const key of keys) expect(await t.storage.exists(key)).toBe(false);

    const admin = await t.signIn("admin@dash.demo");
    const response = await t.request(`/api/notifications/admin/outbox/${id}`, { cookie: admin });
    expect(response.status).toBe(200);
    const detail = (await response.json()) as { data?: { attachments: string[] }; attachments?: string[] };
    expect((detail.data ?? detail).attachments).toEqual(["week-report.pdf", "week-report.csv"]);
  });

  it("refuses an attachment of a kind mail does not carry, and keeps no file of it", async () => {
    const { storage, held } = trackedStorage(t.storage);
    await expect(
      queueEmail(
        t.db,
        {
          ...mailTo("guide@dash.demo", "report", "Bad file"),
          attachments: [
            {
              fileName: "a.pdf",
              contentType: "application/pdf",
              content: new TextEncoder().encode("%PDF-1.7\n"),
            },
            { fileName: "b.html", contentType: "text/html", content: "<p>hi</p>" },
          ],
        },
        { storage },
      ),
    ).rejects.toThrow();
    expect(held.size).toBe(0);
  });

  it("follows the notification type's default: a student is not emailed, a family is", async () => {
    expect(await queueEmail(t.db, mailTo("student@dash.demo", "strike.confirmed", "Strike"))).toBeNull();
    expect(await queueEmail(t.db, mailTo("parent@dash.demo", "strike.confirmed", "Strike"))).toBeTruthy();
    // Reward requests are not emailed unless the person chose it.
    expect(await queueEmail(t.db, mailTo("parent@dash.demo", "redemption.requested", "Request"))).toBeNull();
  });

  it("unsubscribes from one category through the mail's link, without signing in", async () => {
    receiver.mails.length = 0;
    await queueEmail(t.db, mailTo("parent@dash.demo", "survey.invited", "Tell us about the term"));
    await runSendJob(t);
    const mail = receiver.mails.find((received) => received.subject === "Tell us about the term");
    const link = /https:\/\/dash\.example\.org(\/api\/email\/unsubscribe\?token=[\w.-]+)/.exec(
      mail?.text ?? "",
    )?.[1];
    expect(link).toBeDefined();
    const token = new URL(`https://x${link}`).searchParams.get("token") as string;

    const page = await t.request(link as string);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Stop emails about “Survey invitations” to parent@dash.demo?");
    expect(html).toContain('<form method="post" action="/api/email/unsubscribe">');
    expect(html).not.toContain("<script");
    // Opening the page changes nothing: mail scanners open links.
    expect(await queueEmail(t.db, mailTo("parent@dash.demo", "survey.invited", "Still wanted"))).toBeTruthy();

    const confirmed = await t.request("/api/email/unsubscribe", {
      method: "POST",
      body: new URLSearchParams({ token }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Dash will not send emails about “Survey invitations”");
    const [preference] = await queryRows<{ in_app: boolean; email: boolean }>(
      t.db,
      sql`select in_app, email from notification_preferences where user_sourced_id = ${PARENT} and type = 'survey.invited'`,
    );
    expect(preference).toEqual({ in_app: true, email: false });
    expect(await queueEmail(t.db, mailTo("parent@dash.demo", "survey.invited", "No more"))).toBeNull();
    // Only that category: other mail still goes.
    expect(await queueEmail(t.db, mailTo("parent@dash.demo", "announcement", "Still goes"))).toBeTruthy();
  });

  it("takes the one-click unsubscribe of a mail client (RFC 8058)", async () => {
    const token = unsubscribeToken(t.secretBox, { userId: PARENT, category: "report" });
    const response = await t.request(`/api/email/unsubscribe?token=${token}`, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(200);
    expect(await queueEmail(t.db, mailTo("parent@dash.demo", "report", "Report"))).toBeNull();
  });

  it("refuses a forged or altered token with a 400 page", async () => {
    const real = unsubscribeToken(t.secretBox, { userId: PARENT, category: "pulse.ready" });
    const [, signature] = real.split(".");
    const otherPerson = Buffer.from(JSON.stringify([STUDENT, "pulse.ready"])).toString("base64url");
    const otherCategory = Buffer.from(JSON.stringify([PARENT, "announcement"])).toString("base64url");
    for (const token of [
      `${otherPerson}.${signature}`,
      `${otherCategory}.${signature}`,
      `${otherPerson}.${"A".repeat(43)}`,
      "not-a-token",
      "",
      "x".repeat(2_000),
    ]) {
      const page = await t.request(`/api/email/unsubscribe?token=${encodeURIComponent(token)}`);
      expect(page.status, token).toBe(400);
      expect(await page.text()).toContain("This unsubscribe link is not valid");
      const posted = await t.request("/api/email/unsubscribe", {
        method: "POST",
        body: new URLSearchParams({ token }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(posted.status, token).toBe(400);
    }
    const rows = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from notification_preferences
          where type in ('pulse.ready', 'announcement') and user_sourced_id in (${PARENT}, ${STUDENT})`,
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("answers the page in the recipient's language", async () => {
    await t.db.execute(sql`update users set preferred_language = 'es' where sourced_id = ${PARENT}`);
    try {
      const token = unsubscribeToken(t.secretBox, { userId: PARENT, category: "message.received" });
      const page = await t.request(`/api/email/unsubscribe?token=${token}`);
      const html = await page.text();
      expect(html).toContain('<html lang="es">');
      expect(html).toContain("¿Dejar de enviar correos sobre «Mensajes» a parent@dash.demo?");
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    } finally {
      await t.db.execute(sql`update users set preferred_language = null where sourced_id = ${PARENT}`);
    }
  });
});

/** A port nothing listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("email when the SMTP server is down", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
  });
  afterAll(() => t.close());

  it("retries with growing waits, then marks the mail failed with the error", async () => {
    const id = (await queueEmail(t.db, mailTo("guide@dash.demo", "announcement", "Staff meeting"))) as string;
    await runSendJob(t);
    let row = await outboxRow(t, id);
    expect(row).toMatchObject({ status: "queued", attempts: 1 });
    expect(row?.last_error).toMatch(/ECONNREFUSED|connect/i);
    // Not due again before its wait.
    await runSendJob(t);
    expect((await outboxRow(t, id))?.attempts).toBe(1);
    // One attempt per run even when the run comes late: five more hours, five more attempts.
    for (let hour = 1; hour < MAX_SEND_ATTEMPTS; hour++) {
      t.clock.advance(60 * 60_000);
      await t.jobs.runDueJobs();
      expect((await outboxRow(t, id))?.attempts).toBe(hour + 1);
    }
    row = await outboxRow(t, id);
    expect(row).toMatchObject({ status: "failed", attempts: MAX_SEND_ATTEMPTS });
    expect(row?.last_error).toBeTruthy();
  });
});

describe("email without an SMTP server", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("keeps the mail in the outbox", async () => {
    const id = (await queueEmail(t.db, mailTo("parent@dash.demo", "announcement", "Kept"))) as string;
    await runSendJob(t);
    expect(await outboxRow(t, id)).toMatchObject({ status: "kept", attempts: 0 });
  });
});
