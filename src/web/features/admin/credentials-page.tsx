import { Link, useSearch } from "@tanstack/react-router";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { LearningApps } from "./learning-apps";
import { OneRosterClients } from "./oneroster-clients";

const TABS = [
  { id: "oneroster", label: "OneRoster clients" },
  { id: "apps", label: "Learning apps" },
] as const;

export function CredentialsPage() {
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.adminCredentials>;
  return (
    <div>
      <PageHeader
        title="Credentials"
        description="API keys of learning apps and OneRoster clients: how other systems read from Dash and report to it."
      />
      <div
        role="tablist"
        aria-label="Credentials sections"
        className="mb-6 flex gap-2 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((entry) => (
          <Link
            key={entry.id}
            to="/app/admin/credentials"
            search={{ tab: entry.id }}
            role="tab"
            aria-selected={tab === entry.id}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold whitespace-nowrap ${tab === entry.id ? "border-brand-600 text-brand-700 dark:text-brand-100" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"}`}
          >
            {entry.label}
          </Link>
        ))}
      </div>
      <div role="tabpanel" aria-label={TABS.find((entry) => entry.id === tab)?.label}>
        {tab === "apps" ? <LearningApps /> : <OneRosterClients />}
      </div>
    </div>
  );
}
