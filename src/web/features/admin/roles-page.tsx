import { useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { impersonationAuditQuery } from "../auth/api";
import { ViewAsPanel } from "../auth/view-as";
import { GuardianLinkRequests } from "./link-requests";
import { RelationshipsPanel } from "./relationships";
import { RecentChanges } from "./roster-changes";
import { UserRolesPanel } from "./user-roles";

const TABS = [
  { id: "users", label: "Users" },
  { id: "relationships", label: "Relationships" },
] as const;

export function RolesPage() {
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.adminRoles>;
  return (
    <div>
      <PageHeader
        title="Roles"
        description="People's roles, and links between parents or guardians and students."
      />
      <div
        role="tablist"
        aria-label="Roles sections"
        className="mb-6 flex gap-2 border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((entry) => (
          <Link
            key={entry.id}
            to="/app/admin/roles"
            search={{ tab: entry.id }}
            role="tab"
            aria-selected={tab === entry.id}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === entry.id ? "border-brand-600 text-brand-700 dark:text-brand-100" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300"}`}
          >
            {entry.label}
          </Link>
        ))}
      </div>
      {tab === "users" ? (
        <div className="space-y-6">
          <UserRolesPanel />
          <ViewAsPanel
            title="View as"
            description="Find anyone in the roster and view Dash as they see it."
          />
          <RecentChanges />
          <ImpersonationAudit />
        </div>
      ) : (
        <div className="space-y-6">
          <GuardianLinkRequests />
          <RelationshipsPanel />
          <RecentChanges />
        </div>
      )}
    </div>
  );
}

function ImpersonationAudit() {
  const [offset, setOffset] = useState(0);
  const audit = useQuery(impersonationAuditQuery(offset));
  const actions = {
    start: "Started",
    stop: "Stopped",
    expire: "Timed out",
    revoke: "Ended: no longer allowed",
    refuse: "Refused",
  } as const;
  return (
    <Card>
      <h2 className="text-lg font-bold">Viewing-as log</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Every time someone viewed Dash as another person.
      </p>
      {audit.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {audit.error.message}
        </p>
      )}
      {audit.data && (
        <div className="mt-4 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  When
                </th>
                <th scope="col" className="py-2 pr-4">
                  Who
                </th>
                <th scope="col" className="py-2 pr-4">
                  As whom
                </th>
                <th scope="col" className="py-2 pr-4">
                  What
                </th>
                <th scope="col" className="py-2 pr-4">
                  Reason
                </th>
                <th scope="col" className="py-2">
                  From
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {audit.data.data.map((row) => (
                <tr key={row.id}>
                  <td className="py-2 pr-4 whitespace-nowrap">{new Date(row.createdAt).toLocaleString()}</td>
                  <td className="py-2 pr-4">{row.actor.name}</td>
                  <td className="py-2 pr-4">{row.target.name}</td>
                  <td className="py-2 pr-4">{actions[row.action]}</td>
                  <td className="py-2 pr-4">
                    {row.reason ?? "—"}
                    {row.detail && (
                      <span className="block text-xs text-slate-600 dark:text-slate-300">{row.detail}</span>
                    )}
                  </td>
                  <td className="py-2 font-mono text-xs">{row.ipAddress ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {audit.data.total === 0 && (
            <p className="py-3 text-sm text-slate-600 dark:text-slate-300">
              Nobody has viewed as anyone yet.
            </p>
          )}
          {audit.data.total > 50 && (
            <div className="mt-3 flex gap-2">
              <button
                type="button"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - 50))}
                className={buttonClass("secondary")}
              >
                Newer
              </button>
              <button
                type="button"
                disabled={offset + 50 >= audit.data.total}
                onClick={() => setOffset(offset + 50)}
                className={buttonClass("secondary")}
              >
                Older
              </button>
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
