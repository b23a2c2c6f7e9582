import { useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, Eye, EyeOff, Plus, Trash2 } from "lucide-react";
import { type ReactNode, useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AnswerValue,
  type Audience,
  type AudienceOptions,
  CHOICE_KINDS,
  NUMBER_RANGES,
  QUESTION_KINDS,
  type Question,
  type QuestionKind,
  type Section,
  SURVEY_REPEATS,
  type SurveyDetail,
  type SurveyInput,
  type SurveyRepeat,
  surveyInputSchema,
} from "../../../shared/contracts/surveys";
import { Card } from "../../components/page-header";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { formatNumber, gradeLabel, instantLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { schemaMessage } from "../../lib/i18n";
import { Loading, QueryError } from "../home/parts";
import {
  audienceOptionsQuery,
  countAudience,
  createSurvey,
  deleteSurvey,
  saveSurvey,
  surveyAction,
  surveyDetailQuery,
} from "./api";
import { QuestionField } from "./questions";

/**
 * The survey builder: its words, sections of questions of every kind (required or not, in any
 * order), who is asked, anonymity, the dates and the repeat; then publish, close or archive. A
 * survey people have answered keeps its questions, choices, audience and anonymity, and says so.
 */

/** The builder's working copy: a survey with its dates as the date-time fields hold them. */
interface Working {
  title: string;
  description: string;
  sections: Section[];
  audience: Audience;
  isAnonymous: boolean;
  /** `yyyy-MM-ddTHH:mm` in the browser's timezone. */
  opensAt: string;
  closesAt: string;
  repeat: SurveyRepeat;
}

/** A new id for a section, question or choice, unique within the survey. */
function newId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

function newQuestion(kind: QuestionKind): Question {
  return {
    id: newId("q"),
    kind,
    prompt: "",
    help: null,
    required: kind !== "short_text" && kind !== "long_text",
    options: CHOICE_KINDS.includes(kind)
      ? [
          { id: newId("o"), label: "" },
          { id: newId("o"), label: "" },
        ]
      : [],
    lowLabel: null,
    highLabel: null,
  };
}

const pad = (value: number) => String(value).padStart(2, "0");

/** An instant as a date-time field shows it, in the browser's timezone. */
function toFieldValue(instant: string | Date): string {
  const date = new Date(instant);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A date-time field's value (the browser's timezone) as an instant; empty when it is not one. */
function fromFieldValue(value: string): string {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : "";
}

function workingOf(detail: SurveyDetail | null): Working {
  if (!detail)
    return {
      title: "",
      description: "",
      sections: [{ id: newId("s"), title: null, description: null, questions: [newQuestion("mood")] }],
      audience: { roles: ["student"], schoolIds: [], grades: [], classIds: [] },
      // Anonymous unless the builder chooses otherwise: the safer way to ask.
      isAnonymous: true,
      opensAt: toFieldValue(new Date()),
      closesAt: "",
      repeat: "none",
    };
  return {
    title: detail.title,
    description: detail.description ?? "",
    sections: detail.sections,
    audience: detail.audience,
    isAnonymous: detail.isAnonymous,
    opensAt: toFieldValue(detail.opensAt),
    closesAt: detail.closesAt ? toFieldValue(detail.closesAt) : "",
    repeat: detail.repeat,
  };
}

/** Empty words are no words: the contract keeps null for them. */
const orNull = (text: string | null) => (text?.trim() ? text.trim() : null);

function inputOf(working: Working): SurveyInput {
  return {
    title: working.title.trim(),
    description: orNull(working.description),
    sections: working.sections.map((section) => ({
      ...section,
      title: orNull(section.title),
      description: orNull(section.description),
      questions: section.questions.map((question) => ({
        ...question,
        help: orNull(question.help),
        lowLabel: NUMBER_RANGES[question.kind] ? orNull(question.lowLabel) : null,
        highLabel: NUMBER_RANGES[question.kind] ? orNull(question.highLabel) : null,
        options: CHOICE_KINDS.includes(question.kind) ? question.options : [],
      })),
    })),
    audience: working.audience,
    isAnonymous: working.isAnonymous,
    opensAt: fromFieldValue(working.opensAt),
    closesAt: working.closesAt ? fromFieldValue(working.closesAt) : null,
    repeat: working.repeat,
  };
}

interface Problem {
  path: string;
  message: string;
}

/** Where a problem is, in words: "Section 2 › Question 1 › Choices". */
function useWhere() {
  const { t } = useTranslation("surveys");
  return (path: string): string => {
    const parts = path.split(".");
    const words: string[] = [];
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index] as string;
      const next = Number(parts[index + 1]);
      if (part === "sections" || part === "questions" || part === "options") {
        if (Number.isInteger(next)) {
          words.push(t(`editor.where.${part}`, { number: next + 1 }));
          index++;
        }
      } else if (
        ["title", "description", "prompt", "help", "audience", "opensAt", "closesAt", "label"].includes(part)
      )
        words.push(t(`editor.where.${part}`));
    }
    return words.join(" › ");
  };
}

