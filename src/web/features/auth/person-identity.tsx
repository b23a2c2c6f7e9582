import { useTranslation } from "react-i18next";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { fullName } from "./auth-state";

/** A person in a list: their name, and their roles and email under it. */
export function PersonIdentity({
  person,
  className = "min-w-0",
}: {
  person: Pick<PersonSummary, "givenName" | "familyName" | "roles" | "email">;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      <p className="font-medium">{fullName(person)}</p>
      <p className="truncate text-xs text-slate-600 dark:text-slate-400">
        {[person.roles.map((role) => t(`common:roles.${role}`)).join(", "), person.email]
          .filter(Boolean)
          .join(" · ")}
      </p>
    </div>
  );
}
