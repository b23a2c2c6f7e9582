import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ACCESS_LOG_PAGE_SIZE,
  RETENTION_KINDS,
  RETENTION_RULES,
  type RetentionRun,
  type RetentionSettings,
} from "../../../shared/contracts/privacy";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, NumberField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { gradeLabel, instantLabel } from "../../lib/format";
import { userQuery } from "../admin/api";
import { PersonPicker } from "../admin/people-search";
import { useRefreshRoster } from "../admin/user-roles";
import { fullName } from "../auth/auth-state";
import { Loading, QueryError, Section } from "../home/parts";
import {
  accessLogQuery,
  anonymiseStudent,
  privacyKeys,
  retentionQuery,
  saveRetention,
  studentExportUrl,
} from "./api";

/** The administrators' privacy centre. */
export function PrivacyPage() {
  const { t } = useTranslation("privacy");
  return (
    <div className="space-y-6">
      <PageHeader title={t("common:pages./app/admin/privacy.title")} description={t("description")} />
      <PersonPicker
        title={t("picker.title")}
        description={t("picker.description")}
        searchLabel={t("picker.search")}
        roleChoices={[{ value: "student", label: t("picker.students") }]}
        pick={t("picker.pick")}
        emptyDescription={t("picker.emptyDescription")}
        emptyText={t("picker.emptyText")}
        details={(studentId) => <StudentData key={studentId} studentId={studentId} />}
      />
      <RetentionPanel />
      <AccessLog personId={null} title={t("accessLog.title")} />
    </div>
  );
}

function StudentData({ studentId }: { studentId: string }) {
  const { t } = useTranslation("privacy");
  const student = useQuery(userQuery(studentId));
  const [isAnonymising, setIsAnonymising] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  if (student.isError) return <QueryError error={student.error} fallback={t("student.loadFailed")} />;
  if (!student.data) return <Loading label={t("student.loading")} />;
  const person = student.data.data;
  const name = fullName(person);
  const isAnonymised = person.status === "tobedeleted" && person.email === null && person.username === null;
  return (
    <Section
      title={name}
      description={[person.email ?? person.username, person.grades.length ? gradeLabel(person.grades) : null]
        .filter(Boolean)
        .join(" · ")}
    >
      <div aria-live="polite">
        {notice && (
          <p className="mb-3 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
            {notice}
          </p>
        )}
      </div>
      <h3 className="font-semibold">{t("student.downloadHeading")}</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("student.downloadBody")}</p>
      <a href={studentExportUrl(studentId)} download className={buttonClass("primary", "mt-3 inline-block")}>
        {t("student.download", { name })}
      </a>

      <h3 className="mt-6 font-semibold">{t("student.anonymiseHeading")}</h3>
      {isAnonymised ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("student.anonymised")}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("student.anonymiseBody")}</p>
          <button
            type="button"
            onClick={() => setIsAnonymising(true)}
            className="mt-3 rounded-lg border border-red-700 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 dark:border-red-400 dark:text-red-300 dark:hover:bg-slate-800"
          >
            {t("student.anonymise", { name })}
          </button>
        </>
      )}
      {isAnonymising && (
        <AnonymiseDialog
          studentId={studentId}
          name={name}
          onDone={(displayName) => setNotice(t("student.anonymisedNotice", { name, displayName }))}
          onClose={() => setIsAnonymising(false)}
        />
      )}
      <div className="mt-6">
        <AccessLog personId={studentId} title={t("student.accessTitle", { name })} isNested />
      </div>
    </Section>
  );
}

