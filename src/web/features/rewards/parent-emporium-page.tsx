import { useQuery } from "@tanstack/react-query";
import { Link, useSearch } from "@tanstack/react-router";
import { HandCoins, Users } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { childrenQuery } from "../auth/api";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { BonusForm } from "./family-bonus";
import { ChildSwitcher } from "./family-child-switcher";
import { ApprovedRequests, RecentRequests, WaitingRequests } from "./family-requests";
import { FamilyRewards } from "./family-rewards";
import { StudentAccount, StudentLedger } from "./parts";

type ParentEmporiumSearch = z.output<typeof searchSchemas.childrenProgress>;

/** A family's side of the emporium: one child at a time, their Alphas, requests and rewards. */
export function ParentEmporiumPage() {
  const { t } = useTranslation("rewards");
  const { childId } = useSearch({ strict: false }) as ParentEmporiumSearch;
  const children = useQuery(childrenQuery);

  let body: ReactNode;
  if (children.isPending) body = <Loading label={t("family.loadingChildren")} rows={4} />;
  else if (children.isError)
    body = (
      <QueryError
        error={children.error}
        fallback={t("family.childrenFailed")}
        onRetry={() => children.refetch()}
      />
    );
  else if (children.data.data.length === 0)
    body = (
      <EmptyState icon={Users} title={t("family.noChildren.title")}>
        {t("family.noChildren.body")}
      </EmptyState>
    );
  else {
    const choices = children.data.data;
    const child = choices.find((choice) => choice.sourcedId === childId) ?? choices[0];
    body = child && (
      <>
        {choices.length > 1 && <ChildSwitcher choices={choices} selectedId={child.sourcedId} />}
        <ChildEmporium key={child.sourcedId} child={child} />
      </>
    );
  }

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/parent-emporium.title")}
        description={t("family.description")}
      />
      {body}
    </div>
  );
}

function ChildEmporium({ child }: { child: PersonSummary }) {
  const { t } = useTranslation("rewards");
  const name = child.givenName;
  return (
    <div className="space-y-6">
      <Section
        title={t("family.account.title", { name })}
        actions={
          <Link
            to="/app/child/$childId/payout"
            params={{ childId: child.sourcedId }}
            className="inline-flex items-center gap-1.5 rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-slate-800"
          >
            <HandCoins aria-hidden="true" className="size-4" />
            {t("family.account.payout")}
          </Link>
        }
      >
        <StudentAccount studentId={child.sourcedId} />
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title={t("family.waiting.title")} description={t("family.waiting.description", { name })}>
          <WaitingRequests child={child} />
        </Section>
        <Section title={t("family.bonus.title")} description={t("family.bonus.description", { name })}>
          <BonusForm child={child} />
        </Section>
      </div>

      <Section title={t("family.approved.title")} description={t("family.approved.description")}>
        <ApprovedRequests child={child} />
      </Section>

      <Section title={t("family.rewards.title", { name })}>
        <FamilyRewards child={child} />
      </Section>

      <Section title={t("family.recent.title")} description={t("family.recent.description", { name })}>
        <RecentRequests child={child} />
      </Section>

      <Section title={t("family.history.title", { name })}>
        <StudentLedger studentId={child.sourcedId} />
      </Section>
    </div>
  );
}
