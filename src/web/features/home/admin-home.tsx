import { useQuery } from "@tanstack/react-query";
import { School } from "lucide-react";
import { useTranslation } from "react-i18next";
import { BarFigure } from "../../components/charts/bar-figure";
import { TableRegion } from "../../components/ui/table-region";
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
  const { t } = useTranslation("home");
  const schools = useQuery(schoolsSummaryQuery);

  return (
    <div className="space-y-6">
      <HomeHero />
      {schools.isError && (
        <QueryError
          error={schools.error}
          fallback={t("admin.loadFailed")}
          onRetry={() => schools.refetch()}
        />
      )}
      {schools.isPending && <Loading label={t("admin.loading")} rows={4} />}
      {schools.data &&
        (schools.data.length === 0 ? (
          <EmptyState icon={School} title={t("admin.empty.title")}>
            {t("admin.empty.body")}
          </EmptyState>
        ) : (
          <>
            <Totals schools={schools.data} />
            <div className="grid gap-6 lg:grid-cols-5">
              <Section
                title={t("admin.schools.title")}
                description={t("admin.schools.description")}
                className="lg:col-span-3"
              >
                <SchoolsTable schools={schools.data} />
              </Section>
              <Section title={t("admin.chart.title")} className="lg:col-span-2">
                <SchoolsChart schools={schools.data} />
              </Section>
            </div>
          </>
        ))}
    </div>
  );
}

function Totals({ schools }: { schools: SchoolTotals[] }) {
  const { t } = useTranslation("home");
  const sum = (pick: (school: SchoolTotals) => number) =>
    schools.reduce((total, school) => total + pick(school), 0);
  const students = sum((school) => school.students);
  const active = sum((school) => school.activeToday);
  const tiles = [
    { label: t("admin.students"), value: String(students) },
    {
      label: t("admin.activeToday"),
      value: String(active),
      note: students ? `${Math.round((active / students) * 100)}%` : undefined,
    },
    { label: t("admin.xpToday"), value: formatXp(sum((school) => school.xpToday)) },
    { label: t("admin.xpThisWeek"), value: formatXp(sum((school) => school.xpThisWeek)) },
  ];
  return (
    <section aria-labelledby="district-totals">
      <h2 id="district-totals" className="sr-only">
        {t("admin.allSchools")}
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
  const { t } = useTranslation("home");
  return (
    <TableRegion label={t("admin.schools.region")} className="-mx-5 sm:mx-0">
      <table className="w-full min-w-[30rem] text-left text-sm">
        <caption className="sr-only">{t("admin.schools.caption")}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
              {t("admin.school")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("admin.students")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("admin.activeToday")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              {t("admin.xpToday")}
            </th>
            <th scope="col" className="px-5 py-2 text-right font-semibold sm:px-3">
              {t("admin.xpThisWeek")}
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
    </TableRegion>
  );
}

function SchoolsChart({ schools }: { schools: SchoolTotals[] }) {
  const { t } = useTranslation("home");
  const isEmpty = schools.every((school) => school.xpThisWeek === 0);
  return (
    <BarFigure
      bars={schools.map((school) => ({
        label: school.name.replace(/ School$/, ""),
        name: school.name,
        value: school.xpThisWeek,
      }))}
      description={t("admin.chart.description")}
      valueLabel={t("admin.chart.valueLabel")}
      formatValue={(xp) => t("xp", { xp: formatXp(xp) })}
      minimumTop={100}
      caption={isEmpty ? t("admin.chart.empty") : t("admin.chart.caption")}
    />
  );
}
