import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Coins, LineChart, Target, Users } from "lucide-react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type { ChildOverview } from "../../../shared/contracts/families";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { formatNumber, formatXp } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import {
  dailyGoalOf,
  EmptyState,
  goalsMet,
  Loading,
  QueryError,
  Streak,
  SubjectGoals,
  WeekBars,
} from "../home/parts";
import { childrenOverviewQuery } from "./api";
import { ChildAvatar, ChildFacts, childNameOf, firstNameOf, StandingNotice } from "./parts";

/** `my-children`: a card per child with their day, week, goals, Alphas, MAP and standing, and their pages. */
export function MyChildrenPage() {
  const { t } = useTranslation("families");
  const { user } = useAuth();
  const children = useQuery(childrenOverviewQuery(user.sourcedId));
  return (
    <div>
      <PageHeader title={t("common:pages./app/my-children.title")} description={t("children.description")} />
      {children.isPending && <Loading label={t("children.loading")} rows={6} />}
      {children.isError && (
        <QueryError
          error={children.error}
          fallback={t("children.loadFailed")}
          onRetry={() => children.refetch()}
        />
      )}
      {children.data &&
        (children.data.length === 0 ? (
          <EmptyState icon={Users} title={t("children.empty.title")}>
            {t("children.empty.body")}
          </EmptyState>
        ) : (
          <ul aria-label={t("children.list")} className="grid gap-6 2xl:grid-cols-2">
            {children.data.map((child) => (
              <li key={child.sourcedId} className="min-w-0">
                <ChildCard child={child} />
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}

function ChildCard({ child }: { child: ChildOverview }) {
  const { t } = useTranslation("families");
  const headingId = useId();
  const name = firstNameOf(child);
  const { met, total } = goalsMet(child.summary);
  const daysAllMet = child.summary.week.filter((day) => day.allGoalsMet && day.xp > 0).length;
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <header className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <ChildAvatar child={child} />
        <div className="min-w-0 flex-1 basis-48">
          <h2 id={headingId} className="text-xl font-bold">
            <Link
              to="/app/child/$childId"
              params={{ childId: child.sourcedId }}
              className="hover:underline focus-visible:underline"
            >
              {childNameOf(child)}
            </Link>
          </h2>
          <ChildFacts child={child} />
        </div>
        <Streak days={child.summary.streak} />
      </header>

      <StandingNotice child={child} />

      <div className="grid gap-5 sm:grid-cols-2">
        <section aria-label={t("card.today", { name })}>
          <h3 className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm font-semibold">
            <span>{t("card.todayTitle")}</span>
            <span className="font-normal text-slate-600 dark:text-slate-300">
              {t("card.todayFigures", {
                xp: formatXp(child.summary.xpToday),
                goal: formatXp(dailyGoalOf(child.summary)),
                met,
                total,
              })}
            </span>
          </h3>
          <div className="mt-3">
            <SubjectGoals subjects={child.summary.subjects} compact />
          </div>
        </section>
        <section aria-label={t("card.week", { name })}>
          <h3 className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm font-semibold">
            <span>{t("card.weekTitle")}</span>
            <span className="font-normal text-slate-600 dark:text-slate-300">
              {t("card.weekDays", { count: daysAllMet })}
            </span>
          </h3>
          <div className="mt-3">
            <WeekBars
              week={child.summary.week}
              today={child.summary.today}
              dailyGoal={dailyGoalOf(child.summary)}
            />
          </div>
        </section>
      </div>

      <dl className="grid gap-3 sm:grid-cols-3">
        <Tile icon={Target} term={t("card.weeklyGoal")}>
          <span className="block text-lg font-bold tabular-nums">
            {t("card.weeklyGoalFigures", {
              xp: formatXp(child.goals.weekly.value),
              goal: formatXp(child.goals.weekly.target),
            })}
          </span>
          <GoalCounts goals={child.goals} />
        </Tile>
        <Tile icon={Coins} term={t("card.alphas")}>
          <span className="block text-lg font-bold tabular-nums">
            {t("card.alphasAvailable", {
              count: child.alphas.available,
              amount: formatNumber(child.alphas.available, 0),
            })}
          </span>
          <span className="block text-slate-600 dark:text-slate-300">
            {t("card.requestsWaiting", { count: child.alphas.pendingRequests })}
          </span>
        </Tile>
        <Tile icon={LineChart} term={t("card.map")}>
          {child.map.length === 0 ? (
            <span className="block text-slate-600 dark:text-slate-300">{t("card.mapNone")}</span>
          ) : (
            <ul className="space-y-0.5">
              {child.map.map((test) => (
                <li key={test.subject}>
                  <span className="font-semibold">{test.subject}</span>{" "}
                  {test.percentile === null
                    ? t("card.mapRit", { rit: test.rit })
                    : t("card.mapRitPercentile", { rit: test.rit, percentile: test.percentile })}
                </li>
              ))}
            </ul>
          )}
        </Tile>
      </dl>

      <nav aria-label={t("card.pages", { name })} className="mt-auto flex flex-wrap gap-2">
        <Link
          to="/app/child/$childId"
          params={{ childId: child.sourcedId }}
          className={buttonClass("primary", "inline-flex items-center")}
        >
          {t("card.open", { name })}
        </Link>
        <Link
          to="/app/children-progress"
          search={{ childId: child.sourcedId }}
          className={buttonClass("secondary", "inline-flex items-center")}
        >
          {t("card.progress")}
        </Link>
        <Link
          to="/app/parent-emporium"
          search={{ childId: child.sourcedId }}
          className={buttonClass("secondary", "inline-flex items-center")}
        >
          {t("card.emporium")}
        </Link>
        <Link
          to="/app/parent-map-growth"
          search={{ childId: child.sourcedId }}
          className={buttonClass("secondary", "inline-flex items-center")}
        >
          {t("card.mapLink")}
        </Link>
      </nav>
    </article>
  );
}

function Tile({ icon: Icon, term, children }: { icon: typeof Coins; term: string; children: ReactNode }) {
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-3 text-sm dark:bg-slate-800">
      <dt className="flex items-center gap-1.5 text-xs font-semibold text-slate-700 dark:text-slate-200">
        <Icon aria-hidden="true" className="size-4 shrink-0" />
        {term}
      </dt>
      <dd className="mt-1">{children}</dd>
    </div>
  );
}

/** "2 reached · 1 on track · 1 behind", or that the child has no target goals. */
function GoalCounts({ goals }: { goals: ChildOverview["goals"] }) {
  const { t } = useTranslation("families");
  const parts = [
    goals.reached > 0 && t("card.goalsReached", { count: goals.reached }),
    goals.onTrack > 0 && t("card.goalsOnTrack", { count: goals.onTrack }),
    goals.behind > 0 && t("card.goalsBehind", { count: goals.behind }),
    goals.awaitingTest > 0 && t("card.goalsAwaiting", { count: goals.awaitingTest }),
  ].filter(Boolean);
  return (
    <span className="block text-slate-600 dark:text-slate-300">
      {parts.length > 0 ? parts.join(" · ") : t("card.noTargets")}
    </span>
  );
}
