import type { NotificationType } from "../../../shared/contracts/notifications";
import type { Language } from "../../../shared/languages";
import { message, translate } from "../../lib/i18n";
import { appUrl, buttonHtml, emailHtml, paragraphsHtml } from "../../platform/email/layout";

/** A notification's mail: its sentence as subject and body, with a button to the page it opens. */
export function renderNotificationEmail(
  type: NotificationType,
  params: Record<string, string | number>,
  link: string | null,
  language: Language,
): { subject: string; text: string; html: string } {
  const say = (key: string) => translate(message(`notifications:email.${type}.${key}`, params), language);
  const subject = say("subject");
  const body = say("body");
  const url = appUrl(link ?? "/app/notifications");
  const open = translate(message("notifications:email.open"), language);
  return {
    subject,
    text: `${body}\n\n${open}: ${url}\n`,
    html: emailHtml({
      language,
      title: subject,
      bodyHtml: `${paragraphsHtml(body)}\n${buttonHtml(open, url)}`,
    }),
  };
}
