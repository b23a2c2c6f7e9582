import { sql } from "drizzle-orm";
import type { NotificationType } from "../../shared/contracts/notifications";
import { SCHOOL_TIME_ZONE } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import { renderNotificationEmail } from "../domains/notifications/email-content";
import { demoId } from "./demo-accounts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Older notifications were read; the last days' wait for their reader. */
const READ_AFTER_DAYS = 5;

interface DemoNotification {
  userId: string;
  type: NotificationType;
  params: Record<string, string | number>;
  link: string;
  at: Date;
  key: string;
  /** A family's strike and pulse go by email too: the outbox shows them, kept (no SMTP server in the demo). */
  mailTo?: string | null;
}

/**
 * The notification centre of the demo, made from what the demo school holds: Ava's strikes tell
 * her and her family, her reward requests tell her family and their decisions tell her, her
 * weekly pulses tell her family, and open surveys and sent announcements tell the demo people
 * they reach. The last days' are unread. Mails for those a family gets by email are in the
 * outbox, kept.
 */
export async function seedDemoNotifications(db: Database, today: Date): Promise<void> {
  const ava = demoId("student-ava");
  const wasRead = (at: Date) => today.getTime() - at.getTime() > READ_AFTER_DAYS * DAY_MS;
  const [student] = await queryRows<{ name: string; given: string }>(
    db,
    sql`select coalesce(preferred_first_name, given_name) || ' ' || family_name as name,
          coalesce(preferred_first_name, given_name) as given
        from users where sourced_id = ${ava}`,
  );
  const studentName = student?.name ?? "";
  const family = await queryRows<{ id: string; email: string | null }>(
    db,
    sql`select u.sourced_id as id, u.email from user_agents a join users u on u.sourced_id = a.agent_sourced_id
        where a.user_sourced_id = ${ava} order by u.sourced_id`,
  );
  const childPage = `/app/child/${ava}/`;
  const entries: DemoNotification[] = [];

  const strikes = await queryRows<{ id: string; at: string; strikes: number }>(
    db,
    sql`select id, struck_at::text as at, coalesce(cumulative_strikes, 1) as strikes from integrity_incidents
        where student_sourced_id = ${ava} and struck_at is not null order by struck_at`,
  );
  for (const strike of strikes) {
    const params = { studentId: ava, studentName, strikes: strike.strikes };
    const at = new Date(strike.at);
    entries.push({
      userId: ava,
      type: "strike.confirmed",
      params,
      link: "/app/",
      at,
      key: `strike:${strike.id}`,
    });
    for (const member of family)
      entries.push({
        userId: member.id,
        type: "strike.confirmed",
        params,
        link: childPage,
        at,
        key: `strike:${strike.id}`,
        mailTo: member.email,
      });
  }

  const requests = await queryRows<{
    id: string;
    item: string;
    price: number;
    status: string;
    at: string;
    decided: string | null;
  }>(
    db,
    sql`select id, item_name as item, price, status, created_at::text as at, decided_at::text as decided
        from reward_redemptions where student_sourced_id = ${ava} order by created_at desc limit 4`,
  );
  for (const request of requests) {
    for (const member of family)
      entries.push({
        userId: member.id,
        type: "redemption.requested",
        params: { studentId: ava, studentName, rewardName: request.item, price: request.price },
        link: `/app/parent-emporium?childId=${ava}`,
        at: new Date(request.at),
        key: `redemption:${request.id}:requested`,
      });
    if (
      (request.status === "approved" || request.status === "rejected" || request.status === "fulfilled") &&
      request.decided
    )
      entries.push({
        userId: ava,
        type: "redemption.decided",
        params: {
          rewardName: request.item,
          decision: request.status === "rejected" ? "declined" : "approved",
        },
        link: "/app/emporium",
        at: new Date(request.decided),
        key: `redemption:${request.id}:decided`,
      });
  }

  const pulses = await queryRows<{ week: string; built: string }>(
    db,
    // Told on the week's Friday afternoon at school, as the weekly job tells families.
    sql`select to_char(week_start, 'YYYY-MM-DD') as week,
          least(((week_start + 5) + time '16:00') at time zone ${SCHOOL_TIME_ZONE}, built_at)::text as built
        from weekly_pulses
        where student_sourced_id = ${ava}
          and ((week_start + 5) + time '16:00') at time zone ${SCHOOL_TIME_ZONE} <= ${today.toISOString()}::timestamptz
        order by week_start desc limit 2`,
  );
  for (const pulse of pulses)
    for (const member of family)
      entries.push({
        userId: member.id,
        type: "pulse.ready",
        params: { studentId: ava, childName: student?.given ?? "", week: pulse.week },
        link: `${childPage}?week=${pulse.week}`,
        at: new Date(pulse.built),
        key: `pulse:${pulse.week}`,
        mailTo: member.email,
      });

  // The demo's sign-in accounts, each with the Dash roles they hold.
  const demoPeople = await queryRows<{ id: string; roles: string[] }>(
    db,
    sql`select u.sourced_id as id, array_agg(distinct lower(r.role)) as roles
        from users u join user_roles r on r.user_sourced_id = u.sourced_id
        where u.email like '%@dash.demo' group by u.sourced_id`,
  );
  const surveys = await queryRows<{
    id: string;
    round_id: string;
    title: string;
    roles: string[];
    opened: string;
  }>(
    db,
    sql`select s.id, r.id as round_id, s.title, array(select jsonb_array_elements_text(s.audience -> 'roles')) as roles,
          r.opens_at::text as opened
        from surveys s join survey_rounds r on r.survey_id = s.id
        where s.status = 'published' and r.opens_at <= ${today.toISOString()}::timestamptz
          and (r.closes_at is null or r.closes_at > ${today.toISOString()}::timestamptz)`,
  );
  for (const survey of surveys)
    for (const person of demoPeople.filter((who) => who.roles.some((role) => survey.roles.includes(role))))
      entries.push({
        userId: person.id,
        type: "survey.invited",
        params: { surveyTitle: survey.title },
        link: `/app/survey/${survey.id}`,
        at: new Date(survey.opened),
        key: `survey:${survey.round_id}`,
      });

  const announced = await queryRows<{
    id: string;
    title: string;
    sender: string;
    user_id: string;
    at: string;
  }>(
    db,
    sql`select a.id, a.title, coalesce(s.preferred_first_name, s.given_name) || ' ' || s.family_name as sender,
          r.user_sourced_id as user_id, r.delivered_at::text as at
        from announcements a join announcement_recipients r on r.announcement_id = a.id
          join users s on s.sourced_id = a.created_by
        where r.user_sourced_id in (select u.sourced_id from users u where u.email like '%@dash.demo')`,
  );
  for (const announcement of announced)
    entries.push({
      userId: announcement.user_id,
      type: "announcement.published",
      params: { title: announcement.title, senderName: announcement.sender },
      link: "/app/messages",
      at: new Date(announcement.at),
      key: `announcement:${announcement.id}`,
    });

  if (entries.length === 0) return;
  const rows = entries.map((entry) => ({
    user_id: entry.userId,
    type: entry.type,
    params: entry.params,
    link: entry.link,
    dedupe_key: entry.key,
    created_at: entry.at.toISOString(),
    read_at: wasRead(entry.at) ? new Date(entry.at.getTime() + 3 * 60 * 60 * 1000).toISOString() : null,
  }));
  await db.execute(
    sql`insert into notifications (user_sourced_id, type, params, link, dedupe_key, created_at, read_at)
        select user_id, type, params, link, dedupe_key, created_at, read_at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as n(user_id text, type text, params jsonb,
          link text, dedupe_key text, created_at timestamptz, read_at timestamptz)
        on conflict (user_sourced_id, dedupe_key) where dedupe_key is not null do nothing`,
  );

  const mails = entries.flatMap((entry) => {
    if (!entry.mailTo) return [];
    const content = renderNotificationEmail(entry.type, entry.params, entry.link, "en");
    return [
      {
        user_id: entry.userId,
        address: entry.mailTo,
        category: entry.type,
        subject: content.subject,
        text_body: content.text,
        html_body: content.html,
        dedupe_key: `notify:${entry.userId}:${entry.type}:${entry.key}`,
        created_at: entry.at.toISOString(),
      },
    ];
  });
  if (mails.length > 0)
    await db.execute(
      sql`insert into email_outbox (recipient_sourced_id, to_address, category, subject, text_body, html_body,
            status, dedupe_key, created_at)
          select user_id, address, category, subject, text_body, html_body, 'kept', dedupe_key, created_at
          from jsonb_to_recordset(${JSON.stringify(mails)}::jsonb) as m(user_id text, address text, category text,
            subject text, text_body text, html_body text, dedupe_key text, created_at timestamptz)
          on conflict (dedupe_key) where dedupe_key is not null do nothing`,
    );
}
