import { useQueryClient } from "@tanstack/react-query";
import { ArrowRight, BookOpen, Check, CircleDashed, Clock, Flag, SkipForward, X } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  DASH_SUBJECTS,
  GRADE_LEVELS,
  PLACEMENT_TEST_STATUSES,
  PLACEMENT_TEST_TAKEN,
  type PlacementTestRecord,
  type PlacementTestStatus,
  type SubjectPlacement,
} from "../../../shared/contracts/assessment";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { dateLabel, formatNumber, gradeLabel, instantDateLabel } from "../../lib/format";
import { subjectColor } from "../../lib/subjects";
import { placementKeys, recordPlacementTest, setPlacementLevel } from "./placements-api";

/** Pieces the placement pages share: grade names, test badges, a subject's card and the staff's dialogs. */

export const GRADES = Array.from({ length: GRADE_LEVELS.max - GRADE_LEVELS.min + 1 }, (_, index) => index);

/** "Grade K", "Grade 3": a placement level as the roster's grades are shown. */
export function gradeName(grade: number): string {
  return gradeLabel([grade === 0 ? "KG" : String(grade)]);
}

export const gradeOptions = () => GRADES.map((grade) => ({ value: String(grade), label: gradeName(grade) }));

/** Dash's subjects first, then any other the data names. */
export function subjectList(known: readonly string[] = []): string[] {
  return [...new Set([...DASH_SUBJECTS, ...known])];
}

const STATUS_LOOK: Record<PlacementTestStatus, { icon: typeof Check; tone: string }> = {
  PASSED: {
    icon: Check,
    tone: "bg-emerald-100 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-400/40",
  },
  FAILED: {
    icon: X,
    tone: "bg-red-100 text-red-900 ring-red-600/30 dark:bg-red-950 dark:text-red-100 dark:ring-red-400/40",
  },
  STARTED: {
    icon: Clock,
    tone: "bg-amber-100 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-400/40",
  },
  NOT_STARTED: {
    icon: CircleDashed,
    tone: "bg-slate-100 text-slate-800 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-400/40",
  },
  SKIP: {
    icon: SkipForward,
    tone: "bg-sky-100 text-sky-900 ring-sky-600/30 dark:bg-sky-950 dark:text-sky-100 dark:ring-sky-400/40",
  },
};

