import { Check, Circle, Trophy } from "lucide-react";
import { type ChangeEvent, type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { EARLIEST_OBSERVATION, type StudentChartProgress } from "../../../shared/contracts/assessment";
import { isIsoDate } from "../../../shared/search";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { dateLabel, formatPercent, gradeLabel } from "../../lib/format";
import { ProgressBar } from "../goals/parts";
import { Section } from "../home/parts";
import { ADMIN_INPUT_CLASS } from "../rewards/admin-form";
import { StatusNote, TEXT_BUTTON_CLASS, useLevelTitle } from "./check-chart-parts";

/**
 * One student's progress through a chart: where they are, level by level, and each check with the
 * day it was observed. Given `steps`, a Guide or administrator ticks and unticks checks; the
 * previews pass steps that change sample data in the browser.
 */

export interface ObservationSteps {
  tick: (checkId: string, observedOn: string) => Promise<unknown>;
  untick: (checkId: string) => Promise<unknown>;
}

type Level = StudentChartProgress["levels"][number];
type ChartCheck = Level["checks"][number];
type LevelState = "complete" | "working" | "later";

/** Whether a day can be an observation's: a real date, not after today nor before the earliest. */
function dayProblem(day: string, today: string): "required" | "future" | "early" | null {
  if (!isIsoDate(day)) return "required";
  if (day > today) return "future";
  if (day < EARLIEST_OBSERVATION) return "early";
  return null;
}

export function ChartProgressView({
  progress,
  reader,
  steps,
}: {
  progress: StudentChartProgress;
  /** The student reading their own, or someone reading a student's. */
  reader: "self" | "other";
  steps?: ObservationSteps;
}) {
  const { t } = useTranslation("assessment");
  const levelTitle = useLevelTitle();
  const canObserve = progress.canObserve && Boolean(steps);
  const [day, setDay] = useState(progress.today);
  const [note, setNote] = useState("");
  const [failure, setFailure] = useState("");
  const [busyCheckId, setBusyCheckId] = useState<string | null>(null);
  const [changingDateOf, setChangingDateOf] = useState<ChartCheck | null>(null);
  const dayFieldId = useId();

  const workingIndex = progress.levels.findIndex((level) => level.id === progress.workingLevelId);
  const stateOf = (index: number): LevelState =>
    workingIndex < 0 || index < workingIndex ? "complete" : index === workingIndex ? "working" : "later";
  const observedIn = (level: Level) => level.checks.filter((check) => check.observation).length;
  const total = progress.levels.reduce((sum, level) => sum + level.checks.length, 0);
  const observed = progress.levels.reduce((sum, level) => sum + observedIn(level), 0);
  const name = progress.student.name;
  const problem = canObserve ? dayProblem(day, progress.today) : null;

  async function run(check: ChartCheck, step: () => Promise<unknown>, done: string) {
    setBusyCheckId(check.id);
    setFailure("");
    try {
      await step();
      setNote(done);
    } catch (error) {
      setFailure(failureMessage(error, t("checkCharts.progress.failed")));
    } finally {
      setBusyCheckId(null);
    }
  }

  function toggle(check: ChartCheck) {
    if (!steps) return;
    if (check.observation)
      return run(
        check,
        () => steps.untick(check.id),
        t("checkCharts.progress.unticked", { check: check.name }),
      );
    if (problem) {
      setFailure(t(`checkCharts.progress.dayProblems.${problem}`, { today: dateLabel(progress.today) }));
      document.getElementById(dayFieldId)?.focus();
      return;
    }
    return run(
      check,
      () => steps.tick(check.id, day),
      t("checkCharts.progress.ticked", { check: check.name, date: dateLabel(day) }),
    );
  }

  return (
    <div className="space-y-6">
      <Section
        title={
          reader === "self"
            ? t("checkCharts.progress.whereYouAre")
            : t("checkCharts.progress.whereTheyAre", { name })
        }
        description={
          reader === "other" && progress.student.grades.length > 0
            ? gradeLabel(progress.student.grades)
            : undefined
        }
      >
        <div className="flex flex-wrap items-center gap-3">
          {workingIndex < 0 && total > 0 ? (
            <p className="inline-flex items-center gap-2 rounded-full bg-emerald-100 px-3 py-1 font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
              <Trophy aria-hidden="true" className="size-4" />
              {reader === "self"
                ? t("checkCharts.progress.allDoneSelf")
                : t("checkCharts.progress.allDone", { name })}
            </p>
          ) : workingIndex >= 0 ? (
            <p className="text-lg font-semibold">
              {reader === "self"
                ? t("checkCharts.progress.workingOnSelf", {
                    level: levelTitle(workingIndex, progress.levels[workingIndex]?.name ?? ""),
                  })
                : t("checkCharts.progress.workingOn", {
                    name,
                    level: levelTitle(workingIndex, progress.levels[workingIndex]?.name ?? ""),
                  })}
            </p>
          ) : (
            <p className="text-slate-600 dark:text-slate-300">{t("checkCharts.progress.noChecks")}</p>
          )}
        </div>
        <div className="mt-4">
          <p className="mb-1 text-sm tabular-nums">
            {t("checkCharts.progress.checksShown", { observed, total })}
          </p>
          <ProgressBar
            label={t("checkCharts.progress.overallLabel")}
            valueNow={observed}
            valueMax={total}
            valueText={t("checkCharts.progress.checksShown", { observed, total })}
            share={total > 0 ? observed / total : 0}
            tone={total > 0 && observed === total ? "good" : "neutral"}
          />
        </div>
        <ol aria-label={t("checkCharts.progress.levelsLabel")} className="mt-5 grid gap-3 sm:grid-cols-2">
          {progress.levels.map((level, index) => {
            const count = observedIn(level);
            const figures = t("checkCharts.progress.levelFigures", {
              observed: count,
              total: level.checks.length,
            });
            return (
              <li
                key={level.id}
                className={`rounded-xl border p-3 ${
                  stateOf(index) === "working"
                    ? "border-brand-600 bg-brand-50 dark:border-brand-500 dark:bg-slate-800"
                    : "border-slate-200 dark:border-slate-700"
                }`}
              >
                <div className="flex items-start justify-between gap-2">
                  <span className="text-sm font-semibold">{levelTitle(index, level.name)}</span>
                  <LevelBadge state={stateOf(index)} />
                </div>
                <p className="mt-1 text-xs text-slate-600 tabular-nums dark:text-slate-300">{figures}</p>
                <div className="mt-1.5">
                  <ProgressBar
                    label={levelTitle(index, level.name)}
                    valueNow={count}
                    valueMax={level.checks.length}
                    valueText={`${figures}, ${formatPercent(level.checks.length ? count / level.checks.length : 0)}`}
                    share={level.checks.length ? count / level.checks.length : 0}
                    tone={stateOf(index) === "complete" ? "good" : "neutral"}
                    size="sm"
                  />
                </div>
              </li>
            );
          })}
        </ol>
      </Section>

      {canObserve && (
        <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
          <label htmlFor={dayFieldId} className="text-sm font-medium">
            {t("checkCharts.progress.dayObserved")}
          </label>
          <input
            id={dayFieldId}
            type="date"
            value={day}
            max={progress.today}
            min={EARLIEST_OBSERVATION}
            aria-describedby={`${dayFieldId}-hint`}
            aria-invalid={problem ? true : undefined}
            onChange={(event: ChangeEvent<HTMLInputElement>) => setDay(event.target.value)}
            className={`${ADMIN_INPUT_CLASS} sm:max-w-xs`}
          />
          <p id={`${dayFieldId}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {problem
              ? t(`checkCharts.progress.dayProblems.${problem}`, { today: dateLabel(progress.today) })
              : t("checkCharts.progress.dayHint", { name })}
          </p>
        </div>
      )}

      <StatusNote note={note} />
      {failure && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {failure}
        </p>
      )}

      {progress.levels.map((level, index) => (
        <Section
          key={level.id}
          title={levelTitle(index, level.name)}
          description={t("checkCharts.progress.levelFigures", {
            observed: observedIn(level),
            total: level.checks.length,
          })}
          actions={<LevelBadge state={stateOf(index)} />}
        >
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {level.checks.map((check) => (
              <CheckRow
                key={check.id}
                check={check}
                canObserve={canObserve}
                isBusy={busyCheckId === check.id}
                onToggle={() => toggle(check)}
                onChangeDate={() => setChangingDateOf(check)}
              />
            ))}
          </ul>
        </Section>
      ))}

      {changingDateOf && steps && (
        <ChangeDateDialog
          check={changingDateOf}
          today={progress.today}
          onSave={async (observedOn) => {
            await steps.tick(changingDateOf.id, observedOn);
            setNote(
              t("checkCharts.progress.dateChanged", {
                check: changingDateOf.name,
                date: dateLabel(observedOn),
              }),
            );
          }}
          onClose={() => setChangingDateOf(null)}
        />
      )}
    </div>
  );
}

const BADGE_CLASSES: Record<LevelState, string> = {
  complete:
    "bg-emerald-100 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-400/40",
  working:
    "bg-brand-100 text-brand-900 ring-brand-600/30 dark:bg-slate-800 dark:text-brand-100 dark:ring-brand-400/40",
  later:
    "bg-slate-100 text-slate-800 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-400/40",
};

/** A level's state in words: done, the one being worked on, or still ahead. */
function LevelBadge({ state }: { state: LevelState }) {
  const { t } = useTranslation("assessment");
  return (
    <span
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${BADGE_CLASSES[state]}`}
    >
      {t(`checkCharts.progress.levelStates.${state}`)}
    </span>
  );
}

/** A check: ticked or not, with its day and who saw it; for an observer, a box to tick and a way to change the day. */
function CheckRow({
  check,
  canObserve,
  isBusy,
  onToggle,
  onChangeDate,
}: {
  check: ChartCheck;
  canObserve: boolean;
  isBusy: boolean;
  onToggle: () => void;
  onChangeDate: () => void;
}) {
  const { t } = useTranslation("assessment");
  const boxId = useId();
  const observation = check.observation;
  const status = observation
    ? observation.observedBy
      ? t("checkCharts.progress.observedOnBy", {
          date: dateLabel(observation.observedOn),
          by: observation.observedBy,
        })
      : t("checkCharts.progress.observedOn", { date: dateLabel(observation.observedOn) })
    : t("checkCharts.progress.notYet");
  return (
    <li className="flex items-start gap-3 py-3">
      {canObserve ? (
        <input
          id={boxId}
          type="checkbox"
          // While the change is saved, the box shows where it is going.
          checked={isBusy ? !observation : Boolean(observation)}
          disabled={isBusy}
          aria-describedby={`${boxId}-status`}
          onChange={onToggle}
          className="mt-0.5 size-5 shrink-0 accent-brand-600"
        />
      ) : observation ? (
        <span
          aria-hidden="true"
          className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-white dark:bg-emerald-500 dark:text-emerald-950"
        >
          <Check className="size-3.5" strokeWidth={3} />
        </span>
      ) : (
        <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-slate-400 dark:text-slate-500" />
      )}
      <div className="min-w-0 flex-1">
        {canObserve ? (
          <label htmlFor={boxId} className="font-medium">
            {check.name}
          </label>
        ) : (
          <p className="font-medium">
            {check.name}
            <span className="sr-only">
              {" "}
              {observation ? t("checkCharts.progress.shown") : t("checkCharts.progress.notShown")}
            </span>
          </p>
        )}
        {check.description && (
          <p className="text-sm text-slate-600 dark:text-slate-300">{check.description}</p>
        )}
        <p
          id={`${boxId}-status`}
          className={`mt-0.5 text-xs ${observation ? "text-emerald-800 dark:text-emerald-300" : "text-slate-600 dark:text-slate-400"}`}
        >
          {isBusy ? t("checkCharts.progress.saving") : status}
        </p>
      </div>
      {canObserve && observation && (
        <button
          type="button"
          className={`${TEXT_BUTTON_CLASS} shrink-0`}
          disabled={isBusy}
          aria-label={t("checkCharts.progress.changeDateOf", { check: check.name })}
          onClick={onChangeDate}
        >
          {t("checkCharts.progress.changeDate")}
        </button>
      )}
    </li>
  );
}

/** Changing the day a ticked check was observed. */
function ChangeDateDialog({
  check,
  today,
  onSave,
  onClose,
}: {
  check: ChartCheck;
  today: string;
  onSave: (observedOn: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation("assessment");
  const fieldId = useId();
  const [day, setDay] = useState(check.observation?.observedOn ?? today);
  const [failure, setFailure] = useState("");
  const [isSaving, setIsSaving] = useState(false);
  const problem = dayProblem(day, today);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (problem) {
      setFailure(t(`checkCharts.progress.dayProblems.${problem}`, { today: dateLabel(today) }));
      return;
    }
    setIsSaving(true);
    try {
      await onSave(day);
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, t("checkCharts.progress.failed")));
      setIsSaving(false);
    }
  }

  return (
    <Dialog title={t("checkCharts.progress.changeDateTitle")} description={check.name} onClose={onClose}>
      <form onSubmit={save} noValidate className="mt-4 space-y-4">
        <div>
          <label htmlFor={fieldId} className="text-sm font-medium">
            {t("checkCharts.progress.dayObserved")}
          </label>
          <input
            id={fieldId}
            type="date"
            value={day}
            max={today}
            min={EARLIEST_OBSERVATION}
            aria-invalid={failure ? true : undefined}
            aria-describedby={failure ? `${fieldId}-error` : undefined}
            onChange={(event) => {
              setDay(event.target.value);
              setFailure("");
            }}
            className={ADMIN_INPUT_CLASS}
          />
          {failure && (
            <p
              id={`${fieldId}-error`}
              role="alert"
              className="mt-1 text-sm font-medium text-red-700 dark:text-red-300"
            >
              {failure}
            </p>
          )}
        </div>
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("checkCharts.cancel")}
          </button>
          <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
            {isSaving ? t("checkCharts.saving") : t("checkCharts.progress.saveDate")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
