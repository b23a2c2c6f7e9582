import { type ReactNode, useId } from "react";
import { failureMessage } from "../../components/ui/dialog";
import { ApiRequestError } from "../../lib/http";

/** Form pieces of the administrators' rewards pages: a field with its hint and its problem. */

export const ADMIN_INPUT_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm placeholder:text-slate-500 focus:border-brand-600 aria-[invalid=true]:border-red-600 dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400 dark:aria-[invalid=true]:border-red-400";

/** What went wrong with a form: per field (by the field's path) and for the form as a whole. */
export interface FormProblems {
  fields: Record<string, string>;
  form?: string;
}

/**
 * Where the server's refusal belongs: beside each field its issues name (`fieldOf` maps an
 * issue's path to a field of the form, or null), else above the buttons.
 */
export function problemsOf(
  error: unknown,
  fallback: string,
  fieldOf: (path: string) => string | null = (path) => path,
): FormProblems {
  if (!(error instanceof ApiRequestError)) return { fields: {}, form: failureMessage(error, fallback) };
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const issue of error.issues) {
    const field = issue.path ? fieldOf(issue.path) : null;
    if (field && !fields[field]) fields[field] = issue.message;
    else if (!field) unplaced.push(issue.message);
  }
  const placedAll = error.issues.length > 0 && unplaced.length === 0;
  return { fields, form: placedAll ? undefined : unplaced.join(" ") || error.message || fallback };
}

/** Ids and ARIA links of one input: its label, its hint and its problem are read with it. */
export interface FieldControl {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/** A labelled field with an optional one-line hint and the problem found with it. */
export function AdminField({
  label,
  hint,
  error,
  className = "",
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : null;
  const errorId = error ? `${id}-error` : null;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({ id, "aria-describedby": describedBy, ...(error && { "aria-invalid": true }) })}
      {error && (
        <p id={errorId ?? undefined} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId ?? undefined} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The form's problems read out at once (each also shows beside its field). */
export function ProblemsAlert({ problems }: { problems: FormProblems }) {
  const fieldProblems = Object.values(problems.fields).filter(Boolean);
  return (
    <>
      {problems.form && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {problems.form}
        </p>
      )}
      {!problems.form && fieldProblems.length > 0 && (
        <p role="alert" className="sr-only">
          {fieldProblems.join(". ")}
        </p>
      )}
    </>
  );
}

/** A green line saying what a change did. */
export function SuccessNote({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <p
      className={`${className} rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100`}
    >
      {children}
    </p>
  );
}
