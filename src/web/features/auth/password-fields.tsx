import { Check, Dot, type LucideIcon, X } from "lucide-react";
import { type InputHTMLAttributes, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  checkPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULES,
  type PasswordContext,
  type PasswordProblem,
  type PasswordProblemCode,
} from "../../../shared/password-policy";
import { i18next } from "../../lib/i18n";

/** The limits the password rules and problems speak of. */
export const PASSWORD_LIMITS = { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH };

/** A problem of a password in the shown language (the server answers its own refusals). */
export function passwordProblemMessage(code: PasswordProblemCode): string {
  return i18next.t(`auth:password.problems.${code}`, PASSWORD_LIMITS);
}

const INPUT_CLASS =
  "block w-full min-w-0 rounded-lg border bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:bg-slate-950";

/**
 * A password input with a Show button (people who can see what they type make fewer mistakes)
 * and its error beside it, read by screen readers with the field.
 */
export function PasswordField({
  label,
  error,
  describedBy,
  className = "",
  ...input
}: {
  label: string;
  error?: string | null;
  /** Ids of other text that describes the field (the rules). */
  describedBy?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const { t } = useTranslation("auth");
  const id = useId();
  const [isShown, setIsShown] = useState(false);
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          type={isShown ? "text" : "password"}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : null, describedBy].filter(Boolean).join(" ") || undefined}
          className={`${INPUT_CLASS} ${error ? "border-red-600 dark:border-red-400" : "border-slate-300 dark:border-slate-700"}`}
          {...input}
        />
        <button
          type="button"
          onClick={() => setIsShown(!isShown)}
          aria-pressed={isShown}
          aria-label={t("password.showField", { field: label.toLowerCase() })}
          className="shrink-0 rounded-lg border border-slate-300 px-3 text-sm font-semibold hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {isShown ? t("password.hide") : t("password.show")}
        </button>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}

type RuleState = "met" | "broken" | "unchecked";

/** Each rule's state for what is typed so far; commonness (and, without a context, names) the server checks. */
function ruleStates(password: string, context: PasswordContext | null): RuleState[] {
  const problems: PasswordProblem[] = password ? checkPassword(password, { context: context ?? {} }) : [];
  return PASSWORD_RULES.map((rule) => {
    if (!password || rule.codes.includes("common") || (!context && rule.codes.includes("personal")))
      return "unchecked";
    return problems.some((problem) => rule.codes.includes(problem.code)) ? "broken" : "met";
  });
}

const RULE_MARKS: Record<RuleState, { Mark: LucideIcon; className: string }> = {
  met: { Mark: Check, className: "text-emerald-700 dark:text-emerald-300" },
  broken: { Mark: X, className: "text-red-700 dark:text-red-300" },
  unchecked: { Mark: Dot, className: "text-slate-500 dark:text-slate-400" },
};

/**
 * The field of a new password with the policy's rules under it, each marked as the person types.
 * `context` is the person (their words are checked live); without it the server checks them.
 */
export function NewPasswordField({
  value,
  onChange,
  context,
  error,
  label,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  context: PasswordContext | null;
  error?: string | null;
  label?: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation("auth");
  const rulesId = useId();
  const states = ruleStates(value, context);
  return (
    <div>
      <PasswordField
        label={label ?? t("password.newLabel")}
        name="new-password"
        autoComplete="new-password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error}
        describedBy={rulesId}
        autoFocus={autoFocus}
      />
      <ul id={rulesId} aria-label={t("password.rulesLabel")} className="mt-2 space-y-1 text-sm">
        {PASSWORD_RULES.map((rule, index) => {
          const ruleState = states[index] ?? "unchecked";
          const state = RULE_MARKS[ruleState];
          return (
            <li key={rule.id} className="flex gap-2">
              <state.Mark
                aria-hidden="true"
                strokeWidth={3}
                className={`mt-0.5 size-4 shrink-0 ${state.className}`}
              />
              <span className="text-slate-700 dark:text-slate-300">
                {t(`password.rules.${rule.id}`, PASSWORD_LIMITS)}
                {ruleState !== "unchecked" && (
                  <span className="sr-only"> {t(`password.ruleState.${ruleState}`)}</span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
