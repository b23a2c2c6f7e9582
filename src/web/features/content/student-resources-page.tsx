import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "@tanstack/react-router";
import type { TFunction } from "i18next";
import { BookMarked, BookOpen, ClipboardCheck, Library, Puzzle, Search } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { StudentResources } from "../../../shared/contracts/content";
import { Card, PageHeader } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { instantDateLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { AppCard, EmptyState, Loading, QueryError, Section } from "../home/parts";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";
import { AssignedList, isAssignmentDone } from "./assigned-list";
import { assignmentKeys, studentResourcesQuery, unsaveResource } from "./assignments-api";
import { LessonsDone, ProgressLegend, ProgressStack } from "./progress-parts";

/** Who reads the page: the student, or someone who looks after them (staff, family). */
type Reader = "self" | "staff" | "family";

function readerOf(activeRole: string | null): Reader {
  if (activeRole === "student") return "self";
  return activeRole === "parent" || activeRole === "guardian" ? "family" : "staff";
}

/**
 * /app/student-resources: a student's own courses, assignments, apps and kept resources. Staff
 * choose a student here and go to that student's page.
 */
export function StudentResourcesPage() {
  const { t } = useTranslation("content");
  const { user, activeRole } = useAuth();
  if (activeRole === "student") return <ResourcesView studentId={user.sourcedId} reader="self" />;
  return (
    <div>
      <PageHeader
        title={t("lessons.resources.page.staffTitle")}
        description={t("lessons.resources.page.staffDescription")}
      />
      <ChooseStudent />
      <EmptyState icon={Search} title={t("lessons.resources.page.chooseTitle")}>
        {t("lessons.resources.page.chooseBody")}
      </EmptyState>
    </div>
  );
}

/** /app/student-resources/$studentId: one student's page, for their Guides, administrators and family. */
export function StudentResourcesOfStudentPage() {
  const { studentId } = useParams({ strict: false }) as { studentId: string };
  const { activeRole } = useAuth();
  return <ResourcesView key={studentId} studentId={studentId} reader={readerOf(activeRole)} />;
}

function ChooseStudent({ chosen }: { chosen?: PickedStudent }) {
  const navigate = useNavigate();
  return (
    <Card className="mb-6">
      <StudentPicker
        selected={chosen ?? null}
        onSelect={(student) =>
          student &&
          void navigate({ to: "/app/student-resources/$studentId", params: { studentId: student.sourcedId } })
        }
      />
    </Card>
  );
}

function ResourcesView({ studentId, reader }: { studentId: string; reader: Reader }) {
  const { t } = useTranslation("content");
  const resources = useQuery(studentResourcesQuery(studentId));
  const data = resources.data;
  const title =
    reader === "self"
      ? t("lessons.resources.page.ownTitle")
      : t("lessons.resources.page.title", { name: data?.student.name ?? "…" });
  return (
    <div>
      <PageHeader title={title} description={data ? summaryOf(data, reader, t) : undefined} />
      {reader !== "self" && (
        <ChooseStudent chosen={data ? { sourcedId: studentId, name: data.student.name } : undefined} />
      )}
      {resources.isError ? (
        <QueryError
          error={resources.error}
          fallback={t("lessons.resources.page.loadFailed")}
          onRetry={() => resources.refetch()}
        />
      ) : !data ? (
        <Loading label={t("lessons.resources.page.loading")} rows={5} />
      ) : (
        <div className="space-y-6">
          <Assigned data={data} reader={reader} />
          <Courses data={data} reader={reader} />
          <Apps data={data} reader={reader} />
          <Saved data={data} reader={reader} />
        </div>
      )}
    </div>
  );
}

/** One plain sentence on what is left to do, said to the student or about them. */
function summaryOf(data: StudentResources, reader: Reader, t: TFunction<"content">): string {
  const open = data.assignments.filter((assignment) => !isAssignmentDone(assignment));
  const late = open.filter((assignment) => assignment.isOverdue).length;
  const who = reader === "self" ? "self" : "other";
  if (data.assignments.length === 0)
    return t(`lessons.resources.summary.${who}.nothing`, { name: data.student.givenName });
  return t(`lessons.resources.summary.${who}.open`, {
    name: data.student.givenName,
    count: open.length,
    late,
  });
}

function Assigned({ data, reader }: { data: StudentResources; reader: Reader }) {
  const { t } = useTranslation("content");
  return (
    <Section
      title={t(
        reader === "self" ? "lessons.resources.assigned.ownTitle" : "lessons.resources.assigned.title",
      )}
      description={t(
        reader === "self"
          ? "lessons.resources.assigned.ownDescription"
          : "lessons.resources.assigned.description",
        { name: data.student.givenName },
      )}
    >
      {data.assignments.length === 0 ? (
        <EmptyState icon={ClipboardCheck} title={t("lessons.resources.assigned.emptyTitle")}>
          {t(reader === "self" ? "lessons.resources.assigned.ownEmpty" : "lessons.resources.assigned.empty", {
            name: data.student.givenName,
          })}
        </EmptyState>
      ) : (
        <AssignedList
          assignments={data.assignments}
          today={data.today}
          canOpen={reader !== "family"}
          isOwn={reader === "self"}
        />
      )}
    </Section>
  );
}

function Courses({ data, reader }: { data: StudentResources; reader: Reader }) {
  const { t } = useTranslation("content");
  return (
    <Section
      title={t(reader === "self" ? "lessons.resources.courses.ownTitle" : "lessons.resources.courses.title")}
    >
      {data.courses.length === 0 ? (
        <EmptyState icon={Library} title={t("lessons.resources.courses.emptyTitle")}>
          {t(reader === "self" ? "lessons.resources.courses.ownEmpty" : "lessons.resources.courses.empty", {
            name: data.student.givenName,
          })}
        </EmptyState>
      ) : (
        <>
          <ProgressLegend />
          <ul className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {coursesWithLessonsFirst(data.courses).map((course) => (
              <li
                key={course.id}
                className="flex flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-700"
              >
                <h3 className="font-bold">{course.title}</h3>
                {course.classTitles.length > 0 && (
                  <p className="text-sm text-slate-600 dark:text-slate-300">
                    {course.classTitles.join(", ")}
                  </p>
                )}
                <div className="mt-3 flex-1">
                  {course.counts.lessons === 0 ? (
                    <p className="text-sm text-slate-600 dark:text-slate-300">
                      {t("lessons.resources.courses.noLessons")}
                    </p>
                  ) : (
                    <>
                      <ProgressStack counts={course.counts} unit="lessons" label={course.title} size="sm" />
                      <p className="mt-1.5 text-sm text-slate-700 dark:text-slate-200">
                        <LessonsDone done={course.counts.completed} total={course.counts.lessons} />
                        {course.counts.mastered > 0 &&
                          ` · ${t("lessons.resources.courses.mastered", { count: course.counts.mastered })}`}
                      </p>
                    </>
                  )}
                </div>
                {reader !== "family" && (
                  <Link
                    to="/app/course/$courseId"
                    params={{ courseId: course.id }}
                    className="mt-3 inline-flex items-center gap-1 self-start text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
                    aria-label={t("lessons.resources.courses.openLabel", { title: course.title })}
                  >
                    {t("lessons.resources.courses.open")} <span aria-hidden="true">→</span>
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}

/** Courses with lessons to do come before those whose syllabus is still empty. */
function coursesWithLessonsFirst(courses: StudentResources["courses"]) {
  return [...courses].sort((a, b) => Number(a.counts.lessons === 0) - Number(b.counts.lessons === 0));
}

function Apps({ data, reader }: { data: StudentResources; reader: Reader }) {
  const { t } = useTranslation("content");
  return (
    <Section
      title={t("lessons.resources.apps.title")}
      description={t(
        reader === "self" ? "lessons.resources.apps.ownDescription" : "lessons.resources.apps.description",
        {
          name: data.student.givenName,
        },
      )}
    >
      {data.apps.length === 0 ? (
        <EmptyState icon={Puzzle} title={t("lessons.resources.apps.empty")} />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {data.apps.map((app) => (
            <AppCard key={app.id} app={app}>
              <a
                href={app.launchUrl}
                target="_blank"
                rel="noopener noreferrer"
                aria-label={t("lessons.resources.apps.launchLabel", { app: app.name })}
                className="mt-4 inline-flex items-center justify-center gap-1 rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700"
              >
                {t("lessons.resources.apps.launch")} <span aria-hidden="true">↗</span>
              </a>
            </AppCard>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Saved({ data, reader }: { data: StudentResources; reader: Reader }) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  async function letGo(resourceId: string) {
    setBusy(resourceId);
    setProblem(null);
    try {
      await unsaveResource(resourceId);
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.resources(data.student.id) });
    } catch (error) {
      setProblem(failureMessage(error, t("lessons.resources.saved.failed")));
    } finally {
      setBusy(null);
    }
  }
  return (
    <Section
      title={t(reader === "self" ? "lessons.resources.saved.ownTitle" : "lessons.resources.saved.title")}
      description={t(
        reader === "self" ? "lessons.resources.saved.ownDescription" : "lessons.resources.saved.description",
        {
          name: data.student.givenName,
        },
      )}
    >
      {problem && (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      {data.saved.length === 0 ? (
        <EmptyState icon={BookMarked} title={t("lessons.resources.saved.emptyTitle")}>
          {t(reader === "self" ? "lessons.resources.saved.ownEmpty" : "lessons.resources.saved.empty", {
            name: data.student.givenName,
          })}
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {data.saved.map((resource) => (
            <li
              key={resource.resourceId}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
            >
              <div className="flex min-w-0 items-start gap-3">
                <BookOpen
                  aria-hidden="true"
                  className="mt-0.5 size-5 shrink-0 text-slate-500 dark:text-slate-400"
                />
                <div className="min-w-0">
                  <h3 className="font-semibold break-words">{resource.title}</h3>
                  <p className="text-sm text-slate-600 dark:text-slate-300">
                    {t("lessons.resources.saved.where", {
                      kind: t(`lessons.resources.kinds.${resource.kind}`),
                      lesson: resource.lessonTitle,
                      course: resource.courseTitle,
                      date: instantDateLabel(resource.savedAt),
                    })}
                  </p>
                </div>
              </div>
              <div className="flex gap-2">
                {reader !== "family" && (
                  <Link
                    to="/app/lesson/$lessonId"
                    params={{ lessonId: resource.lessonId }}
                    className={buttonClass("secondary", "px-3 py-1.5")}
                    aria-label={t("lessons.resources.saved.openLabel", { title: resource.title })}
                  >
                    {t("lessons.resources.saved.open")}
                  </Link>
                )}
                {data.canSave && (
                  <button
                    type="button"
                    disabled={busy === resource.resourceId}
                    onClick={() => void letGo(resource.resourceId)}
                    className={buttonClass("secondary", "px-3 py-1.5")}
                    aria-label={t("lessons.resources.saved.removeLabel", { title: resource.title })}
                  >
                    {t("lessons.resources.saved.remove")}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
