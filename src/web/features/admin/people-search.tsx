import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ManagedUser } from "../../../shared/contracts/people";
import type { DashRole } from "../../../shared/roles";
import { SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { gradeLabel } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { fullName } from "../auth/auth-state";
import { QueryError, Section } from "../home/parts";
import { USER_PAGE_SIZE, usersQuery } from "./api";

/** The Dash roles a person holds, highest first, without repeats: "Guide, Student". */
export function roleNames(user: Pick<ManagedUser, "roles">): string {
  const roles = [...new Set(user.roles.flatMap((entry) => (entry.role ? [entry.role] : [])))];
  return roles.map((role) => i18next.t(`common:roles.${role}`)).join(", ");
}

/**
 * A search for people on one side and what the chosen one holds on the other: the roles and the
 * relationships tabs. `pick` names both the button that chooses a person and the side that shows
 * them ("Roles" of someone).
 */
export function PersonPicker({
  title,
  description,
  searchLabel,
  roleChoices,
  pick,
  emptyDescription,
  emptyText,
  details,
}: {
  title: string;
  description: string;
  searchLabel: string;
  roleChoices: readonly { value: string; label: string }[];
  pick: string;
  /** What the other side says until someone is chosen. */
  emptyDescription: string;
  emptyText: ReactNode;
  details: (userId: string) => ReactNode;
}) {
  const { t } = useTranslation("admin");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <Section title={title} description={description}>
        <PeopleSearch
          label={searchLabel}
          roleChoices={roleChoices}
          selectedId={selectedId}
          action={(person) => (
            <button
              type="button"
              onClick={() => setSelectedId(person.sourcedId)}
              aria-label={t("peopleSearch.pickOf", { pick, name: fullName(person) })}
              aria-pressed={person.sourcedId === selectedId}
              className={SMALL_BUTTON}
            >
              {pick}
            </button>
          )}
        />
      </Section>
      {selectedId ? (
        details(selectedId)
      ) : (
        <Section title={pick} description={emptyDescription}>
          <p className="text-sm text-slate-600 dark:text-slate-300">{emptyText}</p>
        </Section>
      )}
    </div>
  );
}

/**
 * Finds people by name or email, narrowed by role, a page at a time; each found person gets the
 * action the caller renders (choose, link…).
 */
export function PeopleSearch({
  label,
  roleChoices,
  action,
  selectedId,
}: {
  label: string;
  /** The role filters offered; the first is the default. "parent,guardian" asks for either. */
  roleChoices: readonly { value: string; label: string }[];
  action: (person: ManagedUser) => ReactNode;
  selectedId?: string | null;
}) {
  const { t } = useTranslation("admin");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const [role, setRole] = useState(roleChoices[0]?.value ?? "");
  const [offset, setOffset] = useState(0);
  const people = useQuery({ ...usersQuery(deferred, role, offset), placeholderData: keepPreviousData });

  return (
    <div>
      <div
        className={`grid gap-3 sm:items-end ${roleChoices.length > 1 ? "sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" : ""}`}
      >
        <TextField
          label={label}
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setOffset(0);
          }}
          placeholder={t("peopleSearch.placeholder")}
        />
        {roleChoices.length > 1 && (
          <SelectField
            label={t("peopleSearch.role")}
            options={roleChoices}
            value={role}
            onChange={(event) => {
              setRole(event.target.value);
              setOffset(0);
            }}
          />
        )}
      </div>
      {people.isError && (
        <div className="mt-3">
          <QueryError
            error={people.error}
            fallback={t("peopleSearch.failed")}
            onRetry={() => people.refetch()}
          />
        </div>
      )}
      {people.data && (
        <>
          {people.data.total === 0 && (
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
              {t("peopleSearch.none")}
            </p>
          )}
          <ul
            className="mt-3 divide-y divide-slate-100 dark:divide-slate-800"
            aria-label={t("peopleSearch.results", { label })}
          >
            {people.data.data.map((person) => (
              <li
                key={person.sourcedId}
                className={`flex items-center justify-between gap-3 px-2 py-2.5 ${person.sourcedId === selectedId ? "rounded-lg bg-brand-50 dark:bg-slate-800" : ""}`}
              >
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{fullName(person)}</p>
                  <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                    {[
                      roleNames(person) || t("peopleSearch.noRole"),
                      person.grades.length ? gradeLabel(person.grades) : null,
                      person.email ?? person.username,
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </p>
                </div>
                {action(person)}
              </li>
            ))}
          </ul>
          <Pager
            offset={offset}
            limit={USER_PAGE_SIZE}
            total={people.data.total}
            onChange={setOffset}
            label={t("peopleSearch.pagerLabel")}
          />
        </>
      )}
    </div>
  );
}

export const SMALL_BUTTON =
  "shrink-0 rounded-lg border border-brand-600 px-3 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60 dark:text-brand-100 dark:hover:bg-slate-800";

export const DANGER_SMALL_BUTTON =
  "shrink-0 rounded-lg border border-red-700 px-3 py-1 text-sm font-semibold text-red-700 hover:bg-red-50 dark:border-red-400 dark:text-red-300 dark:hover:bg-slate-800";

const ALL_ROLES: (DashRole | "")[] = [
  "",
  "administrator",
  "teacher",
  "proctor",
  "parent",
  "guardian",
  "student",
];

/** The role filters over everyone, in the shown language: "Everyone", "Administrators", … */
export function allRoleChoices(): { value: DashRole | ""; label: string }[] {
  return ALL_ROLES.map((value) => ({
    value,
    label: i18next.t(`admin:peopleSearch.roleChoices.${value || "all"}`),
  }));
}
