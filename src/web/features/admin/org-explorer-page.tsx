import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { Backpack, BookOpen, Users } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { OrgDetail, OrgSummary } from "../../../shared/contracts/people";
import type { DashRole } from "../../../shared/roles";
import type { searchSchemas } from "../../../shared/routes";
import { BarFigure } from "../../components/charts/bar-figure";
import { PageHeader } from "../../components/page-header";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { Tabs } from "../../components/ui/tabs";
import { gradeLabel, gradeNames } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { fullName } from "../auth/auth-state";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { ORG_PAGE_SIZE, orgClassesQuery, orgPeopleQuery, orgQuery, orgSummaryQuery } from "./api";
import { countsText, OrgLoadError } from "./org-parts";
import { orgTypeName } from "./organizations-page";
import { allRoleChoices } from "./people-search";

type ExplorerTab = z.output<typeof searchSchemas.orgExplorer>["tab"];
const TABS: ExplorerTab[] = ["overview", "classes", "people"];
const LINK_CLASS = "font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100";

/** One organisation: its numbers and schools, its classes, and its people. */
export function OrgExplorerPage() {
  const { t } = useTranslation("admin");
  const { orgId } = useParams({ strict: false }) as { orgId: string };
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.orgExplorer>;
  const org = useQuery(orgQuery(orgId));

  if (org.isError) return <OrgLoadError error={org.error} onRetry={() => org.refetch()} />;
  if (!org.data) return <Loading label={t("explorer.loading")} rows={6} />;
  const detail = org.data.data;
  return (
    <div>
      <Breadcrumbs org={detail} />
      <PageHeader
        title={detail.name}
        description={[orgTypeName(detail.type), detail.identifier, countsText(detail.counts)]
          .filter(Boolean)
          .join(" · ")}
        actions={
          <Link
            to="/app/admin/organizations/$orgId/hierarchy"
            params={{ orgId }}
            className={buttonClass("secondary")}
          >
            {t("organizations.table.hierarchy")}
          </Link>
        }
      />
      <Tabs
        label={t("explorer.sections")}
        idPrefix="explorer-tab"
        selected={tab}
        items={TABS.map((id) => ({
          id,
          label: t(`explorer.tabs.${id}`),
          link: { to: "/app/admin/org-explorer/$orgId", params: { orgId }, search: { tab: id } },
        }))}
        className="mb-6"
      />
      {tab === "overview" && <Overview org={detail} />}
      {tab === "classes" && <ClassesTab org={detail} />}
      {tab === "people" && <PeopleTab orgId={orgId} />}
    </div>
  );
}

