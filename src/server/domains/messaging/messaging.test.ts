import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContactList, Inbox, SentMessage, Thread } from "../../../shared/contracts/messaging";
import { MAX_PICTURE_BYTES } from "../../../shared/contracts/messaging";
import { queryRows } from "../../db/client";
import { readLiveStream } from "../../platform/live/test-support";
import { demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { zipFilesOf } from "../../test/zip-files";
import { MESSAGE_NOTIFY_DELAY_MS } from "./messages";

let t: TestApp;
const cookies: Record<string, string> = {};

const SAM = demoId("parent-sam");
const AVA = demoId("student-ava");
const MAYA = demoId("guide-patel");
const OKORO = demoId("guide-okoro");
const HANNAH = demoId("guide-fischer");
const ALEX = demoId("admin");
const GRACE = demoId("guardian-grace");
const MAPLE_GROVE = demoId("maple-grove");

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(600, 7),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(600, 9)]);

beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
  cookies.jordanStudent = `${await t.signIn("multi@dash.demo")}; selectedUserRole=student`;
});
afterAll(() => t.close());

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/messaging${path}`, { ...init, cookie: cookies[who] });
  const isJson = response.headers.get("content-type")?.startsWith("application/json");
  return { status: response.status, body: isJson ? await response.json() : null, response };
}

const send = (who: string, json: Record<string, unknown>) => call(who, "/messages", { json });

/** Someone in a role, for the few people of the demo without an account of their own. */
async function aStudentOf(guideId: string, other = "") {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select distinct s.user_sourced_id as id from enrollments s join enrollments g on g.class_sourced_id = s.class_sourced_id
      where g.user_sourced_id = ${guideId} and g.role = 'teacher' and s.role = 'student' and s.user_sourced_id <> ${other}
      order by s.user_sourced_id limit 1`,
  );
  return row?.id as string;
}

