import { sql } from "drizzle-orm";
import type { Audience } from "../../shared/contracts/messaging";
import { type Database, queryRows } from "../db/client";
import { recipientsOf } from "../domains/messaging/announcements";
import type { FileStorage } from "../platform/storage";
import { demoId } from "./demo-accounts";
import { drawDemoScreenshot } from "./demo-screenshots";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ALEX = demoId("admin");
const SAM = demoId("parent-sam");
const MAYA = demoId("guide-patel");
const DANIEL = demoId("guide-okoro");
const MAPLE_GROVE = demoId("maple-grove");
const PATEL_MATH = demoId("class-maple-grove-guide-patel-Math");

interface DemoAnnouncement {
  key: string;
  title: string;
  bodyHtml: string;
  audience: Audience;
  /** Hours from today: negative for sent ones, positive for the scheduled one. */
  hours: number;
  /** The share of recipients who read it (by a stable pick). */
  readShare: number;
}

const ANNOUNCEMENTS: DemoAnnouncement[] = [
  {
    key: "science-fair",
    title: "Science fair next month",
    bodyHtml:
      "<p>Our spring science fair is on the last Friday of next month. Every student shows one small experiment.</p><ul><li>Guides help choose a question this week.</li><li>Families are welcome from 2 pm.</li></ul>",
    audience: { kind: "school", orgId: MAPLE_GROVE },
    hours: -5 * 24,
    readShare: 0.6,
  },
  {
    key: "staff-meeting",
    title: "Staff meeting moved to Wednesday",
    bodyHtml: "<p>This week's staff meeting is on <strong>Wednesday at 3:30 pm</strong> in the library.</p>",
    audience: { kind: "staff", orgId: MAPLE_GROVE },
    hours: -2 * 24,
    readShare: 0.8,
  },
  {
    key: "picture-day",
    title: "Picture day on Thursday",
    bodyHtml:
      "<p>Class pictures are taken on Thursday morning. Please send your child in with a smile; uniforms are not needed.</p>",
    audience: { kind: "class_parents", classId: PATEL_MATH },
    hours: -20,
    readShare: 0.3,
  },
  {
    key: "conferences",
    title: "Family conferences: sign up next week",
    bodyHtml:
      "<p>Spring family conferences are coming. Sign-up opens next Monday; each family meets their child's Guide for twenty minutes.</p>",
    audience: { kind: "school", orgId: MAPLE_GROVE },
    hours: 3 * 24,
    readShare: 0,
  },
];

interface DemoMessage {
  from: string;
  hoursAgo: number;
  html: string;
  picture?: "game";
}

interface DemoConversation {
  key: string;
  members: [string, string];
  messages: DemoMessage[];
  /** Hours ago each member last read it (the second member has not read the last message). */
  readHoursAgo: [number, number];
}

const CONVERSATIONS: DemoConversation[] = [
  {
    key: "sam-maya",
    members: [MAYA, SAM],
    messages: [
      {
        from: SAM,
        hoursAgo: 4 * 24 + 3,
        html: "<p>Hi Ms Patel, Ava says she is stuck on fractions this week. Is there anything we can practise at home?</p>",
      },
      {
        from: MAYA,
        hoursAgo: 4 * 24 + 1,
        html: "<p>Hi Sam, thanks for telling me. Ten minutes of the fraction games in Math Academy each evening will help, and we will work on it together on Thursday.</p>",
      },
      { from: SAM, hoursAgo: 3 * 24 + 20, html: "<p>Great, we will do that. Thank you!</p>" },
      {
        from: MAYA,
        hoursAgo: 26,
        html: "<p>Ava designed this game in our coding club on Friday. She was very proud of it!</p>",
        picture: "game",
      },
      {
        from: MAYA,
        hoursAgo: 25,
        html: "<p>She also mastered two fraction units this week. 🎉</p>",
      },
    ],
    readHoursAgo: [25, 3 * 24 + 19],
  },
  {
    key: "sam-office",
    members: [SAM, ALEX],
    messages: [
      {
        from: SAM,
        hoursAgo: 6 * 24,
        html: "<p>Hello, Leo's grandmother will pick him up on Fridays from next week. Is there a form to fill in?</p>",
      },
      {
        from: ALEX,
        hoursAgo: 6 * 24 - 2,
        html: "<p>Hello Sam, no form is needed: please send her full name and we will add her to the pick-up list.</p>",
      },
      { from: SAM, hoursAgo: 5 * 24, html: "<p>Her name is Margaret Johnson. Thank you!</p>" },
    ],
    readHoursAgo: [5 * 24, 5 * 24 - 1],
  },
  {
    key: "maya-daniel",
    members: [DANIEL, MAYA],
    messages: [
      {
        from: MAYA,
        hoursAgo: 30,
        html: "<p>Daniel, could your group join mine for the science fair practice run on Tuesday?</p>",
      },
      {
        from: DANIEL,
        hoursAgo: 5,
        html: "<p>Yes, Tuesday works. I will bring the timers and the display boards.</p>",
      },
    ],
    readHoursAgo: [5, 29],
  },
];

