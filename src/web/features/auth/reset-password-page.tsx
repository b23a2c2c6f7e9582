import { useNavigate, useSearch } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { checkPassword } from "../../../shared/password-policy";
import type { searchSchemas } from "../../../shared/routes";
import { Brand } from "../../components/brand";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { ApiRequestError } from "../../lib/http";
import { resetPassword } from "./api";
import { NewPasswordField, passwordProblemMessage } from "./password-fields";

/**
 * The page of a one-time link: the person chooses a new password, then signs in with it. The
 * token is read once and dropped from the address, so it stays out of the history and of any
 * Referer (the server also sends `Referrer-Policy: no-referrer` with this page).
 */
export function ResetPasswordPage() {
  const { t } = useTranslation("auth");
  const search = useSearch({ strict: false }) as z.output<typeof searchSchemas.resetPassword>;
  const navigate = useNavigate();
  const [token] = useState(() => search.token ?? null);
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const [isDone, setIsDone] = useState(false);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, after the token was read
  useEffect(() => {
    if (search.token) void navigate({ to: "/reset-password", search: {}, replace: true });
  }, []);
  useEffect(() => {
    if (isDone) doneHeading.current?.focus();
  }, [isDone]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!token) return;
    const [problem] = checkPassword(password);
    setFieldError(problem ? passwordProblemMessage(problem.code) : null);
    if (problem) return;
    setIsSaving(true);
    try {
      await resetPassword({ token, newPassword: password });
      setIsDone(true);
    } catch (error) {
      // A refused password is about the field; anything else (the link, too many tries) about the page.
      const isAboutPassword = error instanceof ApiRequestError && error.code === "validation_failed";
      const message = failureMessage(error, t("resetPassword.unreachable"));
      if (isAboutPassword) setFieldError(message);
      else setLinkError(message);
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 via-white to-amber-50 px-4 py-10 dark:from-slate-950 dark:via-slate-950 dark:to-slate-900">
      <div className="w-full max-w-md">
        <div className="mb-6 flex justify-center">
          <Brand size="lg" />
        </div>
        <section className="rounded-2xl border border-slate-200 bg-white p-8 shadow-lg dark:border-slate-800 dark:bg-slate-900">
          {isDone ? (
            <>
              <h1 ref={doneHeading} tabIndex={-1} className="text-2xl font-bold">
                {t("resetPassword.doneHeading")}
              </h1>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t("resetPassword.doneBody")}</p>
              <a
                href="/login"
                className={buttonClass("primary", "mt-6 block w-full py-2.5 text-center text-base")}
              >
                {t("resetPassword.signIn")}
              </a>
            </>
          ) : (
            <>
              <h1 className="text-2xl font-bold">{t("resetPassword.heading")}</h1>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("resetPassword.intro")}</p>
              {!token && (
                <p
                  role="alert"
                  className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
                >
                  {t("resetPassword.noToken")}
                </p>
              )}
              {linkError && (
                <p
                  role="alert"
                  className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
                >
                  {linkError}
                </p>
              )}
              {token && (
                <form onSubmit={submit} noValidate className="mt-6 space-y-4">
                  <NewPasswordField
                    value={password}
                    onChange={(value) => {
                      setPassword(value);
                      setFieldError(null);
                    }}
                    context={null}
                    error={fieldError}
                    autoFocus
                  />
                  {fieldError && (
                    <p role="alert" className="sr-only">
                      {fieldError}
                    </p>
                  )}
                  <button
                    type="submit"
                    disabled={isSaving}
                    className={buttonClass("primary", "w-full py-2.5 text-base")}
                  >
                    {isSaving ? t("resetPassword.saving") : t("resetPassword.submit")}
                  </button>
                </form>
              )}
            </>
          )}
        </section>
      </div>
    </main>
  );
}
