import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpen, ClipboardList, Plus, User, Users } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ASSIGNMENT_STATUS_FILTERS, type Assignment } from "../../../shared/contracts/content";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass, SelectField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { instantDateLabel } from "../../lib/format";
import { myClassesQuery } from "../flow/api";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { AssignDialog, browserToday, ChangeAssignmentDialog } from "./assign-dialog";
import { assignmentKeys, assignmentListQuery, removeAssignment } from "./assignments-api";
import { dueText, OverdueBadge, ProgressLegend, ProgressStack } from "./progress-parts";

const PAGE_SIZE = 20;

type StatusFilter = (typeof ASSIGNMENT_STATUS_FILTERS)[number] | "";
type Editing = { kind: "assign" } | { kind: "change" | "remove"; assignment: Assignment } | null;

/**
 * /app/guide/required-learning: what a Guide gave their students and classes to do (an
 * administrator sees everyone's), overdue first, with how far the students are; assign more,
 * change a due date, take an assignment back.
 */
export function RequiredLearningPage() {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [classId, setClassId] = useState("");
  const [status, setStatus] = useState<StatusFilter>("");
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [done, setDone] = useState("");
  const classes = useQuery(myClassesQuery);
  const list = useQuery(
    assignmentListQuery({
      classId: classId || undefined,
      status: status || undefined,
      offset,
      limit: PAGE_SIZE,
    }),
  );
  const close = () => setEditing(null);

  return (
    <div>
      <PageHeader
        title={t("lessons.assignments.page.title")}
        description={t("lessons.assignments.page.description")}
        actions={
          <button
            type="button"
            onClick={() => setEditing({ kind: "assign" })}
            className={buttonClass("primary", "inline-flex items-center gap-2")}
          >
            <Plus aria-hidden="true" className="size-4" />
            {t("lessons.assignments.page.assign")}
          </button>
        }
      />
      <p
        role="status"
        className={
          done
            ? "mb-4 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
            : "sr-only"
        }
      >
        {done}
      </p>
      <div className="mb-5 grid gap-4 sm:grid-cols-2 lg:max-w-2xl">
        <SelectField
          label={t("lessons.assignments.page.class")}
          value={classId}
          onChange={(event) => {
            setClassId(event.target.value);
            setOffset(0);
          }}
          options={[
            { value: "", label: t("lessons.assignments.page.allClasses") },
            ...(classes.data?.data ?? []).map((entry) => ({
              value: entry.sourcedId,
              label: entry.schoolName ? `${entry.title} · ${entry.schoolName}` : entry.title,
            })),
          ]}
        />
        <SelectField
          label={t("lessons.assignments.page.show")}
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as StatusFilter);
            setOffset(0);
          }}
          options={[
            { value: "", label: t("lessons.assignments.page.status.all") },
            ...ASSIGNMENT_STATUS_FILTERS.map((value) => ({
              value,
              label: t(`lessons.assignments.page.status.${value}`),
            })),
          ]}
        />
      </div>

      {list.isError ? (
        <QueryError
          error={list.error}
          fallback={t("lessons.assignments.page.loadFailed")}
          onRetry={() => list.refetch()}
        />
      ) : !list.data ? (
        <Loading label={t("lessons.assignments.page.loading")} rows={4} />
      ) : list.data.total === 0 ? (
        <EmptyState icon={ClipboardList} title={t("lessons.assignments.page.empty.title")}>
          {classId || status
            ? t("lessons.assignments.page.empty.filtered")
            : t("lessons.assignments.page.empty.body")}
        </EmptyState>
      ) : (
        <>
          <div className="mb-3">
            <ProgressLegend />
          </div>
          <ul className="grid gap-4 lg:grid-cols-2">
            {list.data.assignments.map((assignment) => (
              <li key={assignment.id}>
                <AssignmentCard
                  assignment={assignment}
                  onChange={() => setEditing({ kind: "change", assignment })}
                  onRemove={() => setEditing({ kind: "remove", assignment })}
                />
              </li>
            ))}
          </ul>
          <Pager
            offset={offset}
            limit={PAGE_SIZE}
            total={list.data.total}
            onChange={setOffset}
            label={t("lessons.assignments.page.pagerLabel")}
          />
        </>
      )}

      {editing?.kind === "assign" && <AssignDialog onClose={close} onDone={setDone} />}
      {editing?.kind === "change" && (
        <ChangeAssignmentDialog assignment={editing.assignment} onClose={close} onDone={setDone} />
      )}
      {editing?.kind === "remove" && (
        <ConfirmDialog
          title={t("lessons.assignments.remove.title")}
          message={t("lessons.assignments.remove.message", {
            title: editing.assignment.targetTitle,
            name: editing.assignment.assigneeName,
          })}
          confirmLabel={t("lessons.assignments.remove.confirm")}
          cancelLabel={t("lessons.assignments.remove.keep")}
          onConfirm={async () => {
            await removeAssignment(editing.assignment.id);
            await queryClient.invalidateQueries({ queryKey: assignmentKeys.all });
            setDone(t("lessons.assignments.remove.done", { title: editing.assignment.targetTitle }));
          }}
          onClose={close}
        />
      )}
    </div>
  );
}

