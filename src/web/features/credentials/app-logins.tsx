import {
  keepPreviousData,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useDeferredValue, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AppCredential, CredentialImportReport } from "../../../shared/contracts/credentials";
import { Card } from "../../components/page-header";
import { ConfirmDialog, Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { instantLabel, relativeTime } from "../../lib/format";
import { onboardingSchoolsQuery } from "../admin/api";
import { appsQuery } from "../admin/credentials-api";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";
import {
  APP_LOGINS_PAGE_SIZE,
  appLoginsQuery,
  credentialKeys,
  decryptAuditQuery,
  deleteAppLogin,
  importAppLogins,
  loginChangesQuery,
  saveAppLogin,
  schoolClassesQuery,
} from "./api";
import { RevealPassword } from "./reveal-password";

const CELL = "px-3 py-2 align-top";
const HEAD = "px-3 py-2 text-left font-semibold";

interface Filters {
  schoolId: string;
  classId: string;
  student: PickedStudent | null;
  appId: string;
  search: string;
}

/**
 * The "App logins" tab: students' logins to learning apps, kept encrypted, with who revealed them
 * and who changed them.
 */
export function AppLogins() {
  const [filters, setFilters] = useState<Filters>({
    schoolId: "",
    classId: "",
    student: null,
    appId: "",
    search: "",
  });
  return (
    <div className="space-y-6">
      <LoginList filters={filters} onFilters={setFilters} />
      <ImportCard schoolId={filters.schoolId} classId={filters.classId} />
      <DecryptAudit />
      <LoginChanges />
    </div>
  );
}

function useLearningAppOptions() {
  const apps = useQuery(appsQuery);
  return (apps.data?.data ?? []).filter((app) => app.kind === "learning");
}

function FilterBar({ filters, onFilters }: { filters: Filters; onFilters: (filters: Filters) => void }) {
  const { t } = useTranslation("credentials");
  const schools = useQuery(onboardingSchoolsQuery);
  const classes = useQuery({ ...schoolClassesQuery(filters.schoolId), enabled: Boolean(filters.schoolId) });
  const apps = useLearningAppOptions();
  return (
    <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <SelectField
        label={t("filters.school")}
        value={filters.schoolId}
        onChange={(event) => onFilters({ ...filters, schoolId: event.target.value, classId: "" })}
        options={[
          { value: "", label: t("filters.allSchools") },
          ...(schools.data?.data ?? []).map((school) => ({ value: school.sourcedId, label: school.name })),
        ]}
      />
      <SelectField
        label={t("filters.class")}
        value={filters.classId}
        disabled={!filters.schoolId}
        onChange={(event) => onFilters({ ...filters, classId: event.target.value })}
        options={[
          { value: "", label: filters.schoolId ? t("filters.allClasses") : t("filters.chooseSchoolFirst") },
          ...(classes.data?.data ?? []).map((klass) => ({ value: klass.sourcedId, label: klass.title })),
        ]}
      />
      <SelectField
        label={t("filters.app")}
        value={filters.appId}
        onChange={(event) => onFilters({ ...filters, appId: event.target.value })}
        options={[
          { value: "", label: t("filters.allApps") },
          ...apps.map((app) => ({ value: app.id, label: app.name })),
        ]}
      />
      <div className="sm:col-span-2 lg:col-span-2">
        <StudentPicker
          selected={filters.student}
          onSelect={(student) => onFilters({ ...filters, student })}
          wide
        />
      </div>
      <TextField
        label={t("filters.search")}
        type="search"
        value={filters.search}
        maxLength={200}
        onChange={(event) => onFilters({ ...filters, search: event.target.value })}
        placeholder={t("filters.searchPlaceholder")}
      />
    </div>
  );
}

function LoginList({ filters, onFilters }: { filters: Filters; onFilters: (filters: Filters) => void }) {
  const { t } = useTranslation("credentials");
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<AppCredential | "new" | null>(null);
  const [removing, setRemoving] = useState<AppCredential | null>(null);
  const queryClient = useQueryClient();
  const search = useDeferredValue(filters.search.trim());
  const query = {
    schoolId: filters.schoolId || undefined,
    classId: filters.classId || undefined,
    studentId: filters.student?.sourcedId,
    appId: filters.appId || undefined,
    search: search || undefined,
    offset,
    limit: APP_LOGINS_PAGE_SIZE,
  };
  const logins = useQuery({ ...appLoginsQuery(query), placeholderData: keepPreviousData });
  const headingId = useId();
  const changeFilters = (next: Filters) => {
    setOffset(0);
    onFilters(next);
  };
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-bold">
            {t("list.heading")}
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{t("list.description")}</p>
        </div>
        <button type="button" onClick={() => setEditing("new")} className={buttonClass("primary")}>
          {t("list.add")}
        </button>
      </div>
      <FilterBar filters={filters} onFilters={changeFilters} />
      <div className="mt-5">
        {logins.isPending && (
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("list.loading")}</p>
        )}
        {logins.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {logins.error.message}
          </p>
        )}
        {logins.data && logins.data.total === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("list.none")}</p>
        )}
        {logins.data && logins.data.total > 0 && (
          <>
            <TableRegion label={t("list.heading")}>
              <table aria-labelledby={headingId} className="w-full min-w-[44rem] text-sm">
                <thead className="border-b border-slate-200 dark:border-slate-700">
                  <tr>
                    <th scope="col" className={HEAD}>
                      {t("list.student")}
                    </th>
                    <th scope="col" className={HEAD}>
                      {t("list.app")}
                    </th>
                    <th scope="col" className={HEAD}>
                      {t("list.username")}
                    </th>
                    <th scope="col" className={HEAD}>
                      {t("list.password")}
                    </th>
                    <th scope="col" className={HEAD}>
                      {t("list.changed")}
                    </th>
                    <th scope="col" className={HEAD}>
                      <span className="sr-only">{t("list.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                  {logins.data.credentials.map((login) => (
                    <tr key={login.id}>
                      <th scope="row" className={`${CELL} text-left font-medium`}>
                        {login.student.name}
                      </th>
                      <td className={CELL}>{login.app.name}</td>
                      <td className={`${CELL} font-mono break-all`}>{login.username}</td>
                      <td className={CELL}>
                        <RevealPassword
                          credentialId={login.id}
                          appName={t("list.whoseApp", { student: login.student.name, app: login.app.name })}
                        />
                      </td>
                      <td className={`${CELL} text-xs text-slate-600 dark:text-slate-300`}>
                        <time dateTime={login.changedAt} title={instantLabel(login.changedAt)}>
                          {login.changedBy
                            ? t("list.changedBy", {
                                when: relativeTime(login.changedAt),
                                name: login.changedBy.name,
                              })
                            : relativeTime(login.changedAt)}
                        </time>
                      </td>
                      <td className={`${CELL} whitespace-nowrap`}>
                        <div className="flex gap-2">
                          <button
                            type="button"
                            onClick={() => setEditing(login)}
                            aria-label={t("list.editLabel", {
                              student: login.student.name,
                              app: login.app.name,
                            })}
                            className={buttonClass("secondary")}
                          >
                            {t("list.edit")}
                          </button>
                          <button
                            type="button"
                            onClick={() => setRemoving(login)}
                            aria-label={t("list.removeLabel", {
                              student: login.student.name,
                              app: login.app.name,
                            })}
                            className={buttonClass("secondary", "text-red-700 dark:text-red-300")}
                          >
                            {t("list.remove")}
                          </button>
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
            <Pager
              offset={offset}
              limit={APP_LOGINS_PAGE_SIZE}
              total={logins.data.total}
              onChange={setOffset}
              label={t("list.heading")}
            />
          </>
        )}
      </div>
      {editing && <LoginDialog login={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {removing && (
        <ConfirmDialog
          title={t("remove.title", { student: removing.student.name, app: removing.app.name })}
          message={t("remove.message")}
          confirmLabel={t("remove.confirm")}
          onConfirm={async () => {
            await deleteAppLogin(removing.id);
            await queryClient.invalidateQueries({ queryKey: credentialKeys.all });
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </Card>
  );
}

/** Adds a login, or replaces one's username and password (the old password is never shown to edit). */
function LoginDialog({ login, onClose }: { login: AppCredential | null; onClose: () => void }) {
  const { t } = useTranslation("credentials");
  const queryClient = useQueryClient();
  const apps = useLearningAppOptions();
  const [student, setStudent] = useState<PickedStudent | null>(
    login ? { sourcedId: login.student.id, name: login.student.name } : null,
  );
  const [appId, setAppId] = useState(login?.app.id ?? "");
  const [username, setUsername] = useState(login?.username ?? "");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: saveAppLogin,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: credentialKeys.all });
      onClose();
    },
    onError: (error) => setProblem(failureMessage(error, t("form.failed"))),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!student) return setProblem(t("form.chooseStudent"));
    if (!appId) return setProblem(t("form.chooseApp"));
    if (!username.trim()) return setProblem(t("form.enterUsername"));
    if (!password) return setProblem(t("form.enterPassword"));
    save.mutate({ studentId: student.sourcedId, appId, username: username.trim(), password });
  }
  return (
    <Dialog
      title={
        login ? t("form.editTitle", { student: login.student.name, app: login.app.name }) : t("form.addTitle")
      }
      description={login ? t("form.editDescription") : t("form.addDescription")}
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        {!login && (
          <>
            <StudentPicker selected={student} onSelect={setStudent} wide />
            <SelectField
              label={t("form.app")}
              value={appId}
              onChange={(event) => setAppId(event.target.value)}
              options={[
                { value: "", label: t("form.chooseApp") },
                ...apps.map((app) => ({ value: app.id, label: app.name })),
              ]}
            />
          </>
        )}
        <TextField
          label={t("form.username")}
          value={username}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => setUsername(event.target.value)}
        />
        <TextField
          label={login ? t("form.newPassword") : t("form.password")}
          type="password"
          value={password}
          maxLength={500}
          autoComplete="new-password"
          onChange={(event) => setPassword(event.target.value)}
        />
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("form.cancel")}
          </button>
          <button type="submit" disabled={save.isPending} className={buttonClass("primary")}>
            {save.isPending ? t("form.saving") : t("form.save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A CSV of a class's logins: every row is saved, or none and each problem is listed by line. */
function ImportCard({ schoolId, classId }: { schoolId: string; classId: string }) {
  const { t } = useTranslation("credentials");
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [forClass, setForClass] = useState(true);
  const [report, setReport] = useState<CredentialImportReport | null>(null);
  const fileId = useId();
  const classes = useQuery({ ...schoolClassesQuery(schoolId), enabled: Boolean(schoolId) });
  const className = classes.data?.data.find((klass) => klass.sourcedId === classId)?.title;
  const upload = useMutation({
    mutationFn: (chosen: File) => importAppLogins(chosen, forClass ? classId : ""),
    onSuccess: async (result) => {
      setReport(result);
      if (result.applied) await queryClient.invalidateQueries({ queryKey: credentialKeys.all });
    },
  });
  return (
    <Card>
      <h2 className="text-lg font-bold">{t("import.heading")}</h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{t("import.description")}</p>
      <pre className="mt-3 rounded-lg bg-slate-50 p-3 font-mono text-xs break-all whitespace-pre-wrap dark:bg-slate-950">
        {t("import.example")}
      </pre>
      <form
        className="mt-4 flex flex-wrap items-end gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          setReport(null);
          if (file) upload.mutate(file);
        }}
      >
        <div>
          <label htmlFor={fileId} className="text-sm font-medium">
            {t("import.file")}
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100"
          />
        </div>
        {classId && className && (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={forClass}
              onChange={(event) => setForClass(event.target.checked)}
              className="size-4 accent-brand-600"
            />
            {t("import.onlyClass", { name: className })}
          </label>
        )}
        <button type="submit" disabled={!file || upload.isPending} className={buttonClass("primary")}>
          {upload.isPending ? t("import.importing") : t("import.import")}
        </button>
      </form>
      {upload.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {failureMessage(upload.error, t("import.failed"))}
        </p>
      )}
      {report && <ImportReport report={report} />}
    </Card>
  );
}

