import { useQuery } from "@tanstack/react-query";
import { Inbox, SearchX } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IncidentGroup } from "../../../shared/contracts/integrity";
import { Card, PageHeader } from "../../components/page-header";
import { type Announce, useAnnouncement } from "../../components/ui/announcement";
import { buttonClass, SelectField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { Tabs } from "../../components/ui/tabs";
import { formatNumber } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { incidentsQuery, summaryQuery } from "./api";
import { IncidentCard, StudentStanding } from "./incident-card";
import { RulesPanel } from "./rules-panel";

const PENDING_PATH = "/app/flow/cheating/pending";
const RESOLVED_PATH = "/app/flow/cheating/resolved";

/** /app/flow/cheating/pending: the incidents waiting for a decision, with their evidence. */
export function PendingIncidentsPage() {
  const { t } = useTranslation("integrity");
  const { activeRole } = useAuth();
  const [announcement, announce] = useAnnouncement();
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/flow/cheating/pending.title")}
        description={t("queue.pending.description")}
      />
      <QueueTabs selected="pending" />
      <Totals />
      {activeRole === "administrator" && <RulesPanel />}
      {announcement}
      <LockedStudents announce={announce} />
      <IncidentQueue group="pending" announce={announce} />
    </div>
  );
}

/** /app/flow/cheating/resolved: incidents confirmed or dismissed, with who decided and why. */
export function ResolvedIncidentsPage() {
  const { t } = useTranslation("integrity");
  const [announcement, announce] = useAnnouncement();
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/flow/cheating/resolved.title")}
        description={t("queue.resolved.description")}
      />
      <QueueTabs selected="resolved" />
      {announcement}
      <IncidentQueue group="resolved" announce={announce} />
    </div>
  );
}

function QueueTabs({ selected }: { selected: "pending" | "resolved" }) {
  const { t } = useTranslation("integrity");
  return (
    <Tabs
      label={t("queue.tabs")}
      idPrefix="incident-queue"
      selected={selected}
      items={[
        { id: "pending", label: t("queue.pending.tab"), link: { to: PENDING_PATH } },
        { id: "resolved", label: t("queue.resolved.tab"), link: { to: RESOLVED_PATH } },
      ]}
    />
  );
}

