import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, GripVertical, Plus, Route, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { MAX_TRACK_STEPS, type SubjectTrack } from "../../../shared/contracts/assessment";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField } from "../../components/ui/form";
import { Tabs } from "../../components/ui/tabs";
import { instantLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { courseListQuery } from "../courses/api";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { SuccessNote } from "../rewards/admin-form";
import {
  createSubjectTrack,
  deleteSubjectTrack,
  placementKeys,
  saveTrackSteps,
  subjectTracksQuery,
} from "./placements-api";
import { FormProblem, gradeName, gradeOptions, subjectList } from "./placements-parts";

/** A step as the editor holds it: `key` keeps each row's identity while rows move. */
interface DraftStep {
  key: string;
  gradeLevel: number;
  title: string;
  courseId: string | null;
}

const INPUT_CLASS =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

let nextKey = 0;
const newKey = () => `step-${++nextKey}`;

const draftOf = (track: SubjectTrack): DraftStep[] =>
  track.steps.map((step) => ({
    key: step.id,
    gradeLevel: step.gradeLevel,
    title: step.title,
    courseId: step.courseId,
  }));

/** /app/admin/subject-tracks: per subject, the ordered courses from grade to grade. */
export function SubjectTracksPage() {
  const { t } = useTranslation("assessment");
  const tracks = useQuery(subjectTracksQuery);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const list = tracks.data ?? [];
  const selected = list.find((track) => track.id === selectedId) ?? list[0];

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/subject-tracks.title")}
        description={t("tracks.description")}
      />
      <NewTrackForm taken={list.map((track) => track.subject)} onCreated={setSelectedId} />
      {tracks.isPending ? (
        <Loading label={t("tracks.loading")} rows={5} />
      ) : tracks.isError ? (
        <QueryError error={tracks.error} fallback={t("tracks.loadFailed")} onRetry={() => tracks.refetch()} />
      ) : !selected ? (
        <EmptyState icon={Route} title={t("tracks.emptyTitle")}>
          {t("tracks.emptyBody")}
        </EmptyState>
      ) : (
        <div>
          <Tabs
            label={t("tracks.tabsLabel")}
            idPrefix="track"
            panelId="track-panel"
            items={list.map((track) => ({ id: track.id, label: track.subject }))}
            selected={selected.id}
            onSelect={setSelectedId}
          />
          <div id="track-panel" role="tabpanel" aria-labelledby={`track-${selected.id}`} className="pt-4">
            <TrackEditor key={selected.id} track={selected} onDeleted={() => setSelectedId(null)} />
          </div>
        </div>
      )}
    </div>
  );
}

function NewTrackForm({ taken, onCreated }: { taken: string[]; onCreated: (trackId: string) => void }) {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const open = subjectList().filter((subject) => !taken.includes(subject));
  const [subject, setSubject] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!subject) return setProblem(t("tracks.chooseSubject"));
    setIsBusy(true);
    setProblem(null);
    try {
      const track = await createSubjectTrack(subject);
      await queryClient.invalidateQueries({ queryKey: placementKeys.tracks });
      setSubject("");
      onCreated(track.id);
    } catch (error) {
      setProblem(failureMessage(error, t("placements.form.failed")));
    } finally {
      setIsBusy(false);
    }
  }

  if (open.length === 0) return null;
  return (
    <Section title={t("tracks.newTitle")} description={t("tracks.newDescription")}>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <SelectField
          label={t("placements.form.subject")}
          className="w-full sm:w-64"
          value={subject}
          onChange={(event) => setSubject(event.target.value)}
          options={[
            { value: "", label: t("tracks.chooseSubject") },
            ...open.map((name) => ({ value: name, label: name })),
          ]}
        />
        <button
          type="submit"
          disabled={isBusy}
          className={buttonClass("primary", "inline-flex items-center gap-2")}
        >
          <Plus aria-hidden="true" className="size-4" />
          {t("tracks.create")}
        </button>
      </form>
      <FormProblem text={problem} />
    </Section>
  );
}

/**
 * A track's steps in order: drag a row by its handle, or move it with its Up and Down buttons;
 * edit, add and remove steps; then save the whole list at once.
 */
