import { type FormEvent, useState } from "react";
import { type AuthUser, WRONG_CURRENT_PASSWORD } from "../../../shared/contracts/auth";
import { checkPassword } from "../../../shared/password-policy";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { ApiRequestError } from "../../lib/http";
import { changePassword } from "./api";
import { NewPasswordField, PasswordField } from "./password-fields";

interface Problems {
  current?: string;
  next?: string;
  form?: string;
}

/** Where the server's refusal belongs: beside the field it is about, or above the buttons. */
function problemsOf(error: unknown): Problems {
  if (!(error instanceof ApiRequestError))
    return { form: failureMessage(error, "Could not reach Dash. Try again.") };
  if (error.message === WRONG_CURRENT_PASSWORD) return { current: error.message };
  if (error.status === 400) return { next: error.message };
  return { form: error.message };
}

/** A signed-in person changes their own password; their other devices are signed out. */
export function ChangePasswordDialog({ user, onClose }: { user: AuthUser; onClose: () => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [problems, setProblems] = useState<Problems>({});
  const [isSaving, setIsSaving] = useState(false);
  const [done, setDone] = useState<{ otherSessionsEnded: number } | null>(null);
  const context = { email: user.email, givenName: user.givenName, familyName: user.familyName };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Problems = {};
    if (!current) found.current = "Enter your current password";
    const [nextProblem] = checkPassword(next, { context });
    if (nextProblem) found.next = nextProblem.message;
    setProblems(found);
    if (found.current || found.next) return;
    setIsSaving(true);
    try {
      setDone(await changePassword({ currentPassword: current, newPassword: next }));
    } catch (error) {
      setProblems(problemsOf(error));
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Dialog
      title="Change password"
      description={done ? undefined : "Choose a new password for your own account."}
      onClose={onClose}
    >
      {done ? (
        <div>
          <p
            role="status"
            className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
          >
            Your password is changed. You stay signed in here.
            {done.otherSessionsEnded > 0 &&
              ` ${done.otherSessionsEnded === 1 ? "One other device was" : `${done.otherSessionsEnded} other devices were`} signed out.`}
          </p>
          <div className="mt-6 flex justify-end">
            {/* biome-ignore lint/a11y/noAutofocus: the dialog's only button after the change */}
            <button type="button" autoFocus onClick={onClose} className={buttonClass("primary")}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="mt-4 space-y-4">
          <PasswordField
            label="Current password"
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
              Cancel
            </button>
            <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
              {isSaving ? "Saving…" : "Change password"}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
