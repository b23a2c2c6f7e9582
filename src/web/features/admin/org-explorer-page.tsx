import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { useDeferredValue, useState } from "react";
import type { z } from "zod";
import type { OrgDetail, OrgSummary } from "../../../shared/contracts/people";
import { DASH_ROLES, type DashRole, ROLE_DISPLAY_NAMES } from "../../../shared/roles";
import type { searchSchemas } from "../../../shared/routes";
import { BarFigure } from "../../components/charts/bar-figure";
import { PageHeader } from "../../components/page-header";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { gradeLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { ORG_PAGE_SIZE, orgClassesQuery, orgPeopleQuery, orgQuery, orgSummaryQuery } from "./api";
import { countsText, OrgLoadError } from "./org-parts";
import { orgTypeName } from "./organizations-page";

type ExplorerTab = z.output<typeof searchSchemas.orgExplorer>["tab"];
const TABS: { id: ExplorerTab; label: string }[] = [
  { id: "overview", label: "Overview" },
  { id: "classes", label: "Classes" },
  { id: "people", label: "People" },
];
const LINK_CLASS = "font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100";

/** One organisation: its numbers and schools, its classes, and its people. */
export function OrgExplorerPage() {
  const { orgId } = useParams({ strict: false }) as { orgId: string };
  const { tab } = useSearch({ strict: false }) as z.output<typeof searchSchemas.orgExplorer>;
  const org = useQuery(orgQuery(orgId));

  if (org.isError) return <OrgLoadError error={org.error} onRetry={() => org.refetch()} />;
  if (!org.data) return <Loading label="Loading the organization" rows={6} />;
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
            Hierarchy
          </Link>
        }
      />
      <div
        role="tablist"
        aria-label="Explorer sections"
        className="mb-6 flex gap-2 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
      >
        {TABS.map((entry) => (
          <Link
            key={entry.id}
            to="/app/admin/org-explorer/$orgId"
            params={{ orgId }}
            search={{ tab: entry.id }}
            role="tab"
            aria-selected={tab === entry.id}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold whitespace-nowrap ${tab === entry.id ? "border-brand-600 text-brand-700 dark:text-brand-100" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300"}`}
          >
            {entry.label}
          </Link>
        ))}
      </div>
      {tab === "overview" && <Overview org={detail} />}
      {tab === "classes" && <ClassesTab org={detail} />}
      {tab === "people" && <PeopleTab orgId={orgId} />}
    </div>
  );
}

