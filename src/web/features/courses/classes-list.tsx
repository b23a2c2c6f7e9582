import { useTranslation } from "react-i18next";
import type { CourseClass } from "../../../shared/contracts/courses";
import { fullName } from "../auth/auth-state";
import { StatusBadge } from "./list-controls";

/** A course's classes with their Guides and how many students each has; a list, so it fits a narrow column. */
export function ClassesList({ classes, emptyText }: { classes: CourseClass[]; emptyText?: string }) {
  const { t } = useTranslation("courses");
  if (classes.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">{emptyText ?? t("classesList.empty")}</p>
    );
  return (
    <ul aria-label={t("classesList.label")} className="divide-y divide-slate-100 dark:divide-slate-800">
      {classes.map((entry) => (
        <li
          key={entry.sourcedId}
          className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3 first:pt-0"
        >
          <div className="min-w-0">
            <p className="font-semibold">
              {entry.title}
              {entry.status !== "active" && (
                <span className="ml-2 align-middle">
                  <StatusBadge status={entry.status} ended={t("status.tobedeleted")} />
                </span>
              )}
            </p>
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {[entry.classCode, entry.schoolName, entry.location].filter(Boolean).join(" · ")}
            </p>
            <p className="mt-1 text-sm">
              <span className="text-slate-600 dark:text-slate-300">
                {t("classesList.guides", { count: entry.teachers.length })}
              </span>
              {entry.teachers.map(fullName).join(", ") || t("classesList.noGuide")}
            </p>
          </div>
          <p className="text-sm whitespace-nowrap tabular-nums">
            {t("studentCount", { count: entry.studentCount })}
          </p>
        </li>
      ))}
    </ul>
  );
}
