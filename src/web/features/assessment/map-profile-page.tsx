import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { UserSearch } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { EmptyState } from "../home/parts";
import { StudentPicker } from "../xp/student-picker";
import { studentMapQuery } from "./map-api";
import { StudentMapView } from "./map-parts";
import { StudentPlacementsView } from "./placements-page";

type ProfileSearch = z.output<typeof searchSchemas.oneStudent>;

/** /app/map-profile: an administrator's look at one student's complete assessment profile. */
export function MapProfilePage() {
  const { t } = useTranslation("assessment");
  const search = useSearch({ strict: false }) as ProfileSearch;
  const navigate = useNavigate();
  const chosen = useQuery({ ...studentMapQuery(search.studentId ?? ""), enabled: Boolean(search.studentId) });
  return (
    <div>
      <PageHeader title={t("map.profile.title")} description={t("map.profile.description")} />
      <Card className="mb-6">
        <StudentPicker
          wide
          selected={
            search.studentId
              ? {
                  sourcedId: search.studentId,
                  name: chosen.data?.student.name ?? (chosen.isError ? search.studentId : "…"),
                }
              : null
          }
          onSelect={(student) =>
            void navigate({ to: "/app/map-profile", search: student ? { studentId: student.sourcedId } : {} })
          }
        />
      </Card>
      {search.studentId ? (
        <div key={search.studentId} className="space-y-10">
          <section aria-labelledby="profile-map" className="space-y-4">
            <h2 id="profile-map" className="text-2xl font-bold">
              {t("map.profile.mapHeading")}
            </h2>
            <StudentMapView studentId={search.studentId} reader="staff" />
          </section>
          <section aria-labelledby="profile-placements" className="space-y-4">
            <h2 id="profile-placements" className="text-2xl font-bold">
              {t("map.profile.placementsHeading")}
            </h2>
            <StudentPlacementsView studentId={search.studentId} />
          </section>
        </div>
      ) : (
        <EmptyState icon={UserSearch} title={t("map.profile.chooseTitle")}>
          {t("map.profile.chooseBody")}
        </EmptyState>
      )}
    </div>
  );
}