function Breadcrumbs({ org }: { org: OrgDetail }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-slate-600 dark:text-slate-300">
        <li>
          <Link to="/app/admin/organizations" className={LINK_CLASS}>
            Organizations
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
  const summary = useQuery(orgSummaryQuery(org.sourcedId));
  return (
    <div className="space-y-6">
      {summary.isError && (
        <QueryError
          error={summary.error}
          fallback="Could not load the numbers"
          onRetry={() => summary.refetch()}
        />
      )}
      {summary.isPending && <Loading label="Loading the numbers" rows={3} />}
      {summary.data && <Totals totals={summary.data.data.totals} />}
      {summary.data && (
        <Section
          title="Students per grade"
          description="Active students of this organization and everything under it."
        >
          {summary.data.data.studentsPerGrade.length === 0 ? (
            <EmptyState icon="🎒" title="No students yet" />
          ) : (
            <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
              <GradeChart grades={summary.data.data.studentsPerGrade} />
              <GradeTable grades={summary.data.data.studentsPerGrade} />
            </div>
          )}
        </Section>
      )}
      {org.children.length > 0 && (
        <Section title="Schools and units" description={`The organizations directly under ${org.name}.`}>
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
  const tiles = [
    { label: "Students", value: totals.students },
    { label: "Guides", value: totals.guides },
    { label: "Classes", value: totals.classes },
    { label: "Parents and guardians", value: totals.families },
    ...(totals.schools ? [{ label: "Schools", value: totals.schools }] : []),
  ];
  return (
    <section aria-labelledby="org-totals">
      <h2 id="org-totals" className="sr-only">
        Totals
      </h2>
      <dl
        className={`grid grid-cols-2 gap-3 sm:gap-4 ${tiles.length === 5 ? "lg:grid-cols-5" : "lg:grid-cols-4"}`}
      >
        {tiles.map((tile) => (
          <div
            key={tile.label}
            className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-sm font-medium text-slate-600 dark:text-slate-300">{tile.label}</dt>
            <dd className="mt-1 text-2xl font-extrabold tabular-nums">{tile.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const gradeText = (grade: string) => (grade ? gradeLabel([grade]) : "No grade");

function GradeChart({ grades }: { grades: OrgSummary["studentsPerGrade"] }) {
  return (
    <BarFigure
      bars={grades.map((entry) => ({
        label: entry.grade ? gradeLabel([entry.grade]).replace("Grade ", "") : "—",
        name: gradeText(entry.grade),
        value: entry.students,
      }))}
      description="Bar chart of students per grade"
      valueLabel="Students"
      caption="K is kindergarten; the table lists the same numbers."
    />
  );
}

function GradeTable({ grades }: { grades: OrgSummary["studentsPerGrade"] }) {
  const total = grades.reduce((sum, entry) => sum + entry.students, 0);
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Students per grade</caption>
      <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
        <tr>
          <th scope="col" className="py-2 pr-3 font-semibold">
            Grade
          </th>
          <th scope="col" className="py-2 text-right font-semibold">
            Students
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
            Total
          </th>
          <td className="py-1.5 text-right tabular-nums">{total}</td>
        </tr>
      </tfoot>
    </table>
  );
}

function ClassesTab({ org }: { org: OrgDetail }) {
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const [offset, setOffset] = useState(0);
  const classes = useQuery({
    ...orgClassesQuery(org.sourcedId, deferred, offset),
    placeholderData: keepPreviousData,
  });
  const showSchool = org.type.toLowerCase() !== "school";
  return (
    <Section title="Classes" description="Each class with its Guides and number of students.">
      <TextField
        label="Search classes"
        type="search"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setOffset(0);
        }}
        placeholder="Title or class code"
        className="mb-4 max-w-md"
      />
      {classes.isError && <QueryError error={classes.error} fallback="Could not load the classes" />}
      {classes.isPending && <Loading label="Loading the classes" />}
      {classes.data &&
        (classes.data.total === 0 ? (
          <EmptyState icon="📚" title={deferred ? "No class matches" : "No classes yet"} />
        ) : (
          <>
            <div className="-mx-5 overflow-x-auto sm:mx-0">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Classes of {org.name}</caption>
                <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
                  <tr>
                    <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
                      Class
                    </th>
                    {showSchool && (
                      <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">
                        School
                      </th>
                    )}
                    <th scope="col" className="px-3 py-2 font-semibold">
                      Guides
                    </th>
                    <th scope="col" className="px-5 py-2 text-right font-semibold sm:px-3">
                      Students
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
            </div>
            <Pager
              offset={offset}
              limit={ORG_PAGE_SIZE}
              total={classes.data.total}
              onChange={setOffset}
              label="classes"
            />
          </>
        ))}
    </Section>
  );
}

const ROLE_OPTIONS = [
  { value: "", label: "Everyone" },
  ...DASH_ROLES.map((role) => ({ value: role, label: `${ROLE_DISPLAY_NAMES[role]}s` })),
];

function PeopleTab({ orgId }: { orgId: string }) {
  const [search, setSearch] = useState("");
  const deferred = useDeferredValue(search.trim());
  const [role, setRole] = useState<DashRole | "">("");
  const [offset, setOffset] = useState(0);
  const people = useQuery({
    ...orgPeopleQuery(orgId, deferred, role, offset),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title="People" description="Everyone with a role here or under it, with those roles.">
      <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] sm:items-end md:max-w-2xl">
        <TextField
          label="Search people"
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setOffset(0);
          }}
          placeholder="Name or email"
        />
        <SelectField
          label="Role"
          options={ROLE_OPTIONS}
          value={role}
          onChange={(event) => {
            setRole(event.target.value as DashRole | "");
            setOffset(0);
          }}
        />
      </div>
      {people.isError && <QueryError error={people.error} fallback="Could not load the people" />}
      {people.isPending && <Loading label="Loading the people" />}
      {people.data &&
        (people.data.total === 0 ? (
          <EmptyState icon="🧑‍🤝‍🧑" title="Nobody matches" />
        ) : (
          <>
            <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="People">
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
                  <ul className="flex flex-wrap gap-1.5" aria-label={`Roles of ${fullName(person)}`}>
                    {person.roles.map((entry) => (
                      <li
                        key={entry}
                        className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                      >
                        {ROLE_DISPLAY_NAMES[entry]}
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
              label="people"
            />
          </>
        ))}
    </Section>
  );
}
