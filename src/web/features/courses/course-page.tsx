import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
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

  return (
    <div>
      <PageHeader
        title={course?.title ?? "Course"}
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
            <Link
              to="/app/courses/$courseId/enrollments"
              params={{ courseId }}
              className={buttonClass("secondary")}
            >
              Enrollments
            </Link>
          )
        }
      />
      {detail.isError && <Problem>{errorText(detail.error)}</Problem>}
      {detail.isPending && <Loading label="Loading the course" rows={5} />}
      {detail.data && (
        <div className="grid gap-6 lg:grid-cols-5">
          <Section title="Units" description="What the course covers, in order." className="lg:col-span-3">
            <ComponentsOutline courseId={courseId} components={detail.data.components} canEdit={false} />
          </Section>
          <Section
            title={isStudent ? (detail.data.classes.length > 1 ? "Your classes" : "Your class") : "Classes"}
            description={activeRole === "teacher" ? "The classes of this course you teach." : undefined}
            className="lg:col-span-2"
          >
            <ClassesList classes={detail.data.classes} emptyText="No class of this course is yours." />
          </Section>
        </div>
      )}
    </div>
  );
}
