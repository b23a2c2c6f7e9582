import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { School } from "lucide-react";
import { type FormEvent, useDeferredValue, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Org } from "../../../shared/contracts/people";
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from "../../../shared/languages";
import { PageHeader } from "../../components/page-header";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { i18next } from "../../lib/i18n";
import { authKeys } from "../auth/api";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { createSchool, orgsQuery, rosterKeys, updateOrg } from "./api";

const TYPES = new Set(["district", "school", "department", "local", "state", "national"]);
/** An organisation's type in the shown language: "District", "School"; an unknown type as it is. */
export const orgTypeName = (type: string) =>
  TYPES.has(type.toLowerCase()) ? i18next.t(`admin:orgTypes.${type.toLowerCase()}`) : type;
// Schools go under districts and the like, never under a school or a department.
const canHoldSchools = (org: Org) => !["school", "department"].includes(org.type.toLowerCase());

const LINK_CLASS = "font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100";

/** The district and its schools with their numbers; administrators edit them and add schools. */
export function OrganizationsPage() {
  const { t } = useTranslation("admin");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const orgs = useQuery({ ...orgsQuery(deferred), placeholderData: keepPreviousData });
  const [editing, setEditing] = useState<Org | null>(null);
  const [addingUnder, setAddingUnder] = useState<Org | null>(null);
  const canEdit = orgs.data?.canEdit ?? false;

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/admin/organizations/.title")}
        description={canEdit ? t("organizations.descriptionAdmin") : t("organizations.descriptionGuide")}
      />
      <Section title={t("organizations.all")} description={t("organizations.allDescription")}>
        <TextField
          label={t("organizations.search")}
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t("organizations.searchPlaceholder")}
          className="mb-4 max-w-md"
        />
        {orgs.isError && (
          <QueryError
            error={orgs.error}
            fallback={t("organizations.loadFailed")}
            onRetry={() => orgs.refetch()}
          />
        )}
        {orgs.isPending && <Loading label={t("organizations.loading")} />}
        {orgs.data &&
          (orgs.data.total === 0 ? (
            <EmptyState icon={School} title={deferred ? t("organizations.noMatch") : t("organizations.none")}>
              {deferred ? t("organizations.noMatchHint") : t("organizations.noneHint")}
            </EmptyState>
          ) : (
            <OrgTable
              orgs={orgs.data.data}
              canEdit={canEdit}
              onEdit={setEditing}
              onAddSchool={setAddingUnder}
            />
          ))}
      </Section>
      {editing && <EditOrgDialog org={editing} onClose={() => setEditing(null)} />}
      {addingUnder && <AddSchoolDialog parent={addingUnder} onClose={() => setAddingUnder(null)} />}
    </div>
  );
}

function OrgTable({
  orgs,
  canEdit,
  onEdit,
  onAddSchool,
}: {
  orgs: Org[];
  canEdit: boolean;
  onEdit: (org: Org) => void;
  onAddSchool: (org: Org) => void;
}) {
  const { t } = useTranslation("admin");
  const number = "px-3 py-2.5 text-right tabular-nums";
  return (
    <TableRegion label={t("organizations.table.caption")} className="-mx-5 sm:mx-0">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t("organizations.table.caption")}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
              {t("organizations.table.name")}
            </th>
            <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">
              {t("organizations.table.type")}
            </th>
            <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">
              {t("organizations.table.identifier")}
            </th>
            <th scope="col" className="hidden px-3 py-2 font-semibold lg:table-cell">
              {t("organizations.table.partOf")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("organizations.table.students")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("organizations.table.guides")}
            </th>
            <th scope="col" className="hidden px-3 py-2 text-right font-semibold sm:table-cell">
              {t("organizations.table.classes")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {orgs.map((org) => (
            <tr key={org.sourcedId} className="align-top">
              <th scope="row" className="px-5 py-2.5 font-normal sm:px-3">
                <Link
                  to="/app/admin/org-explorer/$orgId"
                  params={{ orgId: org.sourcedId }}
                  search={{ tab: "overview" }}
                  className={`${LINK_CLASS} text-base`}
                >
                  {org.name}
                </Link>
                <p className="text-xs text-slate-600 md:hidden dark:text-slate-400">
                  {[orgTypeName(org.type), org.identifier].filter(Boolean).join(" · ")}
                </p>
                <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm">
                  <Link
                    to="/app/admin/organizations/$orgId/hierarchy"
                    params={{ orgId: org.sourcedId }}
                    className={LINK_CLASS}
                    aria-label={t("organizations.table.hierarchyOf", { name: org.name })}
                  >
                    {t("organizations.table.hierarchy")}
                  </Link>
                  <Link
                    to="/app/admin/org-explorer/$orgId"
                    params={{ orgId: org.sourcedId }}
                    search={{ tab: "overview" }}
                    className={LINK_CLASS}
                    aria-label={t("organizations.table.exploreLabel", { name: org.name })}
                  >
                    {t("organizations.table.explore")}
                  </Link>
                  {canEdit && (
                    <button
                      type="button"
                      onClick={() => onEdit(org)}
                      className={LINK_CLASS}
                      aria-label={t("organizations.table.editLabel", { name: org.name })}
                    >
                      {t("organizations.table.edit")}
                    </button>
                  )}
                  {canEdit && canHoldSchools(org) && (
                    <button
                      type="button"
                      onClick={() => onAddSchool(org)}
                      className={LINK_CLASS}
                      aria-label={t("organizations.table.addSchoolLabel", { name: org.name })}
                    >
                      {t("organizations.addSchool")}
                    </button>
                  )}
                </div>
              </th>
              <td className="hidden px-3 py-2.5 md:table-cell">{orgTypeName(org.type)}</td>
              <td className="hidden px-3 py-2.5 font-mono text-xs md:table-cell">{org.identifier ?? "—"}</td>
              <td className="hidden px-3 py-2.5 lg:table-cell">{org.parent?.name ?? "—"}</td>
              <td className={number}>{org.counts.students}</td>
              <td className={number}>{org.counts.guides}</td>
              <td className={`${number} hidden sm:table-cell`}>{org.counts.classes}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** After a change to an organisation, every roster view and the signed-in profile (org names) reload. */
function useRefreshAfterOrgChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: rosterKeys.all }),
      queryClient.invalidateQueries({ queryKey: authKeys.me }),
    ]);
}

