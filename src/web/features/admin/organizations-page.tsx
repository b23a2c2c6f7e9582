import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type FormEvent, useDeferredValue, useState } from "react";
import type { Org } from "../../../shared/contracts/people";
import { PageHeader } from "../../components/page-header";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, TextField } from "../../components/ui/form";
import { authKeys } from "../auth/api";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { createSchool, orgsQuery, rosterKeys, updateOrg } from "./api";

const TYPE_NAMES: Record<string, string> = {
  district: "District",
  school: "School",
  department: "Department",
  local: "Local",
  state: "State",
  national: "National",
};
export const orgTypeName = (type: string) => TYPE_NAMES[type.toLowerCase()] ?? type;
// Schools go under districts and the like, never under a school or a department.
const canHoldSchools = (org: Org) => !["school", "department"].includes(org.type.toLowerCase());

const LINK_CLASS = "font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100";

/** The district and its schools with their numbers; administrators edit them and add schools. */
export function OrganizationsPage() {
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const orgs = useQuery({ ...orgsQuery(deferred), placeholderData: keepPreviousData });
  const [editing, setEditing] = useState<Org | null>(null);
  const [addingUnder, setAddingUnder] = useState<Org | null>(null);
  const canEdit = orgs.data?.canEdit ?? false;

  return (
    <div>
      <PageHeader
        title="Organizations"
        description={
          canEdit
            ? "The district and its schools. Open one to see its tree, classes, people and numbers."
            : "The schools you teach at. Open one to see its tree, classes, people and numbers."
        }
      />
      <Section
        title="All organizations"
        description="Students, Guides and classes count everything under an organization."
      >
        <TextField
          label="Search organizations"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Name or identifier"
          className="mb-4 max-w-md"
        />
        {orgs.isError && (
          <QueryError
            error={orgs.error}
            fallback="Could not load the organizations"
            onRetry={() => orgs.refetch()}
          />
        )}
        {orgs.isPending && <Loading label="Loading the organizations" />}
        {orgs.data &&
          (orgs.data.total === 0 ? (
            <EmptyState icon="🏫" title={deferred ? "Nothing matches" : "No organizations yet"}>
              {deferred
                ? "Try another name or identifier."
                : "Organizations appear once the roster is imported."}
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
  const number = "px-3 py-2.5 text-right tabular-nums";
  return (
    <div className="-mx-5 overflow-x-auto sm:mx-0">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Organizations with their students, Guides and classes</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
              Name
            </th>
            <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">
              Type
            </th>
            <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">
              Identifier
            </th>
            <th scope="col" className="hidden px-3 py-2 font-semibold lg:table-cell">
              Part of
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Students
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Guides
            </th>
            <th scope="col" className="hidden px-3 py-2 text-right font-semibold sm:table-cell">
              Classes
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
                    aria-label={`Hierarchy of ${org.name}`}
                  >
                    Hierarchy
                  </Link>
                  <Link
                    to="/app/admin/org-explorer/$orgId"
                    params={{ orgId: org.sourcedId }}
                    search={{ tab: "overview" }}
                    className={LINK_CLASS}
                    aria-label={`Explore ${org.name}`}
                  >
                    Explore
                  </Link>
                  {canEdit && (
                    <button
                      type="button"
                      onClick={() => onEdit(org)}
                      className={LINK_CLASS}
                      aria-label={`Edit ${org.name}`}
                    >
                      Edit
                    </button>
                  )}
                  {canEdit && canHoldSchools(org) && (
                    <button
                      type="button"
                      onClick={() => onAddSchool(org)}
                      className={LINK_CLASS}
                      aria-label={`Add a school under ${org.name}`}
                    >
                      Add school
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
    </div>
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

function OrgForm({
  submitLabel,
  initial,
  onSubmit,
  onClose,
}: {
  submitLabel: string;
  initial: { name: string; identifier: string };
  onSubmit: (values: { name: string; identifier: string }) => Promise<unknown>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial.name);
  const [identifier, setIdentifier] = useState(initial.identifier);
  const [failure, setFailure] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim().length < 2) return setFailure("The name needs at least 2 characters.");
    setIsSaving(true);
    setFailure(null);
    try {
      await onSubmit({ name: name.trim(), identifier: identifier.trim() });
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, "Could not save. Try again."));
      setIsSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-4">
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        maxLength={200}
      />
      <TextField
        label="Identifier (optional)"
        value={identifier}
        onChange={(event) => setIdentifier(event.target.value)}
        maxLength={100}
        placeholder="A code such as the state school number"
      />
      {failure && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
      <div className="flex justify-end gap-3 pt-2">
        <button type="button" onClick={onClose} className={buttonClass("secondary")}>
          Cancel
        </button>
        <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
          {isSaving ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}

function EditOrgDialog({ org, onClose }: { org: Org; onClose: () => void }) {
  const refresh = useRefreshAfterOrgChange();
  return (
    <Dialog title={`Edit ${org.name}`} onClose={onClose}>
      <OrgForm
        submitLabel="Save"
        initial={{ name: org.name, identifier: org.identifier ?? "" }}
        onSubmit={async ({ name, identifier }) => {
          await updateOrg(org.sourcedId, { name, identifier: identifier || null });
          await refresh();
        }}
        onClose={onClose}
      />
    </Dialog>
  );
}

function AddSchoolDialog({ parent, onClose }: { parent: Org; onClose: () => void }) {
  const refresh = useRefreshAfterOrgChange();
  return (
    <Dialog
      title="Add a school"
      description={`The new school will be part of ${parent.name}.`}
      onClose={onClose}
    >
      <OrgForm
        submitLabel="Add school"
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
