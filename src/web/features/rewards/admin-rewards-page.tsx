import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page-header";
import { CatalogueSection } from "./admin-catalogue";
import { RulesSection } from "./admin-rules";

/** Administrators stock the emporium and set the school's rules for Alphas. */
export function AdminRewardsPage() {
  const { t } = useTranslation("rewards");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/rewards-management.title")}
        description={t("common:pages./app/admin/rewards-management.summary")}
      />
      <CatalogueSection />
      <RulesSection />
    </div>
  );
}
