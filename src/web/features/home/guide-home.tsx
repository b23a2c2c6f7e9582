import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import type { TFunction } from "i18next";
import { Check, Flame, GraduationCap } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { TableRegion } from "../../components/ui/table-region";
import { formatXp, gradeLabel, instantLabel, relativeTime } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { ViewAsPanel } from "../auth/view-as";
import { myClassesQuery } from "../flow/api";
import { ReviewerNotice } from "../integrity/home-cards";
import { guideStudentsQuery } from "./api";
import { EmptyState, goalsMet, HomeHero, Loading, QueryError, Section } from "./parts";

type SortKey = "name" | "xpToday" | "goals" | "streak" | "lastActivity";

/** The columns; each one's heading is `guide.columns.<key>` in the catalogue. */
const COLUMNS: { key: SortKey; numeric: boolean }[] = [
  { key: "name", numeric: false },
  { key: "xpToday", numeric: true },
  { key: "goals", numeric: true },
  { key: "streak", numeric: true },
  { key: "lastActivity", numeric: true },
];

function sortValue(student: StudentSummary, key: SortKey): string | number {
  switch (key) {
    case "name":
      return `${student.familyName} ${student.givenName}`.toLowerCase();
    case "xpToday":
      return student.xpToday;
    case "goals": {
      const { met, total } = goalsMet(student);
      return total ? met / total : 0;
    }
    case "streak":
      return student.streak;
    case "lastActivity":
      return student.lastActivityAt ? Date.parse(student.lastActivityAt) : 0;
  }
}

/** A Guide's home: their students' day in a sortable table, and viewing Dash as one of them. */
export function GuideHome() {
  const { t } = useTranslation("home");
  const { realUser, user, isImpersonating } = useAuth();
  const students = useQuery(guideStudentsQuery(user.sourcedId));

  return (
    <div className="space-y-6">
      <HomeHero />
      <ReviewerNotice />
      <Section
        title={t("guide.group.title")}
        description={students.data ? groupLine(students.data, t) : undefined}
      >
        {students.isError && (
          <QueryError
            error={students.error}
            fallback={t("guide.loadFailed")}
            onRetry={() => students.refetch()}
          />
        )}
        {students.isPending && <Loading label={t("guide.loading")} />}
        {students.data &&
          (students.data.length === 0 ? (
            <EmptyState icon={GraduationCap} title={t("guide.empty.title")}>
              {t("guide.empty.body")}
            </EmptyState>
          ) : (
            <>
              <p className="mb-2 text-xs text-slate-600 sm:hidden dark:text-slate-300">
                {t("guide.scrollHint")}
              </p>
              <StudentsTable students={students.data} />
            </>
          ))}
      </Section>
      <GuideClasses />
      {!isImpersonating && realUser.sourcedId === user.sourcedId && (
        <ViewAsPanel title={t("guide.viewAs.title")} description={t("guide.viewAs.description")} byStudent />
      )}
    </div>
  );
}

function groupLine(students: StudentSummary[], t: TFunction<"home">): string {
  if (students.length === 0) return t("guide.group.nobody");
  const allMet = students.filter((student) => {
    const { met, total } = goalsMet(student);
    return total > 0 && met === total;
  }).length;
  const active = students.filter((student) => student.xpToday > 0).length;
  return t("guide.group.line", { count: students.length, active, allMet });
}

