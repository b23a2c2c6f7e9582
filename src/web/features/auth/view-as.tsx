import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useDeferredValue, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { Card } from "../../components/page-header";
import { buttonClass, TextField } from "../../components/ui/form";
import { ApiRequestError } from "../../lib/http";
import { fetchChildren, startImpersonation, viewableUsersQuery } from "./api";
import { fullName } from "./auth-state";

export const SELECTED_CHILD_KEY = "dash-selected-child";
const PAGE_SIZE = 25;
// The most the server lists at once; past it, searching narrows the list.
const MAX_LISTED = 100;

/**
 * Finds people the caller may view Dash as (everyone for an administrator; a Guide's students and
 * their families for a Guide) and starts viewing as one of them, with a reason.
 */
export function ViewAsPanel({ title, description }: { title: string; description: string }) {
  const { t } = useTranslation("auth");
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const [limit, setLimit] = useState(PAGE_SIZE);
  const people = useQuery({
    ...viewableUsersQuery(deferredSearch, limit),
    placeholderData: keepPreviousData,
  });
  const [target, setTarget] = useState<PersonSummary | null>(null);

  return (
    <Card>
      <h2 className="text-lg font-bold">{title}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
      <TextField
        label={t("viewAs.search")}
        type="search"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setLimit(PAGE_SIZE);
        }}
        placeholder={t("viewAs.searchPlaceholder")}
        className="mt-4 max-w-md"
      />
      {people.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {people.error.message}
        </p>
      )}
      {people.data && (
        <>
          <p className="mt-3 text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
            {people.data.total === 0
              ? t("viewAs.nobody")
              : t("viewAs.showing", { shown: people.data.data.length, total: people.data.total })}
          </p>
          <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800">
            {people.data.data.map((person) => (
              <li key={person.sourcedId} className="flex items-center justify-between gap-3 py-2.5">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{fullName(person)}</p>
                  <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                    {[person.roles.map((role) => t(`common:roles.${role}`)).join(", "), person.email]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => setTarget(person)}
                  aria-label={t("viewAs.viewAsName", { name: fullName(person) })}
                  className="shrink-0 rounded-lg border border-brand-600 px-3 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-slate-800"
                >
                  {t("viewAs.viewAs")}
                </button>
              </li>
            ))}
          </ul>
          {people.data.data.length < people.data.total &&
            (limit < MAX_LISTED ? (
              <button
                type="button"
                onClick={() => setLimit(limit + PAGE_SIZE)}
                className={buttonClass("secondary", "mt-3")}
              >
                {t("viewAs.showMore")}
              </button>
            ) : (
              <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("viewAs.searchForOthers")}</p>
            ))}
        </>
      )}
      {target && <ViewAsDialog person={target} onClose={() => setTarget(null)} />}
    </Card>
  );
}

function ViewAsDialog({ person, onClose }: { person: PersonSummary; onClose: () => void }) {
  const { t } = useTranslation("auth");
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(false);
  const reasonId = useId();
  const titleId = useId();

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsStarting(true);
    setFailure(null);
    try {
      await startImpersonation({ userId: person.sourcedId, reason });
      // Viewing as a parent or guardian starts with their first child selected.
      if (person.roles.includes("parent") || person.roles.includes("guardian")) {
        const children = await fetchChildren().catch(() => null);
        const first = children?.data[0]?.sourcedId;
        if (first) localStorage.setItem(SELECTED_CHILD_KEY, first);
      }
      window.location.assign("/app");
    } catch (error) {
      setFailure(error instanceof ApiRequestError ? error.message : t("viewAs.failed"));
      setIsStarting(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-2xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <form onSubmit={submit}>
        <h2 id={titleId} className="text-lg font-bold">
          {t("viewAs.viewAsName", { name: fullName(person) })}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("viewAs.explanation")}</p>
        <label htmlFor={reasonId} className="mt-4 block text-sm font-medium">
          {t("viewAs.reason")}
        </label>
        <textarea
          id={reasonId}
          required
          minLength={3}
          maxLength={500}
          rows={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 dark:border-slate-700 dark:bg-slate-950"
        />
        {failure && (
          <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
            {failure}
          </p>
        )}
        <div className="mt-5 flex justify-end gap-3">
          <button type="button" onClick={() => dialog.current?.close()} className={buttonClass("secondary")}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={isStarting} className={buttonClass("primary")}>
            {isStarting ? t("viewAs.starting") : t("viewAs.start")}
          </button>
        </div>
      </form>
    </dialog>
  );
}
