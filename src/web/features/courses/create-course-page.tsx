import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { courseKeys, createCourse } from "./api";
import { CourseForm } from "./course-form";

/** /app/admin/admin-section/manage-courses/create: a new course, then its page. */
export function CreateCoursePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation("courses");
  return (
    <div>
      <PageHeader
        title={t("createCourse.title")}
        description={t("createCourse.description")}
        actions={
          <Link to="/app/admin/manage-courses" className={buttonClass("secondary")}>
            {t("allCourses")}
          </Link>
        }
      />
      <Card className="max-w-3xl">
        <CourseForm
          submitLabel={t("createCourse.submit")}
          onSubmit={async ({ status: _status, ...values }) => {
            const created = await createCourse(values);
            await queryClient.invalidateQueries({ queryKey: courseKeys.all });
            await navigate({
              to: "/app/admin/manage-courses/$sourcedId",
              params: { sourcedId: created.data.sourcedId },
            });
          }}
        />
      </Card>
    </div>
  );
}
