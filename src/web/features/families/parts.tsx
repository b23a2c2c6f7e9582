import { useTranslation } from "react-i18next";
import type { ChildOverview } from "../../../shared/contracts/families";
import { gradeLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { i18next } from "../../lib/i18n";
import { FamilyStandingNotice } from "../integrity/home-cards";

/** What a child is called on their family's pages: the first name they go by. */
export const firstNameOf = (child: Pick<ChildOverview, "givenName" | "preferredFirstName">) =>
  child.preferredFirstName ?? child.givenName;

export const childNameOf = (child: Pick<ChildOverview, "givenName" | "preferredFirstName" | "familyName">) =>
  `${firstNameOf(child)} ${child.familyName}`;

/** Colours a disc of initials may take: each reads white text at WCAG AA. */
const AVATAR_COLOURS = [
  "#2563eb",
  "#7c3aed",
  "#0f766e",
  "#c2410c",
  "#be185d",
  "#4d7c0f",
  "#a16207",
  "#475569",
];

/**
 * The child's initials on a disc of their own colour (the same on every page, from their id):
 * Dash keeps no pictures of children. Decorative, as their name is always written beside it.
 */
export function ChildAvatar({
  child,
  size = "md",
}: {
  child: Pick<ChildOverview, "sourcedId" | "givenName" | "preferredFirstName" | "familyName">;
  size?: "md" | "lg";
}) {
  const initials = `${firstNameOf(child).charAt(0)}${child.familyName.charAt(0)}`.toUpperCase();
  const hash = [...child.sourcedId].reduce((total, char) => (total * 31 + char.charCodeAt(0)) % 9973, 0);
  return (
    <span
      aria-hidden="true"
      className={`flex shrink-0 items-center justify-center rounded-full font-bold text-white ${size === "lg" ? "size-16 text-2xl" : "size-12 text-lg"}`}
      style={{ backgroundColor: AVATAR_COLOURS[hash % AVATAR_COLOURS.length] }}
    >
      {initials}
    </span>
  );
}

/** "Grade 3 · Maple Grove School", and the child's Guides on a line of their own. */
export function ChildFacts({ child }: { child: ChildOverview }) {
  const { t } = useTranslation("families");
  const place = [child.grades.length > 0 ? gradeLabel(child.grades) : null, child.school?.name]
    .filter(Boolean)
    .join(" · ");
  return (
    <div className="text-sm text-slate-600 dark:text-slate-300">
      {place && <p>{place}</p>}
      <p>
        {child.guides.length > 0
          ? t("child.guides", {
              count: child.guides.length,
              names: child.guides.map((guide) => guide.name).join(", "),
            })
          : t("child.noGuide")}
      </p>
    </div>
  );
}

/** A child's strikes or lock, in the same words as on the family's home. */
export function StandingNotice({ child }: { child: ChildOverview }) {
  return (
    <FamilyStandingNotice childId={child.sourcedId} name={firstNameOf(child)} standing={child.standing} />
  );
}

/**
 * Why the family's list of children did not load: the server's own words when it gave any, else
 * "Failed to fetch children: {status text}" (an answer without a readable error, from a proxy…).
 */
export function childrenFailure(error: Error): string {
  if (error instanceof ApiRequestError && error.code !== "http_error" && error.message.trim())
    return error.message;
  const statusText =
    error instanceof ApiRequestError && error.message.length <= 80 && !/[<\n]/.test(error.message)
      ? error.message
      : String((error as Partial<ApiRequestError>).status ?? "");
  return i18next.t("families:childrenFailed", { status: statusText });
}