interface OrgValues {
  name: string;
  identifier: string;
  /** "" follows the organization above (English at the top); only editing asks for it. */
  defaultLanguage?: Language | "";
}

function OrgForm({
  submitLabel,
  initial,
  onSubmit,
  onClose,
}: {
  submitLabel: string;
  initial: OrgValues;
  onSubmit: (values: OrgValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation("admin");
  const [name, setName] = useState(initial.name);
  const [identifier, setIdentifier] = useState(initial.identifier);
  const [defaultLanguage, setDefaultLanguage] = useState(initial.defaultLanguage);
  const [failure, setFailure] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const languageHintId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim().length < 2) return setFailure(t("organizations.form.nameTooShort"));
    setIsSaving(true);
    setFailure(null);
    try {
      await onSubmit({ name: name.trim(), identifier: identifier.trim(), defaultLanguage });
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, t("organizations.form.saveFailed")));
      setIsSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4">
      <TextField
        label={t("organizations.form.name")}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        maxLength={200}
      />
      <TextField
        label={t("organizations.form.identifier")}
        value={identifier}
        onChange={(event) => setIdentifier(event.target.value)}
        maxLength={100}
        placeholder={t("organizations.form.identifierPlaceholder")}
      />
      {defaultLanguage !== undefined && (
        <div>
          <SelectField
            label={t("organizations.form.language")}
            value={defaultLanguage}
            onChange={(event) => setDefaultLanguage(isLanguage(event.target.value) ? event.target.value : "")}
            options={[
              { value: "", label: t("organizations.form.languageInherited") },
              ...LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] })),
            ]}
            aria-describedby={languageHintId}
          />
          <p id={languageHintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t("organizations.form.languageHint")}
          </p>
        </div>
      )}
      {failure && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
      <div className="flex justify-end gap-3 pt-2">
        <button type="button" onClick={onClose} className={buttonClass("secondary")}>
          {t("common:dialog.cancel")}
        </button>
        <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
          {isSaving ? t("organizations.form.saving") : submitLabel}
        </button>
      </div>
    </form>
  );
}

function EditOrgDialog({ org, onClose }: { org: Org; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const refresh = useRefreshAfterOrgChange();
  return (
    <Dialog title={t("organizations.table.editLabel", { name: org.name })} onClose={onClose}>
      <OrgForm
        submitLabel={t("organizations.form.save")}
        initial={{
          name: org.name,
          identifier: org.identifier ?? "",
          defaultLanguage: org.defaultLanguage ?? "",
        }}
        onSubmit={async ({ name, identifier, defaultLanguage }) => {
          await updateOrg(org.sourcedId, {
            name,
            identifier: identifier || null,
            defaultLanguage: defaultLanguage || null,
          });
          await refresh();
        }}
        onClose={onClose}
      />
    </Dialog>
  );
}

function AddSchoolDialog({ parent, onClose }: { parent: Org; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const refresh = useRefreshAfterOrgChange();
  return (
    <Dialog
      title={t("organizations.addSchoolTitle")}
      description={t("organizations.addSchoolDescription", { name: parent.name })}
      onClose={onClose}
    >
      <OrgForm
        submitLabel={t("organizations.addSchool")}
        initial={{ name: "", identifier: "" }}
        onSubmit={async ({ name, identifier }) => {
          await createSchool({ parentSourcedId: parent.sourcedId, name, identifier: identifier || null });
          await refresh();
        }}
        onClose={onClose}
      />
    </Dialog>
  );
}