function Breadcrumbs({ org }: { org: OrgDetail }) {
  const { t } = useTranslation("admin");
  return (
    <nav aria-label={t("explorer.breadcrumb")} className="mb-2 text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-slate-600 dark:text-slate-300">
        <li>
          <Link to="/app/admin/organizations" className={LINK_CLASS}>
            {t("common:pages./app/admin/organizations/.title")}
          </Link>
        </li>
        {org.ancestors.map((ancestor) => (
          <li key={ancestor.sourcedId} className="flex items-center gap-1">
            <span aria-hidden="true">/</span>
            <Link
              to="/app/admin/org-explorer/$orgId"
              params={{ orgId: ancestor.sourcedId }}
              search={{ tab: "overview" }}
              className={LINK_CLASS}
            >
              {ancestor.name}
            </Link>
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span aria-hidden="true">/</span>
          <span aria-current="page">{org.name}</span>
        </li>
      </ol>
    </nav>
  );
}

function Overview({ org }: { org: OrgDetail }) {
  const { t } = useTranslation("admin");
  const summary = useQuery(orgSummaryQuery(org.sourcedId));
  return (
    <div className="space-y-6">
      {summary.isError && (
        <QueryError
          error={summary.error}
          fallback={t("explorer.numbersFailed")}
          onRetry={() => summary.refetch()}
        />
      )}
      {summary.isPending && <Loading label={t("explorer.numbersLoading")} rows={3} />}
      {summary.data && <Totals totals={summary.data.data.totals} />}
      {summary.data && (
        <Section title={t("explorer.perGrade")} description={t("explorer.perGradeDescription")}>
          {summary.data.data.studentsPerGrade.length === 0 ? (
            <EmptyState icon={Backpack} title={t("explorer.noStudents")} />
          ) : (
            <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
              <GradeChart grades={summary.data.data.studentsPerGrade} />
              <GradeTable grades={summary.data.data.studentsPerGrade} />
            </div>
          )}
        </Section>
      )}
      {org.children.length > 0 && (
        <Section title={t("explorer.units")} description={t("explorer.unitsDescription", { name: org.name })}>
          <ul className="grid gap-3 sm:grid-cols-2">
            {org.children.map((child) => (
              <li
                key={child.sourcedId}
                className="rounded-xl border border-slate-200 p-4 dark:border-slate-700"
              >
                <Link
                  to="/app/admin/org-explorer/$orgId"
                  params={{ orgId: child.sourcedId }}
                  search={{ tab: "overview" }}
                  className={`${LINK_CLASS} text-base`}
                >
                  {child.name}
                </Link>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {[orgTypeName(child.type), child.identifier].filter(Boolean).join(" · ")}
                </p>
                <p className="mt-2 text-sm tabular-nums">{countsText(child.counts)}</p>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  );
}

function Totals({ totals }: { totals: OrgSummary["totals"] }) {
  const { t } = useTranslation("admin");
  const tiles = [
    { key: "students", value: totals.students },
    { key: "guides", value: totals.guides },
    { key: "classes", value: totals.classes },
    { key: "families", value: totals.families },
    ...(totals.schools ? [{ key: "schools", value: totals.schools }] : []),
  ];
  return (
    <section aria-labelledby="org-totals">
      <h2 id="org-totals" className="sr-only">
        {t("explorer.totals.heading")}
      </h2>
      <dl
        className={`grid grid-cols-2 gap-3 sm:gap-4 ${tiles.length === 5 ? "lg:grid-cols-5" : "lg:grid-cols-4"}`}
      >
        {tiles.map((tile) => (
          <div
            key={tile.key}
            className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">
              {t(`explorer.totals.${tile.key}`)}
            </dt>
            <dd className="mt-1 text-2xl font-extrabold tabular-nums">{tile.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const gradeText = (grade: string) => (grade ? gradeLabel([grade]) : i18next.t("admin:explorer.noGrade"));

function GradeChart({ grades }: { grades: OrgSummary["studentsPerGrade"] }) {
  const { t } = useTranslation("admin");
  return (
    <BarFigure
      bars={grades.map((entry) => ({
        label: entry.grade ? gradeNames([entry.grade]) : "—",
        name: gradeText(entry.grade),
        value: entry.students,
      }))}
      description={t("explorer.chart.description")}
      valueLabel={t("explorer.totals.students")}
      caption={t("explorer.chart.caption")}
    />
  );
}

function GradeTable({ grades }: { grades: OrgSummary["studentsPerGrade"] }) {
  const { t } = useTranslation("admin");
  const total = grades.reduce((sum, entry) => sum + entry.students, 0);
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">{t("explorer.perGrade")}</caption>
      <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
        <tr>
          <th scope="col" className="py-2 pr-3 font-semibold">
            {t("explorer.grade")}
          </th>
          <th scope="col" className="py-2 text-right font-semibold">
            {t("explorer.totals.students")}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
        {grades.map((entry) => (
          <tr key={entry.grade}>
            <th scope="row" className="py-1.5 pr-3 font-normal">
              {gradeText(entry.grade)}
            </th>
            <td className="py-1.5 text-right tabular-nums">{entry.students}</td>
          </tr>
        ))}
      </tbody>
      <tfoot className="border-t border-slate-200 font-semibold dark:border-slate-700">
        <tr>
          <th scope="row" className="py-1.5 pr-3">
            {t("explorer.total")}
          </th>
          <td className="py-1.5 text-right tabular-nums">{total}</td>
        </tr>
      </tfoot>
    </table>
  );
}

function ClassesTab({ org }: { org: OrgDetail }) {
  const { t } = useTranslation("admin");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const [offset, setOffset] = useState(0);
  const classes = useQuery({
    ...orgClassesQuery(org.sourcedId, deferred, offset),
    placeholderData: keepPreviousData,
  });
  const showSchool = org.type.toLowerCase() !== "school";
  return (
    <Section title={t("explorer.tabs.classes")} description={t("explorer.classes.description")}>
      <TextField
        label={t("explorer.classes.search")}
        type="search"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setOffset(0);
        }}
        placeholder={t("explorer.classes.placeholder")}
        className="mb-4 max-w-md"
      />
      {classes.isError && <QueryError error={classes.error} fallback={t("explorer.classes.failed")} />}
      {classes.isPending && <Loading label={t("explorer.classes.loading")} />}
      {classes.data &&
        (classes.data.total === 0 ? (
          <EmptyState
            icon={BookOpen}
            title={deferred ? t("explorer.classes.noMatch") : t("explorer.classes.none")}
          />
        ) : (
          <>
            <TableRegion label={t("explorer.classes.caption", { name: org.name })} className="-mx-5 sm:mx-0">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t("explorer.classes.caption", { name: org.name })}</caption>
                <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
                  <tr>
                    <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
                      {t("explorer.classes.class")}
                    </th>
                    {showSchool && (
                      <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">
                        {t("explorer.classes.school")}
                      </th>
                    )}
                    <th scope="col" className="px-3 py-2 font-semibold">
                      {t("explorer.totals.guides")}
                    </th>
                    <th scope="col" className="px-5 py-2 text-right font-semibold sm:px-3">
                      {t("explorer.totals.students")}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {classes.data.data.map((entry) => (
                    <tr key={entry.sourcedId} className="align-top">
                      <th scope="row" className="px-5 py-2.5 sm:px-3">
                        <span className="font-semibold">{entry.title}</span>
                        <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                          {[entry.classCode, entry.grades.length ? gradeLabel(entry.grades) : null]
                            .filter(Boolean)
                            .join(" · ")}
                        </span>
                      </th>
                      {showSchool && (
                        <td className="hidden px-3 py-2.5 md:table-cell">{entry.school.name}</td>
                      )}
                      <td className="px-3 py-2.5">
                        {entry.guides.length ? entry.guides.map((guide) => guide.name).join(", ") : "—"}
                      </td>
                      <td className="px-5 py-2.5 text-right tabular-nums sm:px-3">{entry.students}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
            <Pager
              offset={offset}
              limit={ORG_PAGE_SIZE}
              total={classes.data.total}
              onChange={setOffset}
              label={t("explorer.classes.pagerLabel")}
            />
          </>
        ))}
    </Section>
  );
}

function PeopleTab({ orgId }: { orgId: string }) {
  const { t } = useTranslation("admin");
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const [role, setRole] = useState<DashRole | "">("");
  const [offset, setOffset] = useState(0);
  const people = useQuery({
    ...orgPeopleQuery(orgId, deferred, role, offset),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title={t("explorer.tabs.people")} description={t("explorer.people.description")}>
      <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] sm:items-end md:max-w-2xl">
        <TextField
          label={t("relationships.find.search")}
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setOffset(0);
          }}
          placeholder={t("peopleSearch.placeholder")}
        />
        <SelectField
          label={t("peopleSearch.role")}
          options={allRoleChoices()}
          value={role}
          onChange={(event) => {
            setRole(event.target.value as DashRole | "");
            setOffset(0);
          }}
        />
      </div>
      {people.isError && <QueryError error={people.error} fallback={t("explorer.people.failed")} />}
      {people.isPending && <Loading label={t("explorer.people.loading")} />}
      {people.data &&
        (people.data.total === 0 ? (
          <EmptyState icon={Users} title={t("explorer.people.none")} />
        ) : (
          <>
            <ul
              className="divide-y divide-slate-100 dark:divide-slate-800"
              aria-label={t("explorer.tabs.people")}
            >
              {people.data.data.map((person) => (
                <li
                  key={person.sourcedId}
                  className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2.5"
                >
                  <div className="min-w-0">
                    <p className="font-medium">{fullName(person)}</p>
                    <p className="truncate text-xs text-slate-600 dark:text-slate-400">
                      {[person.email, person.grades.length ? gradeLabel(person.grades) : null]
                        .filter(Boolean)
                        .join(" · ")}
                    </p>
                  </div>
                  <ul
                    className="flex flex-wrap gap-1.5"
                    aria-label={t("userRoles.rolesOf", { name: fullName(person) })}
                  >
                    {person.roles.map((entry) => (
                      <li
                        key={entry}
                        className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                      >
                        {t(`common:roles.${entry}`)}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
            <Pager
              offset={offset}
              limit={ORG_PAGE_SIZE}
              total={people.data.total}
              onChange={setOffset}
              label={t("explorer.people.pagerLabel")}
            />
          </>
        ))}
    </Section>
  );
}
