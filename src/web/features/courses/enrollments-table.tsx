import { useId } from "react";
import type { Enrollment, EnrollmentSort } from "../../../shared/contracts/courses";
import { dashRoleOf, ROLE_DISPLAY_NAMES } from "../../../shared/roles";
import { dateLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { HEAD_CLASS, SELECT_CLASS, SortableHeader, StatusBadge, TableRegion } from "./list-controls";

/** Enrollments in a sortable table, with an End button per active row when the caller may end them. */

export const ROLE_CHOICES = [
  { value: "student", label: "Students" },
  { value: "teacher", label: "Guides" },
  { value: "administrator", label: "Administrators" },
  { value: "proctor", label: "Proctors" },
  { value: "all", label: "All roles" },
] as const;

export const STATUS_CHOICES = [
  { value: "active", label: "Active" },
  { value: "tobedeleted", label: "Ended" },
  { value: "all", label: "All" },
] as const;

/** "Guide", "Student"… for an enrollment's roster role. */
export function enrollmentRoleName(role: string): string {
  const dashRole = dashRoleOf(role);
  return dashRole ? ROLE_DISPLAY_NAMES[dashRole] : role;
}

/** A labelled select of fixed choices. */
export function ChoiceSelect<Value extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: Value;
  choices: readonly { value: Value; label: string }[];
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
            {choice.label}
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
  const header = { sort, orderBy, onSort };
  return (
    <TableRegion label="Enrollments">
      <table className={`w-full min-w-[46rem] text-sm ${isStale ? "opacity-60" : ""}`}>
        <caption className="sr-only">Enrollments</caption>
        <thead className={HEAD_CLASS}>
          <tr>
            <SortableHeader label="Person" field="userName" {...header} className="pl-5 sm:pl-3" />
            <SortableHeader label="Class" field="classTitle" {...header} />
            <SortableHeader label="Role" field="role" {...header} />
            <SortableHeader label="Begins" field="beginDate" {...header} />
            <SortableHeader label="Ends" field="endDate" {...header} />
            <SortableHeader
              label="Status"
              field="status"
              {...header}
              className={onEnd ? "" : "pr-5 sm:pr-3"}
            />
            {onEnd && (
              <th scope="col" className="py-2 pr-5 pl-3 sm:pr-3">
                <span className="sr-only">Actions</span>
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
                  <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">(primary)</span>
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
                      aria-label={`End the enrollment of ${fullName(enrollment.user)} in ${enrollment.class.title ?? "this class"}`}
                      className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-xs font-semibold text-red-700 hover:bg-red-50 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950"
                    >
                      End
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
