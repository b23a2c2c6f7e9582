import { type ErrorComponentProps, Link, useRouter } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "./ui/form";

/** The route error screen: the error, `Try Again`, and `Home` on the root route or `Go Back` elsewhere. */
export function RouteError({ error, reset, isRoot = false }: ErrorComponentProps & { isRoot?: boolean }) {
  const { t } = useTranslation();
  const router = useRouter();
  const [isShowingError, setIsShowingError] = useState(false);
  return (
    <div
      role="alert"
      className="mx-auto mt-16 max-w-lg rounded-2xl border border-red-200 bg-white p-8 shadow-sm dark:border-red-900 dark:bg-slate-900"
    >
      <h1 className="text-xl font-bold text-red-700 dark:text-red-400">{t("routeError.heading")}</h1>
      <button
        type="button"
        className="mt-2 text-sm text-slate-600 underline dark:text-slate-300"
        onClick={() => setIsShowingError((shown) => !shown)}
      >
        {isShowingError ? t("routeError.hide") : t("routeError.show")}
      </button>
      {isShowingError && (
        <pre className="mt-3 overflow-auto rounded-lg bg-red-50 p-3 text-sm whitespace-pre-wrap text-red-900 dark:bg-red-950 dark:text-red-200">
          {error instanceof Error ? error.message : String(error)}
        </pre>
      )}
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          className={buttonClass("primary")}
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          {t("routeError.retry")}
        </button>
        {isRoot ? (
          <Link to="/app" className={buttonClass("secondary")}>
            {t("routeError.home")}
          </Link>
        ) : (
          <button type="button" className={buttonClass("secondary")} onClick={() => router.history.back()}>
            {t("routeError.back")}
          </button>
        )}
      </div>
    </div>
  );
}
