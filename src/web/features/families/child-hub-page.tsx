import { useQuery } from "@tanstack/react-query";
import { Link, type LinkProps, useParams, useSearch } from "@tanstack/react-router";
import {
  BarChart3,
  BookOpen,
  Download,
  FileText,
  Footprints,
  HandCoins,
  LineChart,
  type LucideIcon,
  ShoppingBag,
  TrendingUp,
  Trophy,
  UserX,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { ChildOverview } from "../../../shared/contracts/families";
import type { searchSchemas } from "../../../shared/routes";
import { formatNumber, formatXp } from "../../lib/format";
import { childrenQuery } from "../auth/api";
import { useAuth } from "../auth/use-auth";
import { dailyGoalOf, EmptyState, Loading, QueryError, Section, Streak } from "../home/parts";
import { childExportUrl } from "../privacy/api";
import { ChildSwitcher } from "../rewards/family-child-switcher";
import { childrenOverviewQuery } from "./api";
import { ChildAvatar, ChildFacts, childNameOf, firstNameOf, StandingNotice } from "./parts";
import { PulseView } from "./pulse-view";

type HubSearch = z.output<typeof searchSchemas.childPulse>;

/**
 * `child/{childId}`: one child's hub. Who they are and how today and this week go, the latest weekly
 * pulse, and a way into every page about them.
 */
export function ChildHubPage() {
  const { t } = useTranslation("families");
  const { childId } = useParams({ strict: false }) as { childId: string };
  const { week } = useSearch({ strict: false }) as HubSearch;
  const { user } = useAuth();
  const overview = useQuery(childrenOverviewQuery(user.sourcedId));
  const choices = useQuery(childrenQuery);

  if (overview.isPending) return <Loading label={t("hub.loading")} rows={6} />;
  if (overview.isError)
    return (
      <div>
        <h1 className="mb-6 text-2xl font-extrabold tracking-tight sm:text-3xl">
          {t("common:pages./app/child/$childId/.title")}
        </h1>
        <QueryError
          error={overview.error}
          fallback={t("hub.loadFailed")}
          onRetry={() => overview.refetch()}
        />
      </div>
    );
  const child = overview.data.find((entry) => entry.sourcedId === childId);
  if (!child)
    return (
      <div>
        <h1 className="mb-6 text-2xl font-extrabold tracking-tight sm:text-3xl">
          {t("common:pages./app/child/$childId/.title")}
        </h1>
        <EmptyState icon={UserX} title={t("hub.notYours.title")}>
          {t("hub.notYours.body")}{" "}
          <Link to="/app/my-children" className="font-semibold text-brand-700 underline dark:text-brand-100">
            {t("hub.notYours.link")}
          </Link>
        </EmptyState>
      </div>
    );

  const others = choices.data?.data ?? [];
  return (
    <div className="space-y-6">
      {others.length > 1 && (
        <ChildSwitcher
          choices={others}
          selectedId={child.sourcedId}
          label={t("hub.switcher")}
          linkOf={(id) => ({ to: "/app/child/$childId", params: { childId: id } })}
        />
      )}
      <ChildHeader child={child} />
      <StandingNotice child={child} />
      <PulseView key={child.sourcedId} childId={child.sourcedId} week={week} />
      <ChildPages child={child} />
    </div>
  );
}

/** The child, with today, this week, the streak and the Alphas at a glance. */
function ChildHeader({ child }: { child: ChildOverview }) {
  const { t } = useTranslation("families");
  const figures = [
    {
      term: t("hub.today"),
      value: t("hub.xpOfGoal", {
        xp: formatXp(child.summary.xpToday),
        goal: formatXp(dailyGoalOf(child.summary)),
      }),
    },
    {
      term: t("hub.week"),
      value: t("hub.xpOfGoal", {
        xp: formatXp(child.goals.weekly.value),
        goal: formatXp(child.goals.weekly.target),
      }),
    },
    {
      term: t("hub.alphas"),
      value: formatNumber(child.alphas.available, 0),
    },
  ];
  return (
    <header className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <ChildAvatar child={child} size="lg" />
        <div className="min-w-0 flex-1 basis-48">
          <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{childNameOf(child)}</h1>
          <ChildFacts child={child} />
        </div>
        <Streak days={child.summary.streak} />
      </div>
      <dl className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-3">
        {figures.map((figure) => (
          <div key={figure.term} className="min-w-0 rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
            <dt className="text-xs font-semibold text-slate-600 dark:text-slate-300">{figure.term}</dt>
            <dd className="text-lg font-bold tabular-nums">{figure.value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}

/** A card for every page about the child, each with what it holds. */
function ChildPages({ child }: { child: ChildOverview }) {
  const { t } = useTranslation("families");
  const childId = child.sourcedId;
  const name = firstNameOf(child);
  const pages: { key: string; icon: LucideIcon; link: LinkProps }[] = [
    { key: "progress", icon: TrendingUp, link: { to: "/app/children-progress", search: { childId } } },
    {
      key: "report",
      icon: FileText,
      link: { to: "/app/my-learning-report", search: { studentId: childId } as never },
    },
    { key: "map", icon: LineChart, link: { to: "/app/parent-map-growth", search: { childId } } },
    { key: "emporium", icon: ShoppingBag, link: { to: "/app/parent-emporium", search: { childId } } },
    { key: "payout", icon: HandCoins, link: { to: "/app/child/$childId/payout", params: { childId } } },
    {
      key: "resources",
      icon: BookOpen,
      link: { to: "/app/student-resources/$studentId", params: { studentId: childId } },
    },
    {
      key: "metrics",
      icon: BarChart3,
      link: { to: "/app/learning-metrics", search: { studentId: childId } as never },
    },
    {
      key: "leaderboards",
      icon: Trophy,
      link: { to: "/app/leaderboards", search: { child: childId } as never },
    },
    { key: "athletics", icon: Footprints, link: { to: "/app/athletics", search: { childId } } },
  ];
  return (
    <Section title={t("hub.pagesTitle", { name })} description={t("hub.pagesDescription")}>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {pages.map((page) => (
          <li key={page.key} className="min-w-0">
            <Link {...page.link} className={PAGE_CARD}>
              <PageCardText
                icon={page.icon}
                title={t(`hub.pages.${page.key}.title`)}
                text={t(`hub.pages.${page.key}.text`, { name })}
              />
            </Link>
          </li>
        ))}
        <li className="min-w-0">
          <a href={childExportUrl(childId)} download className={PAGE_CARD}>
            <PageCardText
              icon={Download}
              title={t("hub.pages.export.title", { name })}
              text={t("hub.pages.export.text", { name })}
            />
          </a>
        </li>
      </ul>
    </Section>
  );
}

/** A page's card: the whole card is the link. */
const PAGE_CARD =
  "flex h-full items-start gap-3 rounded-xl border border-slate-200 p-4 hover:border-brand-600 hover:bg-brand-50/40 focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-700 dark:hover:border-brand-500 dark:hover:bg-slate-800";

/** The page's icon beside its title and one line on what it holds. */
function PageCardText({ icon: Icon, title, text }: { icon: LucideIcon; title: string; text: string }) {
  return (
    <>
      <span
        aria-hidden="true"
        className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100"
      >
        <Icon className="size-5" />
      </span>
      <span className="flex min-w-0 flex-col">
        <span className="font-semibold text-brand-700 dark:text-brand-100">{title}</span>
        <span className="mt-1 text-sm text-slate-600 dark:text-slate-300">{text}</span>
      </span>
    </>
  );
}
