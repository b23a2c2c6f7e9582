import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { ArrowLeft, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { GROWTH_MULTIPLE_TARGET, type LatestMapSubject } from "../../../shared/contracts/assessment";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber } from "../../lib/format";
import { childrenQuery } from "../auth/api";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { myClassesQuery } from "../flow/api";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { ChildSwitcher } from "../rewards/family-child-switcher";
import { mapStudentsQuery, studentMapQuery } from "./map-api";
import { StudentMapView } from "./map-parts";

/** /app/map-growth: a student's own results. */
export function MapGrowthPage() {
  const { t } = useTranslation("assessment");
  const { user } = useAuth();
  return (
    <div>
      <PageHeader title={t("map.studentPage.title")} description={t("map.studentPage.description")} />
      <StudentMapView studentId={user.sourcedId} reader="self" />
    </div>
  );
}

type ChildSearch = z.output<typeof searchSchemas.childrenProgress>;

/** /app/parent-map-growth: each child's results, one child at a time, in plain words. */
export function ParentMapGrowthPage() {
  const { t } = useTranslation("assessment");
  const search = useSearch({ strict: false }) as ChildSearch;
  const children = useQuery(childrenQuery);
  let body: React.ReactNode;
  if (children.isPending) body = <Loading label={t("map.family.loadingChildren")} rows={3} />;
  else if (children.isError)
    body = (
      <QueryError
        error={children.error}
        fallback={t("map.family.childrenFailed")}
        onRetry={() => children.refetch()}
      />
    );
  else if (children.data.data.length === 0)
    body = (
      <EmptyState icon={Users} title={t("map.family.noChildrenTitle")}>
        {t("map.family.noChildrenBody")}
      </EmptyState>
    );
  else {
    const choices = children.data.data;
    const child = choices.find((each) => each.sourcedId === search.childId) ?? choices[0];
    if (child)
      body = (
        <>
          {choices.length > 1 && (
            <ChildSwitcher
              choices={choices}
              selectedId={child.sourcedId}
              label={t("map.family.switcher")}
              linkOf={(childId) => ({ to: "/app/parent-map-growth", search: { childId } })}
            />
          )}
          <h2 className="mb-4 text-xl font-bold">
            {t("map.family.childHeading", { name: fullName(child) })}
          </h2>
          <StudentMapView key={child.sourcedId} studentId={child.sourcedId} reader="family" />
        </>
      );
  }
  return (
    <div>
      <PageHeader title={t("map.family.title")} description={t("map.family.description")} />
      {body}
    </div>
  );
}

type GuideSearch = z.output<typeof searchSchemas.mapStudents>;
const GUIDE_PAGE_SIZE = 25;

/**
 * /app/guide/map-growth: a Guide's students (an administrator's: everyone), each subject's latest
 * RIT, percentile and growth multiple, and who is below projection.
 */
