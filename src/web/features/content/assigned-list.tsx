import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { StudentAssignment } from "../../../shared/contracts/content";
import { dueText, LessonsDone, OverdueBadge, StatusBadge } from "./progress-parts";

export const isAssignmentDone = (assignment: StudentAssignment) =>
  assignment.status === "completed" || assignment.status === "mastered";

/**
 * What a student was given to do, the next due first: each with its due date (flagged when past
 * it), how far they are and, for those who may open lessons, the way to the next one.
 */
export function AssignedList({
  assignments,
  today,
  canOpen,
  isOwn,
  compact = false,
}: {
  assignments: StudentAssignment[];
  today: string;
  /** Whether the reader may open lessons (students and staff; families read along). */
  canOpen: boolean;
  /** Whether the student reads it ("your Guide") or someone else does ("the Guide"). */
  isOwn: boolean;
  compact?: boolean;
}) {
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800">
      {assignments.map((assignment) => (
        <AssignedItem
          key={assignment.id}
          assignment={assignment}
          today={today}
          canOpen={canOpen}
          isOwn={isOwn}
          compact={compact}
        />
      ))}
    </ul>
  );
}

function AssignedItem({
  assignment,
  today,
  canOpen,
  isOwn,
  compact,
}: {
  assignment: StudentAssignment;
  today: string;
  canOpen: boolean;
  isOwn: boolean;
  compact: boolean;
}) {
  const { t } = useTranslation("content");
  const done = isAssignmentDone(assignment);
  const lessonsDone = assignment.lessons.filter(
    (lesson) => lesson.status === "completed" || lesson.status === "mastered",
  ).length;
  const action = done
    ? t("lessons.assignments.mine.review")
    : assignment.status === "in_progress"
      ? t("lessons.assignments.mine.continue")
      : t("lessons.assignments.mine.start");
  const linkClass =
    "inline-flex shrink-0 items-center gap-1 rounded-lg border border-brand-600 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:border-brand-500 dark:text-brand-100 dark:hover:bg-slate-800";
  const linkLabel = t("lessons.assignments.mine.actionLabel", { action, title: assignment.title });
  // The next lesson to do; a finished lesson opens again to review, a finished course at its page.
  const lessonId =
    assignment.nextLessonId ?? (assignment.targetKind === "lesson" ? assignment.targetId : null);
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
      <div className="min-w-0 flex-1 basis-64">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className={`font-semibold break-words ${done ? "text-slate-600 dark:text-slate-300" : ""}`}>
            {assignment.title}
          </h3>
          <StatusBadge status={assignment.status} />
          {assignment.isOverdue && <OverdueBadge />}
        </div>
        <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
          <span className={assignment.isOverdue ? "font-semibold text-red-700 dark:text-red-300" : ""}>
            {dueText(t, assignment.dueDate, today, assignment.isOverdue)}
          </span>
          {assignment.courseTitle && assignment.targetKind === "lesson" && <> · {assignment.courseTitle}</>}
          {assignment.targetKind === "course" && (
            <>
              {" · "}
              <LessonsDone done={lessonsDone} total={assignment.lessons.length} />
            </>
          )}
        </p>
        {!compact && assignment.note && (
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
            {t(isOwn ? "lessons.assignments.mine.note" : "lessons.assignments.mine.noteOther", {
              note: assignment.note,
            })}
          </p>
        )}
        {!compact && assignment.className && (
          <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
            {t("lessons.assignments.mine.fromClass", { name: assignment.className })}
          </p>
        )}
      </div>
      {canOpen &&
        (lessonId ? (
          <Link to="/app/lesson/$lessonId" params={{ lessonId }} className={linkClass} aria-label={linkLabel}>
            {action} <span aria-hidden="true">→</span>
          </Link>
        ) : assignment.courseId ? (
          <Link
            to="/app/course/$courseId"
            params={{ courseId: assignment.courseId }}
            className={linkClass}
            aria-label={linkLabel}
          >
            {action} <span aria-hidden="true">→</span>
          </Link>
        ) : null)}
    </li>
  );
}
