import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpen, School } from "lucide-react";
import { type InputHTMLAttributes, useDeferredValue, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import {
  GUARDIAN_ROLES,
  MAX_GUARDIANS,
  newGuardianSchema,
  newStudentSchema,
  ONBOARDING_GRADES,
  type OnboardingRequest,
  type OnboardingResult,
} from "../../../shared/contracts/onboarding";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { Card, PageHeader } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { i18next, schemaMessage } from "../../lib/i18n";
import { fullName } from "../auth/auth-state";
import { PersonIdentity } from "../auth/person-identity";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import {
  guardianSearchQuery,
  onboardingClassesQuery,
  onboardingSchoolsQuery,
  rosterKeys,
  submitOnboarding,
} from "./api";
import { gradeText, OnboardingDone } from "./onboarding-done";
import { DANGER_SMALL_BUTTON, SMALL_BUTTON } from "./people-search";

const STEPS = ["student", "school", "guardians", "classes", "review", "done"] as const;
type Step = (typeof STEPS)[number];

interface StudentDraft {
  givenName: string;
  familyName: string;
  preferredFirstName: string;
  email: string;
  username: string;
  grade: string;
  birthDate: string;
}
type GuardianDraft =
  | {
      key: string;
      kind: "new";
      role: (typeof GUARDIAN_ROLES)[number];
      givenName: string;
      familyName: string;
      email: string;
    }
  | { key: string; kind: "existing"; person: PersonSummary };

interface Draft {
  student: StudentDraft;
  schoolSourcedId: string;
  guardians: GuardianDraft[];
  classSourcedIds: string[];
}

const EMPTY_DRAFT: Draft = {
  student: {
    givenName: "",
    familyName: "",
    preferredFirstName: "",
    email: "",
    username: "",
    grade: "",
    birthDate: "",
  },
  schoolSourcedId: "",
  guardians: [],
  classSourcedIds: [],
};

type FieldErrors = Record<string, string>;

/** The first problem of each field, keyed by its path ("email", "0.givenName"). */
function errorsOf(result: z.ZodSafeParseResult<unknown>): FieldErrors {
  const errors: FieldErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const path = issue.path.join(".");
    errors[path] ??= schemaMessage(issue);
  }
  return errors;
}

