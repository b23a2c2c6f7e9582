import { useQueries, useQuery } from "@tanstack/react-query";
import { Maximize, Minimize } from "lucide-react";
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LeaderboardRow } from "../../../shared/contracts/leaderboards";
import { PageHeader } from "../../components/page-header";
import { buttonClass, SelectField } from "../../components/ui/form";
import { Tabs, tabId } from "../../components/ui/tabs";
import { timeLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { leaderboardQuery, optOutQuery } from "./api";
import { useGuideClasses } from "./leaderboards-page";
import { BoardError, BoardSkeleton, rowName, Standings, timeframeTabs } from "./parts";

/** The class screen refreshes itself: it stays up on a projector all lesson. */
const REFRESH_MS = 60_000;
const TOP = 10;
const PANEL = "class-screen-panel";
type ScreenTimeframe = "today" | "week";

/**
 * A classroom's leaderboard for the projector: the viewer's class (a Guide picks among theirs),
 * its top ten in large type, refreshed every minute.
 */
export function ClassLeaderboardPage() {
  const { t } = useTranslation("leaderboards");
  const { activeRole } = useAuth();
  const isGuide = activeRole === "teacher";
  const [tf, setTf] = useState<ScreenTimeframe>("week");
  const [cls, setCls] = useState<string | undefined>();
  const { list } = useGuideClasses(isGuide);
  const board = useQuery(leaderboardQuery({ scope: "class", tf, cls }, REFRESH_MS));
  const shownClass = isGuide ? list.find((entry) => entry.sourcedId === (cls ?? list[0]?.sourcedId)) : null;
  const hiddenIds = useHiddenIds(isGuide ? (board.data?.rows.slice(0, TOP) ?? []) : []);
  const screen = useRef<HTMLDivElement>(null);

  // Projected to the class, names read as classmates see them, and a hidden student stays hidden.
  const nameOnScreen = (row: LeaderboardRow) =>
    row.studentId && hiddenIds.has(row.studentId) ? t("row.hidden") : shortName(rowName(row));

  let content: ReactNode;
  if (board.isError) content = <BoardError error={board.error} onRetry={() => board.refetch()} />;
  else if (!board.data) content = <BoardSkeleton big />;
  else
    content = (
      <Standings
        board={board.data}
        viewer={isGuide ? "staff" : "student"}
        limit={TOP}
        big
        nameOf={isGuide ? nameOnScreen : undefined}
        linkNames={false}
      />
    );

  return (
    <div>
      <PageHeader
        title={t("common:pages./app/class-leaderboard.title")}
        description={t("classScreen.description")}
      />
      {isGuide && list.length > 1 && (
        <SelectField
          label={t("filters.class")}
          className="mb-6 sm:max-w-sm"
          value={cls ?? list[0]?.sourcedId}
          onChange={(event) => setCls(event.target.value)}
          options={list.map((entry) => ({ value: entry.sourcedId, label: entry.title }))}
        />
      )}
      <div
        ref={screen}
        className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900 [&:fullscreen]:overflow-auto [&:fullscreen]:rounded-none [&:fullscreen]:p-10"
      >
        <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <h2 className="text-2xl font-extrabold tracking-tight sm:text-4xl">
            {t("classScreen.heading", {
              name: shownClass?.title ?? t("classScreen.ourClass"),
              timeframe: t(`timeframes.${tf}`),
            })}
          </h2>
          <div className="flex flex-wrap items-center gap-3">
            <Tabs
              label={t("timeframes.label")}
              look="pills"
              idPrefix="class-screen-tf"
              panelId={PANEL}
              selected={tf}
              onSelect={setTf}
              items={timeframeTabs<ScreenTimeframe>(["today", "week"])}
            />
            <FullScreenButton target={screen} />
          </div>
        </div>
        <div
          id={PANEL}
          role="tabpanel"
          aria-labelledby={tabId("class-screen-tf", tf)}
          aria-busy={board.isFetching && !board.data}
        >
          {content}
        </div>
        {board.data && (
          <p className="mt-6 text-right text-sm text-slate-600 dark:text-slate-300">
            {t("classScreen.updated", { time: timeLabel(new Date(board.dataUpdatedAt)) })}
          </p>
        )}
      </div>
    </div>
  );
}

/** "Ava J." from "Ava Johnson": a full name as a classmate reads it. */
function shortName(name: string): string {
  const parts = name.trim().split(/\s+/);
  const last = parts.length > 1 ? parts[parts.length - 1] : null;
  return last ? `${parts[0]} ${last.charAt(0)}.` : name;
}

/** The students shown whom a family or staff hid from leaderboards (a Guide still sees them in full). */
function useHiddenIds(rows: LeaderboardRow[]): Set<string> {
  const ids = rows.flatMap((row) => (row.studentId ? [row.studentId] : []));
  const states = useQueries({ queries: ids.map((id) => optOutQuery(id)) });
  return new Set(states.flatMap((state) => (state.data?.hidden ? [state.data.studentId] : [])));
}

function FullScreenButton({ target }: { target: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation("leaderboards");
  const [isFull, setFull] = useState(false);
  useEffect(() => {
    const follow = () => setFull(document.fullscreenElement !== null);
    document.addEventListener("fullscreenchange", follow);
    return () => document.removeEventListener("fullscreenchange", follow);
  }, []);
  if (!document.fullscreenEnabled) return null;
  const Icon = isFull ? Minimize : Maximize;
  return (
    <button
      type="button"
      onClick={() => void (isFull ? document.exitFullscreen() : target.current?.requestFullscreen())}
      className={buttonClass("secondary", "inline-flex items-center gap-2")}
    >
      <Icon aria-hidden="true" className="size-4" />
      {isFull ? t("classScreen.exitFullScreen") : t("classScreen.fullScreen")}
    </button>
  );
}
