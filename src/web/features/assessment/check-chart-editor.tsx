import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  CHECK_CHART_LIMITS,
  type CheckChart,
  type CheckChartDraft,
  checkChartProblems,
} from "../../../shared/contracts/assessment";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import {
  ADMIN_INPUT_CLASS,
  AdminField,
  type FormProblems,
  ProblemsAlert,
  problemsOf,
} from "../rewards/admin-form";
import { checkChartKeys, createCheckChart, saveCheckChart } from "./check-charts-api";
import { subjectList } from "./placements-parts";

/**
 * The chart editor: title, subject, description, and ordered levels of ordered checks, each added,
 * renamed, moved and removed with buttons. Removing a part that has ticks asks first: saving
 * removes the ticks with it. The whole chart is saved at once.
 */

interface DraftCheck {
  /** React's key: the check's id once saved, a made-up one before. */
  key: string;
  id?: string;
  name: string;
  description: string;
  /** Students with this check ticked (0 for a new check, or when the caller may not know). */
  observationCount: number;
}

interface DraftLevel {
  key: string;
  id?: string;
  name: string;
  checks: DraftCheck[];
}

interface EditorState {
  title: string;
  subject: string;
  description: string;
  levels: DraftLevel[];
}

const newKey = () => `new-${crypto.randomUUID()}`;
const newCheck = (): DraftCheck => ({ key: newKey(), name: "", description: "", observationCount: 0 });
const newLevel = (): DraftLevel => ({ key: newKey(), name: "", checks: [newCheck()] });

function stateOf(chart: CheckChart | null): EditorState {
  if (!chart) return { title: "", subject: "", description: "", levels: [newLevel()] };
  return {
    title: chart.title,
    subject: chart.subject,
    description: chart.description,
    levels: chart.levels.map((level) => ({
      key: level.id,
      id: level.id,
      name: level.name,
      checks: level.checks.map((check) => ({
        key: check.id,
        id: check.id,
        name: check.name,
        description: check.description,
        observationCount: check.observationCount ?? 0,
      })),
    })),
  };
}

function draftOf(state: EditorState, updatedAt: string | undefined): CheckChartDraft {
  return {
    title: state.title,
    subject: state.subject,
    description: state.description,
    ...(updatedAt && { updatedAt }),
    levels: state.levels.map((level) => ({
      ...(level.id && { id: level.id }),
      name: level.name,
      checks: level.checks.map((check) => ({
        ...(check.id && { id: check.id }),
        name: check.name,
        description: check.description,
      })),
    })),
  };
}

