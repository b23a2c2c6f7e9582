import { type SQL, sql } from "drizzle-orm";
import type {
  OutboxMail,
  OutboxMailDetail,
  OutboxPage,
  OutboxQuery,
} from "../../../shared/contracts/notifications";
import { type Database, isoInstant, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { resolveAppUrls } from "../../platform/email/layout";
import { nameOf } from "../rostering/queries";

const MAIL_COLUMNS = sql`o.id, o.to_address as "to", o.recipient_sourced_id as "recipientId",
  ${nameOf(sql`o.recipient_sourced_id`)} as "recipientName", o.subject, o.category, o.status, o.attempts,
  o.last_error as error, ${isoInstant(sql`o.created_at`)} as "createdAt", ${isoInstant(sql`o.sent_at`)} as "sentAt"`;

/** `%text%` for ILIKE, its wildcards taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** The outbox, newest first: every mail Dash wrote, sent or kept, for administrators to read. */
export async function outboxPage(
  db: Database,
  query: Required<Pick<OutboxQuery, "offset" | "limit">> & Pick<OutboxQuery, "status" | "search">,
): Promise<OutboxPage> {
  const filters: SQL[] = [];
  if (query.status) filters.push(sql`o.status = ${query.status}`);
  if (query.search) {
    const pattern = containing(query.search);
    filters.push(
      sql`(o.to_address ilike ${pattern} or o.subject ilike ${pattern} or o.category ilike ${pattern})`,
    );
  }
  const where = filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const [items, [count]] = await Promise.all([
    queryJsonRows<OutboxMail>(
      db,
      sql`select ${MAIL_COLUMNS} from email_outbox o ${where}
          order by o.created_at desc, o.id desc offset ${query.offset} limit ${query.limit}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from email_outbox o ${where}`),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** One mail with its plain text, its links as the recipient reads them. */
export async function outboxMail(db: Database, id: string, publicUrl: string): Promise<OutboxMailDetail> {
  const [mail] = await queryJsonRows<OutboxMailDetail>(
    db,
    sql`select ${MAIL_COLUMNS}, o.text_body as text, o.html_body is not null as "hasHtml",
          coalesce((select jsonb_agg(a.file->>'fileName' order by a.at)
            from jsonb_array_elements(o.attachments) with ordinality as a(file, at)), '[]'::jsonb) as attachments
        from email_outbox o where ${uuidEquals(sql`o.id`, id)}`,
  );
  if (!mail) throw new AppError("not_found", message("notifications:errors.mailNotFound"));
  return { ...mail, text: resolveAppUrls(mail.text, publicUrl) };
}
