import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter, useSearch } from "@tanstack/react-router";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { safeRedirectPath } from "../../../shared/redirect";
import type { searchSchemas } from "../../../shared/routes";
import { Brand } from "../../components/brand";
import { LanguageSelect } from "../../components/language-select";
import { buttonClass, TextField } from "../../components/ui/form";
import { ApiRequestError } from "../../lib/http";
import { chooseLanguageOnDevice } from "../../lib/language";
import { authKeys, demoAccountsQuery, signIn } from "./api";
import { afterSignInPath, describeLoginError } from "./login-redirect";

export function LoginPage() {
  const { t } = useTranslation("auth");
  const search = useSearch({ strict: false }) as z.output<typeof searchSchemas.login>;
  const router = useRouter();
  const queryClient = useQueryClient();
  const demo = useQuery(demoAccountsQuery);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const messageId = useId();
  const message = failure ?? describeLoginError(search, t);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setIsSubmitting(true);
    setFailure(null);
    try {
      const me = await signIn({ email, password });
      queryClient.setQueryData(authKeys.me, me);
      router.history.push(afterSignInPath(search, safeRedirectPath(search.redirect)));
    } catch (error) {
      setFailure(error instanceof ApiRequestError ? error.message : t("login.unreachable"));
      setIsSubmitting(false);
    }
  }

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 via-white to-amber-50 px-4 py-10 dark:from-slate-950 dark:via-slate-950 dark:to-slate-900">
      <div className="w-full max-w-md">
        <div className="mb-6 flex items-center justify-between">
          <Brand size="lg" />
          <LanguageSelect choose={(language) => void chooseLanguageOnDevice(language)} />
        </div>
        <section className="rounded-2xl border border-slate-200 bg-white p-8 shadow-lg dark:border-slate-800 dark:bg-slate-900">
          <h1 className="text-2xl font-bold">{t("login.heading")}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("login.tagline")}</p>
          {message && (
            <p
              id={messageId}
              role="alert"
              className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
            >
              {message}
            </p>
          )}
          <form className="mt-6 space-y-4" onSubmit={submit} noValidate>
            <TextField
              label={t("login.email")}
              name="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              aria-describedby={message ? messageId : undefined}
            />
            <TextField
              label={t("login.password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <button
              type="submit"
              disabled={isSubmitting}
              className={buttonClass("primary", "w-full py-2.5 text-base")}
            >
              {isSubmitting ? t("login.submitting") : t("login.submit")}
            </button>
          </form>
        </section>
        {demo.data && demo.data.accounts.length > 0 && (
          <section
            aria-labelledby="demo-accounts"
            className="mt-6 rounded-2xl border border-dashed border-slate-300 bg-white/70 p-5 dark:border-slate-700 dark:bg-slate-900/70"
          >
            <h2 id="demo-accounts" className="text-sm font-semibold">
              {t("login.demoHeading")}
            </h2>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {t("login.demoPassword")} <code className="font-mono font-semibold">{demo.data.password}</code>
            </p>
            <p className="text-xs text-slate-600 dark:text-slate-400">{t("login.demoChoose")}</p>
            <ul className="mt-3 grid gap-2 sm:grid-cols-2">
              {demo.data.accounts.map((account) => (
                <li key={account.email}>
                  <button
                    type="button"
                    onClick={() => {
                      setEmail(account.email);
                      setPassword(demo.data.password ?? "");
                    }}
                    className="w-full rounded-lg border border-slate-200 bg-white px-3 py-2 text-left text-sm hover:border-brand-500 hover:bg-brand-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
                  >
                    <span className="block font-medium">{account.email}</span>
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      {account.description}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </main>
  );
}
