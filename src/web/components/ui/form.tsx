import { type InputHTMLAttributes, type SelectHTMLAttributes, useId } from "react";

const INPUT_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm placeholder:text-slate-400 focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

/** A labelled text input: the label names the field for screen readers and for tests. */
export function TextField({
  label,
  className = "",
  ...input
}: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input id={id} className={INPUT_CLASS} {...input} />
    </div>
  );
}

/** A compact number input, figures lined up (tabular numbers). */
export const NUMBER_INPUT_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base tabular-nums shadow-sm dark:border-slate-700 dark:bg-slate-950";

/** A labelled number input, with a hint under it that screen readers read with the field. */
export function NumberField({
  label,
  hint,
  className = "",
  ...input
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={NUMBER_INPUT_CLASS}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}

const BUTTON_CLASSES = {
  primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 border border-brand-600",
  secondary:
    "border border-slate-300 bg-white hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800",
  /** A step that removes, refuses or takes something away. */
  danger: "border border-red-700 bg-red-700 text-white shadow-sm hover:bg-red-800",
} as const;

/** The classes of a button (or a link styled as one). */
export function buttonClass(kind: keyof typeof BUTTON_CLASSES, extra = ""): string {
  return `rounded-lg px-4 py-2 text-sm font-semibold disabled:opacity-60 ${BUTTON_CLASSES[kind]} ${extra}`;
}

const SELECT_CLASS =
  "mt-1 block h-[2.875rem] w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

/** A labelled select; `options` are value and label pairs. */
export function SelectField({
  label,
  options,
  className = "",
  ...select
}: {
  label: string;
  options: readonly { value: string; label: string; disabled?: boolean }[];
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className={SELECT_CLASS} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A choice between giving and taking away (award or deduct, bonus or debit): radio buttons drawn as
 * cards, green for what adds and red for what takes away, each with an optional line under it.
 */
export function GainOrLossChoice<Value extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  /** The radio group's name, unique on the page. */
  name: string;
  options: readonly { value: Value; label: string; hint?: string; adds: boolean }[];
  value: Value;
  onChange: (value: Value) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-1 grid grid-cols-2 gap-2 sm:max-w-sm">
        {options.map((option) => (
          <label
            key={option.value}
            className={`flex cursor-pointer flex-col rounded-lg border-2 px-3 py-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
              value === option.value
                ? option.adds
                  ? "border-emerald-600 bg-emerald-50 dark:border-emerald-400 dark:bg-emerald-950"
                  : "border-red-600 bg-red-50 dark:border-red-400 dark:bg-red-950"
                : "border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-950"
            }`}
          >
            <span className="flex items-center gap-2 font-semibold">
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                className="size-4 accent-brand-600"
              />
              {option.label}
            </span>
            {option.hint && <span className="text-xs text-slate-600 dark:text-slate-300">{option.hint}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
