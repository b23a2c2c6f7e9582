import { useQuery } from "@tanstack/react-query";
import { Mail } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  EMAIL_STATUSES,
  type EmailStatusName,
  isNotificationType,
  type OutboxMail,
} from "../../../shared/contracts/notifications";
import { Card } from "../../components/page-header";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { instantLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { outboxMailQuery, outboxQuery } from "./api";

const PAGE_SIZE = 25;

const STATUS_LOOKS: Record<EmailStatusName, string> = {
  queued: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  sent: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  kept: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
};

/**
 * The outbox for administrators: every mail Dash wrote, newest first, filtered by status or by
 * words of its address, subject or kind, and each one's plain text to read.
 */
export function OutboxTable() {
  const { t } = useTranslation("notifications");
  const [status, setStatus] = useState<EmailStatusName | "">("");
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const [reading, setReading] = useState<OutboxMail | null>(null);
  const outbox = useQuery(
    outboxQuery({ offset, limit: PAGE_SIZE, ...(status && { status }), ...(search && { search }) }),
  );
  const kindOf = (category: string) =>
    isNotificationType(category)
      ? t(`types.${category}.name`)
      : t(`outbox.kinds.${category}`, { defaultValue: category });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
    setOffset(0);
  };

  return (
    <Card>
      <h2 className="text-lg font-bold">{t("outbox.title")}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("outbox.description")}</p>
      <form onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
        <TextField
          label={t("outbox.search")}
          type="search"
          value={typed}
          placeholder={t("outbox.searchPlaceholder")}
          onChange={(event) => setTyped(event.target.value)}
          className="min-w-0 flex-1 basis-56"
        />
        <SelectField
          label={t("outbox.status")}
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as EmailStatusName | "");
            setOffset(0);
          }}
          options={[
            { value: "", label: t("outbox.allStatuses") },
            ...EMAIL_STATUSES.map((value) => ({ value, label: t(`outbox.statuses.${value}`) })),
          ]}
          className="w-40"
        />
        <button type="submit" className={buttonClass("secondary", "h-[2.875rem]")}>
          {t("outbox.search")}
        </button>
      </form>
      <div className="mt-4">
        {outbox.isPending ? (
          <Loading label={t("outbox.loading")} rows={5} />
        ) : outbox.isError ? (
          <QueryError
            error={outbox.error}
            fallback={t("outbox.failed")}
            onRetry={() => void outbox.refetch()}
          />
        ) : outbox.data.items.length === 0 ? (
          <EmptyState icon={Mail} title={t("outbox.empty")}>
            {t("outbox.emptyHint")}
          </EmptyState>
        ) : (
          <TableRegion label={t("outbox.tableLabel")}>
            <table className="w-full min-w-[44rem] text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200 dark:border-slate-800">
                  {(["to", "subject", "kind", "status", "attempts", "created"] as const).map((column) => (
                    <th key={column} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                      {t(`outbox.columns.${column}`)}
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">{t("outbox.read")}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {outbox.data.items.map((mail) => (
                  <tr key={mail.id}>
                    <td className="px-3 py-2.5 whitespace-nowrap">
                      {mail.to || "—"}
                      {mail.recipientName && (
                        <span className="block text-xs text-slate-600 dark:text-slate-300">
                          {mail.recipientName}
                        </span>
                      )}
                    </td>
                    <td className="min-w-48 max-w-80 px-3 py-2.5">{mail.subject}</td>
                    <td className="px-3 py-2.5">{kindOf(mail.category)}</td>
                    <td className="px-3 py-2.5">
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_LOOKS[mail.status]}`}
                      >
                        {t(`outbox.statuses.${mail.status}`)}
                      </span>
                    </td>
                    <td className="px-3 py-2.5 tabular-nums">{mail.attempts}</td>
                    <td className="px-3 py-2.5 whitespace-nowrap">
                      <time dateTime={mail.createdAt}>{instantLabel(mail.createdAt)}</time>
                    </td>
                    <td className="px-3 py-2.5">
                      <button
                        type="button"
                        onClick={() => setReading(mail)}
                        aria-label={t("outbox.readLabel", { to: mail.to || "—", subject: mail.subject })}
                        className="font-semibold text-brand-700 hover:underline dark:text-brand-100"
                      >
                        {t("outbox.read")}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        {outbox.data && (
          <Pager
            offset={offset}
            limit={PAGE_SIZE}
            total={outbox.data.total}
            onChange={setOffset}
            label={t("outbox.paged")}
          />
        )}
      </div>
      {reading && (
        <MailDialog mail={reading} kind={kindOf(reading.category)} onClose={() => setReading(null)} />
      )}
    </Card>
  );
}

function MailDialog({ mail, kind, onClose }: { mail: OutboxMail; kind: string; onClose: () => void }) {
  const { t } = useTranslation("notifications");
  const detail = useQuery(outboxMailQuery(mail.id));
  const textId = useId();
  return (
    <Dialog
      title={t("outbox.mailTitle", { to: mail.to || "—" })}
      description={mail.subject}
      onClose={onClose}
    >
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">{t("outbox.columns.kind")}</dt>
        <dd>{kind}</dd>
        <dt className="font-semibold">{t("outbox.columns.status")}</dt>
        <dd>{t(`outbox.statuses.${mail.status}`)}</dd>
        <dt className="font-semibold">{t("outbox.columns.created")}</dt>
        <dd>{instantLabel(mail.createdAt)}</dd>
        <dt className="font-semibold">{t("outbox.columns.sent")}</dt>
        <dd>{mail.sentAt ? instantLabel(mail.sentAt) : t("outbox.notSent")}</dd>
        {mail.error && (
          <>
            <dt className="font-semibold">{t("outbox.error")}</dt>
            <dd className="break-words text-red-800 dark:text-red-200">{mail.error}</dd>
          </>
        )}
      </dl>
      <h3 id={textId} className="mt-4 text-sm font-semibold">
        {t("outbox.plainText")}
      </h3>
      {detail.isPending ? (
        <Loading label={t("outbox.loading")} rows={3} />
      ) : detail.isError ? (
        <QueryError error={detail.error} fallback={t("outbox.failed")} />
      ) : (
        <>
          <section
            aria-labelledby={textId}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a text that scrolls must be reachable by keyboard
            tabIndex={0}
            className="mt-1 max-h-72 overflow-auto rounded-lg bg-slate-100 p-3 dark:bg-slate-800"
          >
            <pre className="font-sans text-sm whitespace-pre-wrap break-words">{detail.data.text}</pre>
          </section>
          {detail.data.hasHtml && (
            <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">{t("outbox.hasHtml")}</p>
          )}
          {detail.data.attachments.length > 0 && (
            <>
              <h3 className="mt-4 text-sm font-semibold">{t("outbox.attachments")}</h3>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {detail.data.attachments.map((name, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: two files of a mail may share a name
                  <li key={index} className="break-words">
                    {name}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <div className="mt-5 flex justify-end">
        <button type="button" onClick={onClose} className={buttonClass("secondary")}>
          {t("outbox.close")}
        </button>
      </div>
    </Dialog>
  );
}