export function SurveyEditor({
  surveyId,
  onDone,
  onCancel,
}: {
  /** Null for a new survey. */
  surveyId: string | null;
  onDone: (note: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("surveys");
  const detail = useQuery({ ...surveyDetailQuery(surveyId ?? ""), enabled: Boolean(surveyId) });
  const options = useQuery(audienceOptionsQuery);
  if ((surveyId && detail.isPending) || options.isPending)
    return <Loading label={t("editor.loading")} rows={6} />;
  if (detail.isError)
    return (
      <QueryError error={detail.error} fallback={t("editor.loadFailed")} onRetry={() => detail.refetch()} />
    );
  if (options.isError)
    return (
      <QueryError error={options.error} fallback={t("editor.loadFailed")} onRetry={() => options.refetch()} />
    );
  return (
    <EditorForm
      key={surveyId ?? "new"}
      detail={surveyId ? (detail.data ?? null) : null}
      options={options.data}
      onDone={onDone}
      onCancel={onCancel}
    />
  );
}

type Confirming = "publish" | "close" | "archive" | "delete" | null;

function EditorForm({
  detail,
  options,
  onDone,
  onCancel,
}: {
  detail: SurveyDetail | null;
  options: AudienceOptions;
  onDone: (note: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("surveys");
  const where = useWhere();
  const [working, setWorking] = useState<Working>(() => workingOf(detail));
  const [problems, setProblems] = useState<Problem[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [isPreviewing, setIsPreviewing] = useState(false);
  const isLocked = detail?.isLocked ?? false;
  const state = detail?.state ?? "draft";
  const locked = useMemo(() => lockedIdsOf(detail), [detail]);
  const update = (change: Partial<Working>) => setWorking((current) => ({ ...current, ...change }));
  const setSections = (change: (sections: Section[]) => Section[]) =>
    setWorking((current) => ({ ...current, sections: change(current.sections) }));

  /** The survey as the contract takes it, or null with its problems said. */
  function checked(): SurveyInput | null {
    const input = inputOf(working);
    const parsed = surveyInputSchema.safeParse(input);
    if (parsed.success) {
      setProblems([]);
      return parsed.data;
    }
    setProblems(
      parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join("."),
        message: schemaMessage(issue as { message: string }),
      })),
    );
    return null;
  }

  /** Saves the survey; answers its id, or null when it could not be saved (and says why). */
  async function store(): Promise<string | null> {
    setFailure(null);
    const input = checked();
    if (!input) return null;
    setIsSaving(true);
    try {
      if (detail) {
        await saveSurvey(detail.id, input);
        return detail.id;
      }
      return (await createSurvey(input)).id;
    } catch (error) {
      if (error instanceof ApiRequestError && error.issues.length > 0) setProblems([...error.issues]);
      setFailure(failureMessage(error, t("editor.saveFailed")));
      return null;
    } finally {
      setIsSaving(false);
    }
  }

  async function save() {
    const id = await store();
    if (id) onDone(t(detail ? "notes.saved" : "notes.created", { title: working.title.trim() }));
  }

  const title = working.title.trim() || t("editor.untitled");
  let questionNumber = 0;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold">
            {detail ? t("editor.editTitle", { title }) : t("editor.newTitle")}
          </h2>
          {detail && (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {t(`state.${state}`)} ·{" "}
              {t("editor.changed", { who: detail.updatedBy ?? "—", when: instantLabel(detail.updatedAt) })}
            </p>
          )}
        </div>
        <button type="button" onClick={onCancel} className={buttonClass("secondary")}>
          {t("editor.back")}
        </button>
      </div>

      {isLocked && (
        <p
          role="note"
          className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          {t("editor.lockedNote")}
        </p>
      )}

      <Card>
        <h3 className="text-lg font-bold">{t("editor.about")}</h3>
        <div className="mt-4 grid gap-4">
          <TextField
            label={t("editor.title")}
            value={working.title}
            maxLength={150}
            required
            onChange={(event) => update({ title: event.target.value })}
          />
          <TextArea
            label={t("editor.description")}
            hint={t("editor.descriptionHint")}
            value={working.description}
            maxLength={1000}
            onChange={(description) => update({ description })}
          />
        </div>
      </Card>

      <Card>
        <h3 className="text-lg font-bold">{t("editor.questions")}</h3>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("editor.questionsHint")}</p>
        <div className="mt-4 space-y-6">
          {working.sections.map((section, sectionIndex) => {
            const sectionLocked = section.questions.some((question) => locked.questions.has(question.id));
            return (
              <section
                key={section.id}
                aria-label={t("editor.sectionLabel", { number: sectionIndex + 1 })}
                className="rounded-xl border border-slate-200 p-4 dark:border-slate-700"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h4 className="font-bold">{t("editor.sectionLabel", { number: sectionIndex + 1 })}</h4>
                  <MoveButtons
                    label={t("editor.sectionLabel", { number: sectionIndex + 1 })}
                    canUp={sectionIndex > 0}
                    canDown={sectionIndex < working.sections.length - 1}
                    onMove={(step) => setSections((all) => moved(all, sectionIndex, step))}
                    onRemove={
                      working.sections.length > 1 && !sectionLocked
                        ? () => setSections((all) => all.filter((_, index) => index !== sectionIndex))
                        : undefined
                    }
                  />
                </div>
                <div className="mt-3 grid gap-3 sm:grid-cols-2">
                  <TextField
                    label={t("editor.sectionTitle")}
                    value={section.title ?? ""}
                    maxLength={150}
                    onChange={(event) =>
                      setSections((all) =>
                        replaced(all, sectionIndex, { ...section, title: event.target.value }),
                      )
                    }
                  />
                  <TextField
                    label={t("editor.sectionDescription")}
                    value={section.description ?? ""}
                    maxLength={500}
                    onChange={(event) =>
                      setSections((all) =>
                        replaced(all, sectionIndex, { ...section, description: event.target.value }),
                      )
                    }
                  />
                </div>
                <ol className="mt-4 space-y-4">
                  {section.questions.map((question, questionIndex) => {
                    questionNumber += 1;
                    const setQuestions = (change: (questions: Question[]) => Question[]) =>
                      setSections((all) =>
                        replaced(all, sectionIndex, { ...section, questions: change(section.questions) }),
                      );
                    return (
                      <QuestionEditor
                        key={question.id}
                        question={question}
                        number={questionNumber}
                        isLocked={locked.questions.has(question.id)}
                        lockedOptions={locked.options}
                        canUp={questionIndex > 0}
                        canDown={questionIndex < section.questions.length - 1}
                        onChange={(next) => setQuestions((all) => replaced(all, questionIndex, next))}
                        onMove={(step) => setQuestions((all) => moved(all, questionIndex, step))}
                        onRemove={
                          section.questions.length > 1 && !locked.questions.has(question.id)
                            ? () => setQuestions((all) => all.filter((_, index) => index !== questionIndex))
                            : undefined
                        }
                      />
                    );
                  })}
                </ol>
                <AddQuestion
                  onAdd={(kind) =>
                    setSections((all) =>
                      replaced(all, sectionIndex, {
                        ...section,
                        questions: [...section.questions, newQuestion(kind)],
                      }),
                    )
                  }
                />
              </section>
            );
          })}
          <button
            type="button"
            className={buttonClass("secondary", "inline-flex items-center gap-2")}
            onClick={() =>
              setSections((all) => [
                ...all,
                { id: newId("s"), title: null, description: null, questions: [newQuestion("scale")] },
              ])
            }
          >
            <Plus aria-hidden="true" className="size-4" />
            {t("editor.addSection")}
          </button>
        </div>
      </Card>

      <AudienceEditor
        audience={working.audience}
        options={options}
        isLocked={isLocked}
        onChange={(audience) => update({ audience })}
      />

      <Card>
        <h3 className="text-lg font-bold">{t("editor.when")}</h3>
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          <TextField
            type="datetime-local"
            label={t("editor.opensAt")}
            value={working.opensAt}
            disabled={isLocked}
            onChange={(event) => update({ opensAt: event.target.value })}
          />
          <TextField
            type="datetime-local"
            label={t("editor.closesAt")}
            value={working.closesAt}
            onChange={(event) => update({ closesAt: event.target.value })}
          />
          <SelectField
            label={t("editor.repeat")}
            value={working.repeat}
            disabled={isLocked}
            options={SURVEY_REPEATS.map((repeat) => ({ value: repeat, label: t(`repeat.${repeat}`) }))}
            onChange={(event) => update({ repeat: event.target.value as SurveyRepeat })}
          />
        </div>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
          {t(`editor.repeatHint.${working.repeat}`)}
        </p>
        <label className="mt-5 flex items-start gap-3">
          <input
            type="checkbox"
            checked={working.isAnonymous}
            disabled={isLocked}
            onChange={(event) => update({ isAnonymous: event.target.checked })}
            className="mt-1 size-5 shrink-0 accent-brand-600"
          />
          <span>
            <span className="font-semibold">{t("editor.anonymous")}</span>
            <span className="block text-sm text-slate-600 dark:text-slate-300">
              {t("editor.anonymousHint")}
            </span>
          </span>
        </label>
      </Card>

      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 className="text-lg font-bold">{t("editor.preview")}</h3>
          <button
            type="button"
            aria-expanded={isPreviewing}
            onClick={() => setIsPreviewing((shown) => !shown)}
            className={buttonClass("secondary", "inline-flex items-center gap-2")}
          >
            {isPreviewing ? (
              <EyeOff aria-hidden="true" className="size-4" />
            ) : (
              <Eye aria-hidden="true" className="size-4" />
            )}
            {isPreviewing ? t("editor.hidePreview") : t("editor.showPreview")}
          </button>
        </div>
        {isPreviewing && <Preview sections={inputOf(working).sections} />}
      </Card>

      <div className="space-y-3">
        {problems.length > 0 && (
          <div
            role="alert"
            className="rounded-xl bg-red-50 p-4 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          >
            <p className="font-semibold">{t("editor.problems", { count: problems.length })}</p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {problems.map((problem) => (
                <li key={`${problem.path}-${problem.message}`}>
                  {where(problem.path) ? `${where(problem.path)}: ` : ""}
                  {problem.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {failure && problems.length === 0 && (
          <p
            role="alert"
            className="rounded-xl bg-red-50 p-4 text-sm font-semibold text-red-900 dark:bg-red-950 dark:text-red-100"
          >
            {failure}
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            onClick={save}
            disabled={isSaving}
            className={buttonClass(state === "draft" ? "secondary" : "primary")}
          >
            {isSaving
              ? t("editor.saving")
              : state === "draft"
                ? t("editor.saveDraft")
                : t("editor.saveChanges")}
          </button>
          {state === "draft" && (
            <button
              type="button"
              disabled={isSaving}
              onClick={() => checked() && setConfirming("publish")}
              className={buttonClass("primary")}
            >
              {t("editor.publish")}
            </button>
          )}
          {(state === "open" || state === "scheduled") && (
            <button type="button" onClick={() => setConfirming("close")} className={buttonClass("secondary")}>
              {t("editor.close")}
            </button>
          )}
          {detail && state !== "draft" && (
            <button
              type="button"
              onClick={() => setConfirming("archive")}
              className={buttonClass("secondary")}
            >
              {t("editor.archive")}
            </button>
          )}
          {detail && state === "draft" && (
            <button type="button" onClick={() => setConfirming("delete")} className={buttonClass("danger")}>
              {t("editor.delete")}
            </button>
          )}
        </div>
      </div>

      {confirming === "publish" && (
        <ConfirmDialog
          title={t("editor.confirm.publishTitle")}
          message={<PublishSummary working={working} />}
          confirmLabel={t("editor.publish")}
          tone="primary"
          onConfirm={async () => {
            const id = await store();
            if (!id) throw new Error(t("editor.saveFailed"));
            await surveyAction(id, "publish");
            onDone(t("notes.published", { title }));
          }}
          onClose={() => setConfirming(null)}
        />
      )}
      {detail && confirming === "close" && (
        <ConfirmDialog
          title={t("editor.confirm.closeTitle")}
          message={t("editor.confirm.closeBody", { title })}
          confirmLabel={t("editor.close")}
          onConfirm={async () => {
            await surveyAction(detail.id, "close");
            onDone(t("notes.closed", { title }));
          }}
          onClose={() => setConfirming(null)}
        />
      )}
      {detail && confirming === "archive" && (
        <ConfirmDialog
          title={t("editor.confirm.archiveTitle")}
          message={t("editor.confirm.archiveBody", { title })}
          confirmLabel={t("editor.archive")}
          onConfirm={async () => {
            await surveyAction(detail.id, "archive");
            onDone(t("notes.archived", { title }));
          }}
          onClose={() => setConfirming(null)}
        />
      )}
      {detail && confirming === "delete" && (
        <ConfirmDialog
          title={t("editor.confirm.deleteTitle")}
          message={t("editor.confirm.deleteBody", { title })}
          confirmLabel={t("editor.delete")}
          onConfirm={async () => {
            await deleteSurvey(detail.id);
            onDone(t("notes.deleted", { title }));
          }}
          onClose={() => setConfirming(null)}
        />
      )}
    </div>
  );
}

/** The questions and choices of a survey people have answered: they stay. */
function lockedIdsOf(detail: SurveyDetail | null) {
  const questions = new Set<string>();
  const options = new Set<string>();
  if (detail?.isLocked)
    for (const question of detail.sections.flatMap((section) => section.questions)) {
      questions.add(question.id);
      for (const option of question.options) options.add(option.id);
    }
  return { questions, options };
}

function replaced<Item>(list: Item[], index: number, item: Item): Item[] {
  return list.map((entry, at) => (at === index ? item : entry));
}

function moved<Item>(list: Item[], index: number, step: -1 | 1): Item[] {
  const target = index + step;
  if (target < 0 || target >= list.length) return list;
  const copy = [...list];
  [copy[index], copy[target]] = [copy[target] as Item, copy[index] as Item];
  return copy;
}

/** Up, down and remove for a section, a question or a choice; each button names what it moves. */
function MoveButtons({
  label,
  canUp,
  canDown,
  onMove,
  onRemove,
  removeHint,
}: {
  label: string;
  canUp: boolean;
  canDown: boolean;
  onMove: (step: -1 | 1) => void;
  onRemove?: () => void;
  removeHint?: string;
}) {
  const { t } = useTranslation("surveys");
  const small =
    "rounded-lg border border-slate-300 p-2 hover:bg-slate-50 disabled:opacity-40 dark:border-slate-700 dark:hover:bg-slate-800";
  return (
    <div className="flex gap-1.5">
      <button
        type="button"
        className={small}
        disabled={!canUp}
        onClick={() => onMove(-1)}
        aria-label={t("editor.moveUp", { what: label })}
      >
        <ArrowUp aria-hidden="true" className="size-4" />
      </button>
      <button
        type="button"
        className={small}
        disabled={!canDown}
        onClick={() => onMove(1)}
        aria-label={t("editor.moveDown", { what: label })}
      >
        <ArrowDown aria-hidden="true" className="size-4" />
      </button>
      <button
        type="button"
        className={small}
        disabled={!onRemove}
        title={!onRemove ? removeHint : undefined}
        onClick={onRemove}
        aria-label={t("editor.remove", { what: label })}
      >
        <Trash2 aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

function TextArea({
  label,
  hint,
  value,
  maxLength,
  onChange,
}: {
  label: string;
  hint?: string;
  value: string;
  maxLength: number;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        value={value}
        maxLength={maxLength}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950"
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {hint}
        </p>
      )}
    </div>
  );
}

function QuestionEditor({
  question,
  number,
  isLocked,
  lockedOptions,
  canUp,
  canDown,
  onChange,
  onMove,
  onRemove,
}: {
  question: Question;
  number: number;
  isLocked: boolean;
  lockedOptions: Set<string>;
  canUp: boolean;
  canDown: boolean;
  onChange: (question: Question) => void;
  onMove: (step: -1 | 1) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation("surveys");
  const label = t("editor.questionLabel", { number });
  const set = (change: Partial<Question>) => onChange({ ...question, ...change });
  const changeKind = (kind: QuestionKind) =>
    set({
      kind,
      options: CHOICE_KINDS.includes(kind)
        ? question.options.length >= 2
          ? question.options
          : [
              { id: newId("o"), label: "" },
              { id: newId("o"), label: "" },
            ]
        : [],
    });
  return (
    <li
      aria-label={label}
      className="rounded-lg border border-slate-200 bg-slate-50 p-3 sm:p-4 dark:border-slate-700 dark:bg-slate-950"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h5 className="font-semibold">{label}</h5>
        <MoveButtons
          label={label}
          canUp={canUp}
          canDown={canDown}
          onMove={onMove}
          onRemove={onRemove}
          removeHint={isLocked ? t("editor.lockedQuestion") : undefined}
        />
      </div>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        <TextField
          className="sm:col-span-2"
          label={t("editor.prompt")}
          value={question.prompt}
          maxLength={300}
          onChange={(event) => set({ prompt: event.target.value })}
        />
        <SelectField
          label={t("editor.kind")}
          value={question.kind}
          disabled={isLocked}
          options={QUESTION_KINDS.map((kind) => ({ value: kind, label: t(`kinds.${kind}`) }))}
          onChange={(event) => changeKind(event.target.value as QuestionKind)}
        />
        <TextField
          className="sm:col-span-2"
          label={t("editor.help")}
          value={question.help ?? ""}
          maxLength={300}
          onChange={(event) => set({ help: event.target.value })}
        />
        <label className="flex items-center gap-2 self-end pb-2.5">
          <input
            type="checkbox"
            checked={question.required}
            onChange={(event) => set({ required: event.target.checked })}
            className="size-5 accent-brand-600"
          />
          <span className="text-sm font-medium">{t("editor.required")}</span>
        </label>
      </div>
      {isLocked && (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">{t("editor.lockedQuestion")}</p>
      )}
      {NUMBER_RANGES[question.kind] && question.kind !== "mood" && (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <TextField
            label={t("editor.lowLabel", { value: NUMBER_RANGES[question.kind]?.min })}
            value={question.lowLabel ?? ""}
            maxLength={60}
            onChange={(event) => set({ lowLabel: event.target.value })}
          />
          <TextField
            label={t("editor.highLabel", { value: NUMBER_RANGES[question.kind]?.max })}
            value={question.highLabel ?? ""}
            maxLength={60}
            onChange={(event) => set({ highLabel: event.target.value })}
          />
        </div>
      )}
      {CHOICE_KINDS.includes(question.kind) && (
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">{t("editor.choices")}</legend>
          <ol className="mt-1 space-y-2">
            {question.options.map((option, index) => {
              const optionLabel = t("editor.choiceLabel", { number: index + 1 });
              return (
                <li key={option.id} className="flex items-end gap-2">
                  <TextField
                    className="min-w-0 flex-1"
                    label={optionLabel}
                    value={option.label}
                    maxLength={120}
                    onChange={(event) =>
                      set({
                        options: replaced(question.options, index, { ...option, label: event.target.value }),
                      })
                    }
                  />
                  <MoveButtons
                    label={optionLabel}
                    canUp={index > 0}
                    canDown={index < question.options.length - 1}
                    onMove={(step) => set({ options: moved(question.options, index, step) })}
                    onRemove={
                      question.options.length > 2 && !lockedOptions.has(option.id)
                        ? () => set({ options: question.options.filter((_, at) => at !== index) })
                        : undefined
                    }
                    removeHint={lockedOptions.has(option.id) ? t("editor.lockedChoice") : undefined}
                  />
                </li>
              );
            })}
          </ol>
          {question.options.length < 12 && (
            <button
              type="button"
              className="mt-2 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline dark:text-brand-100"
              onClick={() => set({ options: [...question.options, { id: newId("o"), label: "" }] })}
            >
              <Plus aria-hidden="true" className="size-4" />
              {t("editor.addChoice")}
            </button>
          )}
        </fieldset>
      )}
    </li>
  );
}

function AddQuestion({ onAdd }: { onAdd: (kind: QuestionKind) => void }) {
  const { t } = useTranslation("surveys");
  const [kind, setKind] = useState<QuestionKind>("scale");
  return (
    <div className="mt-4 flex flex-wrap items-end gap-2">
      <SelectField
        className="min-w-48"
        label={t("editor.newQuestionKind")}
        value={kind}
        options={QUESTION_KINDS.map((entry) => ({ value: entry, label: t(`kinds.${entry}`) }))}
        onChange={(event) => setKind(event.target.value as QuestionKind)}
      />
      <button
        type="button"
        onClick={() => onAdd(kind)}
        className={buttonClass("secondary", "inline-flex h-[2.875rem] items-center gap-2")}
      >
        <Plus aria-hidden="true" className="size-4" />
        {t("editor.addQuestion")}
      </button>
    </div>
  );
}

/** Who is asked: roles, then schools, grades and classes that narrow it; how many that is now. */
function AudienceEditor({
  audience,
  options,
  isLocked,
  onChange,
}: {
  audience: Audience;
  options: AudienceOptions;
  isLocked: boolean;
  onChange: (audience: Audience) => void;
}) {
  const { t } = useTranslation("surveys");
  const [classFilter, setClassFilter] = useState("");
  const [count, setCount] = useState<number | null>(null);
  const toggle = <Key extends keyof Audience>(key: Key, value: Audience[Key][number], on: boolean) =>
    onChange({
      ...audience,
      [key]: on
        ? [...(audience[key] as string[]), value]
        : (audience[key] as string[]).filter((entry) => entry !== value),
    });
  const needsClasses = options.mustChooseClasses && audience.classIds.length === 0;

  useEffect(() => {
    setCount(null);
    if (audience.roles.length === 0 || needsClasses) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      countAudience(audience, controller.signal)
        .then((answer) => setCount(answer.count))
        .catch(() => {});
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [audience, needsClasses]);

  const shownClasses = options.classes.filter((entry) =>
    `${entry.title} ${entry.schoolName}`.toLowerCase().includes(classFilter.trim().toLowerCase()),
  );
  return (
    <Card>
      <h3 className="text-lg font-bold">{t("editor.audience")}</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {options.mustChooseClasses ? t("editor.audienceHintGuide") : t("editor.audienceHint")}
      </p>
      <fieldset disabled={isLocked} className="mt-4 space-y-5">
        <CheckboxGroup legend={t("editor.roles")}>
          {options.roles.map((role) => (
            <Checkbox
              key={role}
              label={t(`audienceRoles.${role}`)}
              checked={audience.roles.includes(role)}
              onChange={(on) => toggle("roles", role, on)}
            />
          ))}
        </CheckboxGroup>
        {options.schools.length > 0 && (
          <CheckboxGroup legend={t("editor.schools")} hint={t("editor.anyWhenNone")}>
            {options.schools.map((school) => (
              <Checkbox
                key={school.id}
                label={school.name}
                checked={audience.schoolIds.includes(school.id)}
                onChange={(on) => toggle("schoolIds", school.id, on)}
              />
            ))}
          </CheckboxGroup>
        )}
        {options.grades.length > 0 && (
          <CheckboxGroup legend={t("editor.grades")} hint={t("editor.anyWhenNone")}>
            {options.grades.map((grade) => (
              <Checkbox
                key={grade}
                label={gradeLabel([grade])}
                checked={audience.grades.includes(grade)}
                onChange={(on) => toggle("grades", grade, on)}
              />
            ))}
          </CheckboxGroup>
        )}
        <fieldset>
          <legend className="text-sm font-medium">{t("editor.classes")}</legend>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {options.mustChooseClasses ? t("editor.classesGuideHint") : t("editor.anyWhenNone")}
          </p>
          {options.classes.length > 8 && (
            <TextField
              className="mt-2 max-w-sm"
              type="search"
              label={t("editor.filterClasses")}
              value={classFilter}
              onChange={(event) => setClassFilter(event.target.value)}
            />
          )}
          <div className="mt-2 grid max-h-72 gap-1 overflow-y-auto rounded-lg border border-slate-200 p-2 sm:grid-cols-2 dark:border-slate-700">
            {shownClasses.length === 0 ? (
              <p className="p-2 text-sm text-slate-600 dark:text-slate-300">{t("editor.noClasses")}</p>
            ) : (
              shownClasses.map((entry) => (
                <Checkbox
                  key={entry.id}
                  label={`${entry.title} · ${entry.schoolName}`}
                  checked={audience.classIds.includes(entry.id)}
                  onChange={(on) => toggle("classIds", entry.id, on)}
                />
              ))
            )}
          </div>
          {audience.classIds.length > 0 && (
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
              {t("editor.classesChosen", { count: audience.classIds.length })}
            </p>
          )}
        </fieldset>
      </fieldset>
      <p
        role="status"
        className="mt-4 rounded-lg bg-slate-100 px-3 py-2 text-sm font-medium dark:bg-slate-800"
      >
        {audience.roles.length === 0
          ? t("editor.chooseRoles")
          : needsClasses
            ? t("editor.chooseClasses")
            : count === null
              ? t("editor.counting")
              : t("editor.count", { count, shown: formatNumber(count, 0) })}
      </p>
    </Card>
  );
}

function CheckboxGroup({ legend, hint, children }: { legend: string; hint?: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      {hint && <p className="text-xs text-slate-600 dark:text-slate-300">{hint}</p>}
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">{children}</div>
    </fieldset>
  );
}

function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex min-h-9 items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-5 shrink-0 accent-brand-600"
      />
      <span>{label}</span>
    </label>
  );
}

/** What publishing does: when it opens, whom it asks, how it repeats and whether it is anonymous. */
function PublishSummary({ working }: { working: Working }) {
  const { t } = useTranslation("surveys");
  const opensAt = fromFieldValue(working.opensAt);
  const opensNow = !opensAt || new Date(opensAt) <= new Date();
  return (
    <div className="space-y-2">
      <p>
        {opensNow
          ? t("editor.confirm.opensNow")
          : t("editor.confirm.opensLater", { when: instantLabel(opensAt) })}
      </p>
      <p>{t(`editor.repeatHint.${working.repeat}`)}</p>
      <p className="font-semibold">
        {working.isAnonymous ? t("editor.confirm.anonymous") : t("editor.confirm.named")}
      </p>
    </div>
  );
}

/** The survey as people will see it; what is chosen here is not kept. */
function Preview({ sections }: { sections: Section[] }) {
  const { t } = useTranslation("surveys");
  const [answers, setAnswers] = useState<Record<string, AnswerValue>>({});
  let number = 0;
  return (
    <div className="mt-4 space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300">{t("editor.previewHint")}</p>
      {sections.flatMap((section) =>
        section.questions.map((question) => {
          number += 1;
          return (
            <QuestionField
              key={question.id}
              question={{ ...question, prompt: question.prompt || t("editor.untitledQuestion") }}
              number={number}
              value={answers[question.id]}
              onChange={(value) => setAnswers((current) => ({ ...current, [question.id]: value }))}
            />
          );
        }),
      )}
    </div>
  );
}
