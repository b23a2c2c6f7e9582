import type { TFunction } from "i18next";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import {
  type AnswerValue,
  MOOD_FACES,
  NUMBER_RANGES,
  type Question,
  type QuestionKind,
  TEXT_LIMITS,
} from "../../../shared/contracts/surveys";
import { formatNumber } from "../../lib/format";

/**
 * A survey question as people answer it, one component for every kind: a 1–5 scale, five faces,
 * 0–10, one choice, several choices, a short or a long text. Each is a labelled group a keyboard
 * can answer (arrow keys move between the choices of a group), with its hint and its error.
 */

export interface QuestionFieldProps {
  question: Question;
  /** Its place in the survey, said before the question: "3." */
  number: number;
  value: AnswerValue | undefined;
  onChange?: (value: AnswerValue) => void;
  /** What is wrong with the answer, said under it. */
  error?: string | null;
  /** Answered and sent, or only shown: it cannot change. */
  disabled?: boolean;
}

const CARD =
  "min-w-0 rounded-xl border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900";
const CARD_WITH_ERROR =
  "min-w-0 rounded-xl border-2 border-red-600 bg-white p-4 sm:p-5 dark:border-red-400 dark:bg-slate-900";

export function QuestionField(props: QuestionFieldProps) {
  const { question } = props;
  if (question.kind === "short_text" || question.kind === "long_text") return <TextQuestion {...props} />;
  return <ChoiceGroup {...props} />;
}

/** The question's words: its number, the prompt and whether it needs an answer. */
function Prompt({ question, number }: Pick<QuestionFieldProps, "question" | "number">) {
  const { t } = useTranslation("surveys");
  return (
    <span className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-base font-semibold">
      <span>
        {number}. {question.prompt}
      </span>
      {question.required ? (
        <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800 dark:bg-slate-800 dark:text-brand-100">
          {t("question.required")}
        </span>
      ) : (
        <span className="text-xs font-normal text-slate-600 dark:text-slate-300">
          {t("question.optional")}
        </span>
      )}
    </span>
  );
}

function Hint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
      {children}
    </p>
  );
}

function ErrorText({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-3 text-sm font-semibold text-red-700 dark:text-red-300">
      {children}
    </p>
  );
}

/** The ids a field is described by: its hint and its error, when it has them. */
function describedBy(id: string, question: Question, error: string | null | undefined) {
  return (
    [question.help ? `${id}-help` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined
  );
}

interface Choice {
  value: string | number;
  /** What the choice shows. */
  label: ReactNode;
  /** What a screen reader says for it, when the shown label is not enough ("1, Not at all"). */
  name?: string;
}

/** Scales, faces, 0–10 and choice questions: radio buttons, or checkboxes for several choices. */
function ChoiceGroup({ question, number, value, onChange, error, disabled }: QuestionFieldProps) {
  const { t } = useTranslation("surveys");
  const id = useId();
  const isMultiple = question.kind === "multiple_choice";
  const chosen = new Set(Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]);
  const choices = choicesOf(question, t);
  const layout = LAYOUTS[question.kind] ?? LIST_LAYOUT;
  const pick = (choice: Choice, checked: boolean) => {
    if (!onChange) return;
    if (!isMultiple) return onChange(choice.value);
    const ids = question.options
      .map((option) => option.id)
      .filter((option) => (option === choice.value ? checked : chosen.has(option)));
    onChange(ids);
  };
  const range = NUMBER_RANGES[question.kind];
  const ends = range && (question.lowLabel || question.highLabel);
  return (
    <fieldset
      data-question={question.id}
      aria-describedby={describedBy(id, question, error)}
      className={error ? CARD_WITH_ERROR : CARD}
      disabled={disabled}
    >
      <legend className="float-left w-full">
        <Prompt question={question} number={number} />
      </legend>
      <div className="clear-both pt-2">
        {question.help && <Hint id={`${id}-help`}>{question.help}</Hint>}
        {isMultiple && (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("question.pickMany")}</p>
        )}
        <div className={`mt-3 ${layout.list}`}>
          {choices.map((choice) => {
            const isChosen = chosen.has(choice.value);
            return (
              <label
                key={String(choice.value)}
                className={`relative ${layout.item} has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
                  isChosen
                    ? layout.chosen
                    : "border-slate-300 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
                } ${disabled ? "cursor-not-allowed opacity-70" : "cursor-pointer hover:border-brand-500"}`}
              >
                <input
                  type={isMultiple ? "checkbox" : "radio"}
                  name={id}
                  value={String(choice.value)}
                  checked={isChosen}
                  onChange={(event) => pick(choice, event.target.checked)}
                  aria-label={choice.name}
                  className={layout.input}
                />
                {choice.label}
              </label>
            );
          })}
        </div>
        {ends && (
          <p
            aria-hidden="true"
            className="mt-2 flex justify-between gap-4 text-xs text-slate-600 dark:text-slate-300"
          >
            <span>{question.lowLabel}</span>
            <span className="text-right">{question.highLabel}</span>
          </p>
        )}
        {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
      </div>
    </fieldset>
  );
}

