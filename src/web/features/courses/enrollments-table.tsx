import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { Enrollment, EnrollmentSort } from "../../../shared/contracts/courses";
import { dashRoleOf } from "../../../shared/roles";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { fullName } from "../auth/auth-state";
import { HEAD_CLASS, SELECT_CLASS, SortableHeader, StatusBadge } from "./list-controls";

/** Enrollments in a sortable table, with an End button per active row when the caller may end them. */

/** The role filter's choices, named by `roleChoices.<value>`. */
export const ROLE_CHOICES = [
  { value: "student" },
  { value: "teacher" },
  { value: "administrator" },
  { value: "proctor" },
  { value: "all" },
] as const;

/** The status filter's choices, named by `statusChoices.<value>`. */
export const STATUS_CHOICES = [{ value: "active" }, { value: "tobedeleted" }, { value: "all" }] as const;

/** "Guide", "Student"… for an enrollment's roster role. */
export function enrollmentRoleName(role: string): string {
  const dashRole = dashRoleOf(role);
  return dashRole ? i18next.t(`common:roles.${dashRole}`) : role;
}

/** A labelled select of fixed choices, each named by `labelOf`. */
export function ChoiceSelect<Value extends string>({
  label,
  value,
  choices,
  labelOf,
  onChange,
}: {
  label: string;
  value: Value;
  choices: readonly { value: Value }[];
  labelOf: (value: Value) => string;
  onChange: (value: Value) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        className={SELECT_CLASS}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {labelOf(choice.value)}
          </option>
        ))}
      </select>
    </div>
  );
}

export function EnrollmentsTable({
  enrollments,
  sort,
  orderBy,
  onSort,
  onEnd,
  isStale = false,
}: {
  enrollments: Enrollment[];
  sort: EnrollmentSort;
  orderBy: "asc" | "desc";
  onSort: (sort: EnrollmentSort, orderBy: "asc" | "desc") => void;
  onEnd?: (enrollment: Enrollment) => void;
  isStale?: boolean;
}) {
  const { t } = useTranslation("courses");
  const header = { sort, orderBy, onSort };
  return (
    <TableRegion label={t("enrollments")}>
      <table className={`w-full min-w-[46rem] text-sm ${isStale ? "opacity-60" : ""}`}>
        <caption className="sr-only">{t("enrollments")}</caption>
        <thead className={HEAD_CLASS}>
          <tr>
            <SortableHeader
              label={t("enrollmentsTable.person")}
              field="userName"
              {...header}
              className="pl-5 sm:pl-3"
            />
            <SortableHeader label={t("enrollmentsTable.class")} field="classTitle" {...header} />
            <SortableHeader label={t("enrollmentsTable.role")} field="role" {...header} />
            <SortableHeader label={t("enrollmentsTable.begins")} field="beginDate" {...header} />
            <SortableHeader label={t("enrollmentsTable.ends")} field="endDate" {...header} />
            <SortableHeader
              label={t("enrollmentsTable.status")}
              field="status"
              {...header}
              className={onEnd ? "" : "pr-5 sm:pr-3"}
            />
            {onEnd && (
              <th scope="col" className="py-2 pr-5 pl-3 sm:pr-3">
                <span className="sr-only">{t("enrollmentsTable.actions")}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {enrollments.map((enrollment) => (
            <tr key={enrollment.sourcedId}>
              <th scope="row" className="py-2.5 pr-3 pl-5 text-left sm:pl-3">
                <span className="font-semibold">{fullName(enrollment.user)}</span>
                {enrollment.user.email && (
                  <span className="block text-xs font-normal break-all text-slate-600 dark:text-slate-400">
                    {enrollment.user.email}
                  </span>
                )}
              </th>
              <td className="px-3 py-2.5">
                {enrollment.class.title ?? enrollment.class.sourcedId}
                <span className="block text-xs text-slate-600 dark:text-slate-400">
                  {[enrollment.course?.title, enrollment.school.name].filter(Boolean).join(" · ")}
                </span>
              </td>
              <td className="px-3 py-2.5">
                {enrollmentRoleName(enrollment.role)}
                {enrollment.primary && (
                  <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">
                    {t("enrollmentsTable.primary")}
                  </span>
                )}
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap">
                {enrollment.beginDate ? dateLabel(enrollment.beginDate) : "—"}
              </td>
              <td className="px-3 py-2.5 whitespace-nowrap">
                {enrollment.endDate ? dateLabel(enrollment.endDate) : "—"}
              </td>
              <td className={`py-2.5 pl-3 ${onEnd ? "pr-3" : "pr-5 sm:pr-3"}`}>
                <StatusBadge status={enrollment.status} />
              </td>
              {onEnd && (
                <td className="py-2.5 pr-5 pl-3 text-right sm:pr-3">
                  {enrollment.status === "active" && (
                    <button
                      type="button"
                      onClick={() => onEnd(enrollment)}
                      aria-label={
                        enrollment.class.title
                          ? t("enrollmentsTable.endLabel", {
                              name: fullName(enrollment.user),
                              className: enrollment.class.title,
                            })
                          : t("enrollmentsTable.endLabelThisClass", { name: fullName(enrollment.user) })
                      }
                      className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-xs font-semibold text-red-700 hover:bg-red-50 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950"
                    >
                      {t("enrollmentsTable.end")}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