function toRequest(draft: Draft): OnboardingRequest {
  return {
    student: { ...draft.student, grade: draft.student.grade as OnboardingRequest["student"]["grade"] },
    schoolSourcedId: draft.schoolSourcedId,
    guardians: draft.guardians.map((guardian) =>
      guardian.kind === "new"
        ? {
            kind: "new",
            role: guardian.role,
            givenName: guardian.givenName,
            familyName: guardian.familyName,
            email: guardian.email,
          }
        : { kind: "existing", sourcedId: guardian.person.sourcedId },
    ),
    classSourcedIds: draft.classSourcedIds,
  };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const gradeOptions = () => [
  { value: "", label: i18next.t("admin:onboarding.student.chooseGrade") },
  ...ONBOARDING_GRADES.map((grade) => ({ value: grade, label: capitalise(gradeText(grade)) })),
];

/**
 * Adds a new student with their family, school and classes: one step at a time, every step
 * checked before the next, everything created together at the end.
 */
export function OnboardingPage() {
  const { t } = useTranslation("admin");
  const [step, setStep] = useState<Step>("student");
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  // Problems show once Next was tried on a step, and then follow every keystroke.
  const [hasTriedNext, setHasTriedNext] = useState(false);
  const [result, setResult] = useState<OnboardingResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const isFirstRender = useRef(true);
  const queryClient = useQueryClient();
  const index = STEPS.indexOf(step);

  // Each new step announces itself: focus goes to its heading (not on the first visit of the page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs when the step changes
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const goTo = (next: Step) => {
    setHasTriedNext(false);
    setFailure(null);
    setStep(next);
  };

  function stepErrors(current: Step): FieldErrors {
    if (current === "student") return errorsOf(newStudentSchema.safeParse(draft.student));
    if (current === "school") return draft.schoolSourcedId ? {} : { school: t("onboarding.school.choose") };
    if (current === "guardians") {
      const found: FieldErrors = {};
      draft.guardians.forEach((guardian, position) => {
        if (guardian.kind !== "new") return;
        for (const [field, message] of Object.entries(errorsOf(newGuardianSchema.safeParse(guardian))))
          found[`${position}.${field}`] ??= message;
      });
      return found;
    }
    return {};
  }

  function next() {
    if (Object.keys(stepErrors(step)).length) return setHasTriedNext(true);
    goTo(STEPS[index + 1] as Step);
  }
  const errors = hasTriedNext ? stepErrors(step) : {};

  async function submit() {
    setIsSubmitting(true);
    setFailure(null);
    try {
      const created = await submitOnboarding(toRequest(draft));
      setResult(created.data);
      await queryClient.invalidateQueries({ queryKey: rosterKeys.all });
      goTo("done");
    } catch (error) {
      setFailure(failureMessage(error, t("onboarding.submitFailed")));
    } finally {
      setIsSubmitting(false);
    }
  }

  const update = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/admin/onboarding.title")}
        description={t("onboarding.description")}
      />
      <Stepper step={step} onGoBack={(target) => step !== "done" && goTo(target)} />
      <Card>
        <h2 ref={headingRef} tabIndex={-1} className="mb-4 text-xl font-bold outline-none">
          {step === "done"
            ? t("onboarding.created")
            : t("onboarding.stepTitle", { number: index + 1, step: t(`onboarding.steps.${step}`) })}
        </h2>
        {step === "student" && (
          <StudentStep
            student={draft.student}
            errors={errors}
            onChange={(student) => update({ student: { ...draft.student, ...student } })}
          />
        )}
        {step === "school" && (
          <SchoolStep
            schoolId={draft.schoolSourcedId}
            error={errors.school}
            onChange={(schoolSourcedId) => update({ schoolSourcedId, classSourcedIds: [] })}
          />
        )}
        {step === "guardians" && (
          <GuardiansStep
            guardians={draft.guardians}
            errors={errors}
            onChange={(guardians) => update({ guardians })}
          />
        )}
        {step === "classes" && (
          <ClassesStep
            schoolId={draft.schoolSourcedId}
            grade={draft.student.grade}
            selected={draft.classSourcedIds}
            onChange={(classSourcedIds) => update({ classSourcedIds })}
          />
        )}
        {step === "review" && <ReviewStep draft={draft} onEdit={goTo} />}
        {step === "done" && result && (
          <OnboardingDone
            result={result}
            grade={draft.student.grade}
            onRestart={() => {
              setDraft(EMPTY_DRAFT);
              setResult(null);
              goTo("student");
            }}
          />
        )}
        {failure && (
          <p
            role="alert"
            className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {failure}
          </p>
        )}
        {step !== "done" && (
          <div className="mt-6 flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
            <button
              type="button"
              onClick={() => goTo(STEPS[index - 1] as Step)}
              disabled={index === 0}
              className={buttonClass("secondary")}
            >
              {t("onboarding.back")}
            </button>
            {step === "review" ? (
              <button
                type="button"
                onClick={submit}
                disabled={isSubmitting}
                className={buttonClass("primary")}
              >
                {isSubmitting ? t("onboarding.creating") : t("onboarding.create")}
              </button>
            ) : (
              <button type="button" onClick={next} className={buttonClass("primary")}>
                {t("onboarding.next")}
              </button>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}

function Stepper({ step, onGoBack }: { step: Step; onGoBack: (step: Step) => void }) {
  const { t } = useTranslation("admin");
  const current = STEPS.indexOf(step);
  return (
    <nav aria-label={t("onboarding.stepsLabel")} className="mb-6">
      <ol className="flex flex-wrap gap-2">
        {STEPS.map((entry, position) => {
          const isDone = position < current;
          const label = t("onboarding.stepTitle", {
            number: position + 1,
            step: t(`onboarding.steps.${entry}`),
          });
          const style = `rounded-full border px-3 py-1 text-sm font-semibold ${
            position === current
              ? "border-brand-600 bg-brand-600 text-white"
              : isDone
                ? "border-brand-600 text-brand-700 dark:text-brand-100"
                : "border-slate-300 text-slate-600 dark:border-slate-700 dark:text-slate-300"
          }`;
          return (
            <li key={entry} aria-current={position === current ? "step" : undefined}>
              {isDone && step !== "done" ? (
                <button
                  type="button"
                  className={`${style} hover:bg-brand-50 dark:hover:bg-slate-800`}
                  onClick={() => onGoBack(entry)}
                  aria-label={t("onboarding.backTo", { step: label })}
                >
                  {label}
                </button>
              ) : (
                <span className={`inline-block ${style}`}>{label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** A text field that shows its problem under it and tells screen readers about it. */
function CheckedField({
  label,
  error,
  hint,
  ...input
}: { label: string; error?: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const noteId = useId();
  return (
    <div>
      <TextField label={label} aria-invalid={Boolean(error)} aria-describedby={noteId} {...input} />
      <p
        id={noteId}
        className={`mt-1 text-xs ${error ? "font-medium text-red-700 dark:text-red-300" : "text-slate-600 dark:text-slate-400"}`}
      >
        {error ?? hint}
      </p>
    </div>
  );
}

function StudentStep({
  student,
  errors,
  onChange,
}: {
  student: StudentDraft;
  errors: FieldErrors;
  onChange: (changes: Partial<StudentDraft>) => void;
}) {
  const field = (name: keyof StudentDraft) => ({
    value: student[name],
    onChange: (event: { target: { value: string } }) => onChange({ [name]: event.target.value }),
    error: errors[name],
  });
  const { t } = useTranslation("admin");
  const gradeErrorId = useId();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <CheckedField
        label={t("onboarding.fields.givenName")}
        autoComplete="off"
        required
        {...field("givenName")}
      />
      <CheckedField
        label={t("onboarding.fields.familyName")}
        autoComplete="off"
        required
        {...field("familyName")}
      />
      <CheckedField
        label={t("onboarding.student.preferred")}
        hint={t("onboarding.student.preferredHint")}
        {...field("preferredFirstName")}
      />
      <div>
        <SelectField
          label={t("onboarding.student.grade")}
          options={gradeOptions()}
          value={student.grade}
          onChange={(event) => onChange({ grade: event.target.value })}
          aria-invalid={Boolean(errors.grade)}
          aria-describedby={gradeErrorId}
          required
        />
        <p id={gradeErrorId} className="mt-1 text-xs font-medium text-red-700 dark:text-red-300">
          {errors.grade}
        </p>
      </div>
      <CheckedField
        label={t("onboarding.fields.email")}
        type="email"
        inputMode="email"
        autoComplete="off"
        hint={t("onboarding.student.emailHint")}
        {...field("email")}
      />
      <CheckedField
        label={t("onboarding.student.username")}
        autoComplete="off"
        hint={t("onboarding.student.usernameHint")}
        {...field("username")}
      />
      <CheckedField label={t("onboarding.student.birthDate")} type="date" {...field("birthDate")} />
    </div>
  );
}

function SchoolStep({
  schoolId,
  error,
  onChange,
}: {
  schoolId: string;
  error?: string;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation("admin");
  const schools = useQuery(onboardingSchoolsQuery);
  const { activeRole } = useAuth();
  const only = schools.data?.data.length === 1 ? schools.data.data[0] : undefined;
  useEffect(() => {
    if (only && !schoolId) onChange(only.sourcedId);
  }, [only, schoolId, onChange]);

  if (schools.isError) return <QueryError error={schools.error} fallback={t("onboarding.school.failed")} />;
  if (!schools.data) return <Loading label={t("onboarding.school.loading")} />;
  if (schools.data.data.length === 0)
    return (
      <EmptyState icon={School} title={t("onboarding.school.none")}>
        {activeRole === "teacher" ? t("onboarding.school.noneGuide") : t("onboarding.school.noneAdmin")}
      </EmptyState>
    );
  return (
    <fieldset>
      <legend className="text-sm font-medium">
        {activeRole === "teacher" ? t("onboarding.school.yours") : t("onboarding.school.all")}
      </legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {schools.data.data.map((school) => (
          <label
            key={school.sourcedId}
            className={`flex cursor-pointer items-center gap-3 rounded-xl border-2 p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
              schoolId === school.sourcedId
                ? "border-brand-600 bg-brand-50 dark:bg-slate-800"
                : "border-slate-200 dark:border-slate-700"
            }`}
          >
            <input
              type="radio"
              name="school"
              value={school.sourcedId}
              checked={schoolId === school.sourcedId}
              onChange={() => onChange(school.sourcedId)}
              className="size-4 accent-brand-600"
            />
            <span>
              <span className="block font-semibold">{school.name}</span>
              {school.identifier && (
                <span className="text-xs text-slate-600 dark:text-slate-400">{school.identifier}</span>
              )}
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </fieldset>
  );
}

let guardianKeys = 0;
const newKey = () => `guardian-${++guardianKeys}`;

function GuardiansStep({
  guardians,
  errors,
  onChange,
}: {
  guardians: GuardianDraft[];
  errors: FieldErrors;
  onChange: (guardians: GuardianDraft[]) => void;
}) {
  const { t } = useTranslation("admin");
  const { activeRole } = useAuth();
  const isFull = guardians.length >= MAX_GUARDIANS;
  const replace = (key: string, changes: Partial<GuardianDraft>) =>
    onChange(
      guardians.map((entry) => (entry.key === key ? ({ ...entry, ...changes } as GuardianDraft) : entry)),
    );
  const remove = (key: string) => onChange(guardians.filter((entry) => entry.key !== key));

  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("onboarding.guardians.intro", { max: MAX_GUARDIANS })}
        {activeRole === "teacher" && ` ${t("onboarding.guardians.guideNote")}`}
      </p>
      {guardians.length > 0 && (
        <ul className="space-y-3" aria-label={t("onboarding.guardians.toAdd")}>
          {guardians.map((guardian, position) =>
            guardian.kind === "existing" ? (
              <li
                key={guardian.key}
                className="flex items-center justify-between gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700"
              >
                <div>
                  <p className="font-semibold">{fullName(guardian.person)}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {t("onboarding.guardians.already")} ·{" "}
                    {[
                      guardian.person.roles.map((role) => t(`common:roles.${role}`)).join(", "),
                      guardian.person.email,
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => remove(guardian.key)}
                  className={DANGER_SMALL_BUTTON}
                  aria-label={t("onboarding.guardians.removeLabel", { name: fullName(guardian.person) })}
                >
                  {t("onboarding.guardians.remove")}
                </button>
              </li>
            ) : (
              <li key={guardian.key} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
                <fieldset>
                  <legend className="font-semibold">
                    {t("onboarding.guardians.newOne", { number: position + 1 })}
                  </legend>
                  <div className="mt-3 grid gap-4 sm:grid-cols-2">
                    <SelectField
                      label={t("onboarding.guardians.relationship")}
                      options={GUARDIAN_ROLES.map((role) => ({
                        value: role,
                        label: t(`common:roles.${role}`),
                      }))}
                      value={guardian.role}
                      onChange={(event) =>
                        replace(guardian.key, { role: event.target.value as (typeof GUARDIAN_ROLES)[number] })
                      }
                    />
                    <CheckedField
                      label={t("onboarding.fields.email")}
                      type="email"
                      autoComplete="off"
                      value={guardian.email}
                      onChange={(event) => replace(guardian.key, { email: event.target.value })}
                      error={errors[`${position}.email`]}
                    />
                    <CheckedField
                      label={t("onboarding.fields.givenName")}
                      autoComplete="off"
                      value={guardian.givenName}
                      onChange={(event) => replace(guardian.key, { givenName: event.target.value })}
                      error={errors[`${position}.givenName`]}
                    />
                    <CheckedField
                      label={t("onboarding.fields.familyName")}
                      autoComplete="off"
                      value={guardian.familyName}
                      onChange={(event) => replace(guardian.key, { familyName: event.target.value })}
                      error={errors[`${position}.familyName`]}
                    />
                  </div>
                  <button
                    type="button"
                    onClick={() => remove(guardian.key)}
                    className={`${DANGER_SMALL_BUTTON} mt-3`}
                  >
                    {t("onboarding.guardians.removeThis")}
                  </button>
                </fieldset>
              </li>
            ),
          )}
        </ul>
      )}
      <button
        type="button"
        disabled={isFull}
        onClick={() =>
          onChange([
            ...guardians,
            { key: newKey(), kind: "new", role: "parent", givenName: "", familyName: "", email: "" },
          ])
        }
        className={buttonClass("secondary")}
      >
        {t("onboarding.guardians.addNew")}
      </button>
      <GuardianFinder
        chosenIds={guardians.flatMap((entry) => (entry.kind === "existing" ? [entry.person.sourcedId] : []))}
        isFull={isFull}
        onPick={(person) => onChange([...guardians, { key: newKey(), kind: "existing", person }])}
      />
    </div>
  );
}

function GuardianFinder({
  chosenIds,
  isFull,
  onPick,
}: {
  chosenIds: string[];
  isFull: boolean;
  onPick: (person: PersonSummary) => void;
}) {
  const { t } = useTranslation("admin");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const found = useQuery({
    ...guardianSearchQuery(deferred),
    enabled: deferred.length >= 2,
    placeholderData: keepPreviousData,
  });
  return (
    <div className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <TextField
        label={t("onboarding.finder.label")}
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder={t("onboarding.finder.placeholder")}
      />
      {found.isError && <QueryError error={found.error} fallback={t("onboarding.finder.failed")} />}
      {deferred.length >= 2 && found.data && (
        <>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
            {found.data.total === 0
              ? t("peopleSearch.none")
              : found.data.total > 10
                ? t("onboarding.finder.foundFirst", { count: found.data.total })
                : t("onboarding.finder.found", { count: found.data.total })}
          </p>
          <ul
            className="mt-1 divide-y divide-slate-100 dark:divide-slate-800"
            aria-label={t("onboarding.finder.results")}
          >
            {found.data.data.map((person) => (
              <li key={person.sourcedId} className="flex items-center justify-between gap-3 py-2">
                <PersonIdentity person={person} />
                {chosenIds.includes(person.sourcedId) ? (
                  <span className="text-xs font-semibold text-slate-600 dark:text-slate-300">
                    {t("onboarding.finder.added")}
                  </span>
                ) : (
                  <button
                    type="button"
                    disabled={isFull}
                    onClick={() => onPick(person)}
                    className={SMALL_BUTTON}
                    aria-label={t("relationships.linkLabel", { name: fullName(person) })}
                  >
                    {t("relationships.link")}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function ClassesStep({
  schoolId,
  grade,
  selected,
  onChange,
}: {
  schoolId: string;
  grade: string;
  selected: string[];
  onChange: (ids: string[]) => void;
}) {
  const { t } = useTranslation("admin");
  const classes = useQuery(onboardingClassesQuery(schoolId, grade));
  if (classes.isError) return <QueryError error={classes.error} fallback={t("explorer.classes.failed")} />;
  if (!classes.data) return <Loading label={t("explorer.classes.loading")} />;
  if (classes.data.data.length === 0)
    return (
      <EmptyState icon={BookOpen} title={t("onboarding.classes.none", { grade: gradeText(grade) })}>
        {t("onboarding.classes.noneHint")}
      </EmptyState>
    );
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected, id] : selected.filter((entry) => entry !== id));
  return (
    <fieldset>
      <legend className="text-sm text-slate-600 dark:text-slate-300">
        {t("onboarding.classes.legend", { grade: gradeText(grade) })}
      </legend>
      <ul className="mt-3 grid gap-2 md:grid-cols-2">
        {classes.data.data.map((entry) => (
          <li key={entry.sourcedId}>
            <label
              className={`flex h-full items-start gap-3 rounded-xl border-2 p-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
                entry.canEnroll ? "cursor-pointer" : "cursor-not-allowed opacity-70"
              } ${selected.includes(entry.sourcedId) ? "border-brand-600 bg-brand-50 dark:bg-slate-800" : "border-slate-200 dark:border-slate-700"}`}
            >
              <input
                type="checkbox"
                checked={selected.includes(entry.sourcedId)}
                disabled={!entry.canEnroll}
                onChange={(event) => toggle(entry.sourcedId, event.target.checked)}
                className="mt-1 size-4 accent-brand-600"
              />
              <span className="min-w-0">
                <span className="flex flex-wrap items-center gap-2 font-semibold">
                  {entry.title}
                  {entry.isMine && (
                    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
                      {t("onboarding.classes.yours")}
                    </span>
                  )}
                </span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">
                  {[
                    entry.guides.join(", ") || t("onboarding.classes.noGuide"),
                    t("onboarding.classes.students", { count: entry.students }),
                    entry.classCode,
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
                {!entry.canEnroll && (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    {t("onboarding.classes.cannotEnroll")}
                  </span>
                )}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function ReviewStep({ draft, onEdit }: { draft: Draft; onEdit: (step: Step) => void }) {
  const { t } = useTranslation("admin");
  const schools = useQuery(onboardingSchoolsQuery);
  const classes = useQuery(onboardingClassesQuery(draft.schoolSourcedId, draft.student.grade));
  const school = schools.data?.data.find((entry) => entry.sourcedId === draft.schoolSourcedId);
  const chosen = (classes.data?.data ?? []).filter((entry) =>
    draft.classSourcedIds.includes(entry.sourcedId),
  );
  const { student } = draft;
  const rows: { id: string; step: Step; value: string }[] = [
    {
      id: "student",
      step: "student",
      value: [
        `${student.givenName} ${student.familyName}`,
        student.preferredFirstName && t("onboarding.review.called", { name: student.preferredFirstName }),
        gradeText(student.grade),
        student.birthDate && t("onboarding.review.born", { date: student.birthDate }),
      ]
        .filter(Boolean)
        .join(", "),
    },
    { id: "signIn", step: "student", value: student.email || student.username },
    { id: "school", step: "school", value: school?.name ?? "…" },
    {
      id: "guardians",
      step: "guardians",
      value:
        draft.guardians
          .map((guardian) =>
            guardian.kind === "new"
              ? t("onboarding.review.newGuardian", {
                  name: `${guardian.givenName} ${guardian.familyName}`,
                  role: guardian.role,
                  email: guardian.email,
                })
              : t("onboarding.review.existingGuardian", { name: fullName(guardian.person) }),
          )
          .join("; ") || t("onboarding.review.none"),
    },
    {
      id: "classes",
      step: "classes",
      value: chosen.map((entry) => entry.title).join(", ") || t("onboarding.review.none"),
    },
  ];
  return (
    <div>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("onboarding.review.intro")}</p>
      <dl className="mt-4 divide-y divide-slate-100 dark:divide-slate-800">
        {rows.map((row) => (
          <div
            key={row.id}
            className="grid gap-1 py-3 sm:grid-cols-[12rem_minmax(0,1fr)_auto] sm:items-baseline"
          >
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">
              {t(`onboarding.review.rows.${row.id}`)}
            </dt>
            <dd className="break-words">{row.value}</dd>
            <dd>
              <button
                type="button"
                onClick={() => onEdit(row.step)}
                className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                aria-label={t(`onboarding.review.changeRows.${row.id}`)}
              >
                {t("onboarding.review.change")}
              </button>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