function ImportReport({ report }: { report: CredentialImportReport }) {
  const { t } = useTranslation("credentials");
  if (report.applied)
    return (
      <p
        role="status"
        className="mt-4 rounded-lg bg-green-50 p-3 text-sm text-green-900 dark:bg-green-950 dark:text-green-100"
      >
        {t("import.applied", { created: report.created, updated: report.updated })}
      </p>
    );
  return (
    <div className="mt-4" role="alert">
      <p className="text-sm font-semibold text-red-700 dark:text-red-300">
        {t("import.rejected", { rows: report.rows, problems: report.errors.length })}
      </p>
      <TableRegion label={t("import.problems")} maxHeight="max-h-80" className="mt-2">
        <table className="w-full text-sm">
          <thead className="border-b border-slate-200 dark:border-slate-700">
            <tr>
              <th scope="col" className={HEAD}>
                {t("import.line")}
              </th>
              <th scope="col" className={HEAD}>
                {t("import.problem")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {report.errors.map((error) => (
              <tr key={`${error.line}:${error.message}`}>
                <th scope="row" className={`${CELL} text-left tabular-nums`}>
                  {error.line}
                </th>
                <td className={CELL}>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </div>
  );
}

/** Who was shown which student's password, newest first. */
function DecryptAudit() {
  const { t } = useTranslation("credentials");
  const [offset, setOffset] = useState(0);
  const audit = useQuery({
    ...decryptAuditQuery({ offset, limit: APP_LOGINS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    select: (page) => ({ entries: page.decrypts, total: page.total }),
  });
  return (
    <LogCard
      texts={{ heading: t("audit.heading"), description: t("audit.description"), none: t("audit.none") }}
      query={audit}
      offset={offset}
      onOffset={setOffset}
      columns={[t("audit.who"), t("audit.whose"), t("audit.app")]}
      cells={(entry) => [
        t("audit.byAs", { name: entry.by.name, role: t(`audit.roles.${entry.role}`, entry.role) }),
        entry.student.name,
        entry.app.name,
      ]}
    />
  );
}

/** Who added, changed, imported or removed which student's login, newest first. */
function LoginChanges() {
  const { t } = useTranslation("credentials");
  const [offset, setOffset] = useState(0);
  const changes = useQuery({
    ...loginChangesQuery({ offset, limit: APP_LOGINS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
    select: (page) => ({ entries: page.changes, total: page.total }),
  });
  return (
    <LogCard
      texts={{
        heading: t("changes.heading"),
        description: t("changes.description"),
        none: t("changes.none"),
      }}
      query={changes}
      offset={offset}
      onOffset={setOffset}
      columns={[t("changes.who"), t("changes.what"), t("changes.whose"), t("changes.app")]}
      cells={(entry) => [
        entry.by.name,
        t(`changes.actions.${entry.action}`),
        entry.student.name,
        entry.app.name,
      ]}
    />
  );
}

/** A paged log of the tab, newest first: when, then the given columns. */
function LogCard<Entry extends { id: string; at: string }>({
  texts,
  query,
  offset,
  onOffset,
  columns,
  cells,
}: {
  texts: { heading: string; description: string; none: string };
  query: UseQueryResult<{ entries: Entry[]; total: number }>;
  offset: number;
  onOffset: (offset: number) => void;
  columns: string[];
  cells: (entry: Entry) => ReactNode[];
}) {
  const { t } = useTranslation("credentials");
  const headingId = useId();
  return (
    <Card>
      <h2 id={headingId} className="text-lg font-bold">
        {texts.heading}
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{texts.description}</p>
      <div className="mt-4">
        {query.isPending && <p className="text-sm text-slate-600 dark:text-slate-300">{t("list.loading")}</p>}
        {query.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {query.error.message}
          </p>
        )}
        {query.data && query.data.total === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-300">{texts.none}</p>
        )}
        {query.data && query.data.total > 0 && (
          <>
            <TableRegion label={texts.heading}>
              <table aria-labelledby={headingId} className="w-full min-w-[36rem] text-sm">
                <thead className="border-b border-slate-200 dark:border-slate-700">
                  <tr>
                    {[t("audit.when"), ...columns].map((column) => (
                      <th key={column} scope="col" className={HEAD}>
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                  {query.data.entries.map((entry) => (
                    <tr key={entry.id}>
                      <th scope="row" className={`${CELL} text-left font-normal whitespace-nowrap`}>
                        <time dateTime={entry.at}>{instantLabel(entry.at)}</time>
                      </th>
                      {cells(entry).map((cell, index) => (
                        <td key={columns[index]} className={CELL}>
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
            <Pager
              offset={offset}
              limit={APP_LOGINS_PAGE_SIZE}
              total={query.data.total}
              onChange={onOffset}
              label={texts.heading}
            />
          </>
        )}
      </div>
    </Card>
  );
}
