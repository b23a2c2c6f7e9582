import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { School, Users } from "lucide-react";
import { type ReactNode, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { Leaderboard } from "../../../shared/contracts/leaderboards";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { Tabs, tabId } from "../../components/ui/tabs";
import { gradeLabel } from "../../lib/format";
import { onboardingSchoolsQuery, userQuery, usersQuery } from "../admin/api";
import { SMALL_BUTTON } from "../admin/people-search";
import { fullName } from "../auth/auth-state";
import { EmptyState, QueryError } from "../home/parts";
import { isComplete, type LeaderboardRequest, leaderboardQuery, requestOf } from "./api";
import { CustomDates, useGuideClasses } from "./leaderboards-page";
import {
  BoardError,
  BoardSkeleton,
  periodText,
  StaffHideToggle,
  SubjectAndGrade,
  TIMEFRAMES,
  timeframeSearch,
  timeframeTabs,
  useSubjects,
  valueText,
} from "./parts";

type AdminSearch = z.output<typeof searchSchemas.adminLeaderboards>;
type AdminScope = NonNullable<AdminSearch["scope"]>;

const PAGE = "/app/admin/leaderboards";
const PANEL = "admin-leaderboard-panel";
const SCOPES: AdminScope[] = ["global", "school"];
const LINK_CLASS = "font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100";

/**
 * The district's standings for administrators: everyone or one school, narrowed by Guide, class,
 * subject and grade, with full names and a way to hide a student from every leaderboard.
 */
export function AdminLeaderboardsPage() {
  const { t } = useTranslation("leaderboards");
  const search = useSearch({ strict: false }) as AdminSearch;
  const navigate = useNavigate();
  const scope = search.scope ?? "global";
  const tf = search.tf ?? "week";
  const subjects = useSubjects();
  const schools = useQuery(onboardingSchoolsQuery);
  const { list: classes } = useGuideClasses();
  const schoolName = schools.data?.data.find((school) => school.sourcedId === search.school)?.name;
  const classChoices = schoolName ? classes.filter((entry) => entry.schoolName === schoolName) : classes;

  const setSearch = (next: Partial<AdminSearch>, replace = false) =>
    void navigate({ to: PAGE, search: { ...search, ...next } as never, replace });

  // A class narrows to its own standings; the school and Guide filters still apply around it.
  const request = requestOf({
    scope: search.cls ? "class" : scope,
    tf,
    school: search.school,
    teacher: search.teacher,
    cls: search.cls,
    src: search.src,
    subj: search.subj,
    g: search.g,
    ...(tf === "custom" && { startDate: search.startDate, endDate: search.endDate }),
  });
  const needsSchool = scope === "school" && !search.school && !search.cls;

  return (
    <div>
      <PageHeader title={t("common:pages./app/admin/leaderboards.title")} description={t("page.admin")} />
      <Tabs
        label={t("scopes.label")}
        idPrefix="admin-leaderboard-scope"
        panelId={PANEL}
        selected={scope}
        items={SCOPES.map((id) => ({
          id,
          label: t(`scopes.${id === "school" ? "oneSchool" : "global"}`),
          link: { to: PAGE, search: { ...search, scope: id } as never },
        }))}
        className="mb-4"
      />
      <Card className="mb-6 space-y-4">
        <Tabs
          label={t("timeframes.label")}
          look="pills"
          idPrefix="admin-leaderboard-tf"
          panelId={PANEL}
          selected={tf}
          items={timeframeTabs(TIMEFRAMES, (id) => ({
            to: PAGE,
            search: {
              ...search,
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
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField
            label={t("filters.school")}
            value={search.school ?? ""}
            onChange={(event) => setSearch({ school: event.target.value || undefined, cls: undefined })}
            options={[
              { value: "", label: scope === "school" ? t("filters.chooseSchool") : t("filters.allSchools") },
              ...(schools.data?.data ?? []).map((school) => ({
                value: school.sourcedId,
                label: school.name,
              })),
            ]}
          />
          <SelectField
            label={t("filters.class")}
            value={search.cls ?? ""}
            onChange={(event) => setSearch({ cls: event.target.value || undefined })}
            options={[
              { value: "", label: t("filters.allClasses") },
              ...classChoices.map((entry) => ({
                value: entry.sourcedId,
                label: schoolName || !entry.schoolName ? entry.title : `${entry.title} (${entry.schoolName})`,
              })),
            ]}
          />
          <SubjectAndGrade
            subject={search.subj}
            grade={search.g}
            subjects={subjects}
            onChange={(next) => setSearch(next)}
          />
        </div>
        <GuidePicker value={search.teacher} onChange={(teacher) => setSearch({ teacher })} />
      </Card>

      <section
        id={PANEL}
        role="tabpanel"
        aria-labelledby={`${tabId("admin-leaderboard-scope", scope)} ${tabId("admin-leaderboard-tf", tf)}`}
        className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        {needsSchool ? (
          <EmptyState icon={School} title={t("filters.chooseSchool")}>
            {t("admin.chooseSchool")}
          </EmptyState>
        ) : !isComplete(request) ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-slate-700 dark:border-slate-700 dark:text-slate-200">
            {search.startDate && search.endDate ? t("custom.order") : t("custom.choose")}
          </p>
        ) : (
          // A new filter starts again at the first page.
          <Standings key={JSON.stringify(request)} request={request} />
        )}
      </section>
    </div>
  );
}

function Standings({ request }: { request: LeaderboardRequest }) {
  const { t } = useTranslation("leaderboards");
  const [page, setPage] = useState(1);
  const board = useQuery(leaderboardQuery({ ...request, p: page }));
  let content: ReactNode;
  if (board.isError) content = <BoardError error={board.error} onRetry={() => board.refetch()} />;
  else if (!board.data) content = <BoardSkeleton />;
  else if (board.data.total === 0)
    content = (
      <EmptyState icon={Users} title={t("empty.nobody")}>
        {t("admin.nobody")}
      </EmptyState>
    );
  else
    content = (
      <>
        <StandingsTable board={board.data} />
        <Pager
          offset={(board.data.page - 1) * board.data.pageSize}
          limit={board.data.pageSize}
          total={board.data.total}
          onChange={(offset) => setPage(Math.floor(offset / board.data.pageSize) + 1)}
          label={t("list.label")}
          countPages
        />
      </>
    );
  return (
    <div aria-busy={board.isFetching}>
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="text-lg font-bold">{t("admin.heading")}</h2>
        {board.data && (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {t("admin.count", { count: board.data.total })} · {periodText(board.data)}
          </p>
        )}
      </div>
      <div className={board.isPlaceholderData ? "opacity-60 transition-opacity" : ""}>{content}</div>
    </div>
  );
}

function StandingsTable({ board }: { board: Leaderboard }) {
  const { t } = useTranslation("leaderboards");
  const cell = "px-3 py-2.5";
  return (
    <TableRegion label={t("admin.heading")} className="-mx-4 sm:mx-0">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t("admin.caption", { period: periodText(board) })}</caption>
        <thead className="text-xs text-slate-600 uppercase dark:text-slate-300">
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th scope="col" className={`${cell} w-16`}>
              {t("admin.columns.rank")}
            </th>
            <th scope="col" className={cell}>
              {t("admin.columns.student")}
            </th>
            <th scope="col" className={cell}>
              {t("admin.columns.grade")}
            </th>
            <th scope="col" className={`${cell} text-right`}>
              {board.tf === "streak" ? t("admin.columns.streak") : t("admin.columns.xp")}
            </th>
            <th scope="col" className={cell}>
              {t("admin.columns.hide")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {board.rows.map((row, index) => (
            <tr key={row.studentId ?? `${row.rank}-${index}`}>
              <td className={`${cell} font-bold tabular-nums`}>{row.rank}</td>
              <th scope="row" className={`${cell} font-normal`}>
                {row.studentId ? (
                  <Link
                    to="/app/learning-metrics"
                    search={{ studentId: row.studentId }}
                    className={LINK_CLASS}
                  >
                    {row.displayName}
                  </Link>
                ) : (
                  row.displayName
                )}
              </th>
              <td className={`${cell} whitespace-nowrap`}>{row.grade ? gradeLabel([row.grade]) : "—"}</td>
              <td className={`${cell} text-right whitespace-nowrap tabular-nums`}>
                {valueText(row.value, board.tf)}
              </td>
              <td className={cell}>
                {row.studentId && <StaffHideToggle studentId={row.studentId} name={row.displayName ?? ""} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** Narrows to the students of one Guide's classes: found by name, shown by name once chosen. */
function GuidePicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (teacher: string | undefined) => void;
}) {
  const { t } = useTranslation("leaderboards");
  const [text, setText] = useState("");
  const deferred = useDeferredValue(text.trim());
  const chosen = useQuery({ ...userQuery(value ?? ""), enabled: Boolean(value) });
  const found = useQuery({
    ...usersQuery(deferred, "teacher", 0),
    enabled: !value && deferred !== "",
    placeholderData: keepPreviousData,
  });

  if (value)
    return (
      <div className="flex flex-wrap items-center gap-3">
        <p>
          <span className="text-sm text-slate-600 dark:text-slate-300">{t("filters.guide")}: </span>
          <span className="font-semibold">
            {chosen.data ? fullName(chosen.data.data) : t("filters.guideLoading")}
          </span>
        </p>
        <button type="button" className={buttonClass("secondary")} onClick={() => onChange(undefined)}>
          {t("filters.allGuides")}
        </button>
      </div>
    );
  return (
    <div className="sm:max-w-md">
      <TextField
        label={t("filters.guide")}
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t("filters.guidePlaceholder")}
      />
      {found.isError && (
        <div className="mt-2">
          <QueryError error={found.error} fallback={t("filters.guideFailed")} />
        </div>
      )}
      {deferred !== "" && found.data && (
        <>
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-300" aria-live="polite">
            {t("filters.guidesFound", { count: found.data.total })}
          </p>
          {found.data.data.length > 0 && (
            <ul className="mt-1 divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
              {found.data.data.map((person) => (
                <li key={person.sourcedId} className="flex items-center justify-between gap-3 px-3 py-2">
                  <span className="min-w-0 break-words">
                    <span className="font-medium">{fullName(person)}</span>
                    {person.primaryOrg && (
                      <span className="block text-xs text-slate-600 dark:text-slate-300">
                        {person.primaryOrg.name}
                      </span>
                    )}
                  </span>
                  <button
                    type="button"
                    className={SMALL_BUTTON}
                    aria-label={t("filters.guideChooseWho", { name: fullName(person) })}
                    onClick={() => {
                      onChange(person.sourcedId);
                      setText("");
                    }}
                  >
                    {t("filters.guideChoose")}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
