import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Coins, Users } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { XpHeatmap } from "../../components/charts/xp-heatmap";
import { formatNumber, formatXp, gradeLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { SELECTED_CHILD_KEY } from "../auth/view-as";
import { GoalsGlance } from "../goals/glance";
import { ChildNotice } from "../integrity/home-cards";
import { childExportUrl } from "../privacy/api";
import { accountQuery, redemptionsQuery } from "../rewards/api";
import { childrenSummaryQuery } from "./api";
import {
  dailyGoalOf,
  EmptyState,
  goalsMet,
  HomeHero,
  Loading,
  QueryError,
  Section,
  Streak,
  SubjectGoals,
} from "./parts";

function readSelectedChild(): string | null {
  try {
    return localStorage.getItem(SELECTED_CHILD_KEY);
  } catch {
    return null;
  }
}

function storeSelectedChild(childId: string) {
  try {
    localStorage.setItem(SELECTED_CHILD_KEY, childId);
  } catch {
    // The choice still holds on this page.
  }
}

/** A parent's or guardian's home: a card per child, and the daily XP of the selected child. */
export function FamilyHome() {
  const { t } = useTranslation("home");
  const { user } = useAuth();
  const children = useQuery(childrenSummaryQuery(user.sourcedId));
  // One list for every child: the requests still waiting for someone's approval.
  const pending = useQuery(redemptionsQuery({ status: "pending" }));
  const [chosen, setChosen] = useState<string | null>(readSelectedChild);
  const selected =
    children.data?.find((child) => child.sourcedId === chosen) ?? children.data?.[0] ?? undefined;

  return (
    <div className="space-y-6">
      <HomeHero />
      {children.isError && (
        <QueryError
          error={children.error}
          fallback={t("family.loadFailed")}
          onRetry={() => children.refetch()}
        />
      )}
      {children.isPending && <Loading label={t("family.loading")} rows={4} />}
      {children.data &&
        (children.data.length === 0 ? (
          <EmptyState icon={Users} title={t("family.empty.title")}>
            {t("family.empty.body")}
          </EmptyState>
        ) : (
          <>
            <ul aria-label={t("family.children")} className="grid gap-6 md:grid-cols-2">
              {children.data.map((child) => (
                <li key={child.sourcedId} className="min-w-0">
                  <ChildCard
                    child={child}
                    waiting={
                      pending.data?.data.filter(
                        (request) =>
                          request.studentId === child.sourcedId && request.approverKind === "family",
                      ).length
                    }
                  />
                </li>
              ))}
            </ul>
            {selected && (
              <ChildHeatmap
                key={selected.sourcedId}
                child={selected}
                choices={children.data}
                onChoose={(childId) => {
                  setChosen(childId);
                  storeSelectedChild(childId);
                }}
              />
            )}
          </>
        ))}
    </div>
  );
}

function ChildCard({ child, waiting }: { child: StudentSummary; waiting: number | undefined }) {
  const { t } = useTranslation("home");
  const { met, total } = goalsMet(child);
  const headingId = useId();
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-lg font-bold">
            {fullName(child)}
          </h2>
          {child.grades.length > 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-300">{gradeLabel(child.grades)}</p>
          )}
        </div>
        <Streak days={child.streak} />
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
          <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">
            {t("family.goalsMetToday")}
          </dt>
          <dd className="text-xl font-bold tabular-nums">{t("family.goalsMet", { met, total })}</dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
          <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">{t("admin.xpThisWeek")}</dt>
          <dd className="text-xl font-bold tabular-nums">{formatXp(child.xpThisWeek)}</dd>
        </div>
      </dl>
      <ChildNotice childId={child.sourcedId} givenName={child.givenName} />
      <GoalsGlance studentId={child.sourcedId} variant="card" />
      <ChildAlphas child={child} waiting={waiting} />
      <h3 className="mt-5 mb-2 text-sm font-semibold text-slate-700 dark:text-slate-200">
        {t("family.today")}
      </h3>
      <div className="flex-1">
        <SubjectGoals subjects={child.subjects} compact />
      </div>
      <Link
        to="/app/children-progress"
        search={{ childId: child.sourcedId }}
        aria-label={t("family.progressLabel", { name: fullName(child) })}
        className="mt-5 inline-flex items-center gap-1 self-start rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-slate-800"
      >
        {t("family.progress")} <span aria-hidden="true">→</span>
      </Link>
      <a
        href={childExportUrl(child.sourcedId)}
        download
        aria-label={t("family.downloadLabel", { name: fullName(child) })}
        className="mt-2 self-start text-sm font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
      >
        {t("family.download")}
      </a>
    </article>
  );
}

function ChildHeatmap({
  child,
  choices,
  onChoose,
}: {
  child: StudentSummary;
  choices: StudentSummary[];
  onChoose: (childId: string) => void;
}) {
  const { t } = useTranslation("home");
  const selectId = useId();
  return (
    <Section
      title={t("family.dailyXp", { name: child.givenName })}
      description={t("family.dailyDescription")}
      actions={
        choices.length > 1 && (
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm font-medium">
              {t("family.child")}
            </label>
            <select
              id={selectId}
              value={child.sourcedId}
              onChange={(event) => onChoose(event.target.value)}
              className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              {choices.map((choice) => (
                <option key={choice.sourcedId} value={choice.sourcedId}>
                  {fullName(choice)}
                </option>
              ))}
            </select>
          </div>
        )
      }
    >
      <XpHeatmap
        studentId={child.sourcedId}
        timezone={child.timezone}
        today={child.today}
        dailyGoal={dailyGoalOf(child) || 100}
        label={t("family.dailyXp", { name: child.givenName })}
      />
    </Section>
  );
}

/** A child's Alphas to spend and the requests waiting for the family, with the way to answer them. */
function ChildAlphas({ child, waiting }: { child: StudentSummary; waiting: number | undefined }) {
  const { t } = useTranslation("home");
  const account = useQuery(accountQuery(child.sourcedId));
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-xl bg-amber-50 p-3 dark:bg-slate-800">
      <p className="flex min-w-0 items-start gap-2 text-sm">
        <Coins aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" />
        <span>
          {account.isError
            ? t("rewards.family.loadFailed")
            : account.data
              ? t("rewards.family.available", {
                  count: account.data.available,
                  amount: formatNumber(account.data.available, 0),
                })
              : t("rewards.family.loading")}
          {waiting !== undefined && (
            <span className={`block ${waiting > 0 ? "font-semibold" : "text-slate-600 dark:text-slate-300"}`}>
              {t("rewards.family.waiting", { count: waiting })}
            </span>
          )}
        </span>
      </p>
      <Link
        to="/app/parent-emporium"
        search={{ childId: child.sourcedId }}
        aria-label={t("rewards.family.linkLabel", { name: fullName(child) })}
        className="text-sm font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
      >
        {t("rewards.family.link")}
      </Link>
    </div>
  );
}