const at = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

/**
 * Messaging for the demo school: announcements sent to Maple Grove, its staff and the parents of Ms
 * Patel's Math class (some read), one scheduled for later in the week; Sam Johnson's conversations
 * with Ava's Guide (with a picture, when the demo has file storage) and with the school office, and
 * a staff conversation between two Guides. The latest message of two of them is still unread.
 */
export async function seedDemoMessaging(db: Database, today: Date, storage?: FileStorage): Promise<void> {
  for (const announcement of ANNOUNCEMENTS) {
    const id = demoId(`announcement-${announcement.key}`);
    const when = new Date(today.getTime() + announcement.hours * HOUR);
    const isSent = announcement.hours < 0;
    await db.execute(sql`insert into announcements (id, title, body_html, audience, send_email, scheduled_for, sent_at,
        created_by, created_at)
      values (${id}::uuid, ${announcement.title}, ${announcement.bodyHtml}, ${JSON.stringify(announcement.audience)}::jsonb,
        true, ${at(when)}, ${isSent ? at(when) : null}, ${ALEX}, ${at(new Date(when.getTime() - (isSent ? HOUR : 2 * DAY)))})`);
    if (!isSent) continue;
    // A stable share of the recipients read it within a day.
    const [reached] = await queryRows<{ count: number }>(
      db,
      sql`with reached as (
          insert into announcement_recipients (announcement_id, user_sourced_id, delivered_at, read_at)
          select ${id}::uuid, r.sourced_id, ${at(when)},
            case when ('x' || substr(md5(r.sourced_id || ${announcement.key}), 1, 8))::bit(32)::int::float8 / 4294967296 + 0.5
                < ${announcement.readShare}
              then ${at(when)} + interval '3 hours' end
          from (${recipientsOf(announcement.audience)}) r
          returning 1)
        select count(*)::int as count from reached`,
    );
    await db.execute(
      sql`update announcements set recipient_count = ${reached?.count ?? 0} where id = ${id}::uuid`,
    );
  }

  for (const conversation of CONVERSATIONS) {
    const id = demoId(`conversation-${conversation.key}`);
    const first = conversation.messages[0] as DemoMessage;
    const last = conversation.messages.at(-1) as DemoMessage;
    const ago = (hours: number) => new Date(today.getTime() - hours * HOUR);
    await db.execute(sql`insert into conversations (id, created_by, created_at, last_message_at)
      values (${id}::uuid, ${first.from}, ${at(ago(first.hoursAgo))}, ${at(ago(last.hoursAgo))})`);
    for (const [index, member] of conversation.members.entries())
      await db.execute(sql`insert into conversation_members (conversation_id, user_sourced_id, joined_at, last_read_at)
        values (${id}::uuid, ${member}, ${at(ago(first.hoursAgo))}, ${at(ago(conversation.readHoursAgo[index] as number))})`);
    for (const [index, item] of conversation.messages.entries()) {
      const pictures =
        item.picture && storage
          ? [
              {
                ...(await storage
                  .put(drawDemoScreenshot(item.picture), {
                    folder: "messages",
                    contentType: "image/png",
                    accept: ["png"],
                    maxBytes: 2 * 1024 * 1024,
                  })
                  .then((stored) => ({
                    storageKey: stored.key,
                    contentType: stored.contentType,
                    bytes: stored.size,
                  }))),
                name: "ava-coding-club-game.png",
              },
            ]
          : [];
      await db.execute(sql`insert into messages (id, conversation_id, author_sourced_id, body_html, attachments, created_at)
        values (${demoId(`message-${conversation.key}-${index}`)}::uuid, ${id}::uuid, ${item.from}, ${item.html},
          ${JSON.stringify(pictures)}::jsonb, ${at(ago(item.hoursAgo))})`);
    }
  }
}
