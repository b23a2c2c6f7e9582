import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import {
  ACCESS_LOG_PAGE_SIZE,
  RETENTION_KINDS,
  RETENTION_RULES,
  type RetentionRun,
  type RetentionSettings,
  SENSITIVE_ACCESS_LABELS,
} from "../../../shared/contracts/privacy";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, NumberField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { gradeLabel } from "../../lib/format";
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

const STUDENTS = [{ value: "student", label: "Students" }] as const;

/** The administrators' privacy centre. */
export function PrivacyPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="Privacy"
        description="Download everything Dash holds about a student, anonymise a student, choose how long data is kept, and see who reached sensitive data."
      />
      <PersonPicker
        title="Find a student"
        description="Their data can be downloaded as a .zip, or removed for good."
        searchLabel="Search students"
        roleChoices={STUDENTS}
        pick="Data"
        emptyDescription="Choose a student on the left."
        emptyText="You will see what you can do with their data here."
        details={(studentId) => <StudentData key={studentId} studentId={studentId} />}
      />
      <RetentionPanel />
      <AccessLog personId={null} title="Sensitive-access log" />
    </div>
  );
}

function StudentData({ studentId }: { studentId: string }) {
  const student = useQuery(userQuery(studentId));
  const [isAnonymising, setIsAnonymising] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  if (student.isError) return <QueryError error={student.error} fallback="Could not load the student" />;
  if (!student.data) return <Loading label="Loading the student" />;
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
      <h3 className="font-semibold">Download their data</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        A .zip with their profile, classes, parents and guardians, activity, XP, goals, sign-ins and the logs
        about them, with a README that says what each file holds. The download is recorded in the
        sensitive-access log.
      </p>
      <a href={studentExportUrl(studentId)} download className={buttonClass("primary", "mt-3 inline-block")}>
        Download all data of {name}
      </a>

      <h3 className="mt-6 font-semibold">Anonymise</h3>
      {isAnonymised ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          This student has been anonymised: only anonymous figures remain.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Removes their name, contact details, identifiers, demographics, password, sign-ins, parent links
            and raw activity. Their XP and daily totals stay, under an anonymous name. This cannot be undone.
          </p>
          <button
            type="button"
            onClick={() => setIsAnonymising(true)}
            className="mt-3 rounded-lg border border-red-700 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 dark:border-red-400 dark:text-red-300 dark:hover:bg-slate-800"
          >
            Anonymise {name}…
          </button>
        </>
      )}
      {isAnonymising && (
        <AnonymiseDialog
          studentId={studentId}
          name={name}
          onDone={(displayName) => setNotice(`${name} was anonymised. Their record is now “${displayName}”.`)}
          onClose={() => setIsAnonymising(false)}
        />
      )}
      <div className="mt-6">
        <AccessLog personId={studentId} title={`Sensitive access to ${name}'s data`} isNested />
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
  const [confirm, setConfirm] = useState("");
  const [reason, setReason] = useState("");
  const refreshRoster = useRefreshRoster();
  const queryClient = useQueryClient();
  return (
    <ConfirmDialog
      title={`Anonymise ${name}?`}
      message={
        <div className="space-y-3">
          <p>
            Their personal data is removed for good and they can no longer sign in. Their parents and
            guardians are unlinked. XP and daily totals stay, without a name.
          </p>
          <TextField
            label={`Type “${name}” to confirm`}
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            autoComplete="off"
            required
          />
          <TextField
            label="Reason"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            placeholder="The family asked for their data to be erased"
            required
          />
        </div>
      }
      confirmLabel="Anonymise"
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
  const retention = useQuery(retentionQuery);
  return (
    <Section
      title="How long data is kept"
      description="Once a day Dash removes data older than these limits. Sessions end by themselves and are removed within the hour."
    >
      {retention.isError && (
        <QueryError error={retention.error} fallback="Could not load the retention settings" />
      )}
      {retention.data ? (
        <>
          <RetentionForm saved={retention.data.data.settings} />
          <LastRun run={retention.data.data.lastRun} />
        </>
      ) : (
        !retention.isError && <Loading label="Loading the retention settings" />
      )}
    </Section>
  );
}

function RetentionForm({ saved }: { saved: RetentionSettings }) {
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
      setMessage({ ok: true, text: "Saved. The next daily clean-up applies these limits." });
    } catch (error) {
      setMessage({ ok: false, text: failureMessage(error, "Could not save the retention settings.") });
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
              <legend className="px-1 font-semibold">{rule.label}</legend>
              <p className="text-sm text-slate-600 dark:text-slate-300">{rule.description}</p>
              <NumberField
                className="mt-3"
                label="Days to keep"
                hint={`Between ${rule.minDays} and ${rule.maxDays} days. Default ${rule.defaultDays}.`}
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
                  Keep for good
                </label>
              </div>
            </fieldset>
          );
        })}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
          {isSaving ? "Saving…" : "Save retention settings"}
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
  return (
    <div className="mt-6 rounded-xl bg-slate-50 p-4 text-sm dark:bg-slate-800">
      <h3 className="font-semibold">Last clean-up</h3>
      {!run ? (
        <p className="mt-1 text-slate-600 dark:text-slate-300">
          No clean-up has run yet. It runs once a day.
        </p>
      ) : (
        <>
          <p className="mt-1 text-slate-600 dark:text-slate-300">
            {run.finishedAt
              ? `Finished ${new Date(run.finishedAt).toLocaleString()}.`
              : `Started ${new Date(run.startedAt).toLocaleString()} and has not finished.`}
          </p>
          {run.removed && (
            <ul className="mt-2 grid gap-1 sm:grid-cols-2">
              {RETENTION_KINDS.map((kind) => (
                <li key={kind}>
                  {RETENTION_RULES[kind].label}:{" "}
                  <span className="font-semibold tabular-nums">{run.removed?.[kind] ?? 0}</span> removed
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
  const [offset, setOffset] = useState(0);
  const log = useQuery(accessLogQuery(personId, offset));
  const body = (
    <>
      {log.isError && (
        <QueryError error={log.error} fallback="Could not load the log" onRetry={() => log.refetch()} />
      )}
      {log.isPending && <Loading label="Loading the log" />}
      {log.data &&
        (log.data.total === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">Nobody has reached sensitive data yet.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    When
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Who
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    What
                  </th>
                  {!personId && (
                    <th scope="col" className="py-2 pr-4">
                      About
                    </th>
                  )}
                  <th scope="col" className="py-2">
                    Detail
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {log.data.data.map((entry) => (
                  <tr key={entry.id}>
                    <td className="py-2 pr-4 whitespace-nowrap">
                      {new Date(entry.createdAt).toLocaleString()}
                    </td>
                    <td className="py-2 pr-4">
                      {entry.actor.name}
                      {entry.realActor && (
                        <span className="block text-xs text-slate-500">
                          signed in as {entry.realActor.name}
                        </span>
                      )}
                    </td>
                    <td className="py-2 pr-4">{SENSITIVE_ACCESS_LABELS[entry.kind]}</td>
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
              label="log entries"
            />
          </div>
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
    <Section
      title={title}
      description="Every download of a student's data, viewing Dash as someone and anonymisation, newest first."
    >
      {body}
    </Section>
  );
}
