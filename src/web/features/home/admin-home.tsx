import { useQuery } from "@tanstack/react-query";
import { BarFigure } from "../../components/charts/bar-figure";
import { formatXp } from "../../lib/format";
import { schoolsSummaryQuery } from "./api";
import { EmptyState, HomeHero, Loading, QueryError, Section } from "./parts";

interface SchoolTotals {
  sourcedId: string;
  name: string;
  students: number;
  activeToday: number;
  xpToday: number;
  xpThisWeek: number;
}

/** An administrator's home: every school's students and XP, today and this week. */
export function AdminHome() {
  const schools = useQuery(schoolsSummaryQuery);

  return (
    <div className="space-y-6">
      <HomeHero />
      {schools.isError && (
        <QueryError
          error={schools.error}
          fallback="Could not load the school totals"
          onRetry={() => schools.refetch()}
        />
      )}
      {schools.isPending && <Loading label="Loading the school totals" rows={4} />}
      {schools.data &&
        (schools.data.length === 0 ? (
          <EmptyState icon="🏫" title="No schools yet">
            Schools appear here once they are added to the roster.
          </EmptyState>
        ) : (
          <>
            <Totals schools={schools.data} />
            <div className="grid gap-6 lg:grid-cols-5">
              <Section title="Schools" description="Today and this week" className="lg:col-span-3">
                <SchoolsTable schools={schools.data} />
              </Section>
              <Section title="XP this week per school" className="lg:col-span-2">
                <SchoolsChart schools={schools.data} />
              </Section>
            </div>
          </>
        ))}
    </div>
  );
}

function Totals({ schools }: { schools: SchoolTotals[] }) {
  const sum = (pick: (school: SchoolTotals) => number) =>
    schools.reduce((total, school) => total + pick(school), 0);
  const students = sum((school) => school.students);
  const active = sum((school) => school.activeToday);
  const tiles = [
    { label: "Students", value: String(students) },
    {
      label: "Active today",
      value: String(active),
      note: students ? `${Math.round((active / students) * 100)}%` : undefined,
    },
    { label: "XP today", value: formatXp(sum((school) => school.xpToday)) },
    { label: "XP this week", value: formatXp(sum((school) => school.xpThisWeek)) },
  ];
  return (
    <section aria-labelledby="district-totals">
      <h2 id="district-totals" className="sr-only">
        All schools
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {tiles.map((tile) => (
          <div
            key={tile.label}
            className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{tile.label}</dt>
            <dd className="mt-1 flex items-baseline gap-2">
              <span className="text-2xl font-extrabold tabular-nums">{tile.value}</span>
              {tile.note && <span className="text-sm text-slate-600 dark:text-slate-300">{tile.note}</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function SchoolsTable({ schools }: { schools: SchoolTotals[] }) {
  return (
    <section
      aria-label="Schools, scrollable"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard
      tabIndex={0}
      className="relative -mx-5 overflow-x-auto sm:mx-0"
    >
      <table className="w-full min-w-[30rem] text-left text-sm">
        <caption className="sr-only">Students, activity and XP per school</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
              School
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Students
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Active today
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              XP today
            </th>
            <th scope="col" className="px-5 py-2 text-right font-semibold sm:px-3">
              XP this week
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {schools.map((school) => (
            <tr key={school.sourcedId}>
              <th scope="row" className="px-5 py-2.5 font-semibold sm:px-3">
                {school.name}
              </th>
              <td className="px-3 py-2.5 text-right tabular-nums">{school.students}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{school.activeToday}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{formatXp(school.xpToday)}</td>
              <td className="px-5 py-2.5 text-right tabular-nums sm:px-3">{formatXp(school.xpThisWeek)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function SchoolsChart({ schools }: { schools: SchoolTotals[] }) {
  const isEmpty = schools.every((school) => school.xpThisWeek === 0);
  return (
    <BarFigure
      bars={schools.map((school) => ({
        label: school.name.replace(/ School$/, ""),
        name: school.name,
        value: school.xpThisWeek,
      }))}
      description="Bar chart of XP this week per school"
      valueLabel="This week"
      formatValue={(xp) => `${formatXp(xp)} XP`}
      minimumTop={100}
      caption={
        isEmpty ? "No XP reported this week yet." : "XP earned since Sunday, each student's week their own."
      }
    />
  );
}