/** `list` with the item at `from` moved to `to`. */
function moved<Item>(list: Item[], from: number, to: number): Item[] {
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

type Removal =
  | { kind: "level"; levelIndex: number; ticks: number }
  | { kind: "check"; levelIndex: number; checkIndex: number; ticks: number };

export function ChartEditor({
  chart,
  onCreated,
}: {
  /** The chart as it was read; null for a new one. Read once: the editor keeps its own copy after. */
  chart: CheckChart | null;
  onCreated: (chart: CheckChart) => void;
}) {
  const { t } = useTranslation("assessment");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState<CheckChart | null>(chart);
  const [state, setState] = useState<EditorState>(() => stateOf(chart));
  const [hasTriedToSave, setHasTriedToSave] = useState(false);
  const [serverProblems, setServerProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);
  const [note, setNote] = useState("");
  const [removal, setRemoval] = useState<Removal | null>(null);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const subjectsId = useId();

  // Focus follows a step that adds or removes a part (the new part's name, or the button near a
  // removed one) and a refused save (the first field with a problem, so its message is read).
  useEffect(() => {
    if (!focusTarget) return;
    formRef.current?.querySelector<HTMLElement>(`[data-focus="${focusTarget}"]`)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const found = checkChartProblems(draftOf(state, undefined));
  const shownProblems: Record<string, string> = hasTriedToSave
    ? Object.fromEntries(
        found.map((issue) => [
          issue.path,
          t(`checkCharts.problems.${issue.problem}`, { limit: issue.limit }),
        ]),
      )
    : {};
  const problemAt = (path: string) => shownProblems[path] ?? serverProblems.fields[path];

  const change = (next: EditorState, announcement?: string) => {
    setState(next);
    setServerProblems({ fields: {} });
    if (announcement !== undefined) setNote(announcement);
  };
  const setLevels = (levels: DraftLevel[], announcement?: string) =>
    change({ ...state, levels }, announcement);
  const setLevel = (levelIndex: number, level: DraftLevel, announcement?: string) =>
    setLevels(
      state.levels.map((entry, index) => (index === levelIndex ? level : entry)),
      announcement,
    );

  const levelName = (index: number) =>
    state.levels[index]?.name.trim() || t("checkCharts.editor.levelNumber", { number: index + 1 });
  const checkName = (level: DraftLevel, index: number) =>
    level.checks[index]?.name.trim() || t("checkCharts.editor.checkNumber", { number: index + 1 });

  function addLevel() {
    if (state.levels.length >= CHECK_CHART_LIMITS.levels) return;
    const level = newLevel();
    setLevels(
      [...state.levels, level],
      t("checkCharts.editor.levelAdded", { number: state.levels.length + 1 }),
    );
    setFocusTarget(`levels.${state.levels.length}.name`);
  }

  function addCheck(levelIndex: number) {
    const level = state.levels[levelIndex];
    if (!level || level.checks.length >= CHECK_CHART_LIMITS.checksPerLevel) return;
    const check = newCheck();
    setLevel(
      levelIndex,
      { ...level, checks: [...level.checks, check] },
      t("checkCharts.editor.checkAdded", { number: level.checks.length + 1, level: levelName(levelIndex) }),
    );
    setFocusTarget(`levels.${levelIndex}.checks.${level.checks.length}.name`);
  }

  function removeLevel(levelIndex: number) {
    const name = levelName(levelIndex);
    setLevels(
      state.levels.filter((_, index) => index !== levelIndex),
      t("checkCharts.editor.levelRemoved", { level: name }),
    );
    setFocusTarget("levels");
  }

  function removeCheck(levelIndex: number, checkIndex: number) {
    const level = state.levels[levelIndex];
    if (!level) return;
    const name = checkName(level, checkIndex);
    setLevel(
      levelIndex,
      { ...level, checks: level.checks.filter((_, index) => index !== checkIndex) },
      t("checkCharts.editor.checkRemoved", { check: name }),
    );
    setFocusTarget(`levels.${levelIndex}.checks`);
  }

  function askToRemove(request: Removal) {
    if (request.ticks > 0) setRemoval(request);
    else if (request.kind === "level") removeLevel(request.levelIndex);
    else removeCheck(request.levelIndex, request.checkIndex);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isSaving) return;
    setHasTriedToSave(true);
    if (found.length > 0) {
      setNote("");
      setFocusTarget(found[0]?.path ?? null);
      return;
    }
    setIsSaving(true);
    try {
      const draft = draftOf(state, saved?.updatedAt);
      const result = saved ? await saveCheckChart(saved.id, draft) : await createCheckChart(draft);
      queryClient.setQueryData(checkChartKeys.chart(result.id), result);
      await queryClient.invalidateQueries({ queryKey: checkChartKeys.all, refetchType: "none" });
      setSaved(result);
      setState(stateOf(result));
      setHasTriedToSave(false);
      setServerProblems({ fields: {} });
      setNote(saved ? t("checkCharts.editor.saved") : t("checkCharts.editor.created"));
      if (!saved) onCreated(result);
    } catch (error) {
      setServerProblems(problemsOf(error, t("checkCharts.editor.failed")));
      setNote("");
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-6">
      <section className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
        <h2 className="text-lg font-bold">{t("checkCharts.editor.aboutTitle")}</h2>
        <div className="grid gap-4 md:grid-cols-2">
          <AdminField
            label={t("checkCharts.editor.title")}
            error={problemAt("title")}
            hint={t("checkCharts.editor.titleHint", { limit: CHECK_CHART_LIMITS.title })}
          >
            {(control) => (
              <input
                {...control}
                data-focus="title"
                value={state.title}
                maxLength={CHECK_CHART_LIMITS.title + 20}
                onChange={(event) => change({ ...state, title: event.target.value })}
                className={ADMIN_INPUT_CLASS}
              />
            )}
          </AdminField>
          <AdminField
            label={t("checkCharts.editor.subject")}
            error={problemAt("subject")}
            hint={t("checkCharts.editor.subjectHint")}
          >
            {(control) => (
              <>
                <input
                  {...control}
                  data-focus="subject"
                  list={subjectsId}
                  value={state.subject}
                  onChange={(event) => change({ ...state, subject: event.target.value })}
                  className={ADMIN_INPUT_CLASS}
                />
                <datalist id={subjectsId}>
                  {subjectList().map((subject) => (
                    <option key={subject} value={subject} />
                  ))}
                </datalist>
              </>
            )}
          </AdminField>
        </div>
        <AdminField label={t("checkCharts.editor.description")} error={problemAt("description")}>
          {(control) => (
            <textarea
              {...control}
              data-focus="description"
              rows={2}
              value={state.description}
              onChange={(event) => change({ ...state, description: event.target.value })}
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>
      </section>

      <section aria-labelledby="levels-heading" className="space-y-4">
        <div>
          <h2 id="levels-heading" className="text-lg font-bold">
            {t("checkCharts.editor.levelsTitle")}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {t("checkCharts.editor.levelsHint", {
              levels: CHECK_CHART_LIMITS.levels,
              checks: CHECK_CHART_LIMITS.checksPerLevel,
            })}
          </p>
          {problemAt("levels") && (
            <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">{problemAt("levels")}</p>
          )}
        </div>
        <ol className="space-y-4">
          {state.levels.map((level, levelIndex) => (
            <LevelEditor
              key={level.key}
              level={level}
              levelIndex={levelIndex}
              levelCount={state.levels.length}
              problemAt={problemAt}
              onChange={(next) => setLevel(levelIndex, next)}
              onMove={(to) =>
                setLevels(
                  moved(state.levels, levelIndex, to),
                  t("checkCharts.editor.levelMoved", { level: levelName(levelIndex), number: to + 1 }),
                )
              }
              onRemove={() =>
                askToRemove({
                  kind: "level",
                  levelIndex,
                  ticks: level.checks.reduce((sum, check) => sum + check.observationCount, 0),
                })
              }
              onMoveCheck={(checkIndex, to) =>
                setLevel(
                  levelIndex,
                  { ...level, checks: moved(level.checks, checkIndex, to) },
                  t("checkCharts.editor.checkMoved", { check: checkName(level, checkIndex), number: to + 1 }),
                )
              }
              onRemoveCheck={(checkIndex) =>
                askToRemove({
                  kind: "check",
                  levelIndex,
                  checkIndex,
                  ticks: level.checks[checkIndex]?.observationCount ?? 0,
                })
              }
              onAddCheck={() => addCheck(levelIndex)}
            />
          ))}
        </ol>
        <button
          type="button"
          data-focus="levels"
          onClick={addLevel}
          aria-disabled={state.levels.length >= CHECK_CHART_LIMITS.levels || undefined}
          className={buttonClass("secondary", "inline-flex items-center gap-1.5 aria-disabled:opacity-60")}
        >
          <Plus aria-hidden="true" className="size-4" />
          {t("checkCharts.editor.addLevel")}
        </button>
      </section>

      <div className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
          {isSaving
            ? t("checkCharts.saving")
            : saved
              ? t("checkCharts.editor.save")
              : t("checkCharts.editor.create")}
        </button>
        <button
          type="button"
          onClick={() => navigate({ to: "/app/check-chart" })}
          className={buttonClass("secondary")}
        >
          {t("checkCharts.editor.backToList")}
        </button>
        <div className="min-w-48 flex-1">
          {hasTriedToSave && found.length > 0 ? (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {t("checkCharts.editor.fixProblems", { count: found.length })}
            </p>
          ) : (
            <ProblemsAlert problems={serverProblems} />
          )}
          <p role="status" className={note ? "text-sm text-emerald-800 dark:text-emerald-300" : "sr-only"}>
            {note}
          </p>
        </div>
      </div>

      {removal && (
        <ConfirmDialog
          title={
            removal.kind === "level"
              ? t("checkCharts.editor.removeLevelTitle", { level: levelName(removal.levelIndex) })
              : t("checkCharts.editor.removeCheckTitle", {
                  check: checkName(state.levels[removal.levelIndex] as DraftLevel, removal.checkIndex),
                })
          }
          message={t("checkCharts.editor.removeTicked", { count: removal.ticks })}
          confirmLabel={t("checkCharts.editor.removeConfirm")}
          cancelLabel={t("checkCharts.editor.keepIt")}
          onConfirm={async () => {
            if (removal.kind === "level") removeLevel(removal.levelIndex);
            else removeCheck(removal.levelIndex, removal.checkIndex);
          }}
          onClose={() => setRemoval(null)}
        />
      )}
    </form>
  );
}

const ICON_BUTTON_CLASS =
  "inline-flex size-9 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800";

/** Move up, move down and remove: aria-disabled rather than disabled, so focus stays on a button that reached the end. */
function OrderButtons({
  index,
  count,
  labels,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  labels: { up: string; down: string; remove: string };
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const isFirst = index === 0;
  const isLast = index === count - 1;
  return (
    <div className="flex shrink-0 gap-1.5">
      <button
        type="button"
        aria-label={labels.up}
        title={labels.up}
        aria-disabled={isFirst || undefined}
        onClick={() => !isFirst && onMove(index - 1)}
        className={ICON_BUTTON_CLASS}
      >
        <ArrowUp aria-hidden="true" className="size-4" />
      </button>
      <button
        type="button"
        aria-label={labels.down}
        title={labels.down}
        aria-disabled={isLast || undefined}
        onClick={() => !isLast && onMove(index + 1)}
        className={ICON_BUTTON_CLASS}
      >
        <ArrowDown aria-hidden="true" className="size-4" />
      </button>
      <button
        type="button"
        aria-label={labels.remove}
        title={labels.remove}
        onClick={onRemove}
        className={`${ICON_BUTTON_CLASS} text-red-700 dark:text-red-300`}
      >
        <Trash2 aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

function LevelEditor({
  level,
  levelIndex,
  levelCount,
  problemAt,
  onChange,
  onMove,
  onRemove,
  onMoveCheck,
  onRemoveCheck,
  onAddCheck,
}: {
  level: DraftLevel;
  levelIndex: number;
  levelCount: number;
  problemAt: (path: string) => string | undefined;
  onChange: (level: DraftLevel) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  onMoveCheck: (checkIndex: number, to: number) => void;
  onRemoveCheck: (checkIndex: number) => void;
  onAddCheck: () => void;
}) {
  const { t } = useTranslation("assessment");
  const headingId = useId();
  const at = `levels.${levelIndex}`;
  const shownName = level.name.trim() || t("checkCharts.editor.levelNumber", { number: levelIndex + 1 });
  const setCheck = (checkIndex: number, check: DraftCheck) =>
    onChange({
      ...level,
      checks: level.checks.map((entry, index) => (index === checkIndex ? check : entry)),
    });
  const checksProblem = problemAt(`${at}.checks`);

  return (
    <li>
      <section
        aria-labelledby={headingId}
        className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h3 id={headingId} className="font-bold">
            {t("checkCharts.editor.levelHeading", { number: levelIndex + 1 })}
          </h3>
          <OrderButtons
            index={levelIndex}
            count={levelCount}
            labels={{
              up: t("checkCharts.editor.moveLevelUp", { level: shownName }),
              down: t("checkCharts.editor.moveLevelDown", { level: shownName }),
              remove: t("checkCharts.editor.removeLevel", { level: shownName }),
            }}
            onMove={onMove}
            onRemove={onRemove}
          />
        </div>
        <AdminField
          label={t("checkCharts.editor.levelName", { number: levelIndex + 1 })}
          error={problemAt(`${at}.name`) ?? problemAt(`${at}.id`)}
          className="mt-2"
        >
          {(control) => (
            <input
              {...control}
              data-focus={`${at}.name`}
              value={level.name}
              onChange={(event) => onChange({ ...level, name: event.target.value })}
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>

        <h4 className="mt-4 text-sm font-semibold">
          {t("checkCharts.editor.checksTitle", { count: level.checks.length })}
        </h4>
        {checksProblem && (
          <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">{checksProblem}</p>
        )}
        <ol className="mt-1 divide-y divide-slate-100 dark:divide-slate-800">
          {level.checks.map((check, checkIndex) => {
            const checkAt = `${at}.checks.${checkIndex}`;
            const shownCheck =
              check.name.trim() || t("checkCharts.editor.checkNumber", { number: checkIndex + 1 });
            return (
              <li key={check.key} className="py-3">
                <div className="grid gap-x-3 gap-y-2 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]">
                  <AdminField
                    label={t("checkCharts.editor.checkName", { number: checkIndex + 1 })}
                    error={problemAt(`${checkAt}.name`) ?? problemAt(`${checkAt}.id`)}
                    hint={
                      check.observationCount > 0
                        ? t("checkCharts.editor.tickedBy", { count: check.observationCount })
                        : undefined
                    }
                  >
                    {(control) => (
                      <input
                        {...control}
                        data-focus={`${checkAt}.name`}
                        value={check.name}
                        onChange={(event) => setCheck(checkIndex, { ...check, name: event.target.value })}
                        className={ADMIN_INPUT_CLASS}
                      />
                    )}
                  </AdminField>
                  <AdminField
                    label={t("checkCharts.editor.checkDescription")}
                    error={problemAt(`${checkAt}.description`)}
                  >
                    {(control) => (
                      <input
                        {...control}
                        data-focus={`${checkAt}.description`}
                        value={check.description}
                        onChange={(event) =>
                          setCheck(checkIndex, { ...check, description: event.target.value })
                        }
                        className={ADMIN_INPUT_CLASS}
                      />
                    )}
                  </AdminField>
                  <div className="md:pt-7">
                    <OrderButtons
                      index={checkIndex}
                      count={level.checks.length}
                      labels={{
                        up: t("checkCharts.editor.moveCheckUp", { check: shownCheck }),
                        down: t("checkCharts.editor.moveCheckDown", { check: shownCheck }),
                        remove: t("checkCharts.editor.removeCheck", { check: shownCheck }),
                      }}
                      onMove={(to) => onMoveCheck(checkIndex, to)}
                      onRemove={() => onRemoveCheck(checkIndex)}
                    />
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
        <button
          type="button"
          data-focus={`${at}.checks`}
          onClick={onAddCheck}
          aria-disabled={level.checks.length >= CHECK_CHART_LIMITS.checksPerLevel || undefined}
          className={`${buttonClass("secondary", "mt-3 inline-flex items-center gap-1.5 aria-disabled:opacity-60")}`}
        >
          <Plus aria-hidden="true" className="size-4" />
          {t("checkCharts.editor.addCheck", { level: shownName })}
        </button>
      </section>
    </li>
  );
}