function StudentsTable({ students }: { students: StudentSummary[] }) {
  const { t } = useTranslation("home");
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "name", descending: false });
  const sorted = [...students].sort((a, b) => {
    const left = sortValue(a, sort.key);
    const right = sortValue(b, sort.key);
    const order = left < right ? -1 : left > right ? 1 : 0;
    return sort.descending ? -order : order;
  });
  const now = new Date();

  return (
    <TableRegion label={t("guide.table.region")} className="-mx-5 sm:mx-0">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">
          {t("guide.table.caption", {
            column: t(`guide.columns.${sort.key}`),
            order: sort.descending ? "descending" : "ascending",
          })}
        </caption>
        <thead className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-300">
          <tr>
            {COLUMNS.map((column) => {
              const isSorted = sort.key === column.key;
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={isSorted ? (sort.descending ? "descending" : "ascending") : "none"}
                  className={`px-5 py-2 font-semibold sm:px-3 ${column.numeric ? "text-right" : ""}`}
                >
                  <button
                    type="button"
                    onClick={() =>
                      setSort({
                        key: column.key,
                        // A new column starts with the most useful order: names A–Z, figures high to low.
                        descending: isSorted ? !sort.descending : column.numeric,
                      })
                    }
                    className={`inline-flex items-center gap-1 rounded uppercase tracking-wide hover:text-slate-900 dark:hover:text-white ${isSorted ? "text-slate-900 dark:text-white" : ""}`}
                  >
                    {t(`guide.columns.${column.key}`)}
                    <span aria-hidden="true" className="w-3">
                      {isSorted ? (sort.descending ? "↓" : "↑") : "↕"}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {sorted.map((student) => {
            const { met, total } = goalsMet(student);
            const allMet = total > 0 && met === total;
            return (
              <tr key={student.sourcedId} className="hover:bg-slate-50 dark:hover:bg-slate-800/60">
                <td className="px-5 py-2.5 whitespace-nowrap sm:px-3">
                  <Link
                    to="/app/flow/student/$studentId"
                    params={{ studentId: student.sourcedId }}
                    className="font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                  >
                    {fullName(student)}
                  </Link>
                  {student.grades.length > 0 && (
                    <span className="block text-xs text-slate-600 dark:text-slate-400">
                      {gradeLabel(student.grades)}
                    </span>
                  )}
                </td>
                <td className="px-5 py-2.5 text-right tabular-nums sm:px-3">{formatXp(student.xpToday)}</td>
                <td className="px-5 py-2.5 text-right tabular-nums sm:px-3">
                  <span
                    className={
                      allMet
                        ? "rounded-full bg-emerald-100 px-2 py-0.5 font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
                        : ""
                    }
                  >
                    <span aria-hidden="true" className="inline-flex items-center gap-1">
                      {met}/{total}
                      {allMet && <Check className="size-3.5" strokeWidth={3} />}
                    </span>
                    <span className="sr-only">{t("student.today.met", { met, total })}</span>
                  </span>
                </td>
                <td className="px-5 py-2.5 text-right tabular-nums sm:px-3">
                  {student.streak > 0 ? (
                    <>
                      <span aria-hidden="true" className="inline-flex items-center gap-1">
                        <Flame className="size-4 text-amber-600 dark:text-amber-400" />
                        {student.streak}
                      </span>
                      <span className="sr-only">{t("streak.days", { count: student.streak })}</span>
                    </>
                  ) : (
                    <span className="text-slate-500 dark:text-slate-400">–</span>
                  )}
                </td>
                <td className="px-5 py-2.5 text-right whitespace-nowrap text-slate-700 sm:px-3 dark:text-slate-300">
                  {student.lastActivityAt ? (
                    <time dateTime={student.lastActivityAt} title={instantLabel(student.lastActivityAt)}>
                      {relativeTime(student.lastActivityAt, now)}
                    </time>
                  ) : (
                    t("guide.noActivity")
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** The Guide's classes, each leading to its class page; out of the way while it loads or if it cannot. */
function GuideClasses() {
  const { t } = useTranslation("home");
  const classes = useQuery(myClassesQuery);
  const list = classes.data?.data ?? [];
  if (list.length === 0) return null;
  return (
    <Section title={t("guide.classes.title")} description={t("guide.classes.description")}>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {list.map((entry) => (
          <li key={entry.sourcedId} className="min-w-0">
            <Link
              to="/app/teacher/class/$classId"
              params={{ classId: entry.sourcedId }}
              className="flex h-full flex-col rounded-xl border border-slate-200 p-4 hover:border-brand-600 hover:bg-brand-50 dark:border-slate-700 dark:hover:border-brand-500 dark:hover:bg-slate-800"
            >
              <span className="font-semibold text-brand-700 dark:text-brand-100">{entry.title}</span>
              <span className="text-xs text-slate-600 dark:text-slate-300">
                {t("guide.classes.students", { count: entry.students })}
                {entry.schoolName && ` · ${entry.schoolName}`}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}
