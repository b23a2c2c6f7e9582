import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ManagedUser, UserRoleEntry } from "../../../shared/contracts/people";
import { DASH_ROLES, type DashRole } from "../../../shared/roles";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField } from "../../components/ui/form";
import { authKeys } from "../auth/api";
import { fullName } from "../auth/auth-state";
import { Loading, QueryError, Section } from "../home/parts";
import { addRole, makeRolePrimary, orgsQuery, removeRole, rosterKeys, userQuery } from "./api";
import { orgTypeName } from "./organizations-page";
import { PasswordLink } from "./password-link";
import { allRoleChoices, DANGER_SMALL_BUTTON, PersonPicker, SMALL_BUTTON } from "./people-search";

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
  const { t } = useTranslation("admin");
  return (
    <PersonPicker
      title={t("userRoles.find.heading")}
      description={t("userRoles.find.description")}
      searchLabel={t("userRoles.find.search")}
      roleChoices={allRoleChoices()}
      pick={t("userRoles.find.pick")}
      emptyDescription={t("userRoles.find.emptyDescription")}
      emptyText={t("userRoles.find.emptyText")}
      details={(userId) => <UserRoles userId={userId} />}
    />
  );
}

function UserRoles({ userId }: { userId: string }) {
  const { t } = useTranslation("admin");
  const user = useQuery(userQuery(userId));
  const [removing, setRemoving] = useState<UserRoleEntry | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = useRefreshRoster();

  if (user.isError) return <QueryError error={user.error} fallback={t("userRoles.loadFailed")} />;
  if (!user.data) return <Loading label={t("userRoles.loading")} />;
  const person = user.data.data;
  const name = fullName(person);
  const roleOf = (entry: UserRoleEntry) => (entry.role ? t(`common:roles.${entry.role}`) : entry.rosterRole);
  const describe = (entry: UserRoleEntry) => ({ role: roleOf(entry), org: entry.org.name, name });

  async function makePrimary(entry: UserRoleEntry & { role: DashRole }) {
    setProblem(null);
    setNotice(null);
    try {
      await makeRolePrimary(person.sourcedId, { role: entry.role, orgSourcedId: entry.org.sourcedId });
      await refresh();
      setNotice(t("userRoles.nowPrimary", describe(entry)));
    } catch (error) {
      setProblem(failureMessage(error, t("userRoles.primaryFailed")));
    }
  }

  return (
    <Section
      title={t("userRoles.rolesOf", { name })}
      description={[
        person.email ?? person.username,
        person.primaryOrg && t("userRoles.primaryOrg", { org: person.primaryOrg.name }),
      ]
        .filter(Boolean)
        .join(" · ")}
    >
      {person.roles.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("userRoles.noRole", { name })}</p>
      ) : (
        <ul
          className="divide-y divide-slate-100 dark:divide-slate-800"
          aria-label={t("userRoles.rolesOf", { name })}
        >
          {person.roles.map((entry) => (
            <li
              key={`${entry.rosterRole}-${entry.org.sourcedId}`}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 py-2.5"
            >
              <div className="min-w-0">
                <p className="font-medium">
                  {roleOf(entry)}
                  {entry.roleType === "primary" && (
                    <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
                      {t("userRoles.primary")}
                    </span>
                  )}
                </p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {entry.org.name} · {orgTypeName(entry.org.type)}
                  {entry.role ? "" : ` · ${t("userRoles.grantsNothing")}`}
                </p>
              </div>
              {entry.role && (
                <div className="flex gap-2">
                  {entry.roleType !== "primary" && (
                    <button
                      type="button"
                      className={SMALL_BUTTON}
                      onClick={() => makePrimary(entry as UserRoleEntry & { role: DashRole })}
                      aria-label={t("userRoles.makePrimaryLabel", describe(entry))}
                    >
                      {t("userRoles.makePrimary")}
                    </button>
                  )}
                  <button
                    type="button"
                    className={DANGER_SMALL_BUTTON}
                    onClick={() => setRemoving(entry)}
                    aria-label={t("userRoles.removeLabel", describe(entry))}
                  >
                    {t("userRoles.remove")}
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
          title={t("userRoles.removeTitle")}
          message={t("userRoles.removeMessage", describe(removing))}
          confirmLabel={t("userRoles.removeRole")}
          onConfirm={async () => {
            await removeRole(person.sourcedId, {
              role: removing.role as DashRole,
              orgSourcedId: removing.org.sourcedId,
            });
            await refresh();
            setProblem(null);
            setNotice(t("userRoles.removed", describe(removing)));
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </Section>
  );
}

function AddRoleForm({ person, onDone }: { person: ManagedUser; onDone: (message: string) => void }) {
  const { t } = useTranslation("admin");
  const orgs = useQuery(orgsQuery(""));
  const [role, setRole] = useState<DashRole | "">("");
  const [orgId, setOrgId] = useState("");
  const [isPrimary, setIsPrimary] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const refresh = useRefreshRoster();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!role) return setProblem(t("userRoles.add.chooseRole"));
    if (!orgId) return setProblem(t("userRoles.add.chooseOrg"));
    setIsSaving(true);
    setProblem(null);
    try {
      await addRole(person.sourcedId, { role, orgSourcedId: orgId, isPrimary });
      await refresh();
      const org = orgs.data?.data.find((entry) => entry.sourcedId === orgId);
      const added = { role: t(`common:roles.${role}`), name: fullName(person) };
      onDone(
        org ? t("userRoles.add.added", { ...added, org: org.name }) : t("userRoles.add.addedNoOrg", added),
      );
      setRole("");
      setIsPrimary(false);
    } catch (error) {
      setProblem(failureMessage(error, t("userRoles.add.failed")));
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
      <h3 className="font-semibold">{t("userRoles.add.heading")}</h3>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t("userRoles.add.newRole")}
          value={role}
          onChange={(event) => setRole(event.target.value as DashRole | "")}
          options={[
            { value: "", label: t("userRoles.add.chooseRolePrompt") },
            ...DASH_ROLES.map((entry) => ({ value: entry, label: t(`common:roles.${entry}`) })),
          ]}
        />
        <SelectField
          label={t("userRoles.add.atOrg")}
          value={orgId}
          onChange={(event) => setOrgId(event.target.value)}
          options={[
            {
              value: "",
              label: orgs.isPending ? t("userRoles.add.loading") : t("userRoles.add.chooseOrgPrompt"),
            },
            ...(orgs.data?.data ?? []).map((org) => ({
              value: org.sourcedId,
              label: t("userRoles.add.orgOption", { org: org.name, type: orgTypeName(org.type) }),
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
        {t("userRoles.add.makePrimary")}
      </label>
      {problem && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <button type="submit" disabled={isSaving} className={buttonClass("primary", "mt-4")}>
        {isSaving ? t("userRoles.add.adding") : t("userRoles.add.submit")}
      </button>
    </form>
  );
}