/** One assignment: what, to whom, when it is due, and the assignee's students at each step. */
function AssignmentCard({
  assignment,
  onChange,
  onRemove,
}: {
  assignment: Assignment;
  onChange: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation("content");
  const titleId = useId();
  const { progress } = assignment;
  const AssigneeIcon = assignment.assigneeKind === "class" ? Users : User;
  const where = [assignment.courseTitle, assignment.unitTitle].filter(Boolean).join(" › ");
  return (
    <article
      aria-labelledby={titleId}
      className={`flex h-full flex-col rounded-2xl border bg-white p-5 shadow-sm dark:bg-slate-900 ${
        assignment.isOverdue ? "border-red-300 dark:border-red-800" : "border-slate-200 dark:border-slate-800"
      }`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
            <BookOpen aria-hidden="true" className="size-3.5" />
            {t(`lessons.assignments.kind.${assignment.targetKind}`, { count: assignment.lessonCount })}
          </p>
          <h2 id={titleId} className="mt-0.5 text-lg font-bold break-words">
            {assignment.targetTitle}
          </h2>
          {where && <p className="text-sm text-slate-600 dark:text-slate-300">{where}</p>}
        </div>
        {assignment.isOverdue && <OverdueBadge />}
      </div>

      <dl className="mt-3 grid gap-1 text-sm">
        <div className="flex items-center gap-1.5">
          <dt className="sr-only">{t("lessons.assignments.card.assignedTo")}</dt>
          <AssigneeIcon aria-hidden="true" className="size-4 shrink-0 text-slate-500 dark:text-slate-400" />
          <dd className="font-medium">{assignment.assigneeName}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <dt className="sr-only">{t("lessons.assignments.card.due")}</dt>
          <dd className={assignment.isOverdue ? "font-semibold text-red-700 dark:text-red-300" : ""}>
            {dueText(t, assignment.dueDate, browserToday(), assignment.isOverdue)}
          </dd>
        </div>
      </dl>

      <div className="mt-3">
        <ProgressStack
          counts={progress}
          unit="students"
          label={t("lessons.assignments.card.progressOf", { title: assignment.targetTitle })}
        />
        <p className="mt-1.5 text-sm text-slate-700 tabular-nums dark:text-slate-200">
          {progress.students === 0
            ? t("lessons.assignments.card.noStudents")
            : t("lessons.assignments.card.figures", {
                completed: progress.completed,
                students: progress.students,
                mastered: progress.mastered,
                inProgress: progress.inProgress,
              })}
        </p>
      </div>

      {assignment.note && (
        <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          {assignment.note}
        </p>
      )}

      <div className="mt-auto flex flex-wrap items-end justify-between gap-3 pt-4">
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {t("lessons.assignments.card.assignedBy", {
            name: assignment.assignedBy ?? "",
            date: instantDateLabel(assignment.assignedAt),
          })}
        </p>
        {assignment.canChange && (
          <div className="flex gap-2">
            <button
              type="button"
              onClick={onChange}
              className={buttonClass("secondary", "px-3 py-1.5")}
              aria-label={t("lessons.assignments.card.changeLabel", {
                title: assignment.targetTitle,
                name: assignment.assigneeName,
              })}
            >
              {t("lessons.assignments.card.change")}
            </button>
            <button
              type="button"
              onClick={onRemove}
              className={buttonClass("secondary", "px-3 py-1.5 text-red-700 dark:text-red-300")}
              aria-label={t("lessons.assignments.card.removeLabel", {
                title: assignment.targetTitle,
                name: assignment.assigneeName,
              })}
            >
              {t("lessons.assignments.card.remove")}
            </button>
          </div>
        )}
      </div>
    </article>
  );
}
