import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { buttonClass } from "../../components/ui/form";
import { ReviewerFigures } from "../integrity/home-cards";
import { HomeHero, Section } from "./parts";

/** A proctor's home: where the focus incidents waiting for review are. */
export function ProctorHome() {
  const { t } = useTranslation("home");
  return (
    <div className="space-y-6">
      <HomeHero />
      <Section title={t("proctor.title")} description={t("proctor.description")}>
        <ReviewerFigures />
        <div className="flex flex-wrap gap-3">
          <Link to="/app/flow/cheating/pending" className={buttonClass("primary")}>
            {t("proctor.pending")}
          </Link>
          <Link to="/app/flow/cheating/resolved" className={buttonClass("secondary")}>
            {t("proctor.resolved")}
          </Link>
        </div>
      </Section>
    </div>
  );
}
