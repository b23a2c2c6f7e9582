import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ExternalLink, Pencil, Plus, Trash2 } from "lucide-react";
import { type FormEvent, lazy, type ReactNode, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  LESSON_LIMITS,
  SYLLABUS_RESOURCE_KINDS,
  type SyllabusChange,
  type SyllabusLesson,
  type SyllabusResource,
  type SyllabusResourceKind,
  type SyllabusUnit,
} from "../../../shared/contracts/content";
import { RichText } from "../../components/rich-text";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, NumberField, TextField } from "../../components/ui/form";
import { Tabs, tabId } from "../../components/ui/tabs";
import { formatNumber } from "../../lib/format";
import { Problem } from "../courses/list-controls";
import { Loading, Section } from "../home/parts";
import { LessonPreview } from "./course-builder-preview";
import { ResourceDialog } from "./course-builder-resource-dialog";
import { RESOURCE_ICONS, type Selection } from "./course-builder-tree";
import { useReportUnsaved } from "./course-builder-unsaved";
import { keepSyllabus, syllabusEdits } from "./syllabus-api";
import { VideoEmbed } from "./video-embed";

const ArticleEditor = lazy(() => import("./course-builder-article-editor"));

/** The editors of the course builder's right-hand panel: a unit, a lesson or a resource. */

/** An edit's answer: kept as the syllabus everyone sees, then handed on. */
function useSyllabusEdit<Input>(
  courseId: string,
  send: (input: Input) => Promise<SyllabusChange>,
  onDone?: (change: SyllabusChange) => void,
) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: send,
    onMutate: () => setProblem(null),
    onSuccess: (change) => {
      keepSyllabus(queryClient, courseId, change);
      onDone?.(change);
    },
    onError: (error) => setProblem(failureMessage(error, t("builder.saveFailed"))),
  });
  return { ...mutation, problem, setProblem };
}

/** A one-line form that adds a unit or a lesson by its title; once added, `onAdded` may choose it. */
export function AddByTitle({
  label,
  submitLabel,
  add,
  onAdded,
}: {
  label: string;
  submitLabel: string;
  add: (title: string) => Promise<SyllabusChange>;
  onAdded: (change: SyllabusChange) => void;
}) {
  const { t } = useTranslation("content");
  const [title, setTitle] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const markSaved = useReportUnsaved(title.trim() !== "");
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isBusy) return;
    if (!title.trim()) return setProblem(t("builder.giveTitle"));
    setIsBusy(true);
    setProblem(null);
    try {
      const change = await add(title.trim());
      setTitle("");
      markSaved();
      onAdded(change);
    } catch (error) {
      setProblem(failureMessage(error, t("builder.saveFailed")));
    } finally {
      setIsBusy(false);
    }
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          className="min-w-40 flex-1"
          label={label}
          value={title}
          maxLength={200}
          onChange={(event) => setTitle(event.target.value)}
        />
        <button
          type="submit"
          disabled={isBusy}
          className={buttonClass("primary", "inline-flex items-center gap-1.5")}
        >
          <Plus aria-hidden="true" className="size-4" />
          {isBusy ? t("builder.saving") : submitLabel}
        </button>
      </div>
      {problem && <Problem>{problem}</Problem>}
    </form>
  );
}

