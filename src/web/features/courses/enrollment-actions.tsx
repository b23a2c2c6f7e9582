import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useDeferredValue, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ENROLLMENT_ROLES, type Enrollment, type EnrollmentRole } from "../../../shared/contracts/courses";
import { type PersonSummary, viewableUsersResponseSchema } from "../../../shared/contracts/rostering";
import { localDateOf } from "../../../shared/time-zone";
import { buttonClass, TextField } from "../../components/ui/form";
import { apiFetch } from "../../lib/http";
import { fullName } from "../auth/auth-state";
import { myClassesQuery } from "../flow/api";
import { addEnrollment, courseKeys, endEnrollment } from "./api";
import { Problem, SELECT_CLASS } from "./list-controls";

/** Adding a person to a class, and ending an enrollment: the administrators' changes of the enrollment list. */

/** Today in the browser's own calendar: the default begin and end day. */
export function today(): string {
  return localDateOf(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);
}

const peopleQuery = (search: string) => ({
  queryKey: ["users", "viewable", "enroll", search] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiFetch(
      `/api/users/viewable?${new URLSearchParams({ search, limit: "25" })}`,
      viewableUsersResponseSchema,
      {
        signal,
      },
    ),
  staleTime: 30_000,
});

/** The enrollment roles a person can take, from the roles they hold. */
function enrollableRoles(person: PersonSummary): EnrollmentRole[] {
  return ENROLLMENT_ROLES.filter((role) => person.roles.includes(role));
}

