import type { TFunction } from "i18next";
import type { Contact, ConversationMember, WritingRefusal } from "../../../shared/contracts/messaging";
import type { DashRole } from "../../../shared/roles";
import { shownLocale } from "../../lib/format";

/** Names as a list in the shown language: "Ava and Leo", "Ava y Leo". */
export function listOf(names: readonly string[]): string {
  return new Intl.ListFormat(shownLocale(), { type: "conjunction" }).format(names);
}

/**
 * Who a member is to the caller: "Parent of Ava Johnson", "Guide", "Administrator", and to a family
 * an administrator is the school office.
 */
export function memberRole(
  member: ConversationMember,
  viewerRole: DashRole | null,
  t: TFunction<"messaging">,
): string {
  const role = member.roles.find((candidate) => candidate === "parent" || candidate === "guardian");
  if (role && member.children.length > 0)
    return t("members.familyOf", { role, children: listOf(member.children) });
  const isFamily = viewerRole === "parent" || viewerRole === "guardian";
  if (isFamily && member.roles[0] === "administrator") return t("members.office");
  return member.roles[0] ? t(`common:roles.${member.roles[0]}`) : "";
}

/** The names of the others in a conversation, for its title. */
export function conversationTitle(others: readonly ConversationMember[], t: TFunction<"messaging">): string {
  return others.length > 0 ? listOf(others.map((member) => member.name)) : t("members.nobody");
}

/** How a contact is related to the caller: "Guide of Ava Johnson · School office, Maple Grove School". */
export function contactRelations(contact: Contact, t: TFunction<"messaging">): string {
  return contact.relations
    .map(({ relation, about }) =>
      t(`contacts.relation.${relation}`, { about: about ?? "", hasAbout: about ? "yes" : "no" }),
    )
    .join(" · ");
}

/** "AJ" for Ava Johnson. */
export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/);
  return `${parts[0]?.[0] ?? ""}${parts.length > 1 ? (parts.at(-1)?.[0] ?? "") : ""}`.toUpperCase();
}

/** Why the caller cannot write, in the shown language; `viewedName` is whose view applies (viewing as someone). */
export function refusalText(refusal: WritingRefusal, viewedName: string, t: TFunction<"messaging">): string {
  return t(`refusals.${refusal}`, { name: viewedName });
}