async function parentOf(studentId: string) {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select agent_sourced_id as id from user_agents where user_sourced_id = ${studentId} order by agent_sourced_id limit 1`,
  );
  return row?.id as string;
}

async function setStudentsMayWrite(on: boolean) {
  const response = await call("admin", `/admin/settings/${MAPLE_GROVE}`, {
    method: "PUT",
    json: { studentsMayWrite: on },
  });
  expect(response.status).toBe(200);
}

describe("who may write to whom", () => {
  it("lets a parent write to their children's Guides and the school office, and to no one else", async () => {
    const contacts = (await call("parent", "/contacts?limit=100")).body as ContactList;
    const byId = new Map(contacts.contacts.map((contact) => [contact.id, contact]));
    expect(byId.get(MAYA)?.relations).toContainEqual({ relation: "guide", about: "Ava Johnson" });
    expect(byId.get(HANNAH)?.relations).toContainEqual({ relation: "guide", about: "Leo Johnson" });
    expect(byId.get(ALEX)?.relations).toContainEqual({ relation: "office", about: "Maple Grove School" });
    expect(byId.has(OKORO)).toBe(false);

    const toGuide = await send("parent", { recipientId: MAYA, bodyHtml: "<p>Hello from Sam</p>" });
    expect(toGuide.status).toBe(201);
    expect((toGuide.body as SentMessage).message).toMatchObject({
      authorId: SAM,
      isMine: true,
      bodyHtml: "<p>Hello from Sam</p>",
    });
    expect((await send("parent", { recipientId: ALEX, bodyHtml: "<p>For the office</p>" })).status).toBe(201);
    expect((await send("parent", { recipientId: HANNAH, bodyHtml: "<p>About Leo</p>" })).status).toBe(201);

    const refused = await send("parent", { recipientId: OKORO, bodyHtml: "<p>Hi</p>" });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      "Parents and guardians can write to their children's Guides and to the school office only.",
    );
    const otherParent = await parentOf(await aStudentOf(OKORO));
    expect((await send("parent", { recipientId: otherParent, bodyHtml: "<p>Hi</p>" })).status).toBe(403);
    expect((await send("parent", { recipientId: AVA, bodyHtml: "<p>Hi</p>" })).status).toBe(403);
    expect((await send("parent", { recipientId: "no-such-person", bodyHtml: "<p>Hi</p>" })).status).toBe(404);
  });

  it("answers a refusal in the reader's language", async () => {
    const response = await t.request("/api/messaging/messages", {
      cookie: cookies.parent,
      json: { recipientId: OKORO, bodyHtml: "<p>Hola</p>" },
      headers: { "accept-language": "es" },
    });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe(
      "Los padres y tutores solo pueden escribir a los guías de sus hijos y a la oficina de la escuela.",
    );
  });

  it("keeps one conversation per pair, and a guardian writes as a parent does", async () => {
    const first = (await send("parent", { recipientId: MAYA, bodyHtml: "<p>Again</p>" })).body as SentMessage;
    const again = (await send("parent", { recipientId: MAYA, bodyHtml: "<p>And again</p>" }))
      .body as SentMessage;
    expect(again.conversationId).toBe(first.conversationId);
    const guardian = await send("guardian", { recipientId: MAYA, bodyHtml: "<p>Grace here</p>" });
    expect(guardian.status).toBe(201);
    expect((guardian.body as SentMessage).conversationId).not.toBe(first.conversationId);
    expect((await send("guardian", { recipientId: HANNAH, bodyHtml: "<p>Hi</p>" })).status).toBe(403);
  });

  it("lets a Guide write to their students' families and to staff, not to other families", async () => {
    expect((await send("guide", { recipientId: SAM, bodyHtml: "<p>Ava did well</p>" })).status).toBe(201);
    expect((await send("guide", { recipientId: GRACE, bodyHtml: "<p>Hello Grace</p>" })).status).toBe(201);
    expect((await send("guide", { recipientId: OKORO, bodyHtml: "<p>Staff meeting?</p>" })).status).toBe(201);
    expect((await send("guide", { recipientId: ALEX, bodyHtml: "<p>Question</p>" })).status).toBe(201);
    const otherParent = await parentOf(await aStudentOf(OKORO));
    const refused = await send("guide", { recipientId: otherParent, bodyHtml: "<p>Hi</p>" });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^Guides can write to the families of their students/);
  });

  it("lets an administrator write to staff and families of their schools", async () => {
    expect((await send("admin", { recipientId: OKORO, bodyHtml: "<p>Hello</p>" })).status).toBe(201);
    expect((await send("admin", { recipientId: GRACE, bodyHtml: "<p>Hello</p>" })).status).toBe(201);
    const refused = await send("admin", { recipientId: AVA, bodyHtml: "<p>Hello</p>" });
    expect(refused.status).toBe(403);
  });

  it("keeps students out until their school allows it, and then only to their Guides, never to a student", async () => {
    const off = await send("student", { recipientId: MAYA, bodyHtml: "<p>Hi Ms Patel</p>" });
    expect(off.status).toBe(403);
    expect(off.body.message).toBe("Your school has not turned on messages for students.");
    expect((await send("guide", { recipientId: AVA, bodyHtml: "<p>Hi Ava</p>" })).status).toBe(403);

    await setStudentsMayWrite(true);
    try {
      expect((await send("student", { recipientId: MAYA, bodyHtml: "<p>Hi Ms Patel</p>" })).status).toBe(201);
      expect((await send("guide", { recipientId: AVA, bodyHtml: "<p>Hi Ava</p>" })).status).toBe(201);
      const classmate = await aStudentOf(MAYA, AVA);
      const toStudent = await send("student", { recipientId: classmate, bodyHtml: "<p>Hi</p>" });
      expect(toStudent.status).toBe(403);
      expect(toStudent.body.message).toBe("Students can write to their own Guides only.");
      expect((await send("student", { recipientId: OKORO, bodyHtml: "<p>Hi</p>" })).status).toBe(403);
      expect((await send("student", { recipientId: SAM, bodyHtml: "<p>Hi Dad</p>" })).status).toBe(403);
      // Jordan, a Guide and a student, writes as a student to another student: refused as well.
      expect((await send("jordanStudent", { recipientId: AVA, bodyHtml: "<p>Hi</p>" })).status).toBe(403);
    } finally {
      await setStudentsMayWrite(false);
    }
    // Off again: the conversation stays, and nobody may add to it.
    const inbox = (await call("student", "/conversations")).body as Inbox;
    expect(inbox.canStart).toBe(false);
    const withMaya = inbox.conversations.find((conversation) => conversation.others[0]?.id === MAYA);
    const thread = (await call("student", `/conversations/${withMaya?.id}`)).body as Thread;
    expect(thread.canWrite).toBe(false);
    expect(thread.writingRefusal).toBe("studentsOff");
    expect(
      (await send("student", { conversationId: withMaya?.id, bodyHtml: "<p>Still there?</p>" })).status,
    ).toBe(403);
  });

  it("lets only administrators change the students' rule", async () => {
    const refused = await call("guide", `/admin/settings/${MAPLE_GROVE}`, {
      method: "PUT",
      json: { studentsMayWrite: true },
    });
    expect(refused.status).toBe(403);
    expect(
      (
        await call("admin", "/admin/settings/no-such-school", {
          method: "PUT",
          json: { studentsMayWrite: true },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call("admin", `/admin/settings/${MAPLE_GROVE}`, {
          method: "PUT",
          json: { studentsMayWrite: "yes" },
        })
      ).status,
    ).toBe(400);
    const settings = (await call("admin", "/admin/settings")).body as {
      schools: { schoolId: string; updatedBy: string | null }[];
    };
    expect(settings.schools.find((school) => school.schoolId === MAPLE_GROVE)?.updatedBy).toBe("Alex Morgan");
  });

  it("refuses a proctor, who has no messages", async () => {
    expect((await call("proctor", "/conversations")).status).toBe(403);
    expect((await send("proctor", { recipientId: MAYA, bodyHtml: "<p>Hi</p>" })).status).toBe(403);
  });

  it("refuses what makes no message, naming the field", async () => {
    const empty = await send("parent", { recipientId: MAYA, bodyHtml: "<p> </p>" });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("bodyHtml: Write a message or add a picture.");
    const both = await send("parent", { recipientId: MAYA, conversationId: "x", bodyHtml: "<p>Hi</p>" });
    expect(both.status).toBe(400);
    expect((await send("parent", { bodyHtml: "<p>Hi</p>" })).status).toBe(400);
    expect((await send("parent", { recipientId: SAM, bodyHtml: "<p>Me</p>" })).status).toBe(400);
    const tooLong = await send("parent", { recipientId: MAYA, bodyHtml: `<p>${"a".repeat(20_001)}</p>` });
    expect(tooLong.status).toBe(400);
  });

  it("sanitises what is written", async () => {
    const sent = await send("parent", {
      recipientId: MAYA,
      bodyHtml:
        '<p onclick="steal()">Look <script>alert(1)</script><a href="javascript:alert(1)">here</a><img src="https://tracker.example/p.gif"></p>',
    });
    expect(sent.status).toBe(201);
    const html = (sent.body as SentMessage).message.bodyHtml;
    expect(html).not.toMatch(/script|onclick|javascript|img|tracker/);
    expect(html).toContain("Look");
  });
});

describe("conversations", () => {
  it("count what each member has not read, and mark it read", async () => {
    const sent = (await send("parent", { recipientId: MAYA, bodyHtml: "<p>Unread test</p>" }))
      .body as SentMessage;
    const inbox = (await call("guide", "/conversations")).body as Inbox;
    const conversation = inbox.conversations.find((item) => item.id === sent.conversationId);
    expect(conversation?.unread).toBeGreaterThan(0);
    expect(conversation?.lastMessage).toMatchObject({
      preview: "Unread test",
      isMine: false,
      authorName: "Sam Johnson",
    });
    expect(conversation?.others[0]).toMatchObject({ id: SAM, roles: ["parent"], children: ["Ava Johnson"] });
    expect(inbox.unreadMessages).toBeGreaterThanOrEqual(conversation?.unread ?? 0);
    const unreadBefore = ((await call("guide", "/unread")).body as { unread: number }).unread;
    expect(unreadBefore).toBeGreaterThanOrEqual(conversation?.unread ?? 0);

    const read = await call("guide", `/conversations/${sent.conversationId}/read`, { method: "POST" });
    expect(read.status).toBe(200);
    expect((read.body as { unread: number }).unread).toBe(unreadBefore - (conversation?.unread ?? 0));
    const after = (await call("guide", "/conversations")).body as Inbox;
    expect(after.conversations.find((item) => item.id === sent.conversationId)?.unread).toBe(0);
    // The sender has read their own message.
    const parentInbox = (await call("parent", "/conversations")).body as Inbox;
    expect(parentInbox.conversations.find((item) => item.id === sent.conversationId)?.unread).toBe(0);
  });

  it("show a thread in order, older messages on request, and only to its members", async () => {
    const first = (await send("parent", { recipientId: MAYA, bodyHtml: "<p>One</p>" })).body as SentMessage;
    await send("parent", { conversationId: first.conversationId, bodyHtml: "<p>Two</p>" });
    await send("guide", { conversationId: first.conversationId, bodyHtml: "<p>Three</p>" });
    const thread = (await call("parent", `/conversations/${first.conversationId}`)).body as Thread;
    const texts = thread.messages.map((item) => item.bodyHtml);
    expect(texts.slice(-3)).toEqual(["<p>One</p>", "<p>Two</p>", "<p>Three</p>"]);
    expect(thread.messages.at(-1)).toMatchObject({ authorName: "Maya Patel", isMine: false });
    expect(thread.canWrite).toBe(true);
    const times = thread.messages.map((item) => item.createdAt);
    expect([...times].sort()).toEqual(times);
    const older = (
      await call("parent", `/conversations/${first.conversationId}?before=${thread.messages.at(-1)?.id}`)
    ).body as Thread;
    expect(older.messages.map((item) => item.bodyHtml).slice(-2)).toEqual(["<p>One</p>", "<p>Two</p>"]);

    expect((await call("guardian", `/conversations/${first.conversationId}`)).status).toBe(404);
    expect((await call("admin", `/conversations/${first.conversationId}`)).status).toBe(404);
    expect(
      (await send("guardian", { conversationId: first.conversationId, bodyHtml: "<p>In</p>" })).status,
    ).toBe(404);
    expect((await call("guardian", "/conversations/not-a-uuid")).status).toBe(404);
    expect(
      (await call("guardian", `/conversations/${first.conversationId}/read`, { method: "POST" })).status,
    ).toBe(404);
  });

  it("reach the open pages of the members as soon as a message is stored", async () => {
    const stream = await t.request("/api/live", { cookie: cookies.guide });
    const live = readLiveStream(stream);
    try {
      expect((await live.next()).type).toBe("ready");
      const sent = (await send("parent", { recipientId: MAYA, bodyHtml: "<p>Live</p>" })).body as SentMessage;
      let event = await live.next();
      while (event.type !== "conversation-changed") event = await live.next();
      expect(event.data).toEqual({ conversationId: sent.conversationId });
    } finally {
      live.close();
    }
  });

  it("tell members who did not read a message, once per stretch of unread messages", async () => {
    // Sam writes to Hannah Fischer (Leo's Guide), who has no session open.
    const count = async () => {
      const [row] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from notifications where user_sourced_id = ${HANNAH} and type = 'message.received'`,
      );
      return row?.n ?? 0;
    };
    const before = await count();
    const first = (await send("parent", { recipientId: HANNAH, bodyHtml: "<p>First</p>" }))
      .body as SentMessage;
    await send("parent", { conversationId: first.conversationId, bodyHtml: "<p>Second</p>" });
    // Not yet: she may be looking at it.
    await t.jobs.runDueJobs();
    expect(await count()).toBe(before);
    t.clock.advance(MESSAGE_NOTIFY_DELAY_MS + 1000);
    await t.jobs.runDueJobs();
    expect(await count()).toBe(before + 1);
    const [told] = await queryRows<{ params: { senderName: string }; link: string }>(
      t.db,
      sql`select params, link from notifications where user_sourced_id = ${HANNAH} and type = 'message.received'
        order by created_at desc limit 1`,
    );
    expect(told).toMatchObject({
      params: { senderName: "Sam Johnson" },
      link: `/app/messages?conversation=${first.conversationId}`,
    });

    // She reads; the next message tells her again; one she reads in time does not.
    await queryRows(
      t.db,
      sql`update conversation_members set last_read_at = ${t.clock.now().toISOString()}::timestamptz + interval '1 second'
        where conversation_id = ${first.conversationId}::uuid and user_sourced_id = ${HANNAH}`,
    );
    t.clock.advance(5000);
    await send("parent", { conversationId: first.conversationId, bodyHtml: "<p>Third</p>" });
    t.clock.advance(MESSAGE_NOTIFY_DELAY_MS + 1000);
    await t.jobs.runDueJobs();
    expect(await count()).toBe(before + 2);
  });
});

