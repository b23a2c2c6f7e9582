import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import type { StudentSummary } from "../../../shared/contracts/activity";
import { formatXp, gradeLabel, relativeTime } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { ViewAsPanel } from "../auth/view-as";
import { guideStudentsQuery } from "./api";
import { EmptyState, goalsMet, HomeHero, Loading, QueryError, Section } from "./parts";

type SortKey = "name" | "xpToday" | "goals" | "streak" | "lastActivity";

const COLUMNS: { key: SortKey; label: string; numeric: boolean }[] = [
  { key: "name", label: "Student", numeric: false },
  { key: "xpToday", label: "XP today", numeric: true },
  { key: "goals", label: "Goals met", numeric: true },
  { key: "streak", label: "Streak", numeric: true },
  { key: "lastActivity", label: "Last activity", numeric: true },
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
  const { realUser, user, isImpersonating } = useAuth();
  const students = useQuery(guideStudentsQuery(user.sourcedId));

  return (
    <div className="space-y-6">
      <HomeHero />
      <Section title="Your group today" description={students.data ? groupLine(students.data) : undefined}>
        {students.isError && (
          <QueryError
            error={students.error}
            fallback="Could not load your students"
            onRetry={() => students.refetch()}
          />
        )}
        {students.isPending && <Loading label="Loading your students" />}
        {students.data &&
          (students.data.length === 0 ? (
            <EmptyState icon="🧑‍🏫" title="No students yet">
              Students appear here once they are enrolled in your classes.
            </EmptyState>
          ) : (
            <>
              <p className="mb-2 text-xs text-slate-600 sm:hidden dark:text-slate-300">
                Scroll the table sideways for streaks and last activity.
              </p>
              <StudentsTable students={students.data} />
            </>
          ))}
      </Section>
      {!isImpersonating && realUser.sourcedId === user.sourcedId && (
        <ViewAsPanel
          title="Your students"
          description="Your students and their families. View Dash as one of them to see what they see."
        />
      )}
    </div>
  );
}

function groupLine(students: StudentSummary[]): string {
  if (students.length === 0) return "Nobody yet.";
  const allMet = students.filter((student) => {
    const { met, total } = goalsMet(student);
    return total > 0 && met === total;
  }).length;
  const active = students.filter((student) => student.xpToday > 0).length;
  return `${students.length} ${students.length === 1 ? "student" : "students"} · ${active} active today · ${allMet} met every goal`;
}

function StudentsTable({ students }: { students: StudentSummary[] }) {
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "name", descending: false });
  const sorted = [...students].sort((a, b) => {
    const left = sortValue(a, sort.key);
    const right = sortValue(b, sort.key);
    const order = left < right ? -1 : left > right ? 1 : 0;
    return sort.descending ? -order : order;
  });
  const now = new Date();

  return (
    <section
      aria-label="Your students today, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard
      tabIndex={0}
      className="relative -mx-5 overflow-x-auto sm:mx-0"
    >
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">
          Your students today. Sorted by {COLUMNS.find((column) => column.key === sort.key)?.label},{" "}
          {sort.descending ? "descending" : "ascending"}.
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
                    {column.label}
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
                    {met}/{total}
                    {allMet && <span aria-hidden="true"> ✓</span>}
                  </span>
                  <span className="sr-only"> goals met</span>
                </td>
                <td className="px-5 py-2.5 text-right tabular-nums sm:px-3">
                  {student.streak > 0 ? (
                    <>
                      <span aria-hidden="true">🔥 </span>
                      {student.streak}
                      <span className="sr-only"> school days</span>
                    </>
                  ) : (
                    <span className="text-slate-500 dark:text-slate-400">–</span>
                  )}
                </td>
                <td className="px-5 py-2.5 text-right whitespace-nowrap text-slate-700 sm:px-3 dark:text-slate-300">
                  {student.lastActivityAt ? (
                    <time
                      dateTime={student.lastActivityAt}
                      title={new Date(student.lastActivityAt).toLocaleString()}
                    >
                      {relativeTime(student.lastActivityAt, now)}
                    </time>
                  ) : (
                    "No activity yet"
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