export function AddEnrollmentPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation("courses");
  const queryClient = useQueryClient();
  const ids = { klass: useId(), role: useId(), begin: useId(), primary: useId() };
  const [person, setPerson] = useState<PersonSummary | null>(null);
  const [classId, setClassId] = useState("");
  const [role, setRole] = useState<EnrollmentRole | "">("");
  const [isPrimary, setIsPrimary] = useState(false);
  const [beginDate, setBeginDate] = useState(today);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const classes = useQuery(myClassesQuery);
  const roles = person ? enrollableRoles(person) : [];

  const choosePerson = (next: PersonSummary | null) => {
    setPerson(next);
    setRole(next ? (enrollableRoles(next)[0] ?? "") : "");
    setIsPrimary(false);
    setProblem(null);
  };

  const enroll = useMutation({
    mutationFn: addEnrollment,
    onSuccess: async (result) => {
      const enrollment = result.data;
      const values = {
        name: fullName(enrollment.user),
        role: role ? t(`common:roles.${role}`) : enrollment.role,
      };
      setDone(
        enrollment.class.title
          ? t("addEnrollment.done", { ...values, className: enrollment.class.title })
          : t("addEnrollment.doneTheClass", values),
      );
      choosePerson(null);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: courseKeys.enrollments }),
        queryClient.invalidateQueries({ queryKey: courseKeys.all }),
      ]);
    },
    onError: (error) => setProblem(error.message),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (enroll.isPending) return;
    setDone(null);
    if (!person) return setProblem(t("addEnrollment.choosePerson"));
    if (!classId) return setProblem(t("addEnrollment.chooseClass"));
    if (!role) return setProblem(t("addEnrollment.noEnrollableRole", { name: fullName(person) }));
    if (!beginDate) return setProblem(t("addEnrollment.giveBeginDate"));
    setProblem(null);
    enroll.mutate({
      userSourcedId: person.sourcedId,
      classSourcedId: classId,
      role,
      primary: role === "teacher" && isPrimary,
      beginDate,
    });
  }

  return (
    <section
      aria-labelledby={`${ids.klass}-title`}
      className="mb-6 rounded-2xl border border-brand-100 bg-white p-5 shadow-sm sm:p-6 dark:border-brand-900 dark:bg-slate-900"
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <h2 id={`${ids.klass}-title`} className="text-lg font-bold">
          {t("addEnrollment.title")}
        </h2>
        <button type="button" className={buttonClass("secondary")} onClick={onClose}>
          {t("addEnrollment.close")}
        </button>
      </div>
      <form onSubmit={submit} noValidate className="space-y-4">
        <PersonPicker person={person} onChoose={choosePerson} />
        <div className="grid gap-4 sm:grid-cols-3">
          <div className="sm:col-span-2">
            <label htmlFor={ids.klass} className="text-sm font-medium">
              {t("enrollmentsTable.class")}
            </label>
            <select
              id={ids.klass}
              value={classId}
              onChange={(event) => setClassId(event.target.value)}
              className={SELECT_CLASS}
            >
              <option value="">
                {classes.isPending ? t("addEnrollment.loading") : t("addEnrollment.chooseClassOption")}
              </option>
              {classes.data?.data.map((entry) => (
                <option key={entry.sourcedId} value={entry.sourcedId}>
                  {entry.title}
                  {entry.schoolName ? ` — ${entry.schoolName}` : ""}
                </option>
              ))}
            </select>
            {classes.isError && (
              <p className="mt-1 text-sm text-red-700 dark:text-red-300">{classes.error.message}</p>
            )}
          </div>
          <div>
            <label htmlFor={ids.begin} className="text-sm font-medium">
              {t("enrollmentsTable.begins")}
            </label>
            <input
              id={ids.begin}
              type="date"
              required
              value={beginDate}
              onChange={(event) => setBeginDate(event.target.value)}
              className={SELECT_CLASS}
            />
          </div>
          <div>
            <label htmlFor={ids.role} className="text-sm font-medium">
              {t("enrollmentsTable.role")}
            </label>
            <select
              id={ids.role}
              value={role}
              disabled={!person}
              onChange={(event) => setRole(event.target.value as EnrollmentRole)}
              className={SELECT_CLASS}
            >
              {roles.length === 0 && (
                <option value="">
                  {person ? t("addEnrollment.noRoleToEnroll") : t("addEnrollment.choosePersonFirst")}
                </option>
              )}
              {roles.map((entry) => (
                <option key={entry} value={entry}>
                  {t(`common:roles.${entry}`)}
                </option>
              ))}
            </select>
          </div>
          {role === "teacher" && (
            <label
              htmlFor={ids.primary}
              className="flex items-center gap-2 self-end pb-2.5 text-sm font-medium"
            >
              <input
                id={ids.primary}
                type="checkbox"
                checked={isPrimary}
                onChange={(event) => setIsPrimary(event.target.checked)}
                className="size-4 accent-brand-600"
              />
              {t("addEnrollment.primaryGuide")}
            </label>
          )}
        </div>
        {problem && <Problem>{problem}</Problem>}
        <div aria-live="polite">
          {done && (
            <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
              {done}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={enroll.isPending}
          className={buttonClass("primary", "w-full sm:w-auto")}
        >
          {enroll.isPending ? t("addEnrollment.enrolling") : t("addEnrollment.enroll")}
        </button>
      </form>
    </section>
  );
}

/** Finds a person by name or email; the chosen one shows with a way to change. */
function PersonPicker({
  person,
  onChoose,
}: {
  person: PersonSummary | null;
  onChoose: (person: PersonSummary | null) => void;
}) {
  const { t } = useTranslation("courses");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const people = useQuery({
    ...peopleQuery(deferred),
    enabled: !person && deferred.length > 0,
    placeholderData: keepPreviousData,
  });

  if (person)
    return (
      <div className="flex flex-wrap items-center gap-3">
        <p>
          <span className="font-semibold">{t("personPicker.person", { name: fullName(person) })}</span>{" "}
          <span className="text-sm text-slate-600 dark:text-slate-300">
            {t("personPicker.roles", {
              roles:
                person.roles.map((role) => t(`common:roles.${role}`)).join(", ") || t("personPicker.noRole"),
            })}
          </span>
        </p>
        <button type="button" className={buttonClass("secondary")} onClick={() => onChoose(null)}>
          {t("personPicker.change")}
        </button>
      </div>
    );

  return (
    <div className="sm:max-w-lg">
      <TextField
        label={t("personPicker.find")}
        type="search"
        value={search}
        maxLength={200}
        onChange={(event) => setSearch(event.target.value)}
        placeholder={t("personPicker.placeholder")}
      />
      {people.isError && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-300">{people.error.message}</p>
      )}
      {deferred && people.data && (
        <>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
            {people.data.total === 0
              ? t("personPicker.nobody")
              : people.data.total > people.data.data.length
                ? t("personPicker.foundMore", { count: people.data.total })
                : t("personPicker.found", { count: people.data.total })}
          </p>
          <ul
            aria-label={t("personPicker.peopleFound")}
            className="mt-1 max-h-64 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          >
            {people.data.data.map((entry) => (
              <li key={entry.sourcedId}>
                <button
                  type="button"
                  onClick={() => onChoose(entry)}
                  className="flex w-full flex-wrap items-baseline justify-between gap-x-3 px-3 py-2 text-left hover:bg-slate-50 dark:hover:bg-slate-800"
                >
                  <span className="font-medium">{fullName(entry)}</span>
                  <span className="text-xs text-slate-600 dark:text-slate-400">
                    {[entry.roles.map((role) => t(`common:roles.${role}`)).join(", "), entry.email]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Asks for the end day of an enrollment in a modal dialog, then ends it; the server's refusal shows inside. */
export function EndEnrollmentDialog({
  enrollment,
  onClose,
  onEnded,
}: {
  enrollment: Enrollment;
  onClose: () => void;
  onEnded: (enrollment: Enrollment) => void;
}) {
  const { t } = useTranslation("courses");
  const dialog = useRef<HTMLDialogElement>(null);
  const queryClient = useQueryClient();
  const ids = { title: useId(), date: useId() };
  const [endDate, setEndDate] = useState(today);
  const end = useMutation({
    mutationFn: () => endEnrollment(enrollment.sourcedId, endDate),
    onSuccess: async (result) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: courseKeys.enrollments }),
        queryClient.invalidateQueries({ queryKey: courseKeys.all }),
      ]);
      onEnded(result.data);
    },
  });

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={ids.title}
      onCancel={onClose}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!end.isPending && endDate) end.mutate();
        }}
        className="space-y-4"
      >
        <h2 id={ids.title} className="text-lg font-bold">
          {t("endEnrollment.title")}
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-200">
          {enrollment.class.title
            ? t("endEnrollment.body", { name: fullName(enrollment.user), className: enrollment.class.title })
            : t("endEnrollment.bodyTheClass", { name: fullName(enrollment.user) })}
        </p>
        <div>
          <label htmlFor={ids.date} className="text-sm font-medium">
            {t("endEnrollment.endDate")}
          </label>
          <input
            id={ids.date}
            type="date"
            required
            min={enrollment.beginDate ?? undefined}
            max={today()}
            value={endDate}
            onChange={(event) => setEndDate(event.target.value)}
            className={SELECT_CLASS}
          />
        </div>
        {end.isError && <Problem>{end.error.message}</Problem>}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass("secondary")} onClick={onClose}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={end.isPending || !endDate} className={buttonClass("danger")}>
            {end.isPending ? t("endEnrollment.ending") : t("endEnrollment.submit")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
