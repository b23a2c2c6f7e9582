import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page-header";
import { useAuth } from "../auth/use-auth";
import { PlacementTable } from "./placements-table";

/** /app/teacher/placements: a Guide's students by subject, to change levels and record tests. */
export function TeacherPlacementsPage() {
  const { t } = useTranslation("assessment");
  const { activeRole } = useAuth();
  return (
    <div>
      <PageHeader
        title={t("common:pages./app/teacher/placements.title")}
        description={t("placements.teacherPage.description")}
      />
      <PlacementTable isAdmin={activeRole === "administrator"} />
    </div>
  );
}