export function UnitEditor({
  courseId,
  unit,
  onSelect,
}: {
  courseId: string;
  unit: SyllabusUnit;
  onSelect: (selection: Selection) => void;
}) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(unit.title);
  const [isRemoving, setIsRemoving] = useState(false);
  const hint = useId();
  useReportUnsaved(title.trim() !== unit.title);
  const rename = useSyllabusEdit(courseId, (input: { title: string }) =>
    syllabusEdits.renameUnit(courseId, unit.sourcedId, input),
  );
  const hasLessons = unit.lessons.length > 0;

  return (
    <Section
      title={unit.title}
      description={t("builder.unit.summary", { count: unit.lessons.length })}
      actions={<KindBadge>{t("builder.kinds.unit")}</KindBadge>}
    >
      <form
        noValidate
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!title.trim()) return rename.setProblem(t("builder.giveTitle"));
          if (!rename.isPending) rename.mutate({ title: title.trim() });
        }}
      >
        <TextField
          label={t("builder.unit.title")}
          value={title}
          maxLength={200}
          onChange={(event) => setTitle(event.target.value)}
        />
        {rename.problem && <Problem>{rename.problem}</Problem>}
        <button type="submit" disabled={rename.isPending} className={buttonClass("primary")}>
          {rename.isPending ? t("builder.saving") : t("builder.unit.save")}
        </button>
      </form>

      <div className="mt-6 border-t border-slate-200 pt-5 dark:border-slate-800">
        <h3 className="mb-2 font-semibold">{t("builder.unit.addLesson")}</h3>
        <AddByTitle
          label={t("builder.unit.newLessonTitle")}
          submitLabel={t("builder.unit.addLessonButton")}
          add={async (lessonTitle) => {
            const change = await syllabusEdits.createLesson(courseId, {
              unitId: unit.sourcedId,
              title: lessonTitle,
            });
            keepSyllabus(queryClient, courseId, change);
            return change;
          }}
          onAdded={(change) => change.id && onSelect({ kind: "lesson", id: change.id })}
        />
      </div>

      <div className="mt-6 border-t border-slate-200 pt-5 dark:border-slate-800">
        <button
          type="button"
          disabled={hasLessons}
          aria-describedby={hasLessons ? hint : undefined}
          onClick={() => setIsRemoving(true)}
          className={buttonClass("danger", "inline-flex items-center gap-1.5")}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          {t("builder.unit.remove")}
        </button>
        {hasLessons && (
          <p id={hint} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {t("builder.unit.removeFirst")}
          </p>
        )}
      </div>
      {isRemoving && (
        <ConfirmDialog
          title={t("builder.unit.removeTitle", { title: unit.title })}
          message={t("builder.unit.removeMessage")}
          confirmLabel={t("builder.unit.remove")}
          cancelLabel={t("builder.keep")}
          onConfirm={async () => {
            const change = await syllabusEdits.removeUnit(courseId, unit.sourcedId);
            keepSyllabus(queryClient, courseId, change);
            onSelect(null);
          }}
          onClose={() => setIsRemoving(false)}
        />
      )}
    </Section>
  );
}

type LessonTab = "settings" | "preview";

