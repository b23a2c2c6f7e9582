import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { X } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Assignee, AssignmentTargetKind } from "../../../shared/contracts/content";
import { localDateOf } from "../../../shared/time-zone";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { myClassesQuery } from "../flow/api";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";
import { assignmentKeys, createAssignments, updateAssignment } from "./assignments-api";
import { CourseChooser } from "./course-chooser";
import { syllabusQuery } from "./syllabus-api";

/** A class list longer than this gets a box to narrow it. */
const CLASSES_BEFORE_FILTER = 8;

const TEXTAREA_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

/** The caller's today, as the date picker's earliest day (the server checks each student's own). */
export function browserToday(): string {
  return localDateOf(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);
}

function FormProblem({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      {text}
    </p>
  );
}

function Buttons({ onClose, isBusy, label }: { onClose: () => void; isBusy: boolean; label: string }) {
  const { t } = useTranslation("content");
  return (
    <div className="flex flex-wrap justify-end gap-3 pt-2">
      <button type="button" onClick={onClose} className={buttonClass("secondary")}>
        {t("lessons.assignments.form.cancel")}
      </button>
      <button type="submit" disabled={isBusy} className={buttonClass("primary")}>
        {isBusy ? t("lessons.assignments.form.saving") : label}
      </button>
    </div>
  );
}

