import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useBlocker, useParams } from "@tanstack/react-router";
import { ArrowLeft, MousePointerClick } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Syllabus, SyllabusMove } from "../../../shared/contracts/content";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { gradeLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { Problem } from "../courses/list-controls";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { AddByTitle, LessonEditor, ResourceEditor, UnitEditor } from "./course-builder-editors";
import { SyllabusHistoryButton } from "./course-builder-history";
import { applyMove, arrange, layoutOf } from "./course-builder-moves";
import { type Selection, SyllabusTree } from "./course-builder-tree";
import { useUnsavedForms } from "./course-builder-unsaved";
import { keepSyllabus, syllabusEdits, syllabusKeys, syllabusQuery } from "./syllabus-api";

/**
 * /course-builder/$courseId: a course's syllabus as a tree on the left (units, lessons, resources;
 * drag and drop or Move up / Move down) and the chosen entry's editor on the right, stacked on a
 * phone. The route's loader has the syllabus in the cache before the page shows.
 */
export function CourseBuilderPage() {
  const { courseId } = useParams({ strict: false }) as { courseId: string };
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const syllabus = useQuery(syllabusQuery(courseId));
  const [selected, setSelected] = useState<Selection>(null);
  const [waitingSelection, setWaitingSelection] = useState<{ next: Selection } | null>(null);
  const [moveProblem, setMoveProblem] = useState<string | null>(null);
  const editorRef = useRef<HTMLDivElement>(null);

  // Forms with changes not saved yet: those of the editor are lost when another entry is chosen,
  // every one when the page is left; either asks first.
  const editorForms = useUnsavedForms();
  const pageForms = useUnsavedForms();
  const hasUnsaved = editorForms.hasUnsaved || pageForms.hasUnsaved;
  const blocker = useBlocker({
    shouldBlockFn: () => hasUnsaved,
    enableBeforeUnload: () => hasUnsaved,
    withResolver: true,
  });

  /** Chooses an entry; with the editor's changes unsaved, asks first. Nothing chosen (after a removal) loses nothing. */
  const select = (next: Selection) => {
    if (next?.kind === selected?.kind && next?.id === selected?.id) return;
    if (next && editorForms.hasUnsavedNow()) setWaitingSelection({ next });
    else setSelected(next);
  };

  // On a phone the editor sits under the tree: bring it into view when something is chosen.
  useEffect(() => {
    if (!selected || !editorRef.current) return;
    if (globalThis.matchMedia?.("(max-width: 1023px)").matches)
      editorRef.current.scrollIntoView({ behavior: "smooth", block: "start" });
  }, [selected]);

  const move = useMutation({
    mutationFn: (change: SyllabusMove) => syllabusEdits.move(courseId, change),
    // Shown at once; the server's answer replaces it, and a refusal puts back what was there.
    onMutate: async (change) => {
      setMoveProblem(null);
      const key = syllabusKeys.course(courseId);
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<{ success: true; response: { syllabus: Syllabus } }>(key);
      if (before) {
        const shown = arrange(
          before.response.syllabus,
          applyMove(layoutOf(before.response.syllabus), change),
          change,
        );
        queryClient.setQueryData(key, { ...before, response: { syllabus: shown } });
      }
      return { before };
    },
    onSuccess: (changed) => keepSyllabus(queryClient, courseId, changed),
    onError: (error, _change, context) => {
      if (context?.before) queryClient.setQueryData(syllabusKeys.course(courseId), context.before);
      setMoveProblem(failureMessage(error, t("builder.moveFailed")));
      // Someone else changed the syllabus meanwhile: show theirs.
      if (error instanceof ApiRequestError && error.status === 409)
        void queryClient.invalidateQueries({ queryKey: syllabusKeys.course(courseId) });
    },
  });

  if (syllabus.isError)
    return (
      <QueryError
        error={syllabus.error}
        fallback={t("builder.loadFailed")}
        onRetry={() => syllabus.refetch()}
      />
    );
  if (!syllabus.data) return <Loading label={t("builder.loading")} rows={8} />;
  const { course, units } = syllabus.data;
  const found = findSelected(syllabus.data, selected);

  return (
    <pageForms.Provider>
      <PageHeader
        title={course.title}
        description={[
          t("builder.eyebrow"),
          course.subjects.join(", "),
          course.grades.length ? gradeLabel(course.grades) : null,
        ]
          .filter(Boolean)
          .join(" · ")}
        actions={
          <div className="flex flex-wrap gap-2">
            <SyllabusHistoryButton courseId={courseId} />
            <Link
              to="/app/course/$courseId"
              params={{ courseId }}
              className={buttonClass("secondary", "inline-flex items-center gap-1.5")}
            >
              <ArrowLeft aria-hidden="true" className="size-4" />
              {t("builder.backToCourse")}
            </Link>
          </div>
        }
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(18rem,26rem)_minmax(0,1fr)]">
        <Section
          title={t("builder.tree.title")}
          description={t("builder.tree.description", { count: units.length })}
        >
          <SyllabusTree
            syllabus={syllabus.data}
            selected={found ? selected : null}
            onSelect={select}
            onMove={(change) => move.mutate(change)}
            isMoving={move.isPending}
          />
          <div aria-live="polite" className="mt-3">
            {moveProblem && <Problem>{moveProblem}</Problem>}
          </div>
          <div className="mt-5 border-t border-slate-200 pt-4 dark:border-slate-800">
            <AddByTitle
              label={t("builder.tree.newUnitTitle")}
              submitLabel={t("builder.tree.addUnit")}
              add={async (title) => {
                const change = await syllabusEdits.createUnit(courseId, { title });
                keepSyllabus(queryClient, courseId, change);
                return change;
              }}
              onAdded={(change) => change.id && select({ kind: "unit", id: change.id })}
            />
          </div>
        </Section>
        <div ref={editorRef} className="min-w-0 scroll-mt-4">
          <editorForms.Provider>
            {!found ? (
              <Section title={t("builder.editorTitle")}>
                <EmptyState icon={MousePointerClick} title={t("builder.chooseTitle")}>
                  {t("builder.choose")}
                </EmptyState>
              </Section>
            ) : found.kind === "unit" ? (
              <UnitEditor
                key={found.unit.sourcedId}
                courseId={courseId}
                unit={found.unit}
                onSelect={select}
              />
            ) : found.kind === "lesson" ? (
              <LessonEditor
                key={found.lesson.sourcedId}
                courseId={courseId}
                lesson={found.lesson}
                unitTitle={found.unit.title}
                onSelect={select}
              />
            ) : (
              <ResourceEditor
                key={found.resource.id}
                courseId={courseId}
                resource={found.resource}
                lessonId={found.lesson.sourcedId}
                lessonTitle={found.lesson.title}
                onSelect={select}
              />
            )}
          </editorForms.Provider>
        </div>
      </div>
      {waitingSelection && (
        <ConfirmDialog
          title={t("builder.unsaved.title")}
          message={t("builder.unsaved.question")}
          confirmLabel={t("builder.unsaved.discard")}
          cancelLabel={t("builder.unsaved.keepEditing")}
          onConfirm={async () => setSelected(waitingSelection.next)}
          onClose={() => setWaitingSelection(null)}
        />
      )}
      {blocker.status === "blocked" && (
        <ConfirmDialog
          title={t("builder.unsaved.title")}
          message={t("builder.unsaved.leaveQuestion")}
          confirmLabel={t("builder.unsaved.leave")}
          cancelLabel={t("builder.unsaved.keepEditing")}
          onConfirm={async () => blocker.proceed()}
          onClose={() => blocker.reset?.()}
        />
      )}
    </pageForms.Provider>
  );
}

/** The chosen entry with what it sits in, or null when it is gone (removed, or moved away by someone else). */
function findSelected(syllabus: Syllabus, selected: Selection) {
  if (!selected) return null;
  for (const unit of syllabus.units) {
    if (selected.kind === "unit" && unit.sourcedId === selected.id) return { kind: "unit" as const, unit };
    for (const lesson of unit.lessons) {
      if (selected.kind === "lesson" && lesson.sourcedId === selected.id)
        return { kind: "lesson" as const, unit, lesson };
      for (const resource of lesson.resources)
        if (selected.kind === "resource" && resource.id === selected.id)
          return { kind: "resource" as const, unit, lesson, resource };
    }
  }
  return null;
}
