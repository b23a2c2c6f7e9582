import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, X } from "lucide-react";
import { type FormEvent, lazy, Suspense, useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  ResourceInput,
  SyllabusResource,
  SyllabusResourceKind,
} from "../../../shared/contracts/content";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass, TextField } from "../../components/ui/form";
import { Problem, SELECT_CLASS, SearchBox } from "../courses/list-controls";
import { Loading } from "../home/parts";
import { DialogKeepingChanges } from "./course-builder-unsaved";
import { keepSyllabus, learningAppsQuery, qtiBankQuery, qtiTestQuery, syllabusEdits } from "./syllabus-api";
import { VideoEmbed } from "./video-embed";

const ArticleEditor = lazy(() => import("./course-builder-article-editor"));

/** What the form holds, for every kind at once: only the fields of the resource's kind are sent. */
interface Draft {
  title: string;
  qtiMode: "items" | "test";
  qtiItems: string[];
  qtiTest: string | null;
  articleHtml: string;
  videoUrl: string;
  appId: string;
}

function draftOf(resource: SyllabusResource | undefined): Draft {
  return {
    title: resource?.title ?? "",
    qtiMode: resource?.qtiTest ? "test" : "items",
    qtiItems: resource?.qtiTest ? [] : (resource?.qtiItems ?? []),
    qtiTest: resource?.qtiTest ?? null,
    articleHtml: resource?.articleHtml ?? "",
    videoUrl: resource?.videoUrl ?? "",
    appId: resource?.appId ?? "",
  };
}

function inputOf(kind: SyllabusResourceKind, draft: Draft): ResourceInput {
  const title = draft.title.trim();
  switch (kind) {
    case "qti":
      return draft.qtiMode === "test"
        ? { kind, title, qtiItems: [], qtiTest: draft.qtiTest }
        : { kind, title, qtiItems: draft.qtiItems, qtiTest: null };
    case "article":
      return { kind, title, articleHtml: draft.articleHtml };
    case "video":
      return { kind, title, videoUrl: draft.videoUrl.trim() };
    case "app":
      return { kind, title, appId: draft.appId };
  }
}

/** What is missing before the form can be sent, in words; null when nothing is. */
function missingIn(kind: SyllabusResourceKind, draft: Draft, t: (key: string) => string): string | null {
  if (!draft.title.trim()) return t("builder.resource.giveTitle");
  if (kind === "qti" && draft.qtiMode === "items" && draft.qtiItems.length === 0)
    return t("builder.resource.chooseItems");
  if (kind === "qti" && draft.qtiMode === "test" && !draft.qtiTest) return t("builder.resource.chooseTest");
  if (
    kind === "article" &&
    !draft.articleHtml.replace(/<[^>]*>/g, "").trim() &&
    !/<img\b/i.test(draft.articleHtml)
  )
    return t("builder.resource.writeArticle");
  if (kind === "video" && !isHttpsUrl(draft.videoUrl.trim())) return t("builder.resource.videoHttps");
  if (kind === "app" && !draft.appId) return t("builder.resource.chooseApp");
  return null;
}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Adds a resource to a lesson or changes one: its title and, by kind, the bank's questions (in
 * order) or a test, an article, a video address or a learning app. Closing with unsaved changes
 * asks first.
 */
