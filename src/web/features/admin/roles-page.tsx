import { useQuery } from "@tanstack/react-query";
import { useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { Tabs } from "../../components/ui/tabs";
import { instantLabel } from "../../lib/format";
import { impersonationAuditQuery } from "../auth/api";
import { ViewAsPanel } from "../auth/view-as";
import { GuardianLinkRequests } from "./link-requests";
import { RelationshipsPanel } from "./relationships";
import { RecentChanges } from "./roster-changes";
import { UserRolesPanel } from "./user-roles";

const TABS = ["users", "relationships"] as const;

export function RolesPage() {
  const { t } = useTranslation("admin");
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.adminRoles>;
  return (
    <div>
      <PageHeader
        title={t("common:pages./app/admin/roles.title")}
        description={t("common:pages./app/admin/roles.summary")}
      />
      <Tabs
        label={t("roles.sections")}
        idPrefix="roles-tab"
        selected={tab}
        items={TABS.map((id) => ({
          id,
          label: t(`roles.tabs.${id}`),
          link: { to: "/app/admin/roles", search: { tab: id } },
        }))}
        className="mb-6"
      />
      {tab === "users" ? (
        <div className="space-y-6">
          <UserRolesPanel />
          <ViewAsPanel title={t("roles.viewAs.heading")} description={t("roles.viewAs.description")} />
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
  const { t } = useTranslation("admin");
  const [offset, setOffset] = useState(0);
  const audit = useQuery(impersonationAuditQuery(offset));
  return (
    <Card>
      <h2 className="text-lg font-bold">{t("roles.audit.heading")}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("roles.audit.description")}</p>
      {audit.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {audit.error.message}
        </p>
      )}
      {audit.data && (
        <TableRegion label={t("roles.audit.heading")} className="mt-4">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  {t("roles.audit.when")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("roles.audit.who")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("roles.audit.asWhom")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("roles.audit.what")}
                </th>
                <th scope="col" className="py-2 pr-4">
                  {t("roles.audit.reason")}
                </th>
                <th scope="col" className="py-2">
                  {t("roles.audit.from")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {audit.data.data.map((row) => (
                <tr key={row.id}>
                  <td className="py-2 pr-4 whitespace-nowrap">{instantLabel(row.createdAt)}</td>
                  <td className="py-2 pr-4">{row.actor.name}</td>
                  <td className="py-2 pr-4">{row.target.name}</td>
                  <td className="py-2 pr-4">{t(`roles.audit.actions.${row.action}`)}</td>
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
            <p className="py-3 text-sm text-slate-600 dark:text-slate-300">{t("roles.audit.none")}</p>
          )}
          {audit.data.total > 50 && (
            <div className="mt-3 flex gap-2">
              <button
                type="button"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - 50))}
                className={buttonClass("secondary")}
              >
                {t("roles.audit.newer")}
              </button>
              <button
                type="button"
                disabled={offset + 50 >= audit.data.total}
                onClick={() => setOffset(offset + 50)}
                className={buttonClass("secondary")}
              >
                {t("roles.audit.older")}
              </button>
            </div>
          )}
        </TableRegion>
      )}
    </Card>
  );
}
