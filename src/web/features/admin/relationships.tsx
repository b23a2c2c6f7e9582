import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ManagedUser, Relationship } from "../../../shared/contracts/people";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { gradeLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { PersonIdentity } from "../auth/person-identity";
import { Loading, QueryError, Section } from "../home/parts";
import { linkAgent, relationshipsQuery, unlinkAgent } from "./api";
import { DANGER_SMALL_BUTTON, PeopleSearch, PersonPicker, SMALL_BUTTON } from "./people-search";
import { useRefreshRoster } from "./user-roles";

/** Find a student or a parent; see and change who is linked to whom. */
export function RelationshipsPanel() {
  const { t } = useTranslation("admin");
  return (
    <PersonPicker
      title={t("relationships.find.heading")}
      description={t("relationships.find.description")}
      searchLabel={t("relationships.find.search")}
      roleChoices={[
        { value: "student", label: t("relationships.students") },
        { value: "parent,guardian", label: t("relationships.parentsAndGuardians") },
      ]}
      pick={t("relationships.find.pick")}
      emptyDescription={t("relationships.find.emptyDescription")}
      emptyText={t("relationships.find.emptyText")}
      details={(userId) => <PersonLinks userId={userId} />}
    />
  );
}

function PersonLinks({ userId }: { userId: string }) {
  const { t } = useTranslation("admin");
  const links = useQuery(relationshipsQuery(userId));
  const [unlinking, setUnlinking] = useState<{ other: PersonSummary; link: Relationship } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useRefreshRoster();

  if (links.isError) return <QueryError error={links.error} fallback={t("relationships.loadFailed")} />;
  if (!links.data) return <Loading label={t("relationships.loading")} />;
  const { person, agents, children } = links.data.data;
  const name = fullName(person);
  const holds = (role: string) => person.roles.some((entry) => entry.role === role);
  const isStudent = holds("student");
  const isAgent = holds("parent") || holds("guardian");

  async function link(input: Relationship, other: ManagedUser) {
    setProblem(null);
    setNotice(null);
    try {
      await linkAgent(input);
      await refresh();
      setNotice(t("relationships.linked", { other: fullName(other), name }));
    } catch (error) {
      setProblem(failureMessage(error, t("relationships.linkFailed")));
    }
  }

  const linkedIds = new Set([...agents, ...children].map((other) => other.sourcedId));
  const linkButton = (other: ManagedUser, input: Relationship) =>
    linkedIds.has(other.sourcedId) ? (
      <span className="text-xs font-semibold text-slate-600 dark:text-slate-300">
        {t("relationships.isLinked")}
      </span>
    ) : (
      <button
        type="button"
        className={SMALL_BUTTON}
        onClick={() => link(input, other)}
        aria-label={t("relationships.linkLabel", { name: fullName(other) })}
      >
        {t("relationships.link")}
      </button>
    );

  return (
    <Section
      title={name}
      description={[person.email, person.grades.length ? gradeLabel(person.grades) : null]
        .filter(Boolean)
        .join(" · ")}
    >
      <div aria-live="polite" className="space-y-2">
        {notice && (
          <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
            {notice}
          </p>
        )}
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
      </div>
      {isStudent && (
        <LinkedList
          title={t("relationships.agentsOf", { name })}
          empty={t("relationships.noAgents")}
          people={agents}
          onUnlink={(other) =>
            setUnlinking({
              other,
              link: { studentSourcedId: person.sourcedId, agentSourcedId: other.sourcedId },
            })
          }
        >
          <PeopleSearch
            label={t("relationships.findAgent")}
            roleChoices={[{ value: "parent,guardian", label: t("relationships.parentsAndGuardians") }]}
            action={(other) =>
              linkButton(other, { studentSourcedId: person.sourcedId, agentSourcedId: other.sourcedId })
            }
          />
        </LinkedList>
      )}
      {isAgent && (
        <LinkedList
          title={t("relationships.childrenOf", { name })}
          empty={t("relationships.noChildren")}
          people={children}
          onUnlink={(other) =>
            setUnlinking({
              other,
              link: { studentSourcedId: other.sourcedId, agentSourcedId: person.sourcedId },
            })
          }
        >
          <PeopleSearch
            label={t("relationships.findStudent")}
            roleChoices={[{ value: "student", label: t("relationships.students") }]}
            action={(other) =>
              linkButton(other, { studentSourcedId: other.sourcedId, agentSourcedId: person.sourcedId })
            }
          />
        </LinkedList>
      )}
      {!isStudent && !isAgent && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          {t("relationships.neither", { name })}
        </p>
      )}
      {unlinking && (
        <ConfirmDialog
          title={t("relationships.unlinkTitle")}
          message={t("relationships.unlinkMessage", { other: fullName(unlinking.other), name })}
          confirmLabel={t("relationships.unlink")}
          onConfirm={async () => {
            await unlinkAgent(unlinking.link);
            await refresh();
            setProblem(null);
            setNotice(t("relationships.unlinked", { other: fullName(unlinking.other), name }));
          }}
          onClose={() => setUnlinking(null)}
        />
      )}
    </Section>
  );
}

function LinkedList({
  title,
  empty,
  people,
  onUnlink,
  children,
}: {
  title: string;
  empty: string;
  people: PersonSummary[];
  onUnlink: (person: PersonSummary) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation("admin");
  return (
    <div className="mt-4">
      <h3 className="font-semibold">{title}</h3>
      {people.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{empty}</p>
      ) : (
        <ul className="mt-1 divide-y divide-slate-100 dark:divide-slate-800" aria-label={title}>
          {people.map((other) => (
            <li key={other.sourcedId} className="flex items-center justify-between gap-3 py-2.5">
              <PersonIdentity person={other} />
              <button
                type="button"
                onClick={() => onUnlink(other)}
                aria-label={t("relationships.unlinkLabel", { name: fullName(other) })}
                className={DANGER_SMALL_BUTTON}
              >
                {t("relationships.unlink")}
              </button>
            </li>
          ))}
        </ul>
      )}
      <details className="mt-3 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
        <summary className="cursor-pointer font-semibold text-brand-700 dark:text-brand-100">
          {t("relationships.linkSomeone")}
        </summary>
        <div className="mt-3">{children}</div>
      </details>
    </div>
  );
}
