import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { CalendarClock, Megaphone } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  AdminAnnouncement,
  NamedAudience,
  SchoolMessagingSetting,
} from "../../../shared/contracts/messaging";
import { Card, PageHeader } from "../../components/page-header";
import { RichText } from "../../components/rich-text";
import { useAnnouncement } from "../../components/ui/announcement";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { Tabs, tabId } from "../../components/ui/tabs";
import { formatNumber, formatPercent, gradeLabel, instantLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { OutboxTable } from "../notifications/outbox-table";
import { AnnouncementForm } from "./announcement-form";
import { adminAnnouncementsQuery, cancelAnnouncement, saveSchoolSetting, settingsQuery } from "./api";
import { messagingKeys } from "./keys";

const SECTIONS = ["compose", "scheduled", "sent", "outbox", "students"] as const;
type Section = (typeof SECTIONS)[number];
const PAGE_SIZE = 20;

/**
 * /app/admin/messaging: administrators write announcements (now or for later), cancel scheduled
 * ones, see how far sent ones reached and how many read them, read the email outbox, and choose
 * per school whether students may write to their Guides.
 */
export function AdminMessagingPage() {
  const { t } = useTranslation("messaging");
  const [section, setSection] = useState<Section>("compose");
  const [announcement, announce] = useAnnouncement();
  return (
    <div>
      <PageHeader title={t("admin.title")} description={t("admin.description")} />
      <Tabs
        label={t("admin.sections")}
        idPrefix="messaging"
        panelId="messaging-panel"
        selected={section}
        onSelect={setSection}
        items={SECTIONS.map((id) => ({ id, label: t(`admin.tabs.${id}`) }))}
        className="mb-4"
      />
      <div className="mb-4">{announcement}</div>
      <div id="messaging-panel" role="tabpanel" aria-labelledby={tabId("messaging", section)}>
        {section === "compose" && (
          <Card>
            <AnnouncementForm
              onDone={(sent) =>
                announce(
                  sent.status === "sent"
                    ? t("compose.sent", {
                        count: sent.recipients ?? 0,
                        shown: formatNumber(sent.recipients ?? 0, 0),
                      })
                    : t("compose.scheduled", { when: instantLabel(sent.scheduledFor) }),
                )
              }
            />
          </Card>
        )}
        {section === "scheduled" && (
          <ScheduledAnnouncements onCancelled={(title) => announce(t("scheduled.cancelled", { title }))} />
        )}
        {section === "sent" && <SentAnnouncements />}
        {section === "outbox" && <OutboxTable />}
        {section === "students" && <StudentsMayWrite onSaved={announce} />}
      </div>
    </div>
  );
}

/** "Parents of Math · Patel group", "Everyone at Maple Grove School", "Grade 3 at Maple Grove School". */
function audienceLabel(audience: NamedAudience, t: TFunction<"messaging">): string {
  const where = audience.orgName ?? audience.className ?? "";
  if (audience.kind === "grade")
    return t("audience.labels.grade", { grade: gradeLabel([audience.grade]), where });
  return t(`audience.labels.${audience.kind}`, { where });
}

function ScheduledAnnouncements({ onCancelled }: { onCancelled: (title: string) => void }) {
  const { t } = useTranslation("messaging");
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [cancelling, setCancelling] = useState<AdminAnnouncement | null>(null);
  const list = useQuery(adminAnnouncementsQuery("scheduled", offset, PAGE_SIZE));
  if (list.isPending) return <Loading label={t("scheduled.loading")} rows={3} />;
  if (list.isError)
    return (
      <QueryError error={list.error} fallback={t("scheduled.failed")} onRetry={() => void list.refetch()} />
    );
  if (list.data.total === 0) return <EmptyState icon={CalendarClock} title={t("scheduled.none")} />;
  return (
    <div>
      <ul className="space-y-3">
        {list.data.items.map((item) => (
          <li key={item.id}>
            <Card>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h2 className="text-lg font-bold">{item.title}</h2>
                  <p className="text-sm text-slate-600 dark:text-slate-300">
                    {t("scheduled.line", {
                      when: instantLabel(item.scheduledFor),
                      audience: audienceLabel(item.audience, t),
                      by: item.createdBy,
                    })}
                  </p>
                </div>
                <button type="button" className={buttonClass("danger")} onClick={() => setCancelling(item)}>
                  {t("scheduled.cancel")}
                </button>
              </div>
              <RichText html={item.bodyHtml} className="mt-3 text-sm" />
            </Card>
          </li>
        ))}
      </ul>
      <Pager
        offset={offset}
        limit={PAGE_SIZE}
        total={list.data.total}
        onChange={setOffset}
        label={t("scheduled.paged")}
      />
      {cancelling && (
        <ConfirmDialog
          title={t("scheduled.confirmTitle")}
          message={t("scheduled.confirm", {
            title: cancelling.title,
            when: instantLabel(cancelling.scheduledFor),
          })}
          confirmLabel={t("scheduled.cancel")}
          cancelLabel={t("scheduled.keep")}
          onConfirm={async () => {
            await cancelAnnouncement(cancelling.id);
            await queryClient.invalidateQueries({ queryKey: messagingKeys.admin });
            onCancelled(cancelling.title);
          }}
          onClose={() => setCancelling(null)}
        />
      )}
    </div>
  );
}

function SentAnnouncements() {
  const { t } = useTranslation("messaging");
  const [offset, setOffset] = useState(0);
  const list = useQuery(adminAnnouncementsQuery("sent", offset, PAGE_SIZE));
  if (list.isPending) return <Loading label={t("sent.loading")} rows={4} />;
  if (list.isError)
    return <QueryError error={list.error} fallback={t("sent.failed")} onRetry={() => void list.refetch()} />;
  if (list.data.total === 0) return <EmptyState icon={Megaphone} title={t("sent.none")} />;
  return (
    <Card>
      <TableRegion label={t("sent.table")}>
        <table className="w-full min-w-[40rem] text-left text-sm">
          <caption className="sr-only">{t("sent.table")}</caption>
          <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-3">
                {t("sent.columns.title")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("sent.columns.audience")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("sent.columns.sentAt")}
              </th>
              <th scope="col" className="py-2 pr-3 text-right">
                {t("sent.columns.reached")}
              </th>
              <th scope="col" className="py-2">
                {t("sent.columns.read")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {list.data.items.map((item) => {
              const reached = item.recipients ?? 0;
              const share = reached > 0 ? item.read / reached : 0;
              return (
                <tr key={item.id}>
                  <th scope="row" className="py-2.5 pr-3 font-semibold">
                    {item.title}
                    <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                      {t("sent.by", { name: item.createdBy })}
                    </span>
                  </th>
                  <td className="py-2.5 pr-3">{audienceLabel(item.audience, t)}</td>
                  <td className="py-2.5 pr-3 whitespace-nowrap">
                    {item.sentAt && instantLabel(item.sentAt)}
                  </td>
                  <td className="py-2.5 pr-3 text-right tabular-nums">{formatNumber(reached, 0)}</td>
                  <td className="py-2.5">
                    <div className="flex items-center gap-2">
                      <div
                        role="img"
                        aria-label={t("sent.readShare", {
                          read: item.read,
                          reached,
                          percent: formatPercent(share),
                        })}
                        className="h-2.5 w-24 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
                      >
                        <div
                          className="h-full rounded-full bg-brand-600"
                          style={{ width: `${Math.round(share * 100)}%` }}
                        />
                      </div>
                      <span aria-hidden="true" className="tabular-nums whitespace-nowrap">
                        {t("sent.readOf", {
                          read: formatNumber(item.read, 0),
                          percent: formatPercent(share),
                        })}
                      </span>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      <Pager
        offset={offset}
        limit={PAGE_SIZE}
        total={list.data.total}
        onChange={setOffset}
        label={t("sent.paged")}
      />
    </Card>
  );
}

function StudentsMayWrite({ onSaved }: { onSaved: (text: string) => void }) {
  const { t } = useTranslation("messaging");
  const settings = useQuery(settingsQuery());
  if (settings.isPending) return <Loading label={t("students.loading")} rows={2} />;
  if (settings.isError)
    return (
      <QueryError
        error={settings.error}
        fallback={t("students.failed")}
        onRetry={() => void settings.refetch()}
      />
    );
  return (
    <Card>
      <h2 className="text-lg font-bold">{t("students.title")}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("students.description")}</p>
      <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
        {settings.data.schools.map((school) => (
          <SchoolSwitch key={school.schoolId} school={school} onSaved={onSaved} />
        ))}
      </ul>
    </Card>
  );
}

function SchoolSwitch({
  school,
  onSaved,
}: {
  school: SchoolMessagingSetting;
  onSaved: (text: string) => void;
}) {
  const { t } = useTranslation("messaging");
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (on: boolean) => saveSchoolSetting(school.schoolId, on),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: messagingKeys.settings });
      onSaved(t(saved.studentsMayWrite ? "students.on" : "students.off", { school: saved.schoolName }));
    },
  });
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <div>
        <p className="font-semibold">{school.schoolName}</p>
        {school.updatedBy && school.updatedAt && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t("students.changed", { name: school.updatedBy, when: instantLabel(school.updatedAt) })}
          </p>
        )}
        {save.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {failureMessage(save.error, t("students.saveFailed"))}
          </p>
        )}
      </div>
      <label className="flex cursor-pointer items-center gap-3 text-sm font-medium">
        {t("students.switch")}
        <input
          type="checkbox"
          role="switch"
          aria-checked={school.studentsMayWrite}
          checked={school.studentsMayWrite}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.target.checked)}
          className="size-5 accent-brand-600"
        />
      </label>
    </li>
  );
}
