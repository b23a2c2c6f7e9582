import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { ManagedUser, UserRoleEntry } from "../../../shared/contracts/people";
import { DASH_ROLES, type DashRole, ROLE_DISPLAY_NAMES } from "../../../shared/roles";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField } from "../../components/ui/form";
import { authKeys } from "../auth/api";
import { fullName } from "../auth/auth-state";
import { Loading, QueryError, Section } from "../home/parts";
import { addRole, makeRolePrimary, orgsQuery, removeRole, rosterKeys, userQuery } from "./api";
import { orgTypeName } from "./organizations-page";
import { PasswordLink } from "./password-link";
import { ALL_ROLE_CHOICES, DANGER_SMALL_BUTTON, PersonPicker, SMALL_BUTTON } from "./people-search";

/** Every view of the roster, and the signed-in profile (an administrator may change their own roles). */
export function useRefreshRoster() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: rosterKeys.all }),
      queryClient.invalidateQueries({ queryKey: authKeys.me }),
    ]);
}

/** Find a person, see their roles at each organisation, add, remove or make one primary. */
export function UserRolesPanel() {
  return (
    <PersonPicker
      title="Users"
      description="Find a person by name or email to see and change their roles."
      searchLabel="Search users"
      roleChoices={ALL_ROLE_CHOICES}
      pick="Roles"
      emptyDescription="Choose someone on the left to see their roles."
      emptyText="A person holds each role at an organization. One role is their primary one: their primary organization follows it."
      details={(userId) => <UserRoles userId={userId} />}
    />
  );
}

function UserRoles({ userId }: { userId: string }) {
  const user = useQuery(userQuery(userId));
  const [removing, setRemoving] = useState<UserRoleEntry | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = useRefreshRoster();

  if (user.isError) return <QueryError error={user.error} fallback="Could not load this person" />;
  if (!user.data) return <Loading label="Loading their roles" />;
  const person = user.data.data;
  const name = fullName(person);
  const describe = (entry: UserRoleEntry) =>
    `${entry.role ? ROLE_DISPLAY_NAMES[entry.role] : entry.rosterRole} at ${entry.org.name}`;

  async function makePrimary(entry: UserRoleEntry & { role: DashRole }) {
    setProblem(null);
    setNotice(null);
    try {
      await makeRolePrimary(person.sourcedId, { role: entry.role, orgSourcedId: entry.org.sourcedId });
      await refresh();
      setNotice(`${describe(entry)} is now the primary role of ${name}.`);
    } catch (error) {
      setProblem(failureMessage(error, "Could not change the primary role."));
    }
  }

  return (
    <Section
      title={`Roles of ${name}`}
      description={[
        person.email ?? person.username,
        person.primaryOrg && `Primary organization: ${person.primaryOrg.name}`,
      ]
        .filter(Boolean)
        .join(" · ")}
    >
      {person.roles.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{name} has no role yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label={`Roles of ${name}`}>
          {person.roles.map((entry) => (
            <li
              key={`${entry.rosterRole}-${entry.org.sourcedId}`}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 py-2.5"
            >
              <div className="min-w-0">
                <p className="font-medium">
                  {entry.role ? ROLE_DISPLAY_NAMES[entry.role] : entry.rosterRole}
                  {entry.roleType === "primary" && (
                    <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
                      Primary
                    </span>
                  )}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {entry.org.name} · {orgTypeName(entry.org.type)}
                  {entry.role ? "" : " · grants nothing in Dash"}
                </p>
              </div>
              {entry.role && (
                <div className="flex gap-2">
                  {entry.roleType !== "primary" && (
                    <button
                      type="button"
                      className={SMALL_BUTTON}
                      onClick={() => makePrimary(entry as UserRoleEntry & { role: DashRole })}
                      aria-label={`Make ${describe(entry)} primary`}
                    >
                      Make primary
                    </button>
                  )}
                  <button
                    type="button"
                    className={DANGER_SMALL_BUTTON}
                    onClick={() => setRemoving(entry)}
                    aria-label={`Remove ${describe(entry)}`}
                  >
                    Remove
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite" className="mt-3 space-y-2">
        {notice && (
          <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
            {notice}
          </p>
        )}
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
      </div>
      <AddRoleForm
        person={person}
        onDone={(message) => {
          setProblem(null);
          setNotice(message);
        }}
      />
      <PasswordLink key={person.sourcedId} person={person} />
      {removing?.role && (
        <ConfirmDialog
          title="Remove this role?"
          message={`${name} will no longer be ${describe(removing)}. This applies at their next click.`}
          confirmLabel="Remove role"
          onConfirm={async () => {
            await removeRole(person.sourcedId, {
              role: removing.role as DashRole,
              orgSourcedId: removing.org.sourcedId,
            });
            await refresh();
            setProblem(null);
            setNotice(`Removed ${describe(removing)} from ${name}.`);
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </Section>
  );
}

function AddRoleForm({ person, onDone }: { person: ManagedUser; onDone: (message: string) => void }) {
  const orgs = useQuery(orgsQuery(""));
  const [role, setRole] = useState<DashRole | "">("");
  const [orgId, setOrgId] = useState("");
  const [isPrimary, setIsPrimary] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const refresh = useRefreshRoster();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!role) return setProblem("Choose a role.");
    if (!orgId) return setProblem("Choose an organization.");
    setIsSaving(true);
    setProblem(null);
    try {
      await addRole(person.sourcedId, { role, orgSourcedId: orgId, isPrimary });
      await refresh();
      const org = orgs.data?.data.find((entry) => entry.sourcedId === orgId);
      onDone(
        `Added ${ROLE_DISPLAY_NAMES[role]} at ${org?.name ?? "the organization"} to ${fullName(person)}.`,
      );
      setRole("");
      setIsPrimary(false);
    } catch (error) {
      setProblem(failureMessage(error, "Could not add the role."));
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mt-5 rounded-xl border border-slate-200 p-4 dark:border-slate-700"
    >
      <h3 className="font-semibold">Add a role</h3>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <SelectField
          label="New role"
          value={role}
          onChange={(event) => setRole(event.target.value as DashRole | "")}
          options={[
            { value: "", label: "Choose a role…" },
            ...DASH_ROLES.map((entry) => ({ value: entry, label: ROLE_DISPLAY_NAMES[entry] })),
          ]}
        />
        <SelectField
          label="At organization"
          value={orgId}
          onChange={(event) => setOrgId(event.target.value)}
          options={[
            { value: "", label: orgs.isPending ? "Loading…" : "Choose an organization…" },
            ...(orgs.data?.data ?? []).map((org) => ({
              value: org.sourcedId,
              label: `${org.name} (${orgTypeName(org.type)})`,
            })),
          ]}
        />
      </div>
      <label className="mt-3 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={isPrimary}
          onChange={(event) => setIsPrimary(event.target.checked)}
          className="size-4 accent-brand-600"
        />
        Make it the primary role
      </label>
      {problem && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <button type="submit" disabled={isSaving} className={buttonClass("primary", "mt-4")}>
        {isSaving ? "Adding…" : "Add role"}
      </button>
    </form>
  );
}