export function GuideMapGrowthPage() {
  const { t } = useTranslation("assessment");
  const search = useSearch({ strict: false }) as GuideSearch;
  const navigate = useNavigate();
  const classes = useQuery(myClassesQuery);
  const filters = {
    classId: search.classId,
    subject: search.subject,
    search: search.search,
    belowProjection: search.belowProjection ?? false,
    page: search.page,
    perPage: GUIDE_PAGE_SIZE,
  };
  const students = useQuery(mapStudentsQuery(filters));
  const go = (next: Partial<GuideSearch>) =>
    void navigate({ to: "/app/guide/map-growth", search: { ...search, page: 0, ...next } as never });
  const page = students.data;
  return (
    <div>
      <PageHeader
        title={t("map.guide.title")}
        description={t("map.guide.description", { target: GROWTH_MULTIPLE_TARGET })}
      />
      <div className="mb-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SelectField
          label={t("map.guide.class")}
          value={search.classId ?? ""}
          onChange={(event) => go({ classId: event.target.value || undefined })}
          options={[
            { value: "", label: t("map.guide.allClasses") },
            ...(classes.data?.data ?? []).map((entry) => ({ value: entry.sourcedId, label: entry.title })),
          ]}
        />
        <SelectField
          label={t("map.guide.subject")}
          value={search.subject ?? ""}
          onChange={(event) => go({ subject: event.target.value || undefined })}
          options={[
            { value: "", label: t("map.guide.allSubjects") },
            ...(page?.subjects ?? []).map((subject) => ({ value: subject, label: subject })),
          ]}
        />
        <TextField
          label={t("map.guide.search")}
          type="search"
          defaultValue={search.search}
          onChange={(event) => go({ search: event.target.value })}
        />
        <label className="flex items-center gap-2 self-end pb-3 text-sm font-medium">
          <input
            type="checkbox"
            className="h-5 w-5"
            checked={search.belowProjection === true}
            onChange={(event) => go({ belowProjection: event.target.checked ? true : undefined })}
          />
          {t("map.guide.belowOnly")}
        </label>
      </div>
      {students.isPending ? (
        <Loading label={t("map.loading")} rows={6} />
      ) : students.isError ? (
        <QueryError error={students.error} fallback={t("map.failed")} onRetry={() => students.refetch()} />
      ) : (
        <>
          <dl className="mb-4 grid grid-cols-3 gap-3">
            <Tally label={t("map.guide.tested")} value={students.data.summary.tested} />
            <Tally label={t("map.guide.below")} value={students.data.summary.belowProjection} tone="amber" />
            <Tally
              label={t("map.guide.atTarget", { target: GROWTH_MULTIPLE_TARGET })}
              value={students.data.summary.atTarget}
              tone="green"
            />
          </dl>
          {students.data.students.length === 0 ? (
            <EmptyState icon={Users} title={t("map.guide.emptyTitle")}>
              {t("map.guide.emptyBody")}
            </EmptyState>
          ) : (
            <TableRegion label={t("map.guide.tableLabel")}>
              <table className="w-full min-w-[36rem] text-left text-sm">
                <thead className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-300">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      {t("map.guide.student")}
                    </th>
                    <th scope="col" className="py-2">
                      {t("map.guide.latest")}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {students.data.students.map((student) => (
                    <tr
                      key={student.sourcedId}
                      className="border-b border-slate-100 align-top dark:border-slate-800"
                    >
                      <th scope="row" className="py-3 pr-3 font-semibold">
                        <Link
                          to="/app/guide/map-growth/$studentId"
                          params={{ studentId: student.sourcedId }}
                          className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                        >
                          {student.name}
                        </Link>
                        {student.grade && (
                          <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
                            {t("map.guide.grade", { grade: student.grade })}
                          </span>
                        )}
                      </th>
                      <td className="py-3">
                        {student.subjects.length === 0 ? (
                          <span className="text-slate-600 dark:text-slate-300">
                            {t("map.guide.notTested")}
                          </span>
                        ) : (
                          <ul className="flex flex-wrap gap-2">
                            {student.subjects.map((subject) => (
                              <SubjectChip key={subject.subject} subject={subject} />
                            ))}
                          </ul>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
          <Pager
            offset={students.data.page * students.data.perPage}
            limit={students.data.perPage}
            total={students.data.total}
            label={t("map.guide.students")}
            onChange={(offset) => go({ ...search, page: Math.floor(offset / GUIDE_PAGE_SIZE) })}
          />
        </>
      )}
    </div>
  );
}

function Tally({ label, value, tone }: { label: string; value: number; tone?: "amber" | "green" }) {
  const color =
    tone === "amber"
      ? "text-amber-700 dark:text-amber-300"
      : tone === "green"
        ? "text-emerald-700 dark:text-emerald-300"
        : "";
  return (
    <div className="rounded-xl border border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-xs font-semibold text-slate-600 dark:text-slate-300">{label}</dt>
      <dd className={`text-2xl font-extrabold tabular-nums ${color}`}>{value}</dd>
    </div>
  );
}

/** One subject of a student's row: RIT, percentile and growth multiple, coloured by projection. */
function SubjectChip({ subject }: { subject: LatestMapSubject }) {
  const { t } = useTranslation("assessment");
  const growth = subject.growth;
  const tone = !growth
    ? "border-slate-200 dark:border-slate-700"
    : growth.reachesTarget
      ? "border-emerald-400 bg-emerald-50 dark:border-emerald-700 dark:bg-emerald-950"
      : growth.metProjected === false
        ? "border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950"
        : "border-slate-200 dark:border-slate-700";
  return (
    <li className={`rounded-lg border px-3 py-1.5 ${tone}`}>
      <span className="block text-xs font-semibold">{subject.subject}</span>
      <span className="tabular-nums">
        {t("map.guide.chip", {
          rit: subject.rit,
          percentile: subject.percentile ?? "—",
        })}
        {growth?.multiple != null && ` · ${formatNumber(growth.multiple, 2)}×`}
      </span>
      {growth?.metProjected === false && (
        <span className="block text-xs font-semibold text-amber-800 dark:text-amber-200">
          {t("map.guide.belowTag")}
        </span>
      )}
    </li>
  );
}

/** /app/guide/map-growth/{studentId}: one student's complete results, as staff read them. */
export function GuideStudentMapPage() {
  const { t } = useTranslation("assessment");
  const { studentId } = useParams({ strict: false }) as { studentId: string };
  const results = useQuery(studentMapQuery(studentId));
  return (
    <div>
      <Link
        to="/app/guide/map-growth"
        className="mb-3 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 dark:text-brand-100"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {t("map.guide.back")}
      </Link>
      <PageHeader
        title={
          results.data
            ? t("map.guide.studentTitle", { name: results.data.student.name })
            : t("map.guide.studentTitleLoading")
        }
        description={t("map.guide.studentDescription")}
      />
      <StudentMapView studentId={studentId} reader="staff" />
    </div>
  );
}
