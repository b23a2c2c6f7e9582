import { Link, useSearch } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { LearningApps } from "./learning-apps";
import { OneRosterClients } from "./oneroster-clients";

const TABS = ["oneroster", "apps"] as const;

export function CredentialsPage() {
  const { t } = useTranslation("admin");
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.adminCredentials>;
  return (
    <div>
      <PageHeader
        title={t("common:pages./app/admin/credentials.title")}
        description={t("credentials.description")}
      />
      <div
        role="tablist"
        aria-label={t("credentials.sections")}
        className="mb-6 flex gap-2 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((id) => (
          <Link
            key={id}
            to="/app/admin/credentials"
            search={{ tab: id }}
            role="tab"
            aria-selected={tab === id}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold whitespace-nowrap ${tab === id ? "border-brand-600 text-brand-700 dark:text-brand-100" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"}`}
          >
            {t(`credentials.tabs.${id}`)}
          </Link>
        ))}
      </div>
      <div role="tabpanel" aria-label={t(`credentials.tabs.${tab}`)}>
        {tab === "apps" ? <LearningApps /> : <OneRosterClients />}
      </div>
    </div>
  );
}
