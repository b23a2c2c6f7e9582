import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { TFunction } from "i18next";
import { Puzzle } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { appFreshnessSchema, StudentSummary } from "../../../shared/contracts/activity";
import { XpHeatmap } from "../../components/charts/xp-heatmap";
import { formatNumber, formatXp, instantLabel, relativeTime } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { AssignedGlance } from "../content/assigned-glance";
import { YourLogin } from "../credentials/your-login";
import { GoalsGlance } from "../goals/glance";
import { StudentStrikes } from "../integrity/home-cards";
import { accountQuery, redemptionsQuery } from "../rewards/api";
import { studentHomeQuery } from "./api";
import {
  AppCard,
  dailyGoalOf,
  EmptyState,
  goalsMet,
  HomeHero,
  Loading,
  QueryError,
  Section,
  Streak,
  SubjectGoals,
  WeekBars,
} from "./parts";

type LearningApp = z.infer<typeof appFreshnessSchema>;

/** A student's home (also what a Guide, parent or administrator sees when viewing as one). */
export function StudentHome() {
  const { t } = useTranslation("home");
  const { user } = useAuth();
  const home = useQuery(studentHomeQuery(user.sourcedId));
  const summary = home.data?.summary;

  return (
    <div className="space-y-6">
      <HomeHero>
        {summary && (
          <div className="mt-5 flex flex-wrap items-center gap-3">
            <Streak days={summary.streak} />
            <p className="text-sm text-brand-100">
              <span className="font-bold text-white">
                {t("student.xpToday", { xp: formatXp(summary.xpToday) })}
              </span>{" "}
              ·{" "}
              <span className="font-bold text-white">
                {t("student.xpThisWeek", { xp: formatXp(summary.xpThisWeek) })}
              </span>
            </p>
          </div>
        )}
      </HomeHero>

      {home.isError && (
        <QueryError error={home.error} fallback={t("student.loadFailed")} onRetry={() => home.refetch()} />
      )}
      {home.isPending && <Loading label={t("student.loading")} rows={4} />}

      {summary && (
        <>
          <div className="grid gap-6 lg:grid-cols-5">
            <Section
              title={t("goals.label")}
              description={todayLine(summary.subjects, t)}
              className="lg:col-span-3"
              tour="home-today"
            >
              <SubjectGoals subjects={summary.subjects} />
            </Section>
            <Section
              title={t("student.week.title")}
              description={t("student.week.soFar", { xp: formatXp(summary.xpThisWeek) })}
              className="lg:col-span-2"
              tour="home-week"
            >
              <WeekBars week={summary.week} today={summary.today} dailyGoal={dailyGoalOf(summary)} />
            </Section>
          </div>

          <AssignedGlance />

          <GoalsGlance studentId={summary.sourcedId} variant="student" />

          <StudentStrikes />

          <AlphasCard studentId={summary.sourcedId} />

          <Section
            title={t("student.daily.title")}
            description={t("student.daily.description")}
            tour="home-daily"
          >
            <XpHeatmap
              studentId={summary.sourcedId}
              timezone={summary.timezone}
              today={summary.today}
              dailyGoal={dailyGoalOf(summary) || 100}
            />
          </Section>

          <Section
            title={t("student.apps.title")}
            description={t("student.apps.description")}
            tour="home-apps"
          >
            <AppList apps={home.data?.apps ?? []} />
          </Section>
        </>
      )}
    </div>
  );
}

function todayLine(subjects: StudentSummary["subjects"], t: TFunction<"home">): string {
  const { met, total } = goalsMet({ subjects });
  if (total === 0) return t("student.today.none");
  if (met === total) return t("student.today.allMet");
  return t("student.today.met", { met, total });
}

function AppList({ apps }: { apps: LearningApp[] }) {
  const { t } = useTranslation("home");
  if (apps.length === 0) {
    return (
      <EmptyState icon={Puzzle} title={t("student.apps.empty.title")}>
        {t("student.apps.empty.body")}
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
      {apps.map((app) => (
        <AppCard key={app.appId} app={app}>
          <p className="mt-3 flex-1 text-xs text-slate-600 dark:text-slate-300">
            {app.lastReportedAt ? (
              <time dateTime={app.lastReportedAt} title={instantLabel(app.lastReportedAt)}>
                {t("student.apps.lastReported", { when: relativeTime(app.lastReportedAt) })}
              </time>
            ) : (
              t("student.apps.noData")
            )}
          </p>
          {app.launchUrl ? (
            <a
              href={app.launchUrl}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={t("student.apps.openLabel", { app: app.name })}
              className="mt-3 inline-flex items-center justify-center gap-1 rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              {t("student.apps.open")} <span aria-hidden="true">↗</span>
            </a>
          ) : (
            <p className="mt-3 text-center text-sm text-slate-600 dark:text-slate-300">
              {t("student.apps.noLink")}
            </p>
          )}
          <YourLogin appId={app.appId} appName={app.name} />
        </AppCard>
      ))}
    </ul>
  );
}

/** The student's Alphas at a glance, with the way to the emporium. */
function AlphasCard({ studentId }: { studentId: string }) {
  const { t } = useTranslation("home");
  const account = useQuery(accountQuery(studentId));
  const pending = useQuery(redemptionsQuery({ status: "pending" }));
  const figures = [
    { key: "available", value: account.data?.available },
    { key: "savings", value: account.data?.savings },
    { key: "pending", value: pending.data?.total },
  ] as const;
  return (
    <Section
      title={t("rewards.student.title")}
      description={t("rewards.student.description")}
      actions={
        <Link
          to="/app/emporium"
          className="inline-flex items-center gap-1 rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-slate-800"
        >
          {t("rewards.student.link")} <span aria-hidden="true">→</span>
        </Link>
      }
    >
      {account.isError ? (
        <QueryError
          error={account.error}
          fallback={t("rewards.student.loadFailed")}
          onRetry={() => account.refetch()}
        />
      ) : account.isPending ? (
        <Loading label={t("rewards.student.loading")} rows={1} />
      ) : (
        <dl className="grid grid-cols-3 gap-3">
          {figures.map(({ key, value }) => (
            <div key={key} className="min-w-0 rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
              <dt className="text-xs font-medium text-slate-600 dark:text-slate-300">
                {t(`rewards.student.${key}`)}
              </dt>
              <dd className="text-xl font-bold tabular-nums">
                {value === undefined ? "–" : formatNumber(value, 0)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Section>
  );
}
