import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useDeferredValue, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { Card } from "../../components/page-header";
import { buttonClass, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { ApiRequestError } from "../../lib/http";
import { fetchChildren, startImpersonation, VIEWABLE_PAGE, viewablePeopleQuery } from "./api";
import { fullName } from "./auth-state";
import { PersonIdentity } from "./person-identity";

export const SELECTED_CHILD_KEY = "dash-selected-child";

/**
 * Finds people the caller may view Dash as and starts viewing as one of them, with a reason:
 * anyone for an administrator; for a Guide (`byStudent`) their students, each with their family.
 */
export function ViewAsPanel({
  title,
  description,
  byStudent = false,
}: {
  title: string;
  description: string;
  byStudent?: boolean;
}) {
  const { t } = useTranslation("auth");
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const [offset, setOffset] = useState(0);
  const people = useQuery({
    ...viewablePeopleQuery(deferredSearch, offset, byStudent),
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
          setOffset(0);
        }}
        placeholder={t("viewAs.searchPlaceholder")}
        className="mt-4 max-w-md"
      />
      {people.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {people.error.message}
        </p>
      )}
      {people.data &&
        (people.data.total === 0 ? (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
            {t("viewAs.nobody")}
          </p>
        ) : (
          <>
            <ul className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
              {people.data.data.map((person) => (
                <li key={person.sourcedId} className="py-2.5">
                  <PersonRow person={person} onView={setTarget} />
                  {person.families && person.families.length > 0 && (
                    <ul
                      aria-label={t("viewAs.familyOf", { name: fullName(person) })}
                      className="mt-1 ml-6 border-l-2 border-slate-100 pl-4 dark:border-slate-800"
                    >
                      {person.families.map((member) => (
                        <li key={member.sourcedId} className="py-1.5">
                          <PersonRow person={member} onView={setTarget} />
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
            <Pager
              offset={offset}
              limit={VIEWABLE_PAGE}
              total={people.data.total}
              onChange={setOffset}
              label={t(byStudent ? "viewAs.pagerStudents" : "viewAs.pagerPeople")}
            />
          </>
        ))}
      {target && <ViewAsDialog person={target} onClose={() => setTarget(null)} />}
    </Card>
  );
}

/** A person with their roles and email, and the button that views Dash as them. */
function PersonRow({ person, onView }: { person: PersonSummary; onView: (person: PersonSummary) => void }) {
  const { t } = useTranslation("auth");
  return (
    <div className="flex items-center justify-between gap-3">
      <PersonIdentity person={person} className="min-w-0 flex-1" />
      <button
        type="button"
        onClick={() => onView(person)}
        aria-label={t("viewAs.viewAsName", { name: fullName(person) })}
        className="shrink-0 rounded-lg border border-brand-600 px-3 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-slate-800"
      >
        {t("viewAs.viewAs")}
      </button>
    </div>
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
