import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { Loading, Section } from "../home/parts";
import { courseDetailQuery, courseKeys, errorText, updateCourse } from "./api";
import { ClassesList } from "./classes-list";
import { ComponentsOutline } from "./components-editor";
import { CourseForm } from "./course-form";
import { Problem } from "./list-controls";

/** The roster roles whose people are counted under a name of their own. */
const COUNTED_ROLES = new Set(["student", "teacher", "administrator", "proctor"]);

/** /app/admin/manage-courses/$sourcedId: a course's details (editable), classes, units and enrollments. */
export function CourseAdminPage() {
  const { sourcedId } = useParams({ strict: false }) as { sourcedId: string };
  const queryClient = useQueryClient();
  const detail = useQuery(courseDetailQuery(sourcedId));
  const course = detail.data?.course;
  const { t } = useTranslation("courses");

  return (
    <div>
      <PageHeader
        title={course?.title ?? t("course")}
        description={
          course
            ? [course.courseCode, course.orgName, course.schoolYearTitle].filter(Boolean).join(" · ")
            : undefined
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Link
              to="/course-builder/$courseId"
              params={{ courseId: sourcedId }}
              className={buttonClass("primary")}
            >
              {t("content:builder.buildSyllabus")}
            </Link>
            <Link to="/app/admin/manage-courses" className={buttonClass("secondary")}>
              {t("allCourses")}
            </Link>
          </div>
        }
      />
      {detail.isError && (
        <Problem>
          {t("loadCourseFailed", { error: errorText(detail.error) })}{" "}
          <button type="button" className="font-semibold underline" onClick={() => detail.refetch()}>
            {t("tryAgain")}
          </button>
        </Problem>
      )}
      {detail.isPending && <Loading label={t("loadingCourse")} rows={6} />}
      {detail.data && course && (
        <div className="grid gap-6 xl:grid-cols-2">
          <Section title={t("courseAdmin.details")} className="xl:col-span-2">
            <CourseForm
              course={course}
              submitLabel={t("courseAdmin.saveChanges")}
              onSubmit={async (values) => {
                await updateCourse(sourcedId, values);
                await queryClient.invalidateQueries({ queryKey: courseKeys.all });
              }}
            />
          </Section>
          <Section title={t("units")} description={t("courseAdmin.unitsDescription")}>
            <ComponentsOutline courseId={sourcedId} components={detail.data.components} canEdit />
          </Section>
          <div className="space-y-6">
            <Section title={t("classes")} description={t("courseAdmin.classesDescription")}>
              <ClassesList classes={detail.data.classes} />
            </Section>
            <Section
              title={t("enrollments")}
              description={t("courseAdmin.enrollmentsDescription")}
              actions={
                <Link
                  to="/app/admin/admin-section/manage-enrollments"
                  search={{ courseId: sourcedId } as never}
                  className={buttonClass("secondary")}
                >
                  {t("courseAdmin.manageEnrollments")}
                </Link>
              }
            >
              <EnrollmentCounts counts={detail.data.enrollmentCounts ?? []} />
            </Section>
          </div>
        </div>
      )}
    </div>
  );
}

function EnrollmentCounts({ counts }: { counts: { role: string; status: string; count: number }[] }) {
  const { t } = useTranslation("courses");
  if (counts.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-300">{t("courseAdmin.nobodyEnrolled")}</p>;
  const roles = [...new Set(counts.map((entry) => entry.role))];
  const countOf = (role: string, status: string) =>
    counts.find((entry) => entry.role === role && entry.status === status)?.count ?? 0;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {roles.map((role) => (
        <div key={role} className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
          <dt className="text-sm text-slate-600 dark:text-slate-300">
            {COUNTED_ROLES.has(role) ? t(`courseAdmin.roles.${role}`) : role}
          </dt>
          <dd className="text-2xl font-extrabold tabular-nums">{countOf(role, "active")}</dd>
          {countOf(role, "tobedeleted") > 0 && (
            <dd className="text-xs text-slate-600 dark:text-slate-400">
              {t("courseAdmin.ended", { count: countOf(role, "tobedeleted") })}
            </dd>
          )}
        </div>
      ))}
    </dl>
  );
}
