import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { type InputHTMLAttributes, useDeferredValue, useEffect, useId, useRef, useState } from "react";
import type { z } from "zod";
import {
  GUARDIAN_ROLES,
  gradeName,
  MAX_GUARDIANS,
  newGuardianSchema,
  newStudentSchema,
  ONBOARDING_GRADES,
  type OnboardingRequest,
  type OnboardingResult,
} from "../../../shared/contracts/onboarding";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { ROLE_DISPLAY_NAMES } from "../../../shared/roles";
import { Card, PageHeader } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import {
  guardianSearchQuery,
  onboardingClassesQuery,
  onboardingSchoolsQuery,
  rosterKeys,
  submitOnboarding,
} from "./api";
import { OnboardingDone } from "./onboarding-done";
import { DANGER_SMALL_BUTTON, SMALL_BUTTON } from "./people-search";

const STEPS = ["Student", "School", "Parents and guardians", "Classes", "Review", "Done"] as const;
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
    errors[path] ??= issue.message;
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
const GRADE_OPTIONS = [
  { value: "", label: "Choose a grade…" },
  ...ONBOARDING_GRADES.map((grade) => ({ value: grade, label: capitalise(gradeName(grade)) })),
];

/**
 * Adds a new student with their family, school and classes: one step at a time, every step
 * checked before the next, everything created together at the end.
 */
