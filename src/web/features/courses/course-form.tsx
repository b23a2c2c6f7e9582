import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type CourseSummary,
  GRADES,
  type Grade,
  ROSTER_STATUSES,
  type RosterStatus,
} from "../../../shared/contracts/courses";
import { buttonClass, TextField } from "../../components/ui/form";
import { gradeLabel, gradeNames } from "../../lib/format";
import { courseOptionsQuery, errorText } from "./api";
import { Problem, SELECT_CLASS } from "./list-controls";

/** What the course form sends: a new course, or the changes of one (with its status). */
export interface CourseFormValues {
  title: string;
  courseCode: string | null;
  grades: Grade[];
  subjects: string[];
  orgSourcedId: string;
  schoolYearSourcedId: string | null;
  status: RosterStatus;
}

/** "Math, Science" → ["Math", "Science"], each once. */
function subjectsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The course form of the create and detail pages: checked here for what can be checked, then by
 * the server, whose refusal (with each field's problem) shows under the form.
 */
export function CourseForm({
  course,
  submitLabel,
  onSubmit,
}: {
  course?: CourseSummary;
  submitLabel: string;
  onSubmit: (values: CourseFormValues) => Promise<unknown>;
}) {
  const { t } = useTranslation("courses");
  const options = useQuery(courseOptionsQuery);
  const ids = { org: useId(), year: useId(), status: useId(), subjectsHint: useId() };
  const [title, setTitle] = useState(course?.title ?? "");
  const [courseCode, setCourseCode] = useState(course?.courseCode ?? "");
  const [grades, setGrades] = useState<string[]>(course?.grades ?? []);
  const [subjects, setSubjects] = useState(course?.subjects.join(", ") ?? "");
  const [orgSourcedId, setOrgSourcedId] = useState(course?.orgSourcedId ?? "");
  const [schoolYearSourcedId, setSchoolYearSourcedId] = useState(course?.schoolYearSourcedId ?? "");
  const [status, setStatus] = useState<RosterStatus>(
    (course?.status as RosterStatus | undefined) ?? "active",
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<Date | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isSaving) return;
    setSavedAt(null);
    if (!title.trim()) return setProblem(t("courseForm.giveTitle"));
    if (!orgSourcedId) return setProblem(t("courseForm.chooseOrganisation"));
    setProblem(null);
    setIsSaving(true);
    try {
      await onSubmit({
        title: title.trim(),
        courseCode: courseCode.trim() || null,
        grades: GRADES.filter((grade) => grades.includes(grade)),
        subjects: subjectsOf(subjects),
        orgSourcedId,
        schoolYearSourcedId: schoolYearSourcedId || null,
        status,
      });
      setSavedAt(new Date());
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setIsSaving(false);
    }
  }

  const toggleGrade = (grade: string) =>
    setGrades((current) =>
      current.includes(grade) ? current.filter((entry) => entry !== grade) : [...current, grade],
    );

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t("courseForm.title")}
          required
          maxLength={200}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          placeholder={t("courseForm.titlePlaceholder")}
        />
        <TextField
          label={t("courseForm.courseCode")}
          maxLength={100}
          value={courseCode}
          onChange={(event) => setCourseCode(event.target.value)}
          placeholder={t("courseForm.courseCodePlaceholder")}
        />
        <div>
          <label htmlFor={ids.org} className="text-sm font-medium">
            {t("courseForm.organisation")}
          </label>
          <select
            id={ids.org}
            required
            value={orgSourcedId}
            onChange={(event) => setOrgSourcedId(event.target.value)}
            className={SELECT_CLASS}
          >
            <option value="">
              {options.isPending ? t("courseForm.loading") : t("courseForm.chooseOrganisationOption")}
            </option>
            {options.data?.orgs.map((org) => (
              <option key={org.sourcedId} value={org.sourcedId}>
                {org.name} ({org.type})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.year} className="text-sm font-medium">
            {t("courseForm.schoolYear")}
          </label>
          <select
            id={ids.year}
            value={schoolYearSourcedId}
            onChange={(event) => setSchoolYearSourcedId(event.target.value)}
            className={SELECT_CLASS}
          >
            <option value="">{t("courseForm.noSchoolYear")}</option>
            {options.data?.schoolYears.map((year) => (
              <option key={year.sourcedId} value={year.sourcedId}>
                {year.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <TextField
            label={t("courseForm.subjects")}
            value={subjects}
            onChange={(event) => setSubjects(event.target.value)}
            placeholder={t("courseForm.subjectsPlaceholder")}
            aria-describedby={ids.subjectsHint}
          />
          <p id={ids.subjectsHint} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t("courseForm.subjectsHint")}
          </p>
        </div>
        {course && (
          <div>
            <label htmlFor={ids.status} className="text-sm font-medium">
              {t("courseForm.status")}
            </label>
            <select
              id={ids.status}
              value={status}
              onChange={(event) => setStatus(event.target.value as RosterStatus)}
              className={SELECT_CLASS}
            >
              {ROSTER_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {t(`status.${value}`)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <fieldset>
        <legend className="text-sm font-medium">{t("courseForm.grades")}</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {GRADES.map((grade) => (
            <label
              key={grade}
              className={`flex min-w-11 cursor-pointer items-center justify-center gap-1.5 rounded-lg border px-2.5 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
                grades.includes(grade)
                  ? "border-brand-600 bg-brand-50 font-semibold text-brand-900 dark:border-brand-500 dark:bg-brand-900 dark:text-brand-50"
                  : "border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-950"
              }`}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={grades.includes(grade)}
                onChange={() => toggleGrade(grade)}
              />
              <span className="sr-only">{gradeLabel([grade])}</span>
              <span aria-hidden="true">{gradeNames([grade])}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {options.isError && (
        <Problem>{t("courseForm.loadOrganisationsFailed", { error: errorText(options.error) })}</Problem>
      )}
      {problem && <Problem>{problem}</Problem>}
      <div aria-live="polite">
        {savedAt && course && (
          <p className="text-sm font-medium text-emerald-700 dark:text-emerald-300">
            {t("courseForm.saved")}
          </p>
        )}
      </div>
      <button type="submit" disabled={isSaving} className={buttonClass("primary", "w-full sm:w-auto")}>
        {isSaving ? t("courseForm.saving") : submitLabel}
      </button>
    </form>
  );
}
