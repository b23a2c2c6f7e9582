import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  GOAL_TARGET_BOUNDS,
  type Goal,
  type GoalChanges,
  type GoalInput,
  type GoalKind,
} from "../../../shared/contracts/goals";
import { isIsoDate } from "../../../shared/search";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { courseListQuery } from "../courses/api";
import {
  ADMIN_INPUT_CLASS,
  AdminField,
  type FormProblems,
  ProblemsAlert,
  problemsOf,
} from "../rewards/admin-form";
import { createGoal, updateGoal } from "./api";

/** Adding a goal for a student or a class, and changing one's target or deadline. */

const SELECT_CLASS = `${ADMIN_INPUT_CLASS} h-[2.875rem]`;

/** Whom a new goal is for. */
export type GoalOwner =
  | { studentId: string; classId?: undefined }
  | { classId: string; studentId?: undefined };

interface Draft {
  kind: GoalKind;
  subject: string;
  courseId: string;
  target: string;
  baseline: string;
  deadline: string;
}

/** The server's field paths are the form's fields. */
const FIELDS = new Set(["kind", "subject", "courseId", "target", "baseline", "deadline"]);

function boundsText(kind: GoalKind) {
  const { min, max } = GOAL_TARGET_BOUNDS[kind];
  return { min: formatNumber(min, 0), max: formatNumber(max, 0) };
}

function isWholeIn(text: string, kind: GoalKind): boolean {
  const value = Number(text);
  const { min, max } = GOAL_TARGET_BOUNDS[kind];
  return text.trim() !== "" && Number.isInteger(value) && value >= min && value <= max;
}

