import { type ErrorComponentProps, Link, useRouter } from "@tanstack/react-router";
import { useState } from "react";

/** The route error screen: the error, `Try Again`, and `Home` on the root route or `Go Back` elsewhere. */
export function RouteError({ error, reset, isRoot = false }: ErrorComponentProps & { isRoot?: boolean }) {
  const router = useRouter();
  const [isShowingError, setIsShowingError] = useState(false);
  const buttonClass =
    "rounded-lg px-4 py-2 text-sm font-semibold shadow-sm border border-slate-300 bg-white hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800";
  return (
    <div
      role="alert"
      className="mx-auto mt-16 max-w-lg rounded-2xl border border-red-200 bg-white p-8 shadow-sm dark:border-red-900 dark:bg-slate-900"
    >
      <h1 className="text-xl font-bold text-red-700 dark:text-red-400">Something went wrong!</h1>
      <button
        type="button"
        className="mt-2 text-sm text-slate-600 underline dark:text-slate-300"
        onClick={() => setIsShowingError((shown) => !shown)}
      >
        {isShowingError ? "Hide error" : "Show error"}
      </button>
      {isShowingError && (
        <pre className="mt-3 overflow-auto rounded-lg bg-red-50 p-3 text-sm whitespace-pre-wrap text-red-900 dark:bg-red-950 dark:text-red-200">
          {error instanceof Error ? error.message : String(error)}
        </pre>
      )}
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          className={`${buttonClass} bg-brand-600 text-white hover:bg-brand-700 border-brand-600 dark:bg-brand-600`}
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          Try Again
        </button>
        {isRoot ? (
          <Link to="/app" className={buttonClass}>
            Home
          </Link>
        ) : (
          <button type="button" className={buttonClass} onClick={() => router.history.back()}>
            Go Back
          </button>
        )}
      </div>
    </div>
  );
}
