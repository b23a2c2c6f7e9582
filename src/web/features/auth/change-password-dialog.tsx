import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuthUser } from "../../../shared/contracts/auth";
import { checkPassword } from "../../../shared/password-policy";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { ApiRequestError } from "../../lib/http";
import { changePassword } from "./api";
import { NewPasswordField, PasswordField, passwordProblemMessage } from "./password-fields";

interface Problems {
  current?: string;
  next?: string;
  form?: string;
}

/**
 * Where the server's refusal belongs: beside the field it is about, or above the buttons. The
 * field is the one its issues name (their words are in the shown language, so only the path tells).
 */
export function problemsOf(error: unknown, unreachable: string): Problems {
  if (!(error instanceof ApiRequestError)) return { form: failureMessage(error, unreachable) };
  if (error.status === 400) {
    const current = error.issues.find((issue) => issue.path === "currentPassword");
    if (current) return { current: current.message };
    return { next: error.message };
  }
  return { form: error.message };
}

/** A signed-in person changes their own password; their other devices are signed out. */
export function ChangePasswordDialog({ user, onClose }: { user: AuthUser; onClose: () => void }) {
  const { t } = useTranslation("auth");
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [problems, setProblems] = useState<Problems>({});
  const [isSaving, setIsSaving] = useState(false);
  const [done, setDone] = useState<{ otherSessionsEnded: number } | null>(null);
  const context = { email: user.email, givenName: user.givenName, familyName: user.familyName };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Problems = {};
    if (!current) found.current = t("changePassword.enterCurrent");
    const [nextProblem] = checkPassword(next, { context });
    if (nextProblem) found.next = passwordProblemMessage(nextProblem.code);
    setProblems(found);
    if (found.current || found.next) return;
    setIsSaving(true);
    try {
      setDone(await changePassword({ currentPassword: current, newPassword: next }));
    } catch (error) {
      setProblems(problemsOf(error, t("changePassword.unreachable")));
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Dialog
      title={t("changePassword.title")}
      description={done ? undefined : t("changePassword.description")}
      onClose={onClose}
    >
      {done ? (
        <div>
          <p
            role="status"
            className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
          >
            {t("changePassword.done")}
            {done.otherSessionsEnded > 0 &&
              ` ${t("changePassword.otherDevices", { count: done.otherSessionsEnded })}`}
          </p>
          <div className="mt-6 flex justify-end">
            {/* biome-ignore lint/a11y/noAutofocus: the dialog's only button after the change */}
            <button type="button" autoFocus onClick={onClose} className={buttonClass("primary")}>
              {t("changePassword.close")}
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="mt-4 space-y-4">
          <PasswordField
            label={t("changePassword.current")}
            name="current-password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => {
              setCurrent(event.target.value);
              setProblems({ ...problems, current: undefined });
            }}
            error={problems.current}
            autoFocus
          />
          <NewPasswordField
            value={next}
            onChange={(value) => {
              setNext(value);
              setProblems({ ...problems, next: undefined });
            }}
            context={context}
            error={problems.next}
          />
          {problems.form && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {problems.form}
            </p>
          )}
          {(problems.current || problems.next) && (
            <p role="alert" className="sr-only">
              {[problems.current, problems.next].filter(Boolean).join(". ")}
            </p>
          )}
          <div className="flex justify-end gap-3 pt-2">
            <button type="button" onClick={onClose} className={buttonClass("secondary")}>
              {t("common:dialog.cancel")}
            </button>
            <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
              {isSaving ? t("changePassword.saving") : t("changePassword.submit")}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
