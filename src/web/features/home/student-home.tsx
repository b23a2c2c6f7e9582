import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { appFreshnessSchema, StudentSummary } from "../../../shared/contracts/activity";
import { XpHeatmap } from "../../components/charts/xp-heatmap";
import { formatXp, relativeTime } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { studentHomeQuery } from "./api";
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
  WeekBars,
} from "./parts";

type LearningApp = z.infer<typeof appFreshnessSchema>;

/** A student's home (also what a Guide, parent or administrator sees when viewing as one). */
export function StudentHome() {
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
              <span className="font-bold text-white">{formatXp(summary.xpToday)} XP</span> today ·{" "}
              <span className="font-bold text-white">{formatXp(summary.xpThisWeek)} XP</span> this week
            </p>
          </div>
        )}
      </HomeHero>

      {home.isError && (
        <QueryError error={home.error} fallback="Could not load your day" onRetry={() => home.refetch()} />
      )}
      {home.isPending && <Loading label="Loading your day" rows={4} />}

      {summary && (
        <>
          <div className="grid gap-6 lg:grid-cols-5">
            <Section
              title="Today's goals"
              description={todayLine(summary.subjects)}
              className="lg:col-span-3"
            >
              <SubjectGoals subjects={summary.subjects} />
            </Section>
            <Section
              title="This week"
              description={`${formatXp(summary.xpThisWeek)} XP so far`}
              className="lg:col-span-2"
            >
              <WeekBars week={summary.week} today={summary.today} dailyGoal={dailyGoalOf(summary)} />
            </Section>
          </div>

          <Section title="Daily XP" description="The last four months, one square per day.">
            <XpHeatmap
              studentId={summary.sourcedId}
              timezone={summary.timezone}
              today={summary.today}
              dailyGoal={dailyGoalOf(summary) || 100}
            />
          </Section>

          <Section title="Your apps" description="Open an app to learn; XP shows up here as it reports.">
            <AppList apps={home.data?.apps ?? []} />
          </Section>
        </>
      )}
    </div>
  );
}

function todayLine(subjects: StudentSummary["subjects"]): string {
  const { met, total } = goalsMet({ subjects });
  if (total === 0) return "No goals set for today.";
  if (met === total) return "Every goal met today. Brilliant!";
  return `${met} of ${total} goals met`;
}

function AppList({ apps }: { apps: LearningApp[] }) {
  if (apps.length === 0) {
    return (
      <EmptyState icon="🧩" title="No apps yet">
        Your school hasn't connected any learning apps.
      </EmptyState>
    );
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
      {apps.map((app) => (
        <li
          key={app.appId}
          className="flex flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-700"
        >
          <div className="flex items-center gap-3">
            <AppIcon icon={app.icon} />
            <div className="min-w-0">
              <h3 className="font-semibold">{app.name}</h3>
              {app.subjects.length > 0 && (
                <p className="text-xs text-slate-600 dark:text-slate-300">{app.subjects.join(", ")}</p>
              )}
            </div>
          </div>
          <p className="mt-3 flex-1 text-xs text-slate-600 dark:text-slate-300">
            {app.lastReportedAt ? (
              <>
                Last reported{" "}
                <time dateTime={app.lastReportedAt} title={new Date(app.lastReportedAt).toLocaleString()}>
                  {relativeTime(app.lastReportedAt)}
                </time>
              </>
            ) : (
              "No data yet"
            )}
          </p>
          {app.launchUrl ? (
            <a
              href={app.launchUrl}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={`Open ${app.name} (opens in a new tab)`}
              className="mt-3 inline-flex items-center justify-center gap-1 rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              Open <span aria-hidden="true">↗</span>
            </a>
          ) : (
            <p className="mt-3 text-center text-sm text-slate-600 dark:text-slate-300">No link yet</p>
          )}
        </li>
      ))}
    </ul>
  );
}

function AppIcon({ icon }: { icon: string | null }) {
  const box =
    "flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-2xl dark:bg-slate-800";
  if (icon && /^(https?:\/\/|\/)/.test(icon)) {
    return (
      <span className={box}>
        <img src={icon} alt="" className="h-7 w-7 object-contain" />
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={box}>
      {icon || "📘"}
    </span>
  );
}