function AnonymiseDialog({
  studentId,
  name,
  onDone,
  onClose,
}: {
  studentId: string;
  name: string;
  onDone: (displayName: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("privacy");
  const [confirm, setConfirm] = useState("");
  const [reason, setReason] = useState("");
  const refreshRoster = useRefreshRoster();
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      title={t("anonymiseDialog.title", { name })}
      message={
        <div className="space-y-3">
          <p>{t("anonymiseDialog.body")}</p>
          <TextField
            label={t("anonymiseDialog.typeName", { name })}
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            autoComplete="off"
            required
          />
          <TextField
            label={t("anonymiseDialog.reason")}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            placeholder={t("anonymiseDialog.reasonPlaceholder")}
            required
          />
        </div>
      }
      confirmLabel={t("anonymiseDialog.confirm")}
      onConfirm={async () => {
        const result = await anonymiseStudent(studentId, { confirm, reason });
        await Promise.all([refreshRoster(), queryClient.invalidateQueries({ queryKey: privacyKeys.all })]);
        onDone(result.data.displayName);
      }}
      onClose={onClose}
    />
  );
}

function RetentionPanel() {
  const { t } = useTranslation("privacy");
  const retention = useQuery(retentionQuery);
  return (
    <Section title={t("retention.title")} description={t("retention.description")}>
      {retention.isError && <QueryError error={retention.error} fallback={t("retention.loadFailed")} />}
      {retention.data ? (
        <>
          <RetentionForm saved={retention.data.data.settings} />
          <LastRun run={retention.data.data.lastRun} />
        </>
      ) : (
        !retention.isError && <Loading label={t("retention.loading")} />
      )}
    </Section>
  );
}

function RetentionForm({ saved }: { saved: RetentionSettings }) {
  const { t } = useTranslation("privacy");
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      RETENTION_KINDS.map((kind) => [kind, saved[kind] === null ? "" : String(saved[kind])]),
    ),
  );
  const [keeps, setKeeps] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, saved[kind] === null])),
  );
  const [isSaving, setIsSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const checkboxId = useId();

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setIsSaving(true);
    setMessage(null);
    const settings = Object.fromEntries(
      RETENTION_KINDS.map((kind) => [kind, keeps[kind] ? null : Number(draft[kind])]),
    ) as RetentionSettings;
    try {
      const result = await saveRetention(settings);
      queryClient.setQueryData(retentionQuery.queryKey, result);
      setMessage({ ok: true, text: t("retention.saved") });
    } catch (error) {
      setMessage({ ok: false, text: failureMessage(error, t("retention.saveFailed")) });
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form onSubmit={save} noValidate>
      <div className="grid gap-5 md:grid-cols-2">
        {RETENTION_KINDS.map((kind) => {
          const rule = RETENTION_RULES[kind];
          return (
            <fieldset key={kind} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
              <legend className="px-1 font-semibold">{t(`retention.kinds.${kind}.label`)}</legend>
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {t(`retention.kinds.${kind}.description`)}
              </p>
              <NumberField
                className="mt-3"
                label={t("retention.daysToKeep")}
                hint={t("retention.daysHint", {
                  min: rule.minDays,
                  max: rule.maxDays,
                  defaultDays: rule.defaultDays,
                })}
                inputMode="numeric"
                min={rule.minDays}
                max={rule.maxDays}
                step={1}
                value={draft[kind]}
                disabled={keeps[kind]}
                onChange={(event) => setDraft({ ...draft, [kind]: event.target.value })}
              />
              <div className="mt-2 flex items-center gap-2">
                <input
                  id={`${checkboxId}-${kind}`}
                  type="checkbox"
                  checked={keeps[kind]}
                  onChange={(event) => setKeeps({ ...keeps, [kind]: event.target.checked })}
                  className="size-4"
                />
                <label htmlFor={`${checkboxId}-${kind}`} className="text-sm">
                  {t("retention.keepForGood")}
                </label>
              </div>
            </fieldset>
          );
        })}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
          {isSaving ? t("retention.saving") : t("retention.save")}
        </button>
        <p
          role={message && !message.ok ? "alert" : "status"}
          className={`text-sm ${message?.ok ? "text-emerald-800 dark:text-emerald-200" : "text-red-700 dark:text-red-300"}`}
        >
          {message?.text}
        </p>
      </div>
    </form>
  );
}

function LastRun({ run }: { run: RetentionRun | null }) {
  const { t } = useTranslation("privacy");
  return (
    <div className="mt-6 rounded-xl bg-slate-50 p-4 text-sm dark:bg-slate-800">
      <h3 className="font-semibold">{t("lastRun.heading")}</h3>
      {!run ? (
        <p className="mt-1 text-slate-600 dark:text-slate-300">{t("lastRun.none")}</p>
      ) : (
        <>
          <p className="mt-1 text-slate-600 dark:text-slate-300">
            {run.finishedAt
              ? t("lastRun.finished", { when: instantLabel(run.finishedAt) })
              : t("lastRun.started", { when: instantLabel(run.startedAt) })}
          </p>
          {run.removed && (
            <ul className="mt-2 grid gap-1 sm:grid-cols-2">
              {RETENTION_KINDS.map((kind) => (
                <li key={kind} className="tabular-nums">
                  {t("lastRun.removed", {
                    kind: t(`retention.kinds.${kind}.label`),
                    count: run.removed?.[kind] ?? 0,
                  })}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function AccessLog({
  personId,
  title,
  isNested,
}: {
  personId: string | null;
  title: string;
  isNested?: boolean;
}) {
  const { t } = useTranslation("privacy");
  const [offset, setOffset] = useState(0);
  const log = useQuery(accessLogQuery(personId, offset));
  const body = (
    <>
      {log.isError && (
        <QueryError error={log.error} fallback={t("accessLog.loadFailed")} onRetry={() => log.refetch()} />
      )}
      {log.isPending && <Loading label={t("accessLog.loading")} />}
      {log.data &&
        (log.data.total === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("accessLog.none")}</p>
        ) : (
          <TableRegion label={title}>
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t("accessLog.when")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("accessLog.who")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("accessLog.what")}
                  </th>
                  {!personId && (
                    <th scope="col" className="py-2 pr-4">
                      {t("accessLog.about")}
                    </th>
                  )}
                  <th scope="col" className="py-2">
                    {t("accessLog.detail")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {log.data.data.map((entry) => (
                  <tr key={entry.id}>
                    <td className="py-2 pr-4 whitespace-nowrap">{instantLabel(entry.createdAt)}</td>
                    <td className="py-2 pr-4">
                      {entry.actor.name}
                      {entry.realActor && (
                        <span className="block text-xs text-slate-500">
                          {t("accessLog.signedInAs", { name: entry.realActor.name })}
                        </span>
                      )}
                    </td>
                    <td className="py-2 pr-4">{t(`accessLog.kinds.${entry.kind}`)}</td>
                    {!personId && <td className="py-2 pr-4">{entry.person?.name ?? "—"}</td>}
                    <td className="py-2">{entry.detail ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              offset={offset}
              limit={ACCESS_LOG_PAGE_SIZE}
              total={log.data.total}
              onChange={setOffset}
              label={t("accessLog.entries")}
            />
          </TableRegion>
        ))}
    </>
  );
  if (isNested)
    return (
      <div>
        <h3 className="mb-2 font-semibold">{title}</h3>
        {body}
      </div>
    );
  return (
    <Section title={title} description={t("accessLog.description")}>
      {body}
    </Section>
  );
}
