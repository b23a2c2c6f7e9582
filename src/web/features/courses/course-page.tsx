import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { gradeLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { Loading, Section } from "../home/parts";
import { courseDetailQuery, errorText } from "./api";
import { ClassesList } from "./classes-list";
import { ComponentsOutline } from "./components-editor";
import { Problem } from "./list-controls";

/** /app/course/$courseId: a course's units and classes — for a student, their own class. */
export function CoursePage() {
  const { courseId } = useParams({ strict: false }) as { courseId: string };
  const { activeRole } = useAuth();
  const detail = useQuery(courseDetailQuery(courseId));
  const course = detail.data?.course;
  const isStudent = activeRole === "student";
  const { t } = useTranslation("courses");

  return (
    <div>
      <PageHeader
        title={course?.title ?? t("course")}
        description={
          course
            ? [
                course.subjects.join(", "),
                course.grades.length ? gradeLabel(course.grades) : null,
                course.orgName,
              ]
                .filter(Boolean)
                .join(" · ")
            : undefined
        }
        actions={
          !isStudent && (
            <div className="flex flex-wrap gap-2">
              {(activeRole === "teacher" || activeRole === "administrator") && (
                <Link to="/course-builder/$courseId" params={{ courseId }} className={buttonClass("primary")}>
                  {t("content:builder.buildSyllabus")}
                </Link>
              )}
              <Link
                to="/app/courses/$courseId/enrollments"
                params={{ courseId }}
                className={buttonClass("secondary")}
              >
                {t("enrollments")}
              </Link>
            </div>
          )
        }
      />
      {detail.isError && <Problem>{errorText(detail.error)}</Problem>}
      {detail.isPending && <Loading label={t("loadingCourse")} rows={5} />}
      {detail.data && (
        <div className="grid gap-6 lg:grid-cols-5">
          <Section
            title={t("units")}
            description={t("coursePage.unitsDescription")}
            className="lg:col-span-3"
          >
            <ComponentsOutline courseId={courseId} components={detail.data.components} canEdit={false} />
          </Section>
          <Section
            title={
              isStudent ? t("coursePage.yourClasses", { count: detail.data.classes.length }) : t("classes")
            }
            description={activeRole === "teacher" ? t("coursePage.classesYouTeach") : undefined}
            className="lg:col-span-2"
          >
            <ClassesList
              classes={detail.data.classes}
              emptyText={isStudent ? t("coursePage.noClassStudent") : t("coursePage.noClass")}
            />
          </Section>
        </div>
      )}
    </div>
  );
}
