import { useNavigate, useSearch } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { Tabs, tabId } from "../../components/ui/tabs";
import { useAuth } from "../auth/use-auth";
import { DeliveriesPanel } from "./deliveries-panel";
import { IngestionPanel } from "./ingestion-panel";
import { SubscriptionsPanel } from "./subscriptions-panel";

export type WebhookMonitorSearch = z.infer<(typeof searchSchemas)["webhookMonitor"]>;

const TABS = ["deliveries", "subscriptions", "ingestion"] as const;

/**
 * What Dash tells other systems and what learning apps tell Dash: webhook deliveries with their
 * outcome and replays, the subscriptions, and the log of ingestion requests. Guides only look.
 */
export function WebhookMonitorPage() {
  const { t } = useTranslation("webhooks");
  const search = useSearch({ strict: false }) as WebhookMonitorSearch;
  const navigate = useNavigate();
  const canManage = useAuth().activeRole === "administrator";
  const tab = search.tab ?? "deliveries";
  /** Changes the filters (back to the first page), keeping the tab. */
  const setSearch = (changes: Partial<WebhookMonitorSearch>) =>
    void navigate({
      to: "/app/webhook-monitor",
      search: { ...search, page: undefined, ...changes } as never,
      replace: true,
    });

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/webhook-monitor.title")}
        description={canManage ? t("description") : t("descriptionReadOnly")}
      />
      <Tabs
        label={t("sections")}
        idPrefix="webhooks-tab"
        panelId="webhooks-panel"
        selected={tab}
        items={TABS.map((id) => ({
          id,
          label: t(`tabs.${id}`),
          link: { to: "/app/webhook-monitor", search: { tab: id } as never },
        }))}
      />
      <div id="webhooks-panel" role="tabpanel" aria-labelledby={tabId("webhooks-tab", tab)}>
        {tab === "deliveries" && (
          <DeliveriesPanel search={search} setSearch={setSearch} canManage={canManage} />
        )}
        {tab === "subscriptions" && <SubscriptionsPanel canManage={canManage} />}
        {tab === "ingestion" && <IngestionPanel search={search} setSearch={setSearch} />}
      </div>
    </div>
  );
}