function TrackEditor({ track, onDeleted }: { track: SubjectTrack; onDeleted: () => void }) {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const courses = useQuery(courseListQuery({ limit: "500", sort: "title", orderBy: "asc" }));
  const [steps, setSteps] = useState<DraftStep[]>(() => draftOf(track));
  const [dragged, setDragged] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [problems, setProblems] = useState<{ form: string | null; steps: Record<number, string> }>({
    form: null,
    steps: {},
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [isDeleting, setIsDeleting] = useState(false);
  const isChanged =
    JSON.stringify(steps.map(({ key: _key, ...step }) => step)) !==
    JSON.stringify(draftOf(track).map(({ key: _key, ...step }) => step));

  // A saved track comes back from the server: the editor starts again from what it holds.
  const [shownVersion, setShownVersion] = useState(track.updatedAt);
  if (shownVersion !== track.updatedAt) {
    setShownVersion(track.updatedAt);
    setSteps(draftOf(track));
  }

  const courseOptions = (courses.data?.data ?? []).filter(
    (course) =>
      course.subjects.includes(track.subject) || steps.some((step) => step.courseId === course.sourcedId),
  );

  function move(from: number, to: number) {
    if (to < 0 || to >= steps.length || from === to) return;
    const next = [...steps];
    const [step] = next.splice(from, 1);
    if (!step) return;
    next.splice(to, 0, step);
    setSteps(next);
    setAnnouncement(
      t("tracks.moved", { title: step.title || t("tracks.untitled"), position: to + 1, count: next.length }),
    );
  }
  const update = (index: number, changes: Partial<DraftStep>) =>
    setSteps((current) => current.map((step, at) => (at === index ? { ...step, ...changes } : step)));

  async function save() {
    const untitled = steps.findIndex((step) => !step.title.trim());
    if (untitled >= 0)
      return setProblems({
        form: t("tracks.titleNeeded", { position: untitled + 1 }),
        steps: { [untitled]: t("tracks.titleMissing") },
      });
    setIsBusy(true);
    setProblems({ form: null, steps: {} });
    try {
      await saveTrackSteps(
        track.id,
        steps.map((step) => ({
          gradeLevel: step.gradeLevel,
          title: step.title.trim(),
          courseId: step.courseId,
        })),
      );
      await queryClient.invalidateQueries({ queryKey: placementKeys.tracks });
      await queryClient.invalidateQueries({ queryKey: placementKeys.all });
      setNotice(t("tracks.saved", { subject: track.subject }));
    } catch (error) {
      const byStep: Record<number, string> = {};
      if (error instanceof ApiRequestError)
        for (const issue of error.issues) {
          const index = /^steps\.(\d+)/.exec(issue.path)?.[1];
          if (index !== undefined) byStep[Number(index)] = issue.message;
        }
      setProblems({ form: failureMessage(error, t("placements.form.failed")), steps: byStep });
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Section
      title={t("tracks.stepsTitle", { subject: track.subject })}
      description={t("tracks.updated", { date: instantLabel(track.updatedAt), name: track.updatedBy ?? "—" })}
      actions={
        <button
          type="button"
          className={buttonClass("secondary", "inline-flex items-center gap-2")}
          onClick={() => setIsDeleting(true)}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          {t("tracks.delete")}
        </button>
      }
    >
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{t("tracks.howToOrder")}</p>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      {steps.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {t("tracks.noSteps")}
        </p>
      ) : (
        <ol className="space-y-2">
          {steps.map((step, index) => (
            <li
              key={step.key}
              draggable
              onDragStart={(event) => {
                setDragged(index);
                event.dataTransfer.effectAllowed = "move";
              }}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => {
                event.preventDefault();
                if (dragged !== null) move(dragged, index);
                setDragged(null);
              }}
              onDragEnd={() => setDragged(null)}
              className={`rounded-xl border p-3 ${dragged === index ? "border-brand-600 opacity-60" : "border-slate-200 dark:border-slate-700"}`}
            >
              <StepRow
                step={step}
                index={index}
                count={steps.length}
                courses={courseOptions.map((course) => ({ value: course.sourcedId, label: course.title }))}
                problem={problems.steps[index]}
                onChange={(changes) => update(index, changes)}
                onMove={(to) => move(index, to)}
                onRemove={() => {
                  setSteps((current) => current.filter((_, at) => at !== index));
                  setAnnouncement(t("tracks.removed", { title: step.title || t("tracks.untitled") }));
                }}
              />
            </li>
          ))}
        </ol>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          type="button"
          disabled={steps.length >= MAX_TRACK_STEPS}
          className={buttonClass("secondary", "inline-flex items-center gap-2")}
          onClick={() => {
            const last = steps.at(-1);
            const gradeLevel = Math.min(12, last ? last.gradeLevel + 1 : 0);
            setSteps([...steps, { key: newKey(), gradeLevel, title: "", courseId: null }]);
          }}
        >
          <Plus aria-hidden="true" className="size-4" />
          {t("tracks.addStep")}
        </button>
        <button
          type="button"
          disabled={isBusy || !isChanged}
          className={buttonClass("primary")}
          onClick={() => void save()}
        >
          {isBusy ? t("placements.form.saving") : t("tracks.save")}
        </button>
        {isChanged && (
          <button type="button" className={buttonClass("secondary")} onClick={() => setSteps(draftOf(track))}>
            {t("tracks.discard")}
          </button>
        )}
      </div>
      <FormProblem text={problems.form} />
      <div role="status" className="mt-3">
        {notice && !isChanged && <SuccessNote>{notice}</SuccessNote>}
      </div>
      {isDeleting && (
        <ConfirmDialog
          title={t("tracks.deleteTitle", { subject: track.subject })}
          message={t("tracks.deleteMessage")}
          confirmLabel={t("tracks.delete")}
          onConfirm={async () => {
            await deleteSubjectTrack(track.id);
            await queryClient.invalidateQueries({ queryKey: placementKeys.tracks });
            onDeleted();
          }}
          onClose={() => setIsDeleting(false)}
        />
      )}
    </Section>
  );
}

function StepRow({
  step,
  index,
  count,
  courses,
  problem,
  onChange,
  onMove,
  onRemove,
}: {
  step: DraftStep;
  index: number;
  count: number;
  courses: { value: string; label: string }[];
  problem?: string;
  onChange: (changes: Partial<DraftStep>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation("assessment");
  const id = useId();
  const name = step.title || t("tracks.untitled");
  const iconButton =
    "inline-flex size-10 items-center justify-center rounded-lg border border-slate-300 bg-white hover:bg-slate-50 disabled:opacity-40 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800";
  return (
    // On a phone the handle and the buttons share the top line and the fields take the width below.
    <div className="flex flex-wrap items-start gap-3">
      <div className="order-1 flex items-center gap-1 sm:pt-6">
        <GripVertical aria-hidden="true" className="size-5 cursor-grab text-slate-500 dark:text-slate-400" />
        <span className="w-6 text-right text-sm font-semibold tabular-nums">{index + 1}</span>
      </div>
      <div className="order-3 grid w-full min-w-0 gap-3 sm:order-2 sm:w-auto sm:flex-1 md:grid-cols-[minmax(10rem,2fr)_minmax(7rem,1fr)_minmax(10rem,2fr)]">
        <div>
          <label htmlFor={`${id}-title`} className="text-sm font-medium">
            {t("tracks.stepTitle")}
          </label>
          <input
            id={`${id}-title`}
            value={step.title}
            maxLength={120}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(event) => onChange({ title: event.target.value })}
            className={`mt-1 ${INPUT_CLASS}`}
          />
        </div>
        <div>
          <label htmlFor={`${id}-grade`} className="text-sm font-medium">
            {t("tracks.stepGrade")}
          </label>
          <select
            id={`${id}-grade`}
            value={String(step.gradeLevel)}
            onChange={(event) => onChange({ gradeLevel: Number(event.target.value) })}
            className={`mt-1 h-[2.625rem] ${INPUT_CLASS}`}
          >
            {gradeOptions().map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-course`} className="text-sm font-medium">
            {t("tracks.stepCourse")}
          </label>
          <select
            id={`${id}-course`}
            value={step.courseId ?? ""}
            onChange={(event) => onChange({ courseId: event.target.value || null })}
            className={`mt-1 h-[2.625rem] ${INPUT_CLASS}`}
          >
            <option value="">{t("tracks.noCourse")}</option>
            {courses.map((course) => (
              <option key={course.value} value={course.value}>
                {course.label}
              </option>
            ))}
          </select>
        </div>
        {problem && (
          <p id={`${id}-problem`} className="text-sm text-red-700 md:col-span-3 dark:text-red-300">
            {problem}
          </p>
        )}
      </div>
      <div className="order-2 ml-auto flex gap-1.5 sm:order-3 sm:ml-0 sm:pt-6">
        <button
          type="button"
          className={iconButton}
          disabled={index === 0}
          aria-label={t("tracks.moveUp", { title: name, grade: gradeName(step.gradeLevel) })}
          onClick={() => onMove(index - 1)}
        >
          <ArrowUp aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          className={iconButton}
          disabled={index === count - 1}
          aria-label={t("tracks.moveDown", { title: name, grade: gradeName(step.gradeLevel) })}
          onClick={() => onMove(index + 1)}
        >
          <ArrowDown aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          className={iconButton}
          aria-label={t("tracks.remove", { title: name })}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" className="size-4 text-red-700 dark:text-red-300" />
        </button>
      </div>
    </div>
  );
}