describe("pictures", () => {
  const picture = (name: string, bytes: Buffer) => ({ name, data: bytes.toString("base64") });

  it("are told by their bytes, not their name, and served to members only", async () => {
    const sent = await send("parent", {
      recipientId: MAYA,
      bodyHtml: "",
      pictures: [picture("homework.jpg", PNG), picture("drawing.png", JPEG)],
    });
    expect(sent.status).toBe(201);
    const message = (sent.body as SentMessage).message;
    expect(message.bodyHtml).toBe("");
    expect(message.pictures.map((item) => [item.name, item.contentType, item.bytes])).toEqual([
      ["homework.jpg", "image/png", PNG.length],
      ["drawing.png", "image/jpeg", JPEG.length],
    ]);
    const url = message.pictures[0]?.url.replace("/api/messaging", "") as string;
    const asGuide = await call("guide", url);
    expect(asGuide.status).toBe(200);
    expect(asGuide.response.headers.get("content-type")).toBe("image/png");
    const asParent = await t.request(`/api/messaging${url}`, { cookie: cookies.parent });
    expect(Buffer.from(await asParent.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await call("guardian", url)).status).toBe(404);
    expect((await call("admin", url)).status).toBe(404);
    expect((await call("guide", url.replace(/\/0$/, "/3"))).status).toBe(404);
    expect((await call("guide", url.replace(/\/0$/, "/9"))).status).toBe(400);
  });

  it("refuse what is not a picture, a picture over 5 MB, and too many", async () => {
    const text = await send("parent", {
      recipientId: MAYA,
      bodyHtml: "<p>See</p>",
      pictures: [picture("notes.png", Buffer.from("just some text, not a picture"))],
    });
    expect(text.status).toBe(415);
    expect(text.body.message).toBe("“notes.png” is not a PNG, JPEG, WebP or GIF picture.");
    const svg = await send("parent", {
      recipientId: MAYA,
      bodyHtml: "<p>See</p>",
      pictures: [picture("icon.png", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'))],
    });
    expect(svg.status).toBe(415);

    const huge = Buffer.concat([PNG, Buffer.alloc(MAX_PICTURE_BYTES - PNG.length + 1, 1)]);
    const tooLarge = await send("parent", {
      recipientId: MAYA,
      bodyHtml: "",
      pictures: [picture("big.png", huge)],
    });
    expect([400, 413]).toContain(tooLarge.status);
    expect(tooLarge.body.message).toMatch(/5 MB/);
    const exact = Buffer.concat([PNG, Buffer.alloc(MAX_PICTURE_BYTES - PNG.length, 1)]);
    expect(
      (await send("parent", { recipientId: MAYA, bodyHtml: "", pictures: [picture("max.png", exact)] }))
        .status,
    ).toBe(201);

    const five = Array.from({ length: 5 }, (_, index) => picture(`p${index}.png`, PNG));
    const many = await send("parent", { recipientId: MAYA, bodyHtml: "", pictures: five });
    expect(many.status).toBe(400);
    expect(many.body.message).toContain("Send at most 4 pictures with one message");
  });

  it("leave nothing behind when the message is refused", async () => {
    const [before] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from messages`);
    const refused = await send("parent", {
      recipientId: OKORO,
      bodyHtml: "",
      pictures: [picture("a.png", PNG)],
    });
    expect(refused.status).toBe(403);
    const [after] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from messages`);
    expect(after?.n).toBe(before?.n);
  });
});

describe("viewing Dash as someone", () => {
  it("lets a Guide read what lies in their reach, and send nothing, mark nothing read", async () => {
    const guide = await t.signIn("guide@dash.demo");
    const viewing = await t.request("/api/auth/impersonation", {
      cookie: guide,
      json: { userId: SAM, reason: "Helping Sam with messages" },
    });
    expect(viewing.status).toBe(200);
    const asSam = async (path: string, init: { method?: string; json?: unknown } = {}) => {
      const response = await t.request(`/api/messaging${path}`, { ...init, cookie: guide });
      return { status: response.status, body: await response.json().catch(() => null) };
    };
    const inbox = (await asSam("/conversations")).body as Inbox;
    const others = inbox.conversations.flatMap((conversation) =>
      conversation.others.map((other) => other.id),
    );
    expect(others).toContain(MAYA);
    // Leo's Guide and the office are outside Maya Patel's own reach.
    expect(others).not.toContain(HANNAH);
    expect(others).not.toContain(ALEX);
    expect(inbox.canStart).toBe(false);
    expect(inbox.startRefusal).toBe("viewingAs");

    const refused = await asSam("/messages", { json: { recipientId: MAYA, bodyHtml: "<p>As Sam</p>" } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      "You are viewing Dash as Sam Johnson: messages can only be sent in your own name.",
    );

    const withHannah = ((await call("parent", "/conversations")).body as Inbox).conversations.find(
      (conversation) => conversation.others[0]?.id === HANNAH,
    );
    expect((await asSam(`/conversations/${withHannah?.id}`)).status).toBe(404);

    const withMaya = inbox.conversations.find((conversation) => conversation.others[0]?.id === MAYA);
    await send("guide", { conversationId: withMaya?.id, bodyHtml: "<p>Unread for Sam</p>" });
    const [before] = await queryRows<{ at: string | null }>(
      t.db,
      sql`select last_read_at::text as at from conversation_members where conversation_id = ${withMaya?.id}::uuid and user_sourced_id = ${SAM}`,
    );
    expect((await asSam(`/conversations/${withMaya?.id}/read`, { method: "POST" })).status).toBe(200);
    const [after] = await queryRows<{ at: string | null }>(
      t.db,
      sql`select last_read_at::text as at from conversation_members where conversation_id = ${withMaya?.id}::uuid and user_sourced_id = ${SAM}`,
    );
    expect(after?.at).toBe(before?.at);
  });
});

describe("the request size", () => {
  it("is limited for a message with pictures", async () => {
    const response = await t.request("/api/messaging/messages", {
      cookie: cookies.parent,
      body: JSON.stringify({ recipientId: MAYA, bodyHtml: "x".repeat(30 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
  });
});

describe("a student's personal data", () => {
  it("is in their export, and anonymising removes their words, pictures and name from messaging", async () => {
    await setStudentsMayWrite(true);
    const own = (
      await send("student", {
        recipientId: MAYA,
        bodyHtml: "<p>This is Ava Johnson, student@dash.demo</p>",
        pictures: [{ name: "Ava Johnson.png", data: PNG.toString("base64") }],
      })
    ).body as SentMessage;
    await setStudentsMayWrite(false);
    await send("parent", { recipientId: MAYA, bodyHtml: "<p>Ava Johnson will be late today</p>" });
    const told = await call("admin", "/admin/announcements", {
      json: {
        title: "Well done, Ava Johnson",
        bodyHtml: "<p>Ava Johnson won the spelling bee.</p>",
        audience: { kind: "class", classId: demoId("class-maple-grove-guide-patel-Math") },
      },
    });
    expect(told.status).toBe(201);
    await call("student", `/announcements/${told.body.id}/read`, { method: "POST" });

    const exported = await t.request(`/api/admin/privacy/students/${AVA}/export`, { cookie: cookies.admin });
    expect(exported.status).toBe(200);
    const files = await zipFilesOf(exported);
    expect(files["conversations.csv"]).toContain("Maya Patel");
    expect(files["messages.csv"]).toContain("This is Ava Johnson, student@dash.demo");
    expect(files["messages.csv"]).toContain("Ava Johnson.png");
    expect(files["announcements.csv"]).toMatch(/"Well done, Ava Johnson",Alex Morgan,[^,]+,\d{4}-/);

    const anonymised = await t.request(`/api/admin/privacy/students/${AVA}/anonymise`, {
      cookie: cookies.admin,
      json: { confirm: "Ava Johnson", reason: "The family asked for erasure" },
    });
    expect(anonymised.status).toBe(200);
    const left = await queryRows<{ where: string }>(
      t.db,
      sql`select 'messages' as where from messages where body_html ilike '%Ava Johnson%' or attachments::text ilike '%Ava Johnson%'
          or body_html ilike '%student@dash.demo%'
        union all select 'announcements' from announcements where title ilike '%Ava Johnson%' or body_html ilike '%Ava Johnson%'`,
    );
    expect(left).toEqual([]);
    const [mine] = await queryRows<{ body: string; pictures: { name: string; storageKey: string }[] }>(
      t.db,
      sql`select body_html as body, attachments as pictures from messages where id = ${own.message.id}::uuid`,
    );
    expect(mine?.body).toBe("");
    expect(mine?.pictures.map((picture) => picture.name)).toEqual(["picture"]);
    const key = mine?.pictures[0]?.storageKey as string;
    expect(await t.storage.exists(key)).toBe(true);
    // The nightly job deletes the files of removed messages.
    t.clock.advance(24 * 60 * 60_000);
    await t.jobs.runDueJobs();
    expect(await t.storage.exists(key)).toBe(false);
    const [cleared] = await queryRows<{ pictures: unknown[] }>(
      t.db,
      sql`select attachments as pictures from messages where id = ${own.message.id}::uuid`,
    );
    expect(cleared?.pictures).toEqual([]);
    // Her membership and what she read stay, as figures.
    const [kept] = await queryRows<{ members: number; reads: number }>(
      t.db,
      sql`select (select count(*)::int from conversation_members where user_sourced_id = ${AVA}) as members,
        (select count(*)::int from announcement_recipients where user_sourced_id = ${AVA} and read_at is not null) as reads`,
    );
    expect(kept?.members).toBeGreaterThan(0);
    expect(kept?.reads).toBeGreaterThan(0);
  });
});
