import { useSearch } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { Tabs, tabId } from "../../components/ui/tabs";
import { AppLogins } from "../credentials/app-logins";
import { LearningApps } from "./learning-apps";
import { OneRosterClients } from "./oneroster-clients";

const TABS = ["oneroster", "apps", "logins"] as const;

export function CredentialsPage() {
  const { t } = useTranslation("admin");
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.adminCredentials>;
  return (
    <div>
      <PageHeader
        title={t("common:pages./app/admin/credentials.title")}
        description={t("credentials.description")}
      />
      <Tabs
        label={t("credentials.sections")}
        idPrefix="credentials-tab"
        panelId="credentials-panel"
        selected={tab}
        items={TABS.map((id) => ({
          id,
          label: id === "logins" ? t("credentials:tab") : t(`credentials.tabs.${id}`),
          link: { to: "/app/admin/credentials", search: { tab: id } },
        }))}
        className="mb-6"
      />
      <div id="credentials-panel" role="tabpanel" aria-labelledby={tabId("credentials-tab", tab)}>
        {tab === "apps" ? <LearningApps /> : tab === "logins" ? <AppLogins /> : <OneRosterClients />}
      </div>
    </div>
  );
}