/** A test's status: a coloured pill with an icon and its word, so colour is never the only sign. */
export function TestStatusBadge({ status }: { status: PlacementTestStatus }) {
  const { t } = useTranslation("assessment");
  const { icon: Icon, tone } = STATUS_LOOK[status];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${tone}`}
    >
      <Icon aria-hidden="true" className="size-3.5" strokeWidth={2.5} />
      {t(`placements.status.${status}`)}
    </span>
  );
}

/**
 * The next test in a line: its name, grade and status ("compact": its grade and status only), or
 * that none is left (or that none was ever recorded).
 */
export function NextTestLine({
  test,
  hasTests = true,
  compact = false,
}: {
  test: Pick<PlacementTestRecord, "testName" | "gradeLevel" | "status"> | null;
  hasTests?: boolean;
  compact?: boolean;
}) {
  const { t } = useTranslation("assessment");
  if (!test)
    return (
      <span className="text-slate-600 dark:text-slate-300">
        {!hasTests
          ? t("placements.nextTest.noTests")
          : compact
            ? t("placements.nextTest.noneShort")
            : t("placements.nextTest.none")}
      </span>
    );
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {compact ? (
        <span title={test.testName}>
          {t("placements.nextTest.short", { grade: gradeName(test.gradeLevel) })}
        </span>
      ) : (
        <>
          <span className="font-medium">{test.testName}</span>
          <span className="text-slate-600 dark:text-slate-300">({gradeName(test.gradeLevel)})</span>
        </>
      )}
      <TestStatusBadge status={test.status} />
    </span>
  );
}

/** One subject of a student: starting → current grade, the current course, the tests and the next one. */
export function SubjectPlacementCard({
  placement,
  actions,
}: {
  placement: SubjectPlacement;
  actions?: React.ReactNode;
}) {
  const { t } = useTranslation("assessment");
  const headingId = useId();
  const moved =
    placement.startingGrade !== null &&
    placement.currentGrade !== null &&
    placement.startingGrade !== placement.currentGrade;
  const lastChange = placement.history[0];
  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="h-1.5 rounded-t-2xl" style={{ backgroundColor: subjectColor(placement.subject) }} />
      <div className="flex flex-1 flex-col gap-4 p-5">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="text-lg font-bold">
            {placement.subject}
          </h2>
          {actions}
        </div>
        {placement.currentGrade === null ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("placements.card.notPlaced")}</p>
        ) : (
          <div>
            <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
              <span>
                {t("placements.card.started", {
                  grade: gradeName(placement.startingGrade ?? placement.currentGrade),
                })}
              </span>
              {moved && <ArrowRight aria-hidden="true" className="size-4" />}
            </p>
            <p className="mt-0.5 text-2xl font-extrabold tracking-tight">
              <span className="sr-only">{t("placements.card.nowLabel")} </span>
              {gradeName(placement.currentGrade)}
            </p>
            {lastChange?.fromGrade !== null && lastChange && (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                {t("placements.card.lastChange", {
                  date: instantDateLabel(lastChange.changedAt),
                  reason: lastChange.reason,
                })}
              </p>
            )}
          </div>
        )}
        <p className="flex items-start gap-2 text-sm">
          <BookOpen
            aria-hidden="true"
            className="mt-0.5 size-4 shrink-0 text-slate-500 dark:text-slate-400"
          />
          <span>
            <span className="font-semibold">{t("placements.card.course")} </span>
            {placement.currentCourse ? placement.currentCourse.title : t("placements.card.noCourse")}
          </span>
        </p>
        <div className="rounded-xl bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
          <p className="flex items-center gap-1.5 font-semibold">
            <Flag aria-hidden="true" className="size-4" />
            {t("placements.nextTest.label")}
          </p>
          <p className="mt-1">
            <NextTestLine test={placement.nextTest} hasTests={placement.tests.length > 0} />
          </p>
        </div>
        {placement.tests.length > 0 && (
          <div>
            <h3 className="text-sm font-semibold">{t("placements.card.tests")}</h3>
            <ul className="mt-2 divide-y divide-slate-100 text-sm dark:divide-slate-800">
              {placement.tests.map((test) => (
                <li
                  key={`${test.gradeLevel}-${test.testName}`}
                  className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2"
                >
                  <span className="min-w-0">
                    <span className="font-medium">{test.testName}</span>
                    <span className="block text-xs text-slate-600 dark:text-slate-300">
                      {[
                        gradeName(test.gradeLevel),
                        test.score === null
                          ? null
                          : t("placements.card.score", { score: formatNumber(test.score, 1) }),
                        test.takenOn ? dateLabel(test.takenOn) : null,
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                    </span>
                  </span>
                  <TestStatusBadge status={test.status} />
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}

/** The subject and grade of a form, chosen from lists. */
function SubjectAndGrade({
  subjects,
  subject,
  onSubject,
  grade,
  onGrade,
  gradeLabelText,
}: {
  subjects: readonly string[];
  subject: string;
  onSubject: (subject: string) => void;
  grade: string;
  onGrade: (grade: string) => void;
  gradeLabelText: string;
}) {
  const { t } = useTranslation("assessment");
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        label={t("placements.form.subject")}
        value={subject}
        onChange={(event) => onSubject(event.target.value)}
        options={subjects.map((name) => ({ value: name, label: name }))}
      />
      <SelectField
        label={gradeLabelText}
        value={grade}
        onChange={(event) => onGrade(event.target.value)}
        options={[{ value: "", label: t("placements.form.chooseGrade") }, ...gradeOptions()]}
        aria-required="true"
      />
    </div>
  );
}

/** A problem of a form, read with the form's buttons. */
export function FormProblem({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
      {text}
    </p>
  ) : null;
}

export interface StudentToPlace {
  id: string;
  name: string;
  /** Each placed subject's current grade. */
  grades: Record<string, number>;
}

/** Sets or changes a student's level in a subject, with the reason the history keeps. */
export function ChangeLevelDialog({
  student,
  subjects,
  initialSubject,
  onClose,
  onDone,
}: {
  student: StudentToPlace;
  subjects: readonly string[];
  initialSubject?: string;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState(initialSubject ?? subjects[0] ?? "Math");
  const current = student.grades[subject];
  const [grade, setGrade] = useState(current === undefined ? "" : String(current));
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (grade === "") return setProblem(t("placements.form.gradeNeeded"));
    if (!reason.trim()) return setProblem(t("placements.form.reasonNeeded"));
    if (current !== undefined && Number(grade) === current)
      return setProblem(t("placements.form.sameLevel", { grade: gradeName(current) }));
    setIsBusy(true);
    setProblem(null);
    try {
      await setPlacementLevel(student.id, { subject, grade: Number(grade), reason: reason.trim() });
      await queryClient.invalidateQueries({ queryKey: placementKeys.all });
      onDone(
        t("placements.form.levelSaved", { name: student.name, subject, grade: gradeName(Number(grade)) }),
      );
      onClose();
    } catch (error) {
      setProblem(failureMessage(error, t("placements.form.failed")));
      setIsBusy(false);
    }
  }

  return (
    <Dialog
      title={t("placements.form.changeTitle", { name: student.name })}
      description={
        current === undefined
          ? t("placements.form.firstPlacement", { subject })
          : t("placements.form.currently", { subject, grade: gradeName(current) })
      }
      onClose={onClose}
    >
      <form onSubmit={submit} className="mt-4 space-y-4">
        <SubjectAndGrade
          subjects={subjects}
          subject={subject}
          onSubject={(next) => {
            setSubject(next);
            const nextCurrent = student.grades[next];
            setGrade(nextCurrent === undefined ? "" : String(nextCurrent));
          }}
          grade={grade}
          onGrade={setGrade}
          gradeLabelText={t("placements.form.newLevel")}
        />
        <ReasonField value={reason} onChange={setReason} />
        <FormProblem text={problem} />
        <DialogButtons onClose={onClose} isBusy={isBusy} label={t("placements.form.saveLevel")} />
      </form>
    </Dialog>
  );
}

export function ReasonField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation("assessment");
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {t("placements.form.reason")}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-required="true"
        maxLength={500}
        rows={3}
        aria-describedby={`${id}-hint`}
        className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {t("placements.form.reasonHint")}
      </p>
    </div>
  );
}

export function DialogButtons({
  onClose,
  isBusy,
  label,
}: {
  onClose: () => void;
  isBusy: boolean;
  label: string;
}) {
  const { t } = useTranslation("assessment");
  return (
    <div className="flex flex-wrap justify-end gap-3 pt-2">
      <button type="button" onClick={onClose} className={buttonClass("secondary")}>
        {t("placements.form.cancel")}
      </button>
      <button type="submit" disabled={isBusy} className={buttonClass("primary")}>
        {isBusy ? t("placements.form.saving") : label}
      </button>
    </div>
  );
}

/** Records a placement test's result; one per subject, grade and test name, so a new one replaces it. */
export function RecordTestDialog({
  student,
  subjects,
  initialSubject,
  onClose,
  onDone,
}: {
  student: StudentToPlace;
  subjects: readonly string[];
  initialSubject?: string;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const today = localDateOf(new Date(), SCHOOL_TIME_ZONE);
  const [subject, setSubject] = useState(initialSubject ?? subjects[0] ?? "Math");
  const initialGrade = student.grades[subject];
  const [grade, setGrade] = useState(initialGrade === undefined ? "" : String(initialGrade));
  const [testName, setTestName] = useState("");
  const [status, setStatus] = useState<PlacementTestStatus>("PASSED");
  const [score, setScore] = useState("");
  const [takenOn, setTakenOn] = useState(today);
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const needsDate = PLACEMENT_TEST_TAKEN.includes(status);
  const defaultName =
    grade === "" ? "" : t("placements.form.defaultTestName", { subject, grade: gradeName(Number(grade)) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (grade === "") return setProblem(t("placements.form.gradeNeeded"));
    if (needsDate && !takenOn) return setProblem(t("placements.form.dateNeeded"));
    const scoreValue = score.trim() === "" ? null : Number(score);
    if (scoreValue !== null && (!Number.isFinite(scoreValue) || scoreValue < 0 || scoreValue > 100))
      return setProblem(t("placements.form.scoreRange"));
    setIsBusy(true);
    setProblem(null);
    try {
      await recordPlacementTest(student.id, {
        subject,
        gradeLevel: Number(grade),
        testName: testName.trim() || defaultName,
        status,
        score: scoreValue,
        takenOn: takenOn || null,
      });
      await queryClient.invalidateQueries({ queryKey: placementKeys.all });
      onDone(t("placements.form.testSaved", { name: student.name, subject }));
      onClose();
    } catch (error) {
      setProblem(failureMessage(error, t("placements.form.failed")));
      setIsBusy(false);
    }
  }

  return (
    <Dialog title={t("placements.form.testTitle", { name: student.name })} onClose={onClose}>
      <form onSubmit={submit} className="mt-4 space-y-4">
        <SubjectAndGrade
          subjects={subjects}
          subject={subject}
          onSubject={setSubject}
          grade={grade}
          onGrade={setGrade}
          gradeLabelText={t("placements.form.testGrade")}
        />
        <TextField
          label={t("placements.form.testName")}
          value={testName}
          placeholder={defaultName}
          maxLength={120}
          onChange={(event) => setTestName(event.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            label={t("placements.form.status")}
            value={status}
            onChange={(event) => setStatus(event.target.value as PlacementTestStatus)}
            options={PLACEMENT_TEST_STATUSES.map((value) => ({
              value,
              label: t(`placements.status.${value}`),
            }))}
          />
          <TextField
            label={t("placements.form.score")}
            type="number"
            inputMode="decimal"
            min={0}
            max={100}
            step="0.1"
            value={score}
            onChange={(event) => setScore(event.target.value)}
          />
          <TextField
            label={needsDate ? t("placements.form.takenOn") : t("placements.form.takenOnOptional")}
            type="date"
            max={today}
            required={needsDate}
            value={takenOn}
            onChange={(event) => setTakenOn(event.target.value)}
          />
        </div>
        <FormProblem text={problem} />
        <DialogButtons onClose={onClose} isBusy={isBusy} label={t("placements.form.saveTest")} />
      </form>
    </Dialog>
  );
}

/** A from–to pair of dates for a list's filter; each bounds the other. */
export function DateRangeFields({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (range: { from?: string; to?: string }) => void;
}) {
  const { t } = useTranslation("assessment");
  return (
    <>
      <TextField
        label={t("placements.report.from")}
        type="date"
        value={from ?? ""}
        max={to}
        onChange={(event) => onChange({ from: event.target.value || undefined })}
      />
      <TextField
        label={t("placements.report.to")}
        type="date"
        value={to ?? ""}
        min={from}
        onChange={(event) => onChange({ to: event.target.value || undefined })}
      />
    </>
  );
}
