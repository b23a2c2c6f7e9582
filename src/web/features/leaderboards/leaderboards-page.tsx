import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { Users } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { LeaderboardScope } from "../../../shared/contracts/leaderboards";
import type { searchSchemas } from "../../../shared/routes";
import { isIsoDate } from "../../../shared/search";
import { Card, PageHeader } from "../../components/page-header";
import { SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { Tabs, tabId } from "../../components/ui/tabs";
import { childrenQuery } from "../auth/api";
import { useAuth } from "../auth/use-auth";
import { myClassesQuery } from "../flow/api";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { ChildSwitcher } from "../rewards/family-child-switcher";
import { isComplete, leaderboardQuery, requestOf } from "./api";
import {
  BoardError,
  BoardSkeleton,
  FamilyHideSwitch,
  LeagueBanner,
  periodText,
  StaffHideToggle,
  Standings,
  SubjectAndGrade,
  TIMEFRAMES,
  timeframeSearch,
  timeframeTabs,
  useSubjects,
  type Viewer,
} from "./parts";

type LeaderboardsSearch = z.output<typeof searchSchemas.leaderboards>;

const PAGE = "/app/leaderboards";
const PANEL = "leaderboard-panel";

/** Where students stand by XP: their class, school, league or everyone, for a period. */
export function LeaderboardsPage() {
  const { t } = useTranslation("leaderboards");
  const { activeRole } = useAuth();
  const viewer: Viewer = activeRole === "student" ? "student" : activeRole === "teacher" ? "staff" : "family";
  return (
    <div>
      <PageHeader title={t("common:pages./app/leaderboards.title")} description={t(`page.${viewer}`)} />
      {viewer === "family" ? <FamilyBoards /> : <Board viewer={viewer} />}
    </div>
  );
}

/** A family sees one child's standing at a time, and may hide that child from others. */
function FamilyBoards() {
  const { t } = useTranslation("leaderboards");
  const search = useSearch({ strict: false }) as LeaderboardsSearch;
  const children = useQuery(childrenQuery);
  if (children.isPending) return <Loading label={t("family.loading")} rows={4} />;
  if (children.isError)
    return (
      <QueryError
        error={children.error}
        fallback={t("family.loadFailed")}
        onRetry={() => children.refetch()}
      />
    );
  const choices = children.data.data;
  const child = choices.find((choice) => choice.sourcedId === search.child) ?? choices[0];
  if (!child)
    return (
      <EmptyState icon={Users} title={t("family.none.title")}>
        {t("family.none.body")}
      </EmptyState>
    );
  return (
    <>
      {choices.length > 1 && (
        <ChildSwitcher
          choices={choices}
          selectedId={child.sourcedId}
          label={t("family.switcher")}
          linkOf={(childId) => ({ to: PAGE, search: { ...search, child: childId, p: undefined } as never })}
        />
      )}
      <div className="mb-6">
        <FamilyHideSwitch key={child.sourcedId} childId={child.sourcedId} name={child.givenName} />
      </div>
      <Board viewer="family" childId={child.sourcedId} />
    </>
  );
}

function Board({ viewer, childId }: { viewer: Viewer; childId?: string }) {
  const { t } = useTranslation("leaderboards");
  const search = useSearch({ strict: false }) as LeaderboardsSearch;
  const navigate = useNavigate();
  const isStaff = viewer === "staff";
  // Leagues are the students' own; a Guide who follows a link to one sees the class.
  const scope: LeaderboardScope = isStaff && search.scope === "league" ? "class" : (search.scope ?? "class");
  const tf = search.tf ?? "week";
  const page = search.p ?? 1;
  const subjects = useSubjects(childId);

  const setSearch = (next: Partial<LeaderboardsSearch>, replace = false) =>
    void navigate({ to: PAGE, search: { ...search, p: undefined, ...next } as never, replace });

  const request = requestOf({
    scope,
    tf,
    cls: search.cls,
    school: search.school,
    src: search.src,
    subj: search.subj,
    g: search.g,
    p: page,
    child: childId,
    ...(tf === "custom" && { startDate: search.startDate, endDate: search.endDate }),
  });
  const board = useQuery(leaderboardQuery(request));
  const scopes: LeaderboardScope[] = isStaff
    ? ["class", "school", "global"]
    : ["class", "school", "league", "global"];

  let content: ReactNode;
  if (!isComplete(request))
    content = (
      <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-slate-700 dark:border-slate-700 dark:text-slate-200">
        {search.startDate && search.endDate ? t("custom.order") : t("custom.choose")}
      </p>
    );
  else if (board.isError) content = <BoardError error={board.error} onRetry={() => board.refetch()} />;
  else if (!board.data) content = <BoardSkeleton />;
  else
    content = (
      <div className="space-y-5">
        {board.data.league && <LeagueBanner league={board.data.league} />}
        <Standings
          board={board.data}
          viewer={viewer}
          action={
            isStaff
              ? (row) =>
                  row.studentId && <StaffHideToggle studentId={row.studentId} name={row.displayName ?? ""} />
              : undefined
          }
        />
        <Pager
          offset={(board.data.page - 1) * board.data.pageSize}
          limit={board.data.pageSize}
          total={board.data.total}
          onChange={(offset) => {
            const next = Math.floor(offset / board.data.pageSize) + 1;
            setSearch({ p: next > 1 ? next : undefined });
          }}
          label={t("list.label")}
          countPages
        />
      </div>
    );

  return (
    <>
      <Tabs
        label={t("scopes.label")}
        idPrefix="leaderboard-scope"
        panelId={PANEL}
        selected={scope}
        items={scopes.map((id) => ({
          id,
          label: t(`scopes.${id}`),
          link: { to: PAGE, search: { ...search, scope: id, p: undefined } as never },
        }))}
        className="mb-4"
      />
      <Card className="mb-6 space-y-4">
        <Tabs
          label={t("timeframes.label")}
          look="pills"
          idPrefix="leaderboard-tf"
          panelId={PANEL}
          selected={tf}
          items={timeframeTabs(TIMEFRAMES, (id) => ({
            to: PAGE,
            search: {
              ...search,
              p: undefined,
              ...timeframeSearch(id, search),
            } as never,
          }))}
        />
        {tf === "custom" && (
          <CustomDates
            startDate={search.startDate}
            endDate={search.endDate}
            onChange={(dates) => setSearch(dates, true)}
          />
        )}
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {isStaff && scope === "class" && (
            <ClassPicker value={search.cls} onChange={(cls) => setSearch({ cls })} />
          )}
          <SubjectAndGrade
            subject={search.subj}
            grade={search.g}
            subjects={subjects}
            onChange={(next) => setSearch(next)}
          />
        </div>
      </Card>

      <section
        id={PANEL}
        role="tabpanel"
        aria-labelledby={`${tabId("leaderboard-scope", scope)} ${tabId("leaderboard-tf", tf)}`}
        aria-busy={board.isFetching}
        className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <div className="mb-5 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h2 className="text-lg font-bold">
            {t("board.heading", { scope: t(`scopes.${scope}`), timeframe: t(`timeframes.${tf}`) })}
          </h2>
          {board.data && (
            <p className="text-sm text-slate-600 dark:text-slate-300">{periodText(board.data)}</p>
          )}
        </div>
        <div className={board.isPlaceholderData ? "opacity-60 transition-opacity" : ""}>{content}</div>
      </section>
    </>
  );
}

/** The first and last day of a custom period; either may be cleared, which asks for it again. */
export function CustomDates({
  startDate,
  endDate,
  onChange,
}: {
  startDate: string | undefined;
  endDate: string | undefined;
  onChange: (dates: { startDate?: string; endDate?: string }) => void;
}) {
  const { t } = useTranslation("leaderboards");
  const valid = (value: string) => (isIsoDate(value) ? value : undefined);
  return (
    <div className="grid gap-3 sm:max-w-md sm:grid-cols-2">
      <TextField
        label={t("custom.from")}
        type="date"
        value={startDate ?? ""}
        max={endDate}
        onChange={(event) => onChange({ startDate: valid(event.target.value), endDate })}
      />
      <TextField
        label={t("custom.to")}
        type="date"
        value={endDate ?? ""}
        min={startDate}
        onChange={(event) => onChange({ startDate, endDate: valid(event.target.value) })}
      />
    </div>
  );
}

/** A Guide's classes, in the order the server picks the first of them by. */
export function useGuideClasses(enabled = true) {
  const classes = useQuery({ ...myClassesQuery, enabled });
  const list = [...(classes.data?.data ?? [])].sort(
    (a, b) => a.title.localeCompare(b.title) || a.sourcedId.localeCompare(b.sourcedId),
  );
  return { classes, list };
}

function ClassPicker({ value, onChange }: { value: string | undefined; onChange: (cls: string) => void }) {
  const { t } = useTranslation("leaderboards");
  const { list } = useGuideClasses();
  if (list.length < 2) return null;
  return (
    <SelectField
      label={t("filters.class")}
      value={value ?? list[0]?.sourcedId}
      onChange={(event) => onChange(event.target.value)}
      options={list.map((entry) => ({ value: entry.sourcedId, label: entry.title }))}
    />
  );
}