/** The reviewer's figures at a glance: waiting, locked, new strikes this week. */
function Totals() {
  const { t } = useTranslation("integrity");
  const summary = useQuery(summaryQuery);
  if (!summary.data) return null;
  const { totals } = summary.data;
  const figures = [
    { key: "pending", value: totals.pending },
    { key: "newStrikes", value: totals.newStrikes },
    { key: "activeStrikes", value: totals.activeStrikes },
    { key: "lockedStudents", value: totals.lockedStudents },
  ] as const;
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {figures.map(({ key, value }) => (
        <div
          key={key}
          className="min-w-0 rounded-xl border border-slate-200 bg-white p-3 shadow-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{t(`totals.${key}`)}</dt>
          <dd className="text-2xl font-bold tabular-nums">{formatNumber(value, 0)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The students whose dashboard is locked, with the way to unlock, whether or not anything waits. */
function LockedStudents({ announce }: { announce: Announce }) {
  const { t } = useTranslation("integrity");
  const summary = useQuery(summaryQuery);
  const locked = (summary.data?.students ?? [])
    .filter((student) => student.isLocked)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (locked.length === 0) return null;
  return (
    <Section title={t("lockedStudents.title")} description={t("lockedStudents.description")}>
      <ul className="space-y-3">
        {locked.map((student) => (
          <li key={student.studentId}>
            <StudentStanding studentId={student.studentId} name={student.name} announce={announce} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** A group of incidents, filtered by student and class, a page at a time. */
function IncidentQueue({ group, announce }: { group: IncidentGroup; announce: Announce }) {
  const { t } = useTranslation("integrity");
  const [filters, setFilters] = useState<{ studentId?: string; classId?: string }>({});
  const [page, setPage] = useState(1);
  const incidents = useQuery(incidentsQuery({ group, ...filters, page }));
  // A page emptied by the last decision taken on it goes back a page rather than show nothing.
  const isPageEmptied = incidents.data?.incidents.length === 0 && page > 1;
  useEffect(() => {
    if (isPageEmptied) setPage((current) => Math.max(1, current - 1));
  }, [isPageEmptied]);
  const isFiltered = Boolean(filters.studentId || filters.classId);

  let list: ReactNode;
  if (incidents.isPending || isPageEmptied) list = <Loading label={t("queue.loading")} rows={3} />;
  else if (incidents.isError)
    list = (
      <QueryError
        error={incidents.error}
        fallback={t("queue.loadFailed")}
        onRetry={() => incidents.refetch()}
      />
    );
  else if (incidents.data.total === 0)
    list = isFiltered ? (
      <EmptyState icon={SearchX} title={t("queue.emptyFiltered.title")}>
        {t("queue.emptyFiltered.body")}
      </EmptyState>
    ) : (
      <EmptyState icon={Inbox} title={t(`queue.${group}.empty.title`)}>
        {t(`queue.${group}.empty.body`)}
      </EmptyState>
    );
  else {
    const { pageSize, total } = incidents.data;
    list = (
      <>
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {t("queue.count", { count: total })}
        </p>
        <ul className={`space-y-4 ${incidents.isPlaceholderData ? "opacity-60 transition-opacity" : ""}`}>
          {incidents.data.incidents.map((incident) => (
            <li key={incident.id}>
              <IncidentCard
                incident={incident}
                mode={group === "pending" ? "pending" : "resolved"}
                announce={announce}
              />
            </li>
          ))}
        </ul>
        <Pager
          offset={(incidents.data.page - 1) * pageSize}
          limit={pageSize}
          total={total}
          onChange={(offset) => setPage(Math.floor(offset / pageSize) + 1)}
          label={t("queue.pagerLabel")}
          countPages
        />
      </>
    );
  }

  return (
    <>
      <Filters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <section
        aria-label={t(`queue.${group}.listLabel`)}
        aria-busy={incidents.isFetching}
        className="space-y-4"
      >
        {list}
      </section>
    </>
  );
}

/** By student and by class: those the reviewer may see incidents of, from the summary. */
function Filters({
  value,
  onChange,
}: {
  value: { studentId?: string; classId?: string };
  onChange: (next: { studentId?: string; classId?: string }) => void;
}) {
  const { t } = useTranslation("integrity");
  const summary = useQuery(summaryQuery);
  const students = [...(summary.data?.students ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const classes = [...(summary.data?.classes ?? [])].sort((a, b) => a.title.localeCompare(b.title));
  if (students.length === 0 && classes.length === 0 && !value.studentId && !value.classId) return null;
  return (
    <Card>
      <div className="flex flex-wrap items-end gap-3">
        {students.length > 0 && (
          <SelectField
            label={t("filters.student")}
            className="w-full sm:w-64"
            value={value.studentId ?? ""}
            onChange={(event) => onChange({ ...value, studentId: event.target.value || undefined })}
            options={[
              { value: "", label: t("filters.allStudents") },
              ...students.map((student) => ({
                value: student.studentId,
                label: student.isLocked ? t("filters.lockedStudent", { name: student.name }) : student.name,
              })),
            ]}
          />
        )}
        {classes.length > 0 && (
          <SelectField
            label={t("filters.class")}
            className="w-full sm:w-64"
            value={value.classId ?? ""}
            onChange={(event) => onChange({ ...value, classId: event.target.value || undefined })}
            options={[
              { value: "", label: t("filters.allClasses") },
              ...classes.map((entry) => ({ value: entry.classId, label: entry.title })),
            ]}
          />
        )}
        {(value.studentId || value.classId) && (
          <button type="button" onClick={() => onChange({})} className={buttonClass("secondary")}>
            {t("filters.clear")}
          </button>
        )}
      </div>
    </Card>
  );
}