export function ResourceDialog({
  courseId,
  lessonId,
  kind,
  resource,
  onClose,
}: {
  courseId: string;
  lessonId: string;
  kind: SyllabusResourceKind;
  resource?: SyllabusResource;
  onClose: () => void;
}) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(resource));
  const initial = useMemo(() => JSON.stringify(inputOf(kind, draftOf(resource))), [kind, resource]);
  const isDirty = JSON.stringify(inputOf(kind, draft)) !== initial;
  const [problem, setProblem] = useState<string | null>(null);
  const change = (part: Partial<Draft>) => setDraft((current) => ({ ...current, ...part }));

  const save = useMutation({
    mutationFn: () => {
      const input = inputOf(kind, draft);
      return resource
        ? syllabusEdits.updateResource(courseId, resource.id, input)
        : syllabusEdits.createResource(courseId, { lessonId, ...input });
    },
    onSuccess: (changed) => {
      keepSyllabus(queryClient, courseId, changed);
      onClose();
    },
    onError: (error) => setProblem(failureMessage(error, t("builder.saveFailed"))),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const missing = missingIn(kind, draft, t);
    setProblem(missing);
    if (!missing) save.mutate();
  }

  const heading = t(resource ? `builder.resource.editTitle.${kind}` : `builder.resource.addTitle.${kind}`);
  return (
    <DialogKeepingChanges title={heading} onClose={onClose} isDirty={isDirty && !save.isSuccess}>
      {(requestClose) => (
        <form onSubmit={submit} noValidate className="mt-4 space-y-4">
          <TextField
            label={t("builder.resource.title")}
            value={draft.title}
            maxLength={200}
            required
            onChange={(event) => change({ title: event.target.value })}
          />
          {kind === "qti" && <QtiChoice draft={draft} onChange={change} />}
          {kind === "article" && (
            <Suspense fallback={<Loading label={t("builder.editor.loading")} rows={4} />}>
              <ArticleEditor
                label={t("builder.resource.article")}
                html={draft.articleHtml}
                onChange={(articleHtml) => change({ articleHtml })}
              />
            </Suspense>
          )}
          {kind === "video" && <VideoChoice draft={draft} onChange={change} />}
          {kind === "app" && <AppChoice draft={draft} onChange={change} />}
          {problem && <Problem>{problem}</Problem>}
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" className={buttonClass("secondary")} onClick={requestClose}>
              {t("common:dialog.cancel")}
            </button>
            <button type="submit" disabled={save.isPending} className={buttonClass("primary")}>
              {save.isPending
                ? t("builder.saving")
                : t(resource ? "builder.resource.save" : "builder.resource.add")}
            </button>
          </div>
        </form>
      )}
    </DialogKeepingChanges>
  );
}

