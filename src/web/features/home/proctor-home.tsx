import { Link } from "@tanstack/react-router";
import { buttonClass } from "../../components/ui/form";
import { HomeHero, Section } from "./parts";

/** A proctor's home: where the focus incidents waiting for review are. */
export function ProctorHome() {
  return (
    <div className="space-y-6">
      <HomeHero />
      <Section
        title="Focus incidents"
        description="Review what learning apps flagged: confirm an incident or dismiss it, with the evidence at hand."
      >
        <div className="flex flex-wrap gap-3">
          <Link to="/app/flow/cheating/pending" className={buttonClass("primary")}>
            Review pending incidents
          </Link>
          <Link to="/app/flow/cheating/resolved" className={buttonClass("secondary")}>
            See resolved incidents
          </Link>
        </div>
      </Section>
    </div>
  );
}