export function LessonEditor({
  courseId,
  lesson,
  unitTitle,
  onSelect,
}: {
  courseId: string;
  lesson: SyllabusLesson;
  unitTitle: string;
  onSelect: (selection: Selection) => void;
}) {
  const { t } = useTranslation("content");
  const [tab, setTab] = useState<LessonTab>("settings");
  const [isRemoving, setIsRemoving] = useState(false);
  const [adding, setAdding] = useState<SyllabusResourceKind | null>(null);
  const [editing, setEditing] = useState<SyllabusResource | null>(null);
  const queryClient = useQueryClient();
  const ids = { tabs: useId(), panel: useId() };

  return (
    <Section
      title={lesson.title}
      description={t("builder.lesson.summary", {
        unit: unitTitle,
        xp: formatNumber(lesson.expectedXp),
        mastery: lesson.masteryPercent,
      })}
      actions={<KindBadge>{t("builder.kinds.lesson")}</KindBadge>}
    >
      <Tabs
        label={t("builder.lesson.views")}
        items={[
          { id: "settings", label: t("builder.lesson.settingsTab") },
          { id: "preview", label: t("builder.lesson.previewTab") },
        ]}
        selected={tab}
        onSelect={setTab}
        idPrefix={ids.tabs}
        panelId={ids.panel}
      />
      <div id={ids.panel} role="tabpanel" aria-labelledby={tabId(ids.tabs, tab)} className="pt-5">
        {tab === "preview" ? (
          <LessonPreview lesson={lesson} />
        ) : (
          <div className="space-y-6">
            <LessonSettingsForm courseId={courseId} lesson={lesson} />
            <div className="border-t border-slate-200 pt-5 dark:border-slate-800">
              <h3 className="font-semibold">
                {t("builder.lesson.resources", { count: lesson.resources.length })}
              </h3>
              {lesson.resources.length > 0 && (
                <ul className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                  {lesson.resources.map((resource) => {
                    const Icon = RESOURCE_ICONS[resource.kind];
                    return (
                      <li key={resource.id} className="flex items-center gap-2 px-3 py-2 text-sm">
                        <Icon
                          aria-hidden="true"
                          className="size-4 shrink-0 text-slate-500 dark:text-slate-400"
                        />
                        <span className="min-w-0 flex-1 break-words">
                          {resource.title}
                          <span className="ml-2 text-xs text-slate-600 dark:text-slate-400">
                            {t(`builder.kinds.${resource.kind}`)}
                          </span>
                        </span>
                        <button
                          type="button"
                          onClick={() => setEditing(resource)}
                          aria-label={t("builder.resource.editNamed", { title: resource.title })}
                          className={buttonClass("secondary", "px-3 py-1")}
                        >
                          {t("builder.resource.edit")}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              )}
              <p className="mt-4 text-sm font-medium">{t("builder.lesson.addResource")}</p>
              <div className="mt-2 flex flex-wrap gap-2">
                {SYLLABUS_RESOURCE_KINDS.map((kind) => {
                  const Icon = RESOURCE_ICONS[kind];
                  return (
                    <button
                      key={kind}
                      type="button"
                      onClick={() => setAdding(kind)}
                      className={buttonClass("secondary", "inline-flex items-center gap-1.5")}
                    >
                      <Icon aria-hidden="true" className="size-4" />
                      {t(`builder.lesson.add.${kind}`)}
                    </button>
                  );
                })}
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
              <Link
                to="/app/lesson/$lessonId"
                params={{ lessonId: lesson.sourcedId }}
                className={buttonClass("secondary", "inline-flex items-center gap-1.5")}
              >
                <ExternalLink aria-hidden="true" className="size-4" />
                {t("builder.lesson.open")}
              </Link>
              <button
                type="button"
                onClick={() => setIsRemoving(true)}
                className={buttonClass("danger", "inline-flex items-center gap-1.5")}
              >
                <Trash2 aria-hidden="true" className="size-4" />
                {t("builder.lesson.remove")}
              </button>
            </div>
          </div>
        )}
      </div>
      {(adding || editing) && (
        <ResourceDialog
          courseId={courseId}
          lessonId={lesson.sourcedId}
          kind={editing?.kind ?? (adding as SyllabusResourceKind)}
          resource={editing ?? undefined}
          onClose={() => {
            setAdding(null);
            setEditing(null);
          }}
        />
      )}
      {isRemoving && (
        <ConfirmDialog
          title={t("builder.lesson.removeTitle", { title: lesson.title })}
          message={t("builder.lesson.removeMessage")}
          confirmLabel={t("builder.lesson.remove")}
          cancelLabel={t("builder.keep")}
          onConfirm={async () => {
            const change = await syllabusEdits.removeLesson(courseId, lesson.sourcedId);
            keepSyllabus(queryClient, courseId, change);
            onSelect(null);
          }}
          onClose={() => setIsRemoving(false)}
        />
      )}
    </Section>
  );
}

/** The form values of a lesson's settings, as its fields hold them (text). */
function settingsOf(lesson: SyllabusLesson) {
  return {
    title: lesson.title,
    expectedXp: String(lesson.expectedXp),
    masteryPercent: String(lesson.masteryPercent),
    descriptionHtml: lesson.descriptionHtml ?? "",
  };
}

/** A lesson's title, expected XP, mastery goal and description; only what changed is sent. */
export function LessonSettingsForm({
  courseId,
  lesson,
  onSaved,
}: {
  courseId: string;
  lesson: SyllabusLesson;
  onSaved?: () => void;
}) {
  const { t } = useTranslation("content");
  const [values, setValues] = useState(() => settingsOf(lesson));
  const saved = settingsOf(lesson);
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter((key) =>
    key === "title" ? values.title.trim() !== saved.title : values[key] !== saved[key],
  );
  useReportUnsaved(changed.length > 0);
  const save = useSyllabusEdit(
    courseId,
    () =>
      syllabusEdits.updateLesson(courseId, lesson.sourcedId, {
        ...(changed.includes("title") && { title: values.title.trim() }),
        ...(changed.includes("expectedXp") && { expectedXp: Number(values.expectedXp) }),
        ...(changed.includes("masteryPercent") && { masteryPercent: Number(values.masteryPercent) }),
        ...(changed.includes("descriptionHtml") && { descriptionHtml: values.descriptionHtml || null }),
      }),
    (change) => {
      // The server's answer wins: what it kept (the sanitised description) is what the form now holds.
      const kept = change.syllabus.units
        .flatMap((unit) => unit.lessons)
        .find((entry) => entry.sourcedId === lesson.sourcedId);
      if (kept) setValues(settingsOf(kept));
      onSaved?.();
    },
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const xp = Number(values.expectedXp);
    const mastery = Number(values.masteryPercent);
    if (!values.title.trim()) return save.setProblem(t("builder.giveTitle"));
    if (values.expectedXp.trim() === "" || !(xp >= 0 && xp <= LESSON_LIMITS.maxExpectedXp))
      return save.setProblem(t("builder.lesson.xpRange", { max: LESSON_LIMITS.maxExpectedXp }));
    if (
      !Number.isInteger(mastery) ||
      mastery < LESSON_LIMITS.minMastery ||
      mastery > LESSON_LIMITS.maxMastery
    )
      return save.setProblem(t("builder.lesson.masteryRange"));
    if (changed.length === 0) return save.setProblem(t("builder.nothingChanged"));
    save.mutate(undefined);
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <TextField
        label={t("builder.lesson.title")}
        value={values.title}
        maxLength={200}
        onChange={(event) => setValues({ ...values, title: event.target.value })}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberField
          label={t("builder.lesson.expectedXp")}
          hint={t("builder.lesson.expectedXpHint")}
          min={0}
          max={LESSON_LIMITS.maxExpectedXp}
          step="any"
          value={values.expectedXp}
          onChange={(event) => setValues({ ...values, expectedXp: event.target.value })}
        />
        <NumberField
          label={t("builder.lesson.mastery")}
          hint={t("builder.lesson.masteryHint")}
          min={LESSON_LIMITS.minMastery}
          max={LESSON_LIMITS.maxMastery}
          step={1}
          inputMode="numeric"
          value={values.masteryPercent}
          onChange={(event) => setValues({ ...values, masteryPercent: event.target.value })}
        />
      </div>
      <Suspense fallback={<Loading label={t("builder.editor.loading")} rows={3} />}>
        <ArticleEditor
          label={t("builder.lesson.description")}
          html={values.descriptionHtml}
          onChange={(descriptionHtml) => setValues((current) => ({ ...current, descriptionHtml }))}
        />
      </Suspense>
      {save.problem && <Problem>{save.problem}</Problem>}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={save.isPending} className={buttonClass("primary")}>
          {save.isPending ? t("builder.saving") : t("builder.lesson.save")}
        </button>
        <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {save.isSuccess && changed.length === 0
            ? t("builder.saved")
            : changed.length > 0
              ? t("builder.unsaved.note")
              : ""}
        </p>
      </div>
    </form>
  );
}

export function ResourceEditor({
  courseId,
  resource,
  lessonTitle,
  lessonId,
  onSelect,
}: {
  courseId: string;
  resource: SyllabusResource;
  lessonTitle: string;
  lessonId: string;
  onSelect: (selection: Selection) => void;
}) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [isEditing, setIsEditing] = useState(false);
  const [isRemoving, setIsRemoving] = useState(false);
  return (
    <Section
      title={resource.title}
      description={t("builder.resource.inLesson", { lesson: lessonTitle })}
      actions={<KindBadge>{t(`builder.kinds.${resource.kind}`)}</KindBadge>}
    >
      <ResourceContent resource={resource} />
      <div className="mt-6 flex flex-wrap gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
        <button
          type="button"
          onClick={() => setIsEditing(true)}
          className={buttonClass("primary", "inline-flex items-center gap-1.5")}
        >
          <Pencil aria-hidden="true" className="size-4" />
          {t("builder.resource.edit")}
        </button>
        <button
          type="button"
          onClick={() => setIsRemoving(true)}
          className={buttonClass("danger", "inline-flex items-center gap-1.5")}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          {t("builder.resource.remove")}
        </button>
      </div>
      {isEditing && (
        <ResourceDialog
          courseId={courseId}
          lessonId={lessonId}
          kind={resource.kind}
          resource={resource}
          onClose={() => setIsEditing(false)}
        />
      )}
      {isRemoving && (
        <ConfirmDialog
          title={t("builder.resource.removeTitle", { title: resource.title })}
          message={t("builder.resource.removeMessage")}
          confirmLabel={t("builder.resource.remove")}
          cancelLabel={t("builder.keep")}
          onConfirm={async () => {
            const change = await syllabusEdits.removeResource(courseId, resource.id);
            keepSyllabus(queryClient, courseId, change);
            onSelect({ kind: "lesson", id: lessonId });
          }}
          onClose={() => setIsRemoving(false)}
        />
      )}
    </Section>
  );
}

function ResourceContent({ resource }: { resource: SyllabusResource }) {
  const { t } = useTranslation("content");
  switch (resource.kind) {
    case "qti":
      return (
        <div className="text-sm">
          <p>
            {resource.qtiTest
              ? t("builder.resource.fromTest", { count: resource.qtiItems.length, test: resource.qtiTest })
              : t("builder.resource.questions", { count: resource.qtiItems.length })}
          </p>
          <ol className="mt-2 list-decimal space-y-0.5 pl-6 text-slate-700 dark:text-slate-200">
            {resource.qtiItems.map((identifier) => (
              <li key={identifier} className="break-all">
                {identifier}
              </li>
            ))}
          </ol>
        </div>
      );
    case "article":
      return <RichText html={resource.articleHtml ?? ""} />;
    case "video":
      return resource.videoUrl ? (
        <div className="space-y-2">
          <VideoEmbed url={resource.videoUrl} title={resource.title} />
          <p className="text-xs break-all text-slate-600 dark:text-slate-400">{resource.videoUrl}</p>
        </div>
      ) : null;
    case "app":
      return (
        <p className="text-sm">
          {resource.appName
            ? t("builder.resource.opensApp", { name: resource.appName })
            : t("builder.resource.appGone")}
          {resource.launchUrl && (
            <span className="mt-1 block text-xs break-all text-slate-600 dark:text-slate-400">
              {resource.launchUrl}
            </span>
          )}
        </p>
      );
  }
}

function KindBadge({ children }: { children: ReactNode }) {
  return (
    <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">
      {children}
    </span>
  );
}
