import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../auth/use-auth";
import { FamilyHome } from "./family-home";
import { GuideHome } from "./guide-home";
import { HomeHero, Loading } from "./parts";
import { ProctorHome } from "./proctor-home";
import { StudentHome } from "./student-home";

// The administrator's home carries the charts library: it loads on its own, so a student's or a
// parent's phone never fetches it.
const AdminHome = lazy(() => import("./admin-home").then((module) => ({ default: module.AdminHome })));

/** /app: the home of the active role (the viewed-as person's while viewing as someone). */
export function HomePage() {
  const { t } = useTranslation("home");
  const { activeRole } = useAuth();
  switch (activeRole) {
    case "student":
      return <StudentHome />;
    case "teacher":
      return <GuideHome />;
    case "parent":
    case "guardian":
      return <FamilyHome />;
    case "administrator":
      return (
        <Suspense fallback={<Loading label={t("admin.loading")} rows={4} />}>
          <AdminHome />
        </Suspense>
      );
    case "proctor":
      return <ProctorHome />;
    default:
      return <HomeHero />;
  }
}