/** The due date (optional) and the note for the students, shared by assigning and changing. */
function DueAndNote({
  dueDate,
  onDueDate,
  note,
  onNote,
}: {
  dueDate: string;
  onDueDate: (value: string) => void;
  note: string;
  onNote: (value: string) => void;
}) {
  const { t } = useTranslation("content");
  const noteId = useId();
  return (
    <>
      <TextField
        label={t("lessons.assignments.form.dueDate")}
        type="date"
        min={browserToday()}
        value={dueDate}
        onChange={(event) => onDueDate(event.target.value)}
      />
      <div>
        <label htmlFor={noteId} className="text-sm font-medium">
          {t("lessons.assignments.form.note")}
        </label>
        <textarea
          id={noteId}
          value={note}
          maxLength={1000}
          rows={2}
          onChange={(event) => onNote(event.target.value)}
          aria-describedby={`${noteId}-hint`}
          className={TEXTAREA_CLASS}
        />
        <p id={`${noteId}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {t("lessons.assignments.form.noteHint")}
        </p>
      </div>
    </>
  );
}

function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** A lesson of the chosen course, as "Unit — Lesson", in the syllabus's order. */
function LessonSelect({
  courseId,
  value,
  onChange,
}: {
  courseId: string;
  value: string;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation("content");
  const syllabus = useQuery(syllabusQuery(courseId));
  const options = (syllabus.data?.units ?? []).flatMap((unit) =>
    unit.lessons.map((lesson) => ({ value: lesson.sourcedId, label: `${unit.title} — ${lesson.title}` })),
  );
  if (syllabus.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {failureMessage(syllabus.error, t("lessons.assignments.form.syllabusFailed"))}
      </p>
    );
  if (syllabus.isPending)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("lessons.assignments.form.loadingLessons")}
      </p>
    );
  if (options.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("lessons.assignments.form.noLessons")}</p>
    );
  return (
    <SelectField
      label={t("lessons.assignments.form.lesson")}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      options={[{ value: "", label: t("lessons.assignments.form.chooseLesson") }, ...options]}
    />
  );
}

/** The Guide's classes (an administrator's: every class) as boxes to tick, narrowed by typing when there are many. */
function ClassBoxes({ chosen, onToggle }: { chosen: Set<string>; onToggle: (classId: string) => void }) {
  const { t } = useTranslation("content");
  const classes = useQuery(myClassesQuery);
  const [text, setText] = useState("");
  const all = classes.data?.data ?? [];
  const needle = text.trim().toLowerCase();
  const shown = needle
    ? all.filter((entry) => `${entry.title} ${entry.schoolName ?? ""}`.toLowerCase().includes(needle))
    : all;
  if (classes.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {t("lessons.assignments.form.classesFailed")}
      </p>
    );
  if (classes.isPending)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {t("lessons.assignments.form.loadingClasses")}
      </p>
    );
  if (all.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("lessons.assignments.form.noClasses")}</p>
    );
  return (
    <div className="space-y-2">
      {all.length > CLASSES_BEFORE_FILTER && (
        <TextField
          label={t("lessons.assignments.form.findClass")}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      )}
      <ul className="max-h-48 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-2 dark:border-slate-700">
        {shown.map((entry) => (
          <li key={entry.sourcedId}>
            <label className="flex cursor-pointer items-center gap-2 rounded-md px-1 py-1 hover:bg-slate-50 dark:hover:bg-slate-800">
              <input
                type="checkbox"
                checked={chosen.has(entry.sourcedId)}
                onChange={() => onToggle(entry.sourcedId)}
                className="size-4 accent-brand-600"
              />
              <span>
                {entry.title}
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  {" "}
                  · {t("lessons.assignments.form.classStudents", { count: entry.students })}
                  {entry.schoolName ? ` · ${entry.schoolName}` : ""}
                </span>
              </span>
            </label>
          </li>
        ))}
        {shown.length === 0 && (
          <li className="px-1 py-1 text-sm text-slate-600 dark:text-slate-300">
            {t("lessons.assignments.form.noClassMatch")}
          </li>
        )}
      </ul>
    </div>
  );
}

/**
 * Assigns a course, or one of its lessons, to classes and students, with an optional due date
 * and note. Someone who has it already keeps it, with the new date and note.
 */
export function AssignDialog({
  onClose,
  onDone,
}: {
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [courseId, setCourseId] = useState<string | undefined>();
  const [targetKind, setTargetKind] = useState<AssignmentTargetKind>("lesson");
  const [lessonId, setLessonId] = useState("");
  const [classIds, setClassIds] = useState<Set<string>>(new Set());
  const [students, setStudents] = useState<PickedStudent[]>([]);
  const [dueDate, setDueDate] = useState("");
  const [note, setNote] = useState("");
  // What the form itself finds missing; the server's refusals come from `assign`.
  const [problem, setProblem] = useState<string | null>(null);
  const kindName = useId();
  const assign = useMutation({
    mutationFn: createAssignments,
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.all });
      onDone(t("lessons.assignments.form.assigned", { count: created.assignments.length }));
      onClose();
    },
  });

  const toggleClass = (classId: string) => {
    setProblem(null);
    setClassIds((current) => {
      const next = new Set(current);
      if (next.has(classId)) next.delete(classId);
      else next.add(classId);
      return next;
    });
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    assign.reset();
    if (!courseId) return setProblem(t("lessons.assignments.form.needCourse"));
    if (targetKind === "lesson" && !lessonId) return setProblem(t("lessons.assignments.form.needLesson"));
    const assignees: Assignee[] = [
      ...[...classIds].map((id) => ({ kind: "class" as const, id })),
      ...students.map((student) => ({ kind: "student" as const, id: student.sourcedId })),
    ];
    if (assignees.length === 0) return setProblem(t("lessons.assignments.form.needAssignee"));
    setProblem(null);
    assign.mutate({
      targetKind,
      targetId: targetKind === "course" ? courseId : lessonId,
      assignees,
      dueDate: dueDate || null,
      note: note.trim() || null,
    });
  }

  return (
    <Dialog
      title={t("lessons.assignments.form.title")}
      description={t("lessons.assignments.form.description")}
      onClose={onClose}
    >
      <form onSubmit={submit} className="mt-4 space-y-5">
        <Fieldset legend={t("lessons.assignments.form.what")}>
          <CourseChooser
            value={courseId}
            onChange={(next) => {
              setCourseId(next);
              setLessonId("");
            }}
            className="sm:grid-cols-1"
          />
          <div className="flex flex-wrap gap-x-5 gap-y-1">
            {(["lesson", "course"] as const).map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={kindName}
                  value={kind}
                  checked={targetKind === kind}
                  onChange={() => setTargetKind(kind)}
                  className="size-4 accent-brand-600"
                />
                {t(`lessons.assignments.form.kind.${kind}`)}
              </label>
            ))}
          </div>
          {targetKind === "lesson" && courseId && (
            <LessonSelect courseId={courseId} value={lessonId} onChange={setLessonId} />
          )}
        </Fieldset>

        <Fieldset legend={t("lessons.assignments.form.toWhom")}>
          <ClassBoxes chosen={classIds} onToggle={toggleClass} />
          <StudentPicker
            wide
            selected={null}
            onSelect={(student) => {
              if (!student || students.some((entry) => entry.sourcedId === student.sourcedId)) return;
              setProblem(null);
              setStudents((current) => [...current, student]);
            }}
          />
          {students.length > 0 && (
            <ul aria-label={t("lessons.assignments.form.chosenStudents")} className="flex flex-wrap gap-2">
              {students.map((student) => (
                <li
                  key={student.sourcedId}
                  className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm font-medium text-brand-900 dark:bg-slate-800 dark:text-brand-100"
                >
                  {student.name}
                  <button
                    type="button"
                    onClick={() =>
                      setStudents((current) =>
                        current.filter((entry) => entry.sourcedId !== student.sourcedId),
                      )
                    }
                    aria-label={t("lessons.assignments.form.removeStudent", { name: student.name })}
                    className="rounded-full p-1 hover:bg-brand-100 dark:hover:bg-slate-700"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Fieldset>

        <DueAndNote dueDate={dueDate} onDueDate={setDueDate} note={note} onNote={setNote} />
        <FormProblem
          text={
            problem ?? (assign.error && failureMessage(assign.error, t("lessons.assignments.form.failed")))
          }
        />
        <Buttons onClose={onClose} isBusy={assign.isPending} label={t("lessons.assignments.form.assign")} />
      </form>
    </Dialog>
  );
}

/** Changes an assignment's due date (empty: none) and note. */
export function ChangeAssignmentDialog({
  assignment,
  onClose,
  onDone,
}: {
  assignment: {
    id: string;
    targetTitle: string;
    assigneeName: string;
    dueDate: string | null;
    note: string | null;
  };
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [dueDate, setDueDate] = useState(assignment.dueDate ?? "");
  const [note, setNote] = useState(assignment.note ?? "");
  const save = useMutation({
    mutationFn: () =>
      updateAssignment(assignment.id, { dueDate: dueDate || null, note: note.trim() || null }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.all });
      onDone(t("lessons.assignments.form.changed", { title: assignment.targetTitle }));
      onClose();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate();
  }

  return (
    <Dialog
      title={t("lessons.assignments.form.changeTitle")}
      description={t("lessons.assignments.form.changeDescription", {
        title: assignment.targetTitle,
        name: assignment.assigneeName,
      })}
      onClose={onClose}
    >
      <form onSubmit={submit} className="mt-4 space-y-4">
        <DueAndNote dueDate={dueDate} onDueDate={setDueDate} note={note} onNote={setNote} />
        <FormProblem text={save.error && failureMessage(save.error, t("lessons.assignments.form.failed"))} />
        <Buttons onClose={onClose} isBusy={save.isPending} label={t("lessons.assignments.form.save")} />
      </form>
    </Dialog>
  );
}