/** How each kind lays its choices out: numbers in a row, faces in a row, choices one a line. */
interface Layout {
  list: string;
  item: string;
  input: string;
  /** A chosen answer: filled for a number, outlined and tinted for a face or a choice. */
  chosen: string;
}

/** The radio button itself, unseen over its whole card: a tap or click anywhere on the card chooses. */
const COVERING_INPUT =
  "absolute inset-0 m-0 size-full cursor-pointer appearance-none opacity-0 disabled:cursor-not-allowed";

const NUMBER_CHOSEN =
  "border-brand-600 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-500 dark:text-slate-950";
const CARD_CHOSEN =
  "border-brand-600 bg-brand-50 text-brand-900 ring-2 ring-brand-600 dark:border-brand-400 dark:bg-slate-800 dark:text-white dark:ring-brand-400";

const LIST_LAYOUT: Layout = {
  list: "grid gap-2",
  item: "flex min-h-11 items-center gap-3 rounded-lg border-2 px-3 py-2 text-base",
  input: "size-5 shrink-0 accent-brand-600",
  chosen: CARD_CHOSEN,
};

const LAYOUTS: Partial<Record<QuestionKind, Layout>> = {
  scale: {
    list: "grid grid-cols-5 gap-2",
    item: "flex min-h-12 items-center justify-center rounded-lg border-2 text-lg font-bold tabular-nums",
    input: COVERING_INPUT,
    chosen: NUMBER_CHOSEN,
  },
  nps: {
    list: "grid grid-cols-6 gap-1.5 sm:grid-cols-11",
    item: "flex min-h-11 items-center justify-center rounded-lg border-2 text-base font-bold tabular-nums",
    input: COVERING_INPUT,
    chosen: NUMBER_CHOSEN,
  },
  mood: {
    list: "grid grid-cols-5 gap-1.5 sm:gap-2",
    item: "flex min-h-20 flex-col items-center justify-center gap-1 rounded-xl border-2 px-1 py-2 text-center",
    input: COVERING_INPUT,
    chosen: CARD_CHOSEN,
  },
};

function choicesOf(question: Question, t: TFunction<"surveys">): Choice[] {
  if (question.kind === "mood")
    return MOOD_FACES.map((face, index) => {
      const word = t(`mood.${index + 1}`);
      return {
        value: index + 1,
        name: word,
        label: (
          <>
            <span aria-hidden="true" className="text-3xl leading-none">
              {face}
            </span>
            <span aria-hidden="true" className="text-xs font-semibold leading-tight">
              {word}
            </span>
          </>
        ),
      };
    });
  const range = NUMBER_RANGES[question.kind];
  if (range) {
    return Array.from({ length: range.max - range.min + 1 }, (_, index) => {
      const value = range.min + index;
      const end = value === range.min ? question.lowLabel : value === range.max ? question.highLabel : null;
      return {
        value,
        label: <span aria-hidden="true">{formatNumber(value)}</span>,
        name: end ? t("question.numberWithEnd", { value, end }) : formatNumber(value),
      };
    });
  }
  return question.options.map((option) => ({ value: option.id, label: <span>{option.label}</span> }));
}

/** A short line or a longer text, with how much of it is left for a long one. */
function TextQuestion({ question, number, value, onChange, error, disabled }: QuestionFieldProps) {
  const { t } = useTranslation("surveys");
  const id = useId();
  const text = typeof value === "string" ? value : "";
  const limit = TEXT_LIMITS[question.kind as keyof typeof TEXT_LIMITS];
  const field = {
    id: `${id}-field`,
    value: text,
    maxLength: limit,
    disabled,
    "aria-describedby": [
      describedBy(id, question, error),
      question.kind === "long_text" ? `${id}-count` : null,
    ]
      .filter(Boolean)
      .join(" "),
    "aria-invalid": error ? true : undefined,
    onChange: (event: { target: { value: string } }) => onChange?.(event.target.value),
    className:
      "mt-3 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 disabled:opacity-70 dark:border-slate-700 dark:bg-slate-950",
  };
  return (
    <div data-question={question.id} className={error ? CARD_WITH_ERROR : CARD}>
      <label htmlFor={field.id} className="block">
        <Prompt question={question} number={number} />
      </label>
      {question.help && <Hint id={`${id}-help`}>{question.help}</Hint>}
      {question.kind === "long_text" ? <textarea rows={5} {...field} /> : <input type="text" {...field} />}
      {question.kind === "long_text" && (
        <p
          id={`${id}-count`}
          className="mt-1 text-right text-xs text-slate-600 tabular-nums dark:text-slate-300"
        >
          {t("question.characters", { used: text.length, limit })}
        </p>
      )}
      {error && <ErrorText id={`${id}-error`}>{error}</ErrorText>}
    </div>
  );
}
