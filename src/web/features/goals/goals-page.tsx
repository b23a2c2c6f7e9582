import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { Target, Users } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import {
  type ClassGoals,
  GOAL_KINDS,
  type Goal,
  type GoalKind,
  type StudentGoals,
} from "../../../shared/contracts/goals";
import type { searchSchemas } from "../../../shared/routes";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { Card, PageHeader } from "../../components/page-header";
import { ConfirmDialog } from "../../components/ui/dialog";
import { TableRegion } from "../../components/ui/table-region";
import { formatPercent, formatXp, gradeLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { myClassesQuery } from "../flow/api";
import { EmptyState, Loading, QueryError, Section, Streak, SubjectGoals } from "../home/parts";
import { SELECT_CLASS, StudentPicker } from "../xp/student-picker";
import { classGoalsQuery, goalKeys, isRefusal, removeGoal, studentGoalsQuery } from "./api";
import { forecastText, goalTitle, type Reader, sourceText } from "./describe";
import { AddGoalDialog, EditGoalDialog, type GoalOwner } from "./goal-form";
import {
  ClassGoalRow,
  GoalCard,
  GoalCounts,
  ProgressBar,
  RefusalState,
  StatusBadge,
  WeeklyRing,
} from "./parts";

type GoalsSearch = z.output<typeof searchSchemas.goals>;

/** What a dialog is open for: adding a goal, or changing or removing one. */
type Editing = { mode: "add" } | { mode: "edit" | "remove"; goal: Goal; title: string } | null;

/** A student's kinds: a course goal needs a course list, which only staff can read. */
const STUDENT_KINDS: readonly GoalKind[] = GOAL_KINDS.filter((kind) => kind !== "course");

/** /app/goals: a student's own goals; staff choose a student or a class and set and follow theirs. */
export function GoalsPage() {
  const { t } = useTranslation("goals");
  const { activeRole, user } = useAuth();
  const search = useSearch({ strict: false }) as GoalsSearch;
  const isStaff = activeRole === "teacher" || activeRole === "administrator";

  return (
    <div>
      <PageHeader
        title={t("page.title")}
        description={isStaff ? t("page.description.staff") : t("page.description.student")}
      />
      {!isStaff ? (
        <StudentGoalsView studentId={user.sourcedId} reader="self" />
      ) : (
        <>
          <Chooser search={search} />
          {search.studentId ? (
            <StudentGoalsView key={search.studentId} studentId={search.studentId} reader="other" />
          ) : search.classId ? (
            <ClassGoalsView key={search.classId} classId={search.classId} />
          ) : (
            <EmptyState icon={Target} title={t("page.choose.emptyTitle")}>
              {t("page.choose.emptyBody")}
            </EmptyState>
          )}
        </>
      )}
    </div>
  );
}

/** Staff pick whose goals to see: a student (theirs, or searched for) or a class. */
function Chooser({ search }: { search: GoalsSearch }) {
  const { t } = useTranslation("goals");
  const navigate = useNavigate();
  const classSelectId = useId();
  const headingId = useId();
  const classes = useQuery(myClassesQuery);
  const chosenStudent = useQuery({
    ...studentGoalsQuery(search.studentId ?? ""),
    enabled: Boolean(search.studentId),
  });
  const go = (next: GoalsSearch) => void navigate({ to: "/app/goals", search: next as never });
  const classList = classes.data?.data ?? [];

  return (
    <section aria-labelledby={headingId} className="mb-6">
      <Card>
        <h2 id={headingId} className="text-lg font-bold">
          {t("page.choose.title")}
        </h2>
        <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{t("page.choose.description")}</p>
        <div className="mt-4 grid items-start gap-4 md:grid-cols-2">
          <StudentPicker
            wide
            selected={
              search.studentId
                ? {
                    sourcedId: search.studentId,
                    // The name once the goals have said it; the id itself when they cannot.
                    name:
                      chosenStudent.data?.student.name ?? (chosenStudent.isError ? search.studentId : "…"),
                  }
                : null
            }
            onSelect={(student) => go(student ? { studentId: student.sourcedId } : {})}
          />
          <div>
            <label htmlFor={classSelectId} className="text-sm font-medium">
              {t("page.choose.class")}
            </label>
            <select
              id={classSelectId}
              className={SELECT_CLASS}
              value={search.classId && !search.studentId ? search.classId : ""}
              onChange={(event) => go(event.target.value ? { classId: event.target.value } : {})}
            >
              <option value="">{t("page.choose.noClass")}</option>
              {classList.map((entry) => (
                <option key={entry.sourcedId} value={entry.sourcedId}>
                  {entry.schoolName ? `${entry.title} · ${entry.schoolName}` : entry.title}
                </option>
              ))}
            </select>
            {classes.isError && (
              <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
                {t("page.choose.classesFailed")}
              </p>
            )}
          </div>
        </div>
      </Card>
    </section>
  );
}

/** One student's goals: this week, today and the goals with a date, with adding and changing them. */
function StudentGoalsView({ studentId, reader }: { studentId: string; reader: Reader }) {
  const { t } = useTranslation("goals");
  const goals = useQuery(studentGoalsQuery(studentId));

  if (goals.isError)
    return isRefusal(goals.error) ? (
      <RefusalState title={t("page.notFound.title")} error={goals.error}>
        {reader === "other" && t("page.notFound.body")}
      </RefusalState>
    ) : (
      <QueryError error={goals.error} fallback={t("page.loadFailed")} onRetry={() => goals.refetch()} />
    );
  if (!goals.data) return <Loading label={t("page.loading")} rows={5} />;
  return <StudentGoalsContent data={goals.data} reader={reader} />;
}

function StudentGoalsContent({ data, reader }: { data: StudentGoals; reader: Reader }) {
  const { t } = useTranslation("goals");
  const { activeRole } = useAuth();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const [note, setNote] = useState("");
  const { weekly, student, today } = data;
  const refresh = (done: string) => {
    setEditing(null);
    setNote(done);
    return queryClient.invalidateQueries({ queryKey: goalKeys.all });
  };
  const editWeekly = weekly.id && weekly.canEdit;

  return (
    <div className="space-y-6">
      {reader === "other" && (
        <div>
          <h2 className="text-xl font-bold">{t("page.studentTitle", { name: student.name })}</h2>
          {student.grades.length > 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-300">{gradeLabel(student.grades)}</p>
          )}
        </div>
      )}
      <p
        role="status"
        className={
          note
            ? "rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
            : "sr-only"
        }
      >
        {note}
      </p>
      <div className="grid gap-6 lg:grid-cols-5">
        <Section
          title={t("weekly.title")}
          description={sourceText(weekly, student.name, reader, t)}
          className="lg:col-span-2"
          actions={<StatusBadge status={weekly.forecast.status} />}
        >
          <WeeklyRing weekly={weekly} />
          <p className="mt-4 text-sm">{forecastText(weekly, reader, t)}</p>
          {editWeekly && (
            <button
              type="button"
              className="mt-3 text-sm font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
              aria-label={t("targets.editLabel", { title: goalTitle(weekly, today, t) })}
              onClick={() => setEditing({ mode: "edit", goal: weekly, title: goalTitle(weekly, today, t) })}
            >
              {t("targets.edit")}
            </button>
          )}
        </Section>
        <Section
          title={t("today.title")}
          description={t("today.description")}
          className="lg:col-span-3"
          actions={<Streak days={data.streak} />}
        >
          <SubjectGoals subjects={data.daily} />
        </Section>
      </div>

      <Section
        title={t("targets.title")}
        description={t("targets.description")}
        actions={
          data.canAdd && (
            <button
              type="button"
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
              onClick={() => setEditing({ mode: "add" })}
            >
              {t("targets.add")}
            </button>
          )
        }
      >
        {data.targets.length === 0 ? (
          <EmptyState icon={Target} title={t("targets.emptyTitle")}>
            {data.canAdd ? t("targets.emptyBodyAdd") : t("targets.emptyBody")}
          </EmptyState>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2">
            {data.targets.map((goal) => {
              const title = goalTitle(goal, today, t);
              const editable = goal.canEdit && goal.id;
              return (
                <li key={goal.id ?? title} className="min-w-0">
                  <GoalCard
                    goal={goal}
                    today={today}
                    studentName={student.name}
                    reader={reader}
                    onEdit={editable ? () => setEditing({ mode: "edit", goal, title }) : undefined}
                    onRemove={editable ? () => setEditing({ mode: "remove", goal, title }) : undefined}
                  />
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      {editing?.mode === "add" && (
        <AddGoalDialog
          owner={{ studentId: student.id }}
          ownerName={student.name}
          kinds={activeRole === "student" ? STUDENT_KINDS : GOAL_KINDS}
          subjects={data.daily.map((entry) => entry.subject)}
          today={today}
          onDone={() => refresh(t("targets.added"))}
          onClose={() => setEditing(null)}
        />
      )}
      <ChangeDialogs editing={editing} today={today} onDone={refresh} onClose={() => setEditing(null)} />
    </div>
  );
}

/** The edit and remove dialogs of a goal, for a student's goals and a class's alike. */
function ChangeDialogs({
  editing,
  today,
  onDone,
  onClose,
}: {
  editing: Editing;
  today: string;
  onDone: (note: string) => unknown;
  onClose: () => void;
}) {
  const { t } = useTranslation("goals");
  if (editing?.mode === "edit")
    return (
      <EditGoalDialog
        goal={editing.goal}
        title={editing.title}
        today={today}
        onDone={() => onDone(t("targets.saved"))}
        onClose={onClose}
      />
    );
  if (editing?.mode === "remove" && editing.goal.id) {
    const goalId = editing.goal.id;
    return (
      <ConfirmDialog
        title={t("remove.title")}
        message={t("remove.message", { title: editing.title })}
        confirmLabel={t("remove.confirm")}
        cancelLabel={t("remove.keep")}
        onConfirm={async () => {
          await removeGoal(goalId);
          await onDone(t("targets.removed"));
        }}
        onClose={onClose}
      />
    );
  }
  return null;
}

/** A class's goals (editable) and each student's week and goals, each student leading to theirs. */
function ClassGoalsView({ classId }: { classId: string }) {
  const { t } = useTranslation("goals");
  const found = useQuery(classGoalsQuery(classId));
  if (found.isError)
    return isRefusal(found.error) ? (
      <RefusalState title={t("page.notFound.title")} error={found.error}>
        {t("page.notFound.body")}
      </RefusalState>
    ) : (
      <QueryError error={found.error} fallback={t("page.loadFailed")} onRetry={() => found.refetch()} />
    );
  if (!found.data) return <Loading label={t("page.loading")} rows={5} />;
  return <ClassGoalsContent data={found.data} />;
}

function ClassGoalsContent({ data }: { data: ClassGoals }) {
  const { t } = useTranslation("goals");
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const [note, setNote] = useState("");
  const today = localDateOf(new Date(), SCHOOL_TIME_ZONE);
  const firstStudent = data.students[0]?.id;
  // The school's subjects, as a student of the class has them in their daily goals.
  const subjects = useQuery({
    ...studentGoalsQuery(firstStudent ?? ""),
    enabled: editing?.mode === "add" && Boolean(firstStudent),
    select: (goals) => goals.daily.map((entry) => entry.subject),
  });
  const refresh = (done: string) => {
    setEditing(null);
    setNote(done);
    return queryClient.invalidateQueries({ queryKey: goalKeys.all });
  };
  const owner: GoalOwner = { classId: data.class.id };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-xl font-bold">{data.class.title}</h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {data.class.schoolName ?? t("class.noSchool")}
          </p>
        </div>
        <Link
          to="/app/teacher/class/$classId"
          params={{ classId: data.class.id }}
          className="text-sm font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
        >
          {t("class.openPage")}
        </Link>
      </div>
      <p
        role="status"
        className={
          note
            ? "rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
            : "sr-only"
        }
      >
        {note}
      </p>
      <Section
        title={t("class.goalsTitle")}
        description={t("class.goalsDescription", { name: data.class.title })}
        actions={
          data.canAdd && (
            <button
              type="button"
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
              onClick={() => setEditing({ mode: "add" })}
            >
              {t("targets.add")}
            </button>
          )
        }
      >
        {data.goals.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("class.noGoals")}</p>
        ) : (
          <ul className="space-y-3">
            {data.goals.map((goal) => {
              const title = goalTitle(goal, today, t);
              const editable = goal.canEdit && goal.id;
              return (
                <ClassGoalRow
                  key={goal.id ?? title}
                  goal={goal}
                  today={today}
                  onEdit={editable ? () => setEditing({ mode: "edit", goal, title }) : undefined}
                  onRemove={editable ? () => setEditing({ mode: "remove", goal, title }) : undefined}
                />
              );
            })}
          </ul>
        )}
      </Section>

      <Section
        title={t("class.studentsTitle")}
        description={t("class.studentsDescription", { count: data.students.length })}
      >
        {data.students.length === 0 ? (
          <EmptyState icon={Users} title={t("class.noStudents")} />
        ) : (
          <TableRegion label={t("class.tableRegion", { name: data.class.title })} className="-mx-5 sm:mx-0">
            <table className="w-full min-w-[30rem] text-left text-sm">
              <caption className="sr-only">{t("class.tableCaption", { name: data.class.title })}</caption>
              <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
                    {t("class.columns.student")}
                  </th>
                  <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
                    {t("class.columns.week")}
                  </th>
                  <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
                    {t("class.columns.goals")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {data.students.map((student) => {
                  const share = student.weeklyGoal > 0 ? student.xpThisWeek / student.weeklyGoal : 0;
                  const text = t("class.barText", {
                    value: formatXp(student.xpThisWeek),
                    goal: formatXp(student.weeklyGoal),
                  });
                  return (
                    <tr key={student.id}>
                      <th scope="row" className="px-5 py-2.5 text-left font-normal whitespace-nowrap sm:px-3">
                        <Link
                          to="/app/goals"
                          search={{ studentId: student.id }}
                          className="font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                        >
                          {student.name}
                        </Link>
                      </th>
                      <td className="min-w-40 px-5 py-2.5 sm:px-3">
                        <span className="block text-xs tabular-nums">
                          {text} · {formatPercent(Math.min(1, share))}
                        </span>
                        <span className="mt-1 block">
                          <ProgressBar
                            label={t("class.weekBar", { name: student.name })}
                            valueNow={Math.floor(student.xpThisWeek)}
                            valueMax={student.weeklyGoal}
                            valueText={text}
                            share={share}
                            tone={share >= 1 ? "good" : "neutral"}
                            size="sm"
                          />
                        </span>
                      </td>
                      <td className="px-5 py-2.5 sm:px-3">
                        <GoalCounts student={student} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )}
      </Section>

      {editing?.mode === "add" && (
        <AddGoalDialog
          owner={owner}
          ownerName={data.class.title}
          kinds={GOAL_KINDS}
          subjects={subjects.data ?? []}
          today={today}
          onDone={() => refresh(t("targets.added"))}
          onClose={() => setEditing(null)}
        />
      )}
      <ChangeDialogs editing={editing} today={today} onDone={refresh} onClose={() => setEditing(null)} />
    </div>
  );
}