function QtiChoice({ draft, onChange }: { draft: Draft; onChange: (part: Partial<Draft>) => void }) {
  const { t } = useTranslation("content");
  const name = useId();
  const [search, setSearch] = useState("");
  // Titles of items seen in the search, so the chosen list can name them.
  const [titles, setTitles] = useState<Record<string, string>>({});
  const bank = useQuery(qtiBankQuery(draft.qtiMode === "test" ? "tests" : "items", search));
  const test = useQuery({
    ...qtiTestQuery(draft.qtiTest ?? ""),
    enabled: draft.qtiMode === "test" && !!draft.qtiTest,
  });
  const rows = bank.data?.data ?? [];
  useEffect(() => {
    if (draft.qtiMode === "items" && rows.length)
      setTitles((known) => ({
        ...known,
        ...Object.fromEntries(rows.map((row) => [row.identifier, row.title])),
      }));
  }, [rows, draft.qtiMode]);

  const chosen = draft.qtiItems;
  const moveChosen = (index: number, step: -1 | 1) => {
    const next = [...chosen];
    const [moved] = next.splice(index, 1);
    next.splice(index + step, 0, moved as string);
    onChange({ qtiItems: next });
  };

  return (
    <div className="space-y-3">
      <fieldset>
        <legend className="text-sm font-medium">{t("builder.qti.source")}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {(["items", "test"] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={name}
                checked={draft.qtiMode === mode}
                onChange={() => onChange({ qtiMode: mode })}
                className="size-4 accent-brand-600"
              />
              {t(`builder.qti.mode.${mode}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <SearchBox
        label={t(draft.qtiMode === "test" ? "builder.qti.searchTests" : "builder.qti.searchItems")}
        value={search}
        onSearch={setSearch}
      />
      <div
        aria-live="polite"
        className="max-h-56 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800"
      >
        {bank.isError ? (
          <p className="p-3 text-sm text-red-700 dark:text-red-300">
            {failureMessage(bank.error, t("builder.qti.searchFailed"))}
          </p>
        ) : bank.isPending ? (
          <p className="p-3 text-sm text-slate-600 dark:text-slate-300">{t("builder.qti.searching")}</p>
        ) : rows.length === 0 ? (
          <p className="p-3 text-sm text-slate-600 dark:text-slate-300">
            {search.trim() ? t("builder.qti.noMatch") : t("builder.qti.emptyBank")}
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {rows.map((row) => (
              <li key={row.identifier} className="flex items-center gap-3 p-2.5">
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium">{row.title}</span>
                  <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
                    {row.identifier}
                    {row.interactions.length > 0 && ` · ${row.interactions.join(", ")}`}
                  </span>
                </span>
                {draft.qtiMode === "test" ? (
                  <input
                    type="radio"
                    name={`${name}-test`}
                    aria-label={t("builder.qti.useTest", { title: row.title })}
                    checked={draft.qtiTest === row.identifier}
                    onChange={() => onChange({ qtiTest: row.identifier })}
                    className="size-4 accent-brand-600"
                  />
                ) : (
                  <button
                    type="button"
                    disabled={chosen.includes(row.identifier)}
                    onClick={() => onChange({ qtiItems: [...chosen, row.identifier] })}
                    aria-label={t(
                      chosen.includes(row.identifier) ? "builder.qti.addedItem" : "builder.qti.addItem",
                      {
                        title: row.title,
                      },
                    )}
                    className={buttonClass("secondary", "px-3 py-1")}
                  >
                    {chosen.includes(row.identifier) ? t("builder.qti.added") : t("builder.qti.add")}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {draft.qtiMode === "items" ? (
        <div>
          <h3 className="text-sm font-medium">{t("builder.qti.chosen", { count: chosen.length })}</h3>
          {chosen.length > 0 && (
            <ol className="mt-1 space-y-1">
              {chosen.map((identifier, index) => {
                const title = titles[identifier] ?? identifier;
                return (
                  <li
                    key={identifier}
                    className="flex items-center gap-2 rounded-lg bg-slate-50 px-2.5 py-1.5 text-sm dark:bg-slate-800"
                  >
                    <span className="w-6 text-right tabular-nums text-slate-600 dark:text-slate-300">
                      {index + 1}.
                    </span>
                    <span className="min-w-0 flex-1 truncate">{title}</span>
                    <IconButton
                      label={t("builder.qti.moveUp", { title })}
                      disabled={index === 0}
                      onClick={() => moveChosen(index, -1)}
                      icon={ArrowUp}
                    />
                    <IconButton
                      label={t("builder.qti.moveDown", { title })}
                      disabled={index === chosen.length - 1}
                      onClick={() => moveChosen(index, 1)}
                      icon={ArrowDown}
                    />
                    <IconButton
                      label={t("builder.qti.remove", { title })}
                      onClick={() => onChange({ qtiItems: chosen.filter((entry) => entry !== identifier) })}
                      icon={X}
                    />
                  </li>
                );
              })}
            </ol>
          )}
        </div>
      ) : (
        draft.qtiTest && (
          <p className="text-sm text-slate-700 dark:text-slate-200">
            {test.data
              ? t("builder.qti.testHolds", { title: test.data.title, count: test.data.items.length })
              : t("builder.qti.testChosen", { identifier: draft.qtiTest })}
          </p>
        )
      )}
    </div>
  );
}

export function IconButton({
  label,
  icon: Icon,
  onClick,
  disabled = false,
}: {
  label: string;
  icon: typeof ArrowUp;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className="rounded-md p-1.5 text-slate-700 hover:bg-slate-200 disabled:opacity-30 dark:text-slate-200 dark:hover:bg-slate-700"
    >
      <Icon aria-hidden="true" className="size-4" />
    </button>
  );
}

function VideoChoice({ draft, onChange }: { draft: Draft; onChange: (part: Partial<Draft>) => void }) {
  const { t } = useTranslation("content");
  const hint = useId();
  const url = draft.videoUrl.trim();
  return (
    <div className="space-y-3">
      <div>
        <TextField
          label={t("builder.video.address")}
          type="url"
          inputMode="url"
          value={draft.videoUrl}
          maxLength={2000}
          aria-describedby={hint}
          onChange={(event) => onChange({ videoUrl: event.target.value })}
        />
        <p id={hint} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {t("builder.video.hint")}
        </p>
      </div>
      {isHttpsUrl(url) && <VideoEmbed url={url} title={draft.title.trim() || url} />}
    </div>
  );
}

function AppChoice({ draft, onChange }: { draft: Draft; onChange: (part: Partial<Draft>) => void }) {
  const { t } = useTranslation("content");
  const id = useId();
  const apps = useQuery(learningAppsQuery);
  const chosen = apps.data?.find((app) => app.id === draft.appId);
  if (apps.isError) return <Problem>{failureMessage(apps.error, t("builder.app.loadFailed"))}</Problem>;
  if (apps.isPending) return <Loading label={t("builder.app.loading")} rows={1} />;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {t("builder.app.choose")}
      </label>
      <select
        id={id}
        value={draft.appId}
        onChange={(event) => onChange({ appId: event.target.value })}
        className={SELECT_CLASS}
      >
        <option value="">{t("builder.app.none")}</option>
        {apps.data.map((app) => (
          <option key={app.id} value={app.id}>
            {app.name}
          </option>
        ))}
      </select>
      {chosen && (
        <p className="mt-1 text-xs break-all text-slate-600 dark:text-slate-400">
          {chosen.launchUrl ? t("builder.app.opens", { url: chosen.launchUrl }) : t("builder.app.noLaunch")}
        </p>
      )}
    </div>
  );
}
