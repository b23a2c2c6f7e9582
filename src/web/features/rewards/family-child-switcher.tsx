import { Link, type LinkProps } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { fullName } from "../auth/auth-state";

/**
 * One link per child; the chosen one is marked current and kept in the address: the emporium's
 * `childId` by default, or where `linkOf` says (another page's own parameter).
 */
export function ChildSwitcher({
  choices,
  selectedId,
  linkOf = (childId) => ({ to: "/app/parent-emporium", search: { childId } }),
  label,
}: {
  choices: PersonSummary[];
  selectedId: string;
  linkOf?: (childId: string) => LinkProps;
  /** The switcher's name for screen readers; "Your children" by default. */
  label?: string;
}) {
  const { t } = useTranslation("rewards");
  return (
    <nav aria-label={label ?? t("family.switcher")} className="mb-6">
      <ul className="flex flex-wrap gap-2">
        {choices.map((child) => {
          const isCurrent = child.sourcedId === selectedId;
          return (
            <li key={child.sourcedId}>
              <Link
                {...linkOf(child.sourcedId)}
                aria-current={isCurrent ? "page" : undefined}
                className={`inline-flex min-h-10 items-center rounded-full border-2 px-4 py-1.5 text-sm font-semibold ${
                  isCurrent
                    ? "border-brand-600 bg-brand-600 text-white dark:border-brand-500 dark:bg-brand-500 dark:text-slate-950"
                    : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
                }`}
              >
                {fullName(child)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
