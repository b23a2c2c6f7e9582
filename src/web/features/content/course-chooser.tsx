import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import { SelectField, TextField } from "../../components/ui/form";
import { courseListQuery } from "../courses/api";

/** Courses shown at once; typing narrows the list. */
const COURSES_SHOWN = 50;

/**
 * Chooses a course the caller sees (an administrator any, a Guide their classes' courses): typing
 * narrows the list, since a district may have hundreds.
 */
export function CourseChooser({
  value,
  valueTitle,
  onChange,
  className = "",
}: {
  value: string | undefined;
  /** The chosen course's title, for when typing has narrowed it out of the list. */
  valueTitle?: string;
  onChange: (courseId: string | undefined) => void;
  className?: string;
}) {
  const { t } = useTranslation("content");
  const [text, setText] = useState("");
  const search = useDeferredValue(text.trim());
  const courses = useQuery(
    courseListQuery({
      limit: String(COURSES_SHOWN),
      offset: "0",
      sort: "title",
      orderBy: "asc",
      search,
      filter: "status='active'",
    }),
  );
  const list = courses.data?.data ?? [];
  const options = list.map((course) => ({
    value: course.sourcedId,
    label: course.orgName ? `${course.title} · ${course.orgName}` : course.title,
  }));
  if (value && !list.some((course) => course.sourcedId === value))
    options.unshift({ value, label: valueTitle ?? value });
  return (
    <div className={`grid gap-3 sm:grid-cols-2 ${className}`}>
      <TextField
        label={t("lessons.progress.findCourse")}
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div>
        <SelectField
          label={t("lessons.progress.course")}
          value={value ?? ""}
          onChange={(event) => onChange(event.target.value || undefined)}
          options={[{ value: "", label: t("lessons.progress.chooseCourse") }, ...options]}
        />
        {courses.isError && (
          <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
            {t("lessons.progress.coursesFailed")}
          </p>
        )}
      </div>
    </div>
  );
}
