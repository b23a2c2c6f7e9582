import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { Flame, Trophy, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { ClassGoals, ClassStudent } from "../../../shared/contracts/goals";
import { addDays, isWeekday, localDateOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { PageHeader } from "../../components/page-header";
import { TableRegion } from "../../components/ui/table-region";
import { formatXp, gradeLabel, instantLabel, relativeTime } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { classGoalsQuery, classLeaderboardQuery, isRefusal } from "./api";
import { GoalCounts, ProgressBar, RefusalState } from "./parts";

const LINK_CLASS =
  "font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100 rounded";

/** /app/teacher/class/$classId: a Guide's class, each student's day and week, and the week's leaderboard. */
export function ClassPage() {
  const { t } = useTranslation("goals");
  const { classId } = useParams({ strict: false }) as { classId: string };
  const found = useQuery(classGoalsQuery(classId));

  if (found.isError)
    return (
      <div>
        <PageHeader title={t("class.pageTitle")} />
        {isRefusal(found.error) ? (
          <RefusalState title={t("class.notOpen")} error={found.error}>
            <Link to="/app" className={LINK_CLASS}>
              {t("class.backHome")}
            </Link>
          </RefusalState>
        ) : (
          <QueryError error={found.error} fallback={t("class.loadFailed")} onRetry={() => found.refetch()} />
        )}
      </div>
    );
  if (!found.data)
    return (
      <div>
        <PageHeader title={t("class.pageTitle")} />
        <Loading label={t("class.loading")} rows={6} />
      </div>
    );
  return <ClassContent data={found.data} />;
}

/** School days of this week before today, in the school's calendar: how much of the week has gone. */
function schoolDaysGone(today: string): number {
  let gone = 0;
  for (let date = weekStartOf(today); date < today; date = addDays(date, 1)) if (isWeekday(date)) gone++;
  return gone;
}

function ClassContent({ data }: { data: ClassGoals }) {
  const { t } = useTranslation("goals");
  const { students } = data;
  const share = schoolDaysGone(localDateOf(new Date(), SCHOOL_TIME_ZONE)) / 5;
  const tiles = [
    { key: "active", count: students.filter((student) => student.xpToday > 0).length },
    {
      key: "daily",
      count: students.filter((student) => student.dailyGoal > 0 && student.xpToday >= student.dailyGoal)
        .length,
    },
    {
      key: "weekly",
      count: students.filter(
        (student) =>
          student.weeklyGoal > 0 &&
          (student.xpThisWeek >= student.weeklyGoal || student.xpThisWeek >= student.weeklyGoal * share),
      ).length,
      hint: t("class.tiles.weeklyHint"),
    },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title={data.class.title}
        description={data.class.schoolName ?? t("class.noSchool")}
        actions={
          <Link
            to="/app/goals"
            search={{ classId: data.class.id }}
            className="inline-flex items-center gap-1 rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-slate-800"
          >
            {t("class.goalsLink")} <span aria-hidden="true">→</span>
          </Link>
        }
      />
      <dl className="grid grid-cols-3 gap-2 sm:gap-3">
        {tiles.map((tile) => (
          <div
            key={tile.key}
            className="min-w-0 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4 dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-xs text-slate-600 sm:text-sm dark:text-slate-300">
              {t(`class.tiles.${tile.key}`)}
            </dt>
            <dd className="mt-1 text-base font-extrabold whitespace-nowrap tabular-nums sm:text-2xl">
              {t("class.tiles.ofAll", { count: tile.count, total: students.length })}
            </dd>
            {tile.hint && (
              <dd className="mt-0.5 hidden text-xs text-slate-600 sm:block dark:text-slate-300">
                {tile.hint}
              </dd>
            )}
          </div>
        ))}
      </dl>

      <Section
        title={t("class.studentsTitle")}
        description={t("class.studentsDescription", { count: students.length })}
      >
        {students.length === 0 ? (
          <EmptyState icon={Users} title={t("class.noStudents")} />
        ) : (
          <>
            <p className="mb-2 text-xs text-slate-600 md:hidden dark:text-slate-300">
              {t("class.scrollHint")}
            </p>
            <StudentsTable data={data} />
          </>
        )}
      </Section>

      <Leaderboard classId={data.class.id} />
    </div>
  );
}

function StudentsTable({ data }: { data: ClassGoals }) {
  const { t } = useTranslation("goals");
  const now = new Date();
  const columns = ["student", "today", "week", "streak", "lastActivity", "goals", "links"] as const;
  return (
    <TableRegion label={t("class.tableRegion", { name: data.class.title })} className="-mx-5 sm:mx-0">
      <table className="w-full min-w-[56rem] text-left text-sm">
        <caption className="sr-only">{t("class.tableCaption", { name: data.class.title })}</caption>
        <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            {columns.map((column) => (
              <th
                key={column}
                scope="col"
                className="px-5 py-2 font-semibold tracking-wide whitespace-nowrap sm:px-3"
              >
                {t(`class.columns.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {data.students.map((student) => (
            <tr key={student.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/60">
              <th scope="row" className="px-5 py-2.5 text-left font-normal whitespace-nowrap sm:px-3">
                <span className="font-semibold">{student.name}</span>
                {student.grades.length > 0 && (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    {gradeLabel(student.grades)}
                  </span>
                )}
              </th>
              <td className="w-36 px-5 py-2.5 sm:px-3">
                <XpBar
                  label={t("class.todayBar", { name: student.name })}
                  value={student.xpToday}
                  goal={student.dailyGoal}
                />
              </td>
              <td className="w-36 px-5 py-2.5 sm:px-3">
                <XpBar
                  label={t("class.weekBar", { name: student.name })}
                  value={student.xpThisWeek}
                  goal={student.weeklyGoal}
                />
              </td>
              <td className="px-5 py-2.5 whitespace-nowrap tabular-nums sm:px-3">
                {student.streak > 0 ? (
                  <>
                    <span aria-hidden="true" className="inline-flex items-center gap-1">
                      <Flame className="size-4 text-amber-600 dark:text-amber-400" />
                      {t("class.streakDays", { count: student.streak })}
                    </span>
                    <span className="sr-only">{t("class.streakLabel", { count: student.streak })}</span>
                  </>
                ) : (
                  <>
                    <span aria-hidden="true" className="text-slate-500 dark:text-slate-400">
                      {t("class.none")}
                    </span>
                    <span className="sr-only">{t("class.noStreak")}</span>
                  </>
                )}
              </td>
              <td className="px-5 py-2.5 whitespace-nowrap text-slate-700 sm:px-3 dark:text-slate-300">
                <LastActivity student={student} now={now} />
              </td>
              <td className="px-5 py-2.5 sm:px-3">
                <GoalCounts student={student} />
              </td>
              <td className="px-5 py-2.5 whitespace-nowrap sm:px-3">
                <StudentLinks student={student} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** XP against a goal: "18 of 30 XP" over a small bar, green once met. */
function XpBar({ label, value, goal }: { label: string; value: number; goal: number }) {
  const { t } = useTranslation("goals");
  const text = t("class.barText", { value: formatXp(value), goal: formatXp(goal) });
  const share = goal > 0 ? value / goal : 0;
  return (
    <>
      <span className="block text-xs whitespace-nowrap tabular-nums">{text}</span>
      <span className="mt-1 block">
        <ProgressBar
          label={label}
          valueNow={Math.floor(value)}
          valueMax={goal}
          valueText={text}
          share={share}
          tone={goal > 0 && share >= 1 ? "good" : "neutral"}
          size="sm"
        />
      </span>
    </>
  );
}

function LastActivity({ student, now }: { student: ClassStudent; now: Date }) {
  const { t } = useTranslation("goals");
  if (!student.lastActivityAt)
    return (
      <>
        <span aria-hidden="true">{t("class.none")}</span>
        <span className="sr-only">{t("class.neverLabel")}</span>
      </>
    );
  return (
    <time dateTime={student.lastActivityAt} title={instantLabel(student.lastActivityAt)}>
      {relativeTime(student.lastActivityAt, now)}
    </time>
  );
}

/** The ways into a student's day, learning metrics and goals. */
function StudentLinks({ student }: { student: ClassStudent }) {
  const { t } = useTranslation("goals");
  return (
    <span className="flex gap-3">
      <Link
        to="/app/flow/student/$studentId"
        params={{ studentId: student.id }}
        aria-label={t("class.flowLabel", { name: student.name })}
        className={LINK_CLASS}
      >
        {t("class.flow")}
      </Link>
      <Link
        to="/app/learning-metrics"
        search={{ studentId: student.id }}
        aria-label={t("class.metricsLabel", { name: student.name })}
        className={LINK_CLASS}
      >
        {t("class.metrics")}
      </Link>
      <Link
        to="/app/my-learning-report"
        search={{ studentId: student.id }}
        aria-label={t("class.reportLabel", { name: student.name })}
        className={LINK_CLASS}
      >
        {t("class.report")}
      </Link>
      <Link
        to="/app/goals"
        search={{ studentId: student.id }}
        aria-label={t("class.goalsLabel", { name: student.name })}
        className={LINK_CLASS}
      >
        {t("class.goals")}
      </Link>
    </span>
  );
}

/** The class's top ten by XP this week: a plain ranked list. */
function Leaderboard({ classId }: { classId: string }) {
  const { t } = useTranslation("goals");
  const board = useQuery(classLeaderboardQuery(classId));
  return (
    <Section title={t("class.leaderboard.title")} description={t("class.leaderboard.description")}>
      {board.isError ? (
        <QueryError
          error={board.error}
          fallback={t("class.leaderboard.failed")}
          onRetry={isRefusal(board.error) ? undefined : () => board.refetch()}
        />
      ) : !board.data ? (
        <Loading label={t("class.leaderboard.loading")} rows={3} />
      ) : board.data.length === 0 ? (
        <EmptyState icon={Trophy} title={t("class.leaderboard.empty")} />
      ) : (
        <ol
          aria-label={t("class.leaderboard.title")}
          className="divide-y divide-slate-100 dark:divide-slate-800"
        >
          {board.data.map((row) => (
            <li
              key={`${row.rank}-${row.studentId ?? row.displayName}`}
              className="flex items-center gap-3 py-2"
            >
              <span className="sr-only">{t("class.leaderboard.rank", { rank: row.rank })}</span>
              <span
                aria-hidden="true"
                className={`flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold tabular-nums ${
                  row.rank <= 3
                    ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
                    : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                }`}
              >
                {row.rank}
              </span>
              <span className="min-w-0 flex-1 truncate font-medium">
                {row.displayName ?? t("class.leaderboard.hidden")}
              </span>
              <span className="font-semibold whitespace-nowrap tabular-nums">
                {t("class.leaderboard.xp", { xp: formatXp(row.value) })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