export function AddGoalDialog({
  owner,
  ownerName,
  kinds,
  subjects,
  today,
  onDone,
  onClose,
}: {
  owner: GoalOwner;
  /** The student's or class's name, said in the dialog. */
  ownerName: string;
  kinds: readonly GoalKind[];
  /** The subjects to choose from. */
  subjects: string[];
  /** The owner's today: a deadline is this day or later. */
  today: string;
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("goals");
  const [draft, setDraft] = useState<Draft>({
    kind: kinds.includes("units") ? "units" : (kinds[0] ?? "units"),
    subject: "",
    courseId: "",
    target: "",
    baseline: "",
    deadline: "",
  });
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);

  const set = (field: keyof Draft) => (event: { target: { value: string } }) => {
    setDraft({ ...draft, [field]: event.target.value });
    setProblems(({ fields }) => ({ fields: { ...fields, [field]: "" } }));
  };

  function check(): Record<string, string> {
    const found: Record<string, string> = {};
    if (!isWholeIn(draft.target, draft.kind))
      found.target = t("form.problems.target", boundsText(draft.kind));
    if (draft.kind === "rit" && !draft.subject) found.subject = t("form.problems.subject");
    if (draft.kind === "rit" && draft.baseline.trim() !== "" && !isWholeIn(draft.baseline, "rit"))
      found.baseline = t("form.problems.target", boundsText("rit"));
    if (draft.kind === "course" && !draft.courseId) found.courseId = t("form.problems.course");
    if (draft.kind !== "weekly_xp" && (!isIsoDate(draft.deadline) || draft.deadline < today))
      found.deadline = t("form.problems.deadline");
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isSaving) return;
    const found = check();
    setProblems({ fields: found });
    if (Object.keys(found).length > 0) return;
    const input: GoalInput = {
      ...owner,
      kind: draft.kind,
      target: Number(draft.target),
      ...(draft.subject && draft.kind !== "course" && { subject: draft.subject }),
      ...(draft.kind === "course" && { courseId: draft.courseId }),
      ...(draft.kind === "rit" && draft.baseline.trim() !== "" && { baseline: Number(draft.baseline) }),
      ...(draft.kind !== "weekly_xp" && { deadline: draft.deadline }),
    };
    setIsSaving(true);
    try {
      await createGoal(input);
      onDone();
    } catch (error) {
      setProblems(problemsOf(error, t("form.failed"), (path) => (FIELDS.has(path) ? path : null)));
      setIsSaving(false);
    }
  }

  const field = problems.fields;
  const subjectOptional = draft.kind !== "rit";
  return (
    <Dialog title={t("form.addTitle")} description={t("form.addFor", { name: ownerName })} onClose={onClose}>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <AdminField label={t("form.kind")} error={field.kind}>
          {(control) => (
            <select
              {...control}
              value={draft.kind}
              onChange={(event) => {
                setDraft({ ...draft, kind: event.target.value as GoalKind });
                setProblems({ fields: {} });
              }}
              className={SELECT_CLASS}
            >
              {kinds.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`kinds.${kind}`)}
                </option>
              ))}
            </select>
          )}
        </AdminField>
        {draft.kind === "course" ? (
          <CourseField value={draft.courseId} error={field.courseId} onChange={set("courseId")} />
        ) : (
          <AdminField label={t("form.subject")} error={field.subject}>
            {(control) => (
              <select
                {...control}
                value={draft.subject}
                onChange={set("subject")}
                required={!subjectOptional}
                className={SELECT_CLASS}
              >
                <option value="">{subjectOptional ? t("form.anySubject") : t("form.chooseSubject")}</option>
                {subjects.map((subject) => (
                  <option key={subject} value={subject}>
                    {subject}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <AdminField
            label={t(`form.target.${draft.kind}`)}
            // A problem with the target takes the place of its hint, which says the same bounds.
            hint={field.target ? undefined : t(`form.targetHint.${draft.kind}`, boundsText(draft.kind))}
            error={field.target}
            className={draft.kind === "weekly_xp" || draft.kind === "course" ? "sm:col-span-2" : ""}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={GOAL_TARGET_BOUNDS[draft.kind].min}
                max={GOAL_TARGET_BOUNDS[draft.kind].max}
                step={1}
                required
                value={draft.target}
                onChange={set("target")}
                className={`${ADMIN_INPUT_CLASS} tabular-nums`}
              />
            )}
          </AdminField>
          {draft.kind === "rit" && (
            <AdminField label={t("form.baseline")} hint={t("form.baselineHint")} error={field.baseline}>
              {(control) => (
                <input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={GOAL_TARGET_BOUNDS.rit.min}
                  max={GOAL_TARGET_BOUNDS.rit.max}
                  step={1}
                  value={draft.baseline}
                  onChange={set("baseline")}
                  className={`${ADMIN_INPUT_CLASS} tabular-nums`}
                />
              )}
            </AdminField>
          )}
          {draft.kind !== "weekly_xp" && (
            <AdminField label={t("form.deadline")} hint={t("form.deadlineHint")} error={field.deadline}>
              {(control) => (
                <input
                  {...control}
                  type="date"
                  min={today}
                  required
                  value={draft.deadline}
                  onChange={set("deadline")}
                  className={ADMIN_INPUT_CLASS}
                />
              )}
            </AdminField>
          )}
        </div>
        <ProblemsAlert problems={problems} />
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("form.cancel")}
          </button>
          <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
            {isSaving ? t("form.saving") : t("form.add")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The courses the caller may see (a Guide's classes' courses, every course for an
 * administrator), searched on the server when there are more than one page of them.
 */
function CourseField({
  value,
  error,
  onChange,
}: {
  value: string;
  error?: string;
  onChange: (event: { target: { value: string } }) => void;
}) {
  const { t } = useTranslation("goals");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const courses = useQuery({
    ...courseListQuery({ limit: "100", sort: "title", orderBy: "asc", search: deferred }),
    placeholderData: keepPreviousData,
  });
  const list = courses.data?.data ?? [];
  const canSearch = deferred !== "" || (courses.data ? courses.data.total > list.length : false);
  return (
    <div className="space-y-3">
      {canSearch && (
        <AdminField label={t("form.courseSearch")}>
          {(control) => (
            <input
              {...control}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>
      )}
      <AdminField
        label={t("form.course")}
        error={error}
        hint={
          courses.isError
            ? t("form.coursesFailed")
            : courses.isPending
              ? t("form.coursesLoading")
              : list.length === 0
                ? t("form.noCourses")
                : undefined
        }
      >
        {(control) => (
          <select {...control} value={value} onChange={onChange} required className={SELECT_CLASS}>
            <option value="">{t("form.chooseCourse")}</option>
            {list.map((course) => (
              <option key={course.sourcedId} value={course.sourcedId}>
                {course.title}
                {course.orgName ? ` · ${course.orgName}` : ""}
              </option>
            ))}
          </select>
        )}
      </AdminField>
    </div>
  );
}

/** Changes a goal's target and, for a goal with a date, its deadline. */
export function EditGoalDialog({
  goal,
  title,
  today,
  onDone,
  onClose,
}: {
  goal: Goal;
  /** The goal's title, as its card says it. */
  title: string;
  today: string;
  onDone: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("goals");
  const [target, setTarget] = useState(String(goal.target));
  const [deadline, setDeadline] = useState(goal.deadline);
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);
  const hasDeadline = goal.kind !== "weekly_xp";

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isSaving || !goal.id) return;
    const found: Record<string, string> = {};
    if (!isWholeIn(target, goal.kind)) found.target = t("form.problems.target", boundsText(goal.kind));
    if (hasDeadline && deadline !== goal.deadline && (!isIsoDate(deadline) || deadline < today))
      found.deadline = t("form.problems.deadline");
    setProblems({ fields: found });
    if (Object.keys(found).length > 0) return;
    const changes: GoalChanges = {
      ...(Number(target) !== goal.target && { target: Number(target) }),
      ...(hasDeadline && deadline !== goal.deadline && { deadline }),
    };
    if (Object.keys(changes).length === 0) return onClose();
    setIsSaving(true);
    try {
      await updateGoal(goal.id, changes);
      onDone();
    } catch (error) {
      setProblems(problemsOf(error, t("form.failed"), (path) => (FIELDS.has(path) ? path : null)));
      setIsSaving(false);
    }
  }

  return (
    <Dialog title={t("form.editTitle")} description={title} onClose={onClose}>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <AdminField
          label={t(`form.target.${goal.kind}`)}
          hint={problems.fields.target ? undefined : t("form.targetRange", boundsText(goal.kind))}
          error={problems.fields.target}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={GOAL_TARGET_BOUNDS[goal.kind].min}
              max={GOAL_TARGET_BOUNDS[goal.kind].max}
              step={1}
              required
              value={target}
              onChange={(event) => setTarget(event.target.value)}
              className={`${ADMIN_INPUT_CLASS} tabular-nums`}
            />
          )}
        </AdminField>
        {hasDeadline && (
          <AdminField label={t("form.deadline")} error={problems.fields.deadline}>
            {(control) => (
              <input
                {...control}
                type="date"
                min={today}
                required
                value={deadline}
                onChange={(event) => setDeadline(event.target.value)}
                className={ADMIN_INPUT_CLASS}
              />
            )}
          </AdminField>
        )}
        <ProblemsAlert problems={problems} />
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("form.cancel")}
          </button>
          <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
            {isSaving ? t("form.saving") : t("form.save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
