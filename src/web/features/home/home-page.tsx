import { useAuth } from "../auth/use-auth";
import { AdminHome } from "./admin-home";
import { FamilyHome } from "./family-home";
import { GuideHome } from "./guide-home";
import { HomeHero } from "./parts";
import { ProctorHome } from "./proctor-home";
import { StudentHome } from "./student-home";

/** /app: the home of the active role (the viewed-as person's while viewing as someone). */
export function HomePage() {
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
      return <AdminHome />;
    case "proctor":
      return <ProctorHome />;
    default:
      return <HomeHero />;
  }
}