export function OnboardingPage() {
  const [step, setStep] = useState<Step>("Student");
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
    if (current === "Student") return errorsOf(newStudentSchema.safeParse(draft.student));
    if (current === "School") return draft.schoolSourcedId ? {} : { school: "Choose a school" };
    if (current === "Parents and guardians") {
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
      goTo("Done");
    } catch (error) {
      setFailure(failureMessage(error, "The accounts could not be created. Nothing was saved; try again."));
    } finally {
      setIsSubmitting(false);
    }
  }

  const update = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));

  return (
    <div>
      <PageHeader
        title="Onboarding"
        description="Add a new student with their school, parents or guardians and classes. Their accounts are created together at the end."
      />
      <Stepper step={step} onGoBack={(target) => step !== "Done" && goTo(target)} />
      <Card>
        <h2 ref={headingRef} tabIndex={-1} className="mb-4 text-xl font-bold outline-none">
          {step === "Done" ? "Accounts created" : `${index + 1}. ${step}`}
        </h2>
        {step === "Student" && (
          <StudentStep
            student={draft.student}
            errors={errors}
            onChange={(student) => update({ student: { ...draft.student, ...student } })}
          />
        )}
        {step === "School" && (
          <SchoolStep
            schoolId={draft.schoolSourcedId}
            error={errors.school}
            onChange={(schoolSourcedId) => update({ schoolSourcedId, classSourcedIds: [] })}
          />
        )}
        {step === "Parents and guardians" && (
          <GuardiansStep
            guardians={draft.guardians}
            errors={errors}
            onChange={(guardians) => update({ guardians })}
          />
        )}
        {step === "Classes" && (
          <ClassesStep
            schoolId={draft.schoolSourcedId}
            grade={draft.student.grade}
            selected={draft.classSourcedIds}
            onChange={(classSourcedIds) => update({ classSourcedIds })}
          />
        )}
        {step === "Review" && <ReviewStep draft={draft} onEdit={goTo} />}
        {step === "Done" && result && (
          <OnboardingDone
            result={result}
            grade={draft.student.grade}
            onRestart={() => {
              setDraft(EMPTY_DRAFT);
              setResult(null);
              goTo("Student");
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
        {step !== "Done" && (
          <div className="mt-6 flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
            <button
              type="button"
              onClick={() => goTo(STEPS[index - 1] as Step)}
              disabled={index === 0}
              className={buttonClass("secondary")}
            >
              Back
            </button>
            {step === "Review" ? (
              <button
                type="button"
                onClick={submit}
                disabled={isSubmitting}
                className={buttonClass("primary")}
              >
                {isSubmitting ? "Creating…" : "Create accounts"}
              </button>
            ) : (
              <button type="button" onClick={next} className={buttonClass("primary")}>
                Next
              </button>
            )}
          </div>
        )}
      </Card>
    </div>
  );
}

function Stepper({ step, onGoBack }: { step: Step; onGoBack: (step: Step) => void }) {
  const current = STEPS.indexOf(step);
  return (
    <nav aria-label="Onboarding steps" className="mb-6">
      <ol className="flex flex-wrap gap-2">
        {STEPS.map((entry, position) => {
          const isDone = position < current;
          const label = `${position + 1}. ${entry}`;
          const style = `rounded-full border px-3 py-1 text-sm font-semibold ${
            position === current
              ? "border-brand-600 bg-brand-600 text-white"
              : isDone
                ? "border-brand-600 text-brand-700 dark:text-brand-100"
                : "border-slate-300 text-slate-600 dark:border-slate-700 dark:text-slate-300"
          }`;
          return (
            <li key={entry} aria-current={position === current ? "step" : undefined}>
              {isDone && step !== "Done" ? (
                <button
                  type="button"
                  className={`${style} hover:bg-brand-50 dark:hover:bg-slate-800`}
                  onClick={() => onGoBack(entry)}
                >
                  <span className="sr-only">Back to </span>
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
  const gradeErrorId = useId();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <CheckedField label="Given name" autoComplete="off" required {...field("givenName")} />
      <CheckedField label="Family name" autoComplete="off" required {...field("familyName")} />
      <CheckedField
        label="Preferred name (optional)"
        hint="What the student likes to be called."
        {...field("preferredFirstName")}
      />
      <div>
        <SelectField
          label="Grade"
          options={GRADE_OPTIONS}
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
        label="Email"
        type="email"
        inputMode="email"
        autoComplete="off"
        hint="The student signs in with their email, or with a username when they have none."
        {...field("email")}
      />
      <CheckedField
        label="Username"
        autoComplete="off"
        hint="Only needed without an email: 3 to 64 letters, digits, dots or dashes."
        {...field("username")}
      />
      <CheckedField label="Date of birth (optional)" type="date" {...field("birthDate")} />
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
  const schools = useQuery(onboardingSchoolsQuery);
  const { activeRole } = useAuth();
  const only = schools.data?.data.length === 1 ? schools.data.data[0] : undefined;
  useEffect(() => {
    if (only && !schoolId) onChange(only.sourcedId);
  }, [only, schoolId, onChange]);

  if (schools.isError) return <QueryError error={schools.error} fallback="Could not load the schools" />;
  if (!schools.data) return <Loading label="Loading the schools" />;
  if (schools.data.data.length === 0)
    return (
      <EmptyState icon="🏫" title="No school to onboard into">
        {activeRole === "teacher"
          ? "You do not teach at a school yet."
          : "Add a school on the Organizations page first."}
      </EmptyState>
    );
  return (
    <fieldset>
      <legend className="text-sm font-medium">{activeRole === "teacher" ? "Your schools" : "Schools"}</legend>
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
        Add new parents or guardians (each gets an account), link ones already in Dash, or skip this step. Up
        to {MAX_GUARDIANS}.
        {activeRole === "teacher" &&
          " An administrator confirms links to parents and guardians who are already in Dash before they see the student."}
      </p>
      {guardians.length > 0 && (
        <ul className="space-y-3" aria-label="Parents and guardians to add">
          {guardians.map((guardian, position) =>
            guardian.kind === "existing" ? (
              <li
                key={guardian.key}
                className="flex items-center justify-between gap-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700"
              >
                <div>
                  <p className="font-semibold">{fullName(guardian.person)}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    Already in Dash ·{" "}
                    {[
                      guardian.person.roles.map((role) => ROLE_DISPLAY_NAMES[role]).join(", "),
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
                  aria-label={`Remove ${fullName(guardian.person)}`}
                >
                  Remove
                </button>
              </li>
            ) : (
              <li key={guardian.key} className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
                <fieldset>
                  <legend className="font-semibold">New parent or guardian {position + 1}</legend>
                  <div className="mt-3 grid gap-4 sm:grid-cols-2">
                    <SelectField
                      label="Relationship"
                      options={GUARDIAN_ROLES.map((role) => ({
                        value: role,
                        label: ROLE_DISPLAY_NAMES[role],
                      }))}
                      value={guardian.role}
                      onChange={(event) =>
                        replace(guardian.key, { role: event.target.value as (typeof GUARDIAN_ROLES)[number] })
                      }
                    />
                    <CheckedField
                      label="Email"
                      type="email"
                      autoComplete="off"
                      value={guardian.email}
                      onChange={(event) => replace(guardian.key, { email: event.target.value })}
                      error={errors[`${position}.email`]}
                    />
                    <CheckedField
                      label="Given name"
                      autoComplete="off"
                      value={guardian.givenName}
                      onChange={(event) => replace(guardian.key, { givenName: event.target.value })}
                      error={errors[`${position}.givenName`]}
                    />
                    <CheckedField
                      label="Family name"
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
                    Remove this parent or guardian
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
        Add a new parent or guardian
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
        label="Link a parent or guardian already in Dash"
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder="Name or email, at least 2 letters"
      />
      {found.isError && <QueryError error={found.error} fallback="Could not search" />}
      {deferred.length >= 2 && found.data && (
        <>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
            {found.data.total === 0
              ? "Nobody matches."
              : `${found.data.total} found${found.data.total > 10 ? ": the first 10" : ""}`}
          </p>
          <ul
            className="mt-1 divide-y divide-slate-100 dark:divide-slate-800"
            aria-label="Parents and guardians found"
          >
            {found.data.data.map((person) => (
              <li key={person.sourcedId} className="flex items-center justify-between gap-3 py-2">
                <div className="min-w-0">
                  <p className="font-medium">{fullName(person)}</p>
                  <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                    {[person.roles.map((role) => ROLE_DISPLAY_NAMES[role]).join(", "), person.email]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
                {chosenIds.includes(person.sourcedId) ? (
                  <span className="text-xs font-semibold text-slate-600 dark:text-slate-300">Added</span>
                ) : (
                  <button
                    type="button"
                    disabled={isFull}
                    onClick={() => onPick(person)}
                    className={SMALL_BUTTON}
                    aria-label={`Link ${fullName(person)}`}
                  >
                    Link
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
  const classes = useQuery(onboardingClassesQuery(schoolId, grade));
  if (classes.isError) return <QueryError error={classes.error} fallback="Could not load the classes" />;
  if (!classes.data) return <Loading label="Loading the classes" />;
  if (classes.data.data.length === 0)
    return (
      <EmptyState icon="📚" title={`No class for ${gradeName(grade)} at this school`}>
        You can finish without classes and enroll the student later.
      </EmptyState>
    );
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected, id] : selected.filter((entry) => entry !== id));
  return (
    <fieldset>
      <legend className="text-sm text-slate-600 dark:text-slate-300">
        Classes open to {gradeName(grade)}. Your own classes come first; you can also finish without any.
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
                      Your class
                    </span>
                  )}
                </span>
                <span className="block text-xs text-slate-600 dark:text-slate-400">
                  {[entry.guides.join(", ") || "No Guide yet", `${entry.students} students`, entry.classCode]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
                {!entry.canEnroll && (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    Only its Guides or an administrator can add students.
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
  const schools = useQuery(onboardingSchoolsQuery);
  const classes = useQuery(onboardingClassesQuery(draft.schoolSourcedId, draft.student.grade));
  const school = schools.data?.data.find((entry) => entry.sourcedId === draft.schoolSourcedId);
  const chosen = (classes.data?.data ?? []).filter((entry) =>
    draft.classSourcedIds.includes(entry.sourcedId),
  );
  const { student } = draft;
  const rows: { step: Step; label: string; value: string }[] = [
    {
      step: "Student",
      label: "Student",
      value: [
        `${student.givenName} ${student.familyName}`,
        student.preferredFirstName && `called ${student.preferredFirstName}`,
        gradeName(student.grade),
        student.birthDate && `born ${student.birthDate}`,
      ]
        .filter(Boolean)
        .join(", "),
    },
    { step: "Student", label: "Signs in with", value: student.email || student.username },
    { step: "School", label: "School", value: school?.name ?? "…" },
    {
      step: "Parents and guardians",
      label: "Parents and guardians",
      value:
        draft.guardians
          .map((guardian) =>
            guardian.kind === "new"
              ? `${guardian.givenName} ${guardian.familyName} (new ${guardian.role}, ${guardian.email})`
              : `${fullName(guardian.person)} (already in Dash)`,
          )
          .join("; ") || "None",
    },
    { step: "Classes", label: "Classes", value: chosen.map((entry) => entry.title).join(", ") || "None" },
  ];
  return (
    <div>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Check the details. Creating the accounts saves everything at once; if anything fails, nothing is
        saved.
      </p>
      <dl className="mt-4 divide-y divide-slate-100 dark:divide-slate-800">
        {rows.map((row) => (
          <div
            key={row.label}
            className="grid gap-1 py-3 sm:grid-cols-[12rem_minmax(0,1fr)_auto] sm:items-baseline"
          >
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{row.label}</dt>
            <dd className="break-words">{row.value}</dd>
            <dd>
              <button
                type="button"
                onClick={() => onEdit(row.step)}
                className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                aria-label={`Change ${row.label.toLowerCase()}`}
              >
                Change
              </button>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
