import type { CourseClass } from "../../../shared/contracts/courses";
import { fullName } from "../auth/auth-state";
import { HEAD_CLASS, StatusBadge, TableRegion } from "./list-controls";

/** A course's classes with their Guides and how many students each has. */
export function ClassesTable({
  classes,
  emptyText = "No class teaches this course yet.",
}: {
  classes: CourseClass[];
  emptyText?: string;
}) {
  if (classes.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">{emptyText}</p>;
  return (
    <TableRegion label="Classes">
      <table className="w-full min-w-[28rem] text-sm">
        <caption className="sr-only">Classes</caption>
        <thead className={HEAD_CLASS}>
          <tr>
            <th scope="col" className="py-2 pr-3 pl-5 font-semibold sm:pl-0">
              Class
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Guides
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Students
            </th>
            <th scope="col" className="py-2 pr-5 pl-3 font-semibold sm:pr-0">
              <span className="sr-only">Status</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {classes.map((entry) => (
            <tr key={entry.sourcedId}>
              <th scope="row" className="py-2.5 pr-3 pl-5 text-left sm:pl-0">
                <span className="font-semibold">{entry.title}</span>
                <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                  {[entry.classCode, entry.schoolName, entry.location].filter(Boolean).join(" · ")}
                </span>
              </th>
              <td className="px-3 py-2.5">{entry.teachers.map(fullName).join(", ") || "—"}</td>
              <td className="px-3 py-2.5 text-right tabular-nums">{entry.studentCount}</td>
              <td className="py-2.5 pr-5 pl-3 sm:pr-0">
                {entry.status !== "active" && <StatusBadge status={entry.status} ended="To be deleted" />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
