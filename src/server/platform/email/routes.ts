import { sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Language } from "../../../shared/languages";
import { queryRows } from "../../db/client";
import { languageOfSql } from "../../domains/notifications/choices";
import type { AppDeps, AppEnv } from "../../lib/context";
import { message, translate } from "../../lib/i18n";
import { requestLanguage } from "../../lib/validation";
import { escapeHtml } from "./layout";
import { isNamedCategory } from "./mailer";
import { MAX_TOKEN_LENGTH, readUnsubscribeToken, type UnsubscribeTarget, unsubscribe } from "./unsubscribe";

export const UNSUBSCRIBE_PATH = "/api/email/unsubscribe";
/** What the unsubscribe link's POST may send: a form, or the one-click request of RFC 8058. */
export const UNSUBSCRIBE_BODY_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"] as const;

const tokenSchema = z.string().trim().min(1).max(MAX_TOKEN_LENGTH);
const unsubscribeQuerySchema = z.object({ token: tokenSchema });
const unsubscribeFormSchema = z.object({ token: tokenSchema.optional() }).loose();

/**
 * Reached from an email's link, without signing in: the unsubscribe link shows a page that asks
 * before it acts (mail scanners open links), and its button, like a mail client's one-click
 * unsubscribe (RFC 8058), posts the token to turn that category's mail off.
 */
export function emailPublicRoutes(deps: AppDeps) {
  const { db, secretBox } = deps;

  /** The person a token names, with their address and language; null when it is no token of Dash's. */
  async function recipientOf(token: string | undefined) {
    const target = token === undefined ? null : readUnsubscribeToken(secretBox, token);
    if (!target) return null;
    const [person] = await queryRows<{ address: string | null; language: Language }>(
      db,
      sql`select u.email as address, ${languageOfSql(sql`u.sourced_id`)} as language
          from users u where u.sourced_id = ${target.userId}`,
    );
    return person ? { target, ...person } : null;
  }

  const invalidPage = (c: Context<AppEnv>) => {
    const language = requestLanguage(c);
    const say = (key: string) => translate(message(`notifications:unsubscribe.${key}`), language);
    return c.html(unsubscribePage(language, say("title"), `<p>${escapeHtml(say("invalid"))}</p>`), 400);
  };

  return new Hono<AppEnv>()
    .get("/unsubscribe", async (c) => {
      const query = unsubscribeQuerySchema.safeParse(c.req.query());
      const recipient = query.success ? await recipientOf(query.data.token) : null;
      if (!query.success || !recipient) return invalidPage(c);
      const { language, target } = recipient;
      const say = sayer(language, target, recipient.address);
      const body = `<p>${escapeHtml(say("ask"))}</p>
<form method="post" action="${UNSUBSCRIBE_PATH}">
<input type="hidden" name="token" value="${escapeHtml(query.data.token)}">
<button type="submit">${escapeHtml(say("confirm"))}</button>
</form>`;
      return c.html(unsubscribePage(language, say("title"), body));
    })
    .post("/unsubscribe", async (c) => {
      const form = unsubscribeFormSchema.safeParse(await c.req.parseBody().catch(() => ({})));
      const query = z.object({ token: tokenSchema.optional() }).safeParse(c.req.query());
      const token =
        (form.success ? form.data.token : undefined) ?? (query.success ? query.data.token : undefined);
      const recipient = await recipientOf(token);
      if (!recipient) return invalidPage(c);
      await unsubscribe(db, recipient.target, new Date());
      const say = sayer(recipient.language, recipient.target, recipient.address);
      return c.html(
        unsubscribePage(
          recipient.language,
          say("title"),
          `<p role="status">${escapeHtml(say("done"))}</p>\n<p>${escapeHtml(say("again"))}</p>`,
        ),
      );
    });
}

function sayer(language: Language, target: UnsubscribeTarget, address: string | null) {
  const category = isNamedCategory(target.category)
    ? translate(message(`notifications:categories.${target.category}`), language)
    : translate(message("notifications:categories.other", { category: target.category }), language);
  return (key: string) =>
    translate(message(`notifications:unsubscribe.${key}`, { category, address: address ?? "" }), language);
}

/** A small page of its own (no script, no file of the app): it must work for anyone, signed in or not. */
function unsubscribePage(language: Language, title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Dash</title>
<style>
  :root { color-scheme: light dark; }
  body { margin: 0; font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; line-height: 1.5;
    background: #f4f4f5; color: #18181b; }
  main { max-width: 32rem; margin: 10vh auto; padding: 2rem 1.5rem; background: #ffffff; border-radius: 0.75rem; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  button { font: inherit; font-weight: 600; padding: 0.75rem 1.25rem; border: 0; border-radius: 0.5rem;
    background: #1d4ed8; color: #ffffff; cursor: pointer; }
  button:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
  @media (prefers-color-scheme: dark) {
    body { background: #18181b; color: #f4f4f5; }
    main { background: #27272a; }
    button { background: #3b82f6; color: #0b1120; }
  }
</style>
</head>
<body>
<main>
<h1>Dash · ${escapeHtml(title)}</h1>
${bodyHtml}
</main>
</body>
</html>
`;
}
