import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowDown, ArrowUp, Trophy, Users } from "lucide-react";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type {
  Leaderboard,
  LeaderboardRow,
  LeaderboardTimeframe,
} from "../../../shared/contracts/leaderboards";
import { ONBOARDING_GRADES } from "../../../shared/contracts/onboarding";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { SelectField } from "../../components/ui/form";
import type { TabItem } from "../../components/ui/tabs";
import { dayLabel, formatNumber, formatXp, gradeLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { i18next } from "../../lib/i18n";
import { useAuth } from "../auth/use-auth";
import { childrenSummaryQuery, guideStudentsQuery, studentHomeQuery } from "../home/api";
import { EmptyState, QueryError } from "../home/parts";
import { learningSettingsQuery } from "../xp/api";
import { leaderboardKeys, optOutQuery, setOptOut } from "./api";

/** Whose eyes a board is for: a student sees peers by first name, a family its own child in full. */
export type Viewer = "student" | "family" | "staff";

export const TIMEFRAMES: readonly LeaderboardTimeframe[] = [
  "today",
  "week",
  "month",
  "all",
  "streak",
  "custom",
];

/** The timeframe tabs; `linkOf` keeps each in the address. Each reads `timeframes.<id>`. */
export function timeframeTabs<Id extends LeaderboardTimeframe>(
  timeframes: readonly Id[],
  linkOf?: (tf: Id) => TabItem<Id>["link"],
): TabItem<Id>[] {
  return timeframes.map((tf) => ({
    id: tf,
    label: i18next.t(`leaderboards:timeframes.${tf as LeaderboardTimeframe}`),
    link: linkOf?.(tf),
  }));
}

/** The week up to today, where a custom period starts until its days are chosen. */
function defaultCustomDates(): { startDate: string; endDate: string } {
  const today = localDateOf(new Date(), SCHOOL_TIME_ZONE);
  return { startDate: addDays(today, -6), endDate: today };
}

/** A timeframe's search values: a custom period keeps its days (or starts with the last week), others drop them. */
export function timeframeSearch(
  tf: LeaderboardTimeframe,
  dates: { startDate?: string; endDate?: string },
): { tf: LeaderboardTimeframe; startDate: string | undefined; endDate: string | undefined } {
  if (tf !== "custom") return { tf, startDate: undefined, endDate: undefined };
  const fallback = defaultCustomDates();
  return { tf, startDate: dates.startDate ?? fallback.startDate, endDate: dates.endDate ?? fallback.endDate };
}

/** "256 XP", or for streaks "5 days". */
export function valueText(value: number, tf: LeaderboardTimeframe): string {
  return tf === "streak"
    ? i18next.t("leaderboards:value.days", { count: value, days: formatNumber(value, 0) })
    : i18next.t("leaderboards:value.xp", { xp: formatXp(value) });
}

/** The row's name as the reader may see it; another family's child is "A student". */
export function rowName(row: LeaderboardRow): string {
  return row.displayName ?? i18next.t("leaderboards:row.aStudent");
}

/** Where a row stands in a league: in the group that moves up a tier at the week's end, or down. */
function zoneOf(row: LeaderboardRow, board: Leaderboard): "up" | "down" | null {
  if (!board.league) return null;
  if (row.rank <= board.league.promoted) return "up";
  if (
    board.total > board.league.promoted + board.league.demoted &&
    row.rank > board.total - board.league.demoted
  )
    return "down";
  return null;
}

function ZoneMark({ zone }: { zone: "up" | "down" | null }) {
  const { t } = useTranslation("leaderboards");
  if (!zone) return null;
  const Icon = zone === "up" ? ArrowUp : ArrowDown;
  return (
    <span
      title={t(`league.zone.${zone}`)}
      className={`inline-flex shrink-0 items-center ${zone === "up" ? "text-emerald-700 dark:text-emerald-300" : "text-orange-700 dark:text-orange-300"}`}
    >
      <Icon aria-hidden="true" className="size-4" strokeWidth={3} />
      <span className="sr-only">{t(`league.zone.${zone}`)}</span>
    </span>
  );
}

const PODIUM_STYLES: Record<number, { medal: string; step: string; height: string }> = {
  1: {
    medal: "bg-amber-300 text-amber-950 ring-amber-500",
    step: "bg-amber-200 dark:bg-amber-900/60",
    height: "h-24 sm:h-32",
  },
  2: {
    medal: "bg-slate-200 text-slate-900 ring-slate-400",
    step: "bg-slate-200 dark:bg-slate-700",
    height: "h-16 sm:h-24",
  },
  3: {
    medal: "bg-orange-200 text-orange-950 ring-orange-400",
    step: "bg-orange-100 dark:bg-orange-900/50",
    height: "h-10 sm:h-16",
  },
};
/** First in the middle, second on its left, third on its right; the reading order stays 1, 2, 3. */
const PODIUM_ORDER = ["order-2", "order-1", "order-3"];

/**
 * The top three, on steps: the first in the middle and highest. Equal values share a rank, and
 * share its height; with fewer than three, the steps there are stand alone.
 */
export function Podium({
  rows,
  board,
  viewer,
  nameOf = rowName,
  big = false,
}: {
  rows: LeaderboardRow[];
  board: Leaderboard;
  viewer: Viewer;
  nameOf?: (row: LeaderboardRow) => string;
  big?: boolean;
}) {
  const { t } = useTranslation("leaderboards");
  return (
    <ol
      aria-label={t("podium.label")}
      className="mx-auto flex max-w-2xl items-end justify-center gap-2 sm:gap-4"
    >
      {rows.map((row, index) => {
        const style = PODIUM_STYLES[Math.min(row.rank, 3)] ?? PODIUM_STYLES[3];
        return (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the podium's three steps are places, first to third
            key={index}
            aria-current={row.isMe ? "true" : undefined}
            className={`flex min-w-0 flex-1 basis-0 flex-col items-center text-center ${PODIUM_ORDER[index]}`}
          >
            <span
              className={`flex items-center justify-center rounded-full font-extrabold tabular-nums ring-4 ${style?.medal} ${big ? "size-16 text-3xl" : "size-12 text-xl sm:size-14 sm:text-2xl"}`}
            >
              <span className="sr-only">{t("row.rank")} </span>
              {row.rank}
            </span>
            <span
              className={`mt-2 line-clamp-2 w-full font-bold break-words ${big ? "text-lg sm:text-3xl" : "text-sm sm:text-base"}`}
            >
              {nameOf(row)}
            </span>
            {row.isMe && <MeBadge viewer={viewer} />}
            <span
              className={`mt-0.5 inline-flex items-center gap-1 font-semibold text-slate-700 tabular-nums dark:text-slate-200 ${big ? "text-base sm:text-2xl" : "text-sm"}`}
            >
              {valueText(row.value, board.tf)}
              <ZoneMark zone={zoneOf(row, board)} />
            </span>
            <span
              aria-hidden="true"
              className={`mt-2 flex w-full items-start justify-center rounded-t-xl pt-2 ${style?.step} ${style?.height} ${row.isMe ? "ring-2 ring-brand-600 dark:ring-brand-500" : ""}`}
            >
              {row.rank === 1 && (
                <Trophy className={`text-amber-700 dark:text-amber-300 ${big ? "size-10" : "size-7"}`} />
              )}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

function MeBadge({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation("leaderboards");
  return (
    <span className="mt-1 inline-flex rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white dark:bg-brand-500 dark:text-slate-950">
      {viewer === "family" ? t("row.yourChild") : t("row.you")}
    </span>
  );
}

/** One place in the list: rank, name, grade, value; the reader's own is marked. */
export function RankRow({
  row,
  board,
  viewer,
  name = rowName(row),
  pinned = false,
  linkName = viewer === "staff",
  action,
  big = false,
}: {
  row: LeaderboardRow;
  board: Leaderboard;
  viewer: Viewer;
  name?: string;
  /** The reader's own place, under the list: its name already says whose it is ("You"). */
  pinned?: boolean;
  /** The name opens the student's learning metrics (staff). */
  linkName?: boolean;
  /** A control of the row, for staff (hide from leaderboards). */
  action?: ReactNode;
  big?: boolean;
}) {
  const { t } = useTranslation("leaderboards");
  return (
    <li
      aria-current={row.isMe ? "true" : undefined}
      className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border px-3 sm:flex-nowrap sm:px-4 ${big ? "py-3" : "py-2.5"} ${
        row.isMe
          ? "border-brand-600 bg-brand-50 shadow-sm dark:border-brand-500 dark:bg-slate-800"
          : "border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      }`}
    >
      <span
        className={`flex shrink-0 items-center justify-center rounded-full bg-slate-100 font-extrabold tabular-nums dark:bg-slate-800 ${big ? "size-12 text-2xl" : "size-9 text-sm"} ${row.isMe ? "bg-white dark:bg-slate-950" : ""}`}
      >
        <span className="sr-only">{t("row.rank")} </span>
        {row.rank}
      </span>
      <div className="min-w-0 flex-1">
        <p
          className={`flex flex-wrap items-center gap-x-2 font-semibold ${big ? "text-lg sm:text-2xl" : ""}`}
        >
          {row.studentId && linkName ? (
            <Link
              to="/app/learning-metrics"
              search={{ studentId: row.studentId }}
              className="break-words text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
            >
              {name}
            </Link>
          ) : (
            <span className={`break-words ${row.displayName ? "" : "text-slate-700 dark:text-slate-300"}`}>
              {name}
            </span>
          )}
          {row.isMe && !pinned && <MeBadge viewer={viewer} />}
        </p>
        {row.grade && (
          <p className={`text-slate-600 dark:text-slate-300 ${big ? "text-base" : "text-xs"}`}>
            {gradeLabel([row.grade])}
          </p>
        )}
      </div>
      <ZoneMark zone={zoneOf(row, board)} />
      {action && <div className="order-last w-full pl-12 sm:order-none sm:w-auto sm:pl-0">{action}</div>}
      <span
        className={`shrink-0 text-right font-bold tabular-nums ${big ? "text-lg sm:min-w-28 sm:text-2xl" : "sm:min-w-20"}`}
      >
        {valueText(row.value, board.tf)}
      </span>
    </li>
  );
}

/**
 * A board's standings: the podium (on the first page, once someone has XP), the list, and the
 * reader's own place pinned under it when it is on another page.
 */
export function Standings({
  board,
  viewer,
  limit,
  big = false,
  nameOf = rowName,
  linkNames = viewer === "staff",
  action,
}: {
  board: Leaderboard;
  viewer: Viewer;
  /** Show only the first rows (the class screen's top 10). */
  limit?: number;
  big?: boolean;
  nameOf?: (row: LeaderboardRow) => string;
  linkNames?: boolean;
  action?: (row: LeaderboardRow) => ReactNode;
}) {
  const { t } = useTranslation("leaderboards");
  const pinnedId = useId();
  const rows = limit ? board.rows.slice(0, limit) : board.rows;
  const nobodyYet = board.page === 1 && (rows[0]?.value ?? 0) <= 0;
  const podium = board.page === 1 && !nobodyYet ? rows.slice(0, 3).filter((row) => row.value > 0) : [];
  // Where each row has a control (staff), the list keeps the podium's rows too.
  const rest = action ? rows : rows.slice(podium.length);
  const me = board.me && !rows.some((row) => row.isMe) ? board.me : null;

  if (board.total === 0)
    return (
      <EmptyState icon={Users} title={t("empty.nobody")}>
        {t("empty.nobodyBody")}
      </EmptyState>
    );
  return (
    <div className="space-y-6">
      {nobodyYet && <EmptyState icon={Trophy} title={t("empty.noXp", { tf: board.tf })} />}
      {podium.length > 0 && <Podium rows={podium} board={board} viewer={viewer} nameOf={nameOf} big={big} />}
      {rows.length === 0 && (
        <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {t("empty.pastTheEnd")}
        </p>
      )}
      {rest.length > 0 && (
        <ol aria-label={t("list.label")} className={big ? "space-y-3" : "space-y-2"}>
          {rest.map((row, index) => (
            <RankRow
              key={row.studentId ?? `${row.rank}-${index}`}
              row={row}
              board={board}
              viewer={viewer}
              name={nameOf(row)}
              linkName={linkNames}
              action={action?.(row)}
              big={big}
            />
          ))}
        </ol>
      )}
      {me && (
        <section
          aria-labelledby={pinnedId}
          className="border-t-2 border-dashed border-slate-300 pt-4 dark:border-slate-700"
        >
          <h3 id={pinnedId} className="mb-2 text-sm font-semibold text-slate-600 dark:text-slate-300">
            {viewer === "family" ? t("pinned.child", { name: rowName(me) }) : t("pinned.you")}
          </h3>
          <ol>
            <RankRow
              row={me}
              board={board}
              viewer={viewer}
              name={viewer === "family" ? rowName(me) : t("row.you")}
              pinned
              linkName={false}
              big={big}
            />
          </ol>
        </section>
      )}
    </div>
  );
}

/** "Mon, Nov 23 – Wed, Nov 25", "All time", or what a streak counts. */
export function periodText(board: Leaderboard): string {
  if (board.tf === "streak") return i18next.t("leaderboards:period.streak");
  if (!board.period) return i18next.t("leaderboards:period.allTime");
  if (board.period.startDate === board.period.endDate)
    return i18next.t("leaderboards:period.day", { day: dayLabel(board.period.startDate) });
  return i18next.t("leaderboards:period.range", {
    start: dayLabel(board.period.startDate),
    end: dayLabel(board.period.endDate),
  });
}

/** A league's tier and who moves at the week's end; the ranks in those groups carry arrows. */
export function LeagueBanner({ league }: { league: NonNullable<Leaderboard["league"]> }) {
  const { t } = useTranslation("leaderboards");
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-2xl border border-amber-200 bg-amber-50 px-4 py-3 dark:border-amber-900 dark:bg-amber-950/60">
      <Trophy aria-hidden="true" className="size-6 shrink-0 text-amber-700 dark:text-amber-300" />
      <div className="min-w-48 flex-1">
        <p className="font-bold text-amber-950 dark:text-amber-100">
          {t("league.tier", { tier: league.tier })}
        </p>
        <p className="text-sm text-amber-900 dark:text-amber-200">
          {t("league.moves", {
            promoted: league.promoted,
            demoted: league.demoted,
            day: dayLabel(addDays(league.weekStart, 7)),
          })}
        </p>
      </div>
      <p className="flex gap-3 text-sm font-semibold">
        <span className="inline-flex items-center gap-1 text-emerald-800 dark:text-emerald-300">
          <ArrowUp aria-hidden="true" className="size-4" strokeWidth={3} />
          {t("league.zone.up")}
        </span>
        <span className="inline-flex items-center gap-1 text-orange-800 dark:text-orange-300">
          <ArrowDown aria-hidden="true" className="size-4" strokeWidth={3} />
          {t("league.zone.down")}
        </span>
      </p>
    </div>
  );
}

/** A refusal from the server (no class yet, not in a league yet) said kindly; other failures with a retry. */
export function BoardError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation("leaderboards");
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500)
    return (
      <EmptyState icon={Users} title={error.message}>
        {t("refused.body")}
      </EmptyState>
    );
  return <QueryError error={error} fallback={t("loadFailed")} onRetry={onRetry} />;
}

/** Grey steps and rows where the standings are on their way. */
export function BoardSkeleton({ big = false }: { big?: boolean }) {
  const { t } = useTranslation("leaderboards");
  const block = "motion-safe:animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800";
  return (
    <div role="status" aria-live="polite" data-loading className="space-y-6">
      <span className="sr-only">{t("loading")}</span>
      <div aria-hidden="true" className="mx-auto flex max-w-2xl items-end justify-center gap-2 sm:gap-4">
        <div className={`flex-1 ${block} ${big ? "h-40" : "h-24 sm:h-32"}`} />
        <div className={`flex-1 ${block} ${big ? "h-56" : "h-32 sm:h-44"}`} />
        <div className={`flex-1 ${block} ${big ? "h-32" : "h-20 sm:h-24"}`} />
      </div>
      <div aria-hidden="true" className="space-y-2">
        {["a", "b", "c", "d"].map((key) => (
          <div key={key} className={`${block} ${big ? "h-16" : "h-12"}`} />
        ))}
      </div>
    </div>
  );
}

/** The subjects one may rank by: the school's daily-goal subjects, as the caller's pages know them. */
export function useSubjects(childId?: string): string[] {
  const { activeRole, user } = useAuth();
  const isFamily = activeRole === "parent" || activeRole === "guardian";
  // These lists only name the subjects here: no need to refresh them every minute as the home does.
  const own = useQuery({
    ...studentHomeQuery(user.sourcedId),
    enabled: activeRole === "student",
    refetchInterval: false,
  });
  const children = useQuery({
    ...childrenSummaryQuery(user.sourcedId),
    enabled: isFamily,
    refetchInterval: false,
  });
  const students = useQuery({
    ...guideStudentsQuery(user.sourcedId),
    enabled: activeRole === "teacher",
    refetchInterval: false,
  });
  const settings = useQuery({ ...learningSettingsQuery, enabled: activeRole === "administrator" });
  const summaries =
    activeRole === "student"
      ? own.data
        ? [own.data.summary]
        : []
      : isFamily
        ? (children.data ?? []).filter((child) => !childId || child.sourcedId === childId)
        : activeRole === "teacher"
          ? (students.data ?? [])
          : [];
  const names = new Set(summaries.flatMap((summary) => summary.subjects.map((entry) => entry.subject)));
  for (const subject of Object.keys(settings.data?.dailyGoals ?? {})) names.add(subject);
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** The subject and grade filters; "" is every subject or grade. */
export function SubjectAndGrade({
  subject,
  grade,
  subjects,
  onChange,
}: {
  subject: string | undefined;
  grade: string | undefined;
  subjects: string[];
  onChange: (next: { subj?: string; g?: string }) => void;
}) {
  const { t } = useTranslation("leaderboards");
  const subjectChoices = subject && !subjects.includes(subject) ? [...subjects, subject] : subjects;
  const grades: string[] = [...ONBOARDING_GRADES];
  if (grade && !grades.includes(grade)) grades.push(grade);
  return (
    <>
      <SelectField
        label={t("filters.subject")}
        value={subject ?? ""}
        onChange={(event) => onChange({ subj: event.target.value || undefined })}
        options={[
          { value: "", label: t("filters.allSubjects") },
          ...subjectChoices.map((name) => ({ value: name, label: name })),
        ]}
      />
      <SelectField
        label={t("filters.grade")}
        value={grade ?? ""}
        onChange={(event) => onChange({ g: event.target.value || undefined })}
        options={[
          { value: "", label: t("filters.allGrades") },
          ...grades.map((entry) => ({ value: entry, label: gradeLabel([entry]) })),
        ]}
      />
    </>
  );
}

/** A checkbox drawn as an on/off switch. */
function Switch({
  checked,
  disabled,
  onChange,
  describedBy,
  children,
}: {
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  describedBy?: string;
  children: ReactNode;
}) {
  return (
    <label className="inline-flex cursor-pointer items-center gap-3 font-medium has-disabled:cursor-wait">
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        aria-checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.checked)}
        className="relative h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full border-2 border-slate-500 bg-white transition-colors before:absolute before:top-0.5 before:left-0.5 before:size-4 before:rounded-full before:bg-slate-500 before:transition-transform checked:border-brand-600 checked:bg-brand-600 checked:before:translate-x-5 checked:before:bg-white disabled:opacity-60 motion-reduce:transition-none motion-reduce:before:transition-none dark:border-slate-400 dark:bg-slate-950 dark:before:bg-slate-400 dark:checked:border-brand-500 dark:checked:bg-brand-500 dark:checked:before:bg-white"
      />
      <span>{children}</span>
    </label>
  );
}

/** Hides a student from leaderboards, or shows them again; refreshes every board shown. */
function useOptOut(studentId: string) {
  const queryClient = useQueryClient();
  const state = useQuery(optOutQuery(studentId));
  const change = useMutation({
    mutationFn: (hidden: boolean) => setOptOut(studentId, hidden),
    onSuccess: (answer) => {
      queryClient.setQueryData(leaderboardKeys.optOut(studentId), answer);
      void queryClient.invalidateQueries({ queryKey: [...leaderboardKeys.all, "board"] });
    },
  });
  return { state, change };
}

/** A family's switch: their child away from other students' and families' leaderboards. */
export function FamilyHideSwitch({ childId, name }: { childId: string; name: string }) {
  const { t } = useTranslation("leaderboards");
  const hintId = useId();
  const { state, change } = useOptOut(childId);
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      {state.isError ? (
        <QueryError error={state.error} fallback={t("hide.loadFailed")} onRetry={() => state.refetch()} />
      ) : (
        <Switch
          checked={change.isPending ? change.variables : (state.data?.hiddenByFamily ?? false)}
          disabled={!state.data || change.isPending}
          onChange={(hidden) => change.mutate(hidden)}
          describedBy={hintId}
        >
          {t("hide.family", { name })}
        </Switch>
      )}
      <p id={hintId} className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        {state.data?.hiddenByStaff ? t("hide.alsoBySchool", { name }) : t("hide.familyHint", { name })}
      </p>
      <div role="status" className="text-sm">
        {change.isError && (
          <p className="mt-2 font-medium text-red-700 dark:text-red-300">{change.error.message}</p>
        )}
        {change.isSuccess && state.data && (
          <p className="mt-2 font-medium text-emerald-800 dark:text-emerald-300">
            {state.data.hiddenByFamily ? t("hide.nowHidden", { name }) : t("hide.nowShown", { name })}
          </p>
        )}
      </div>
    </div>
  );
}

/** Staff's switch on a student's row; a family's own hiding is said beside it, theirs to lift. */
export function StaffHideToggle({ studentId, name }: { studentId: string; name: string }) {
  const { t } = useTranslation("leaderboards");
  const { state, change } = useOptOut(studentId);
  if (state.isError)
    return <span className="text-xs text-red-700 dark:text-red-300">{state.error.message}</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <Switch
        checked={change.isPending ? change.variables : (state.data?.hiddenByStaff ?? false)}
        disabled={!state.data || change.isPending}
        onChange={(hidden) => change.mutate(hidden)}
      >
        {t("hide.staff")}
        <span className="sr-only"> {t("hide.staffWho", { name })}</span>
      </Switch>
      {state.data?.hiddenByFamily && (
        <span className="text-xs font-medium text-slate-600 dark:text-slate-300">{t("hide.byFamily")}</span>
      )}
      {change.isError && (
        <span role="alert" className="text-xs text-red-700 dark:text-red-300">
          {change.error.message}
        </span>
      )}
    </span>
  );
}
