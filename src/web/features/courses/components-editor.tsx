import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CourseComponent } from "../../../shared/contracts/courses";
import { buttonClass, TextField } from "../../components/ui/form";
import {
  courseKeys,
  createComponent,
  errorText,
  removeComponent,
  reorderComponents,
  updateComponent,
} from "./api";
import { Problem, SELECT_CLASS } from "./list-controls";

/**
 * A course's units as a numbered outline, in the server's order (sortOrder, unsorted last).
 * Administrators add, edit, remove and move them; everyone else reads them.
 */

/** The components under a parent, in list order; a component whose parent is missing counts as top level. */
function childrenOf(components: CourseComponent[], parentId: string | null): CourseComponent[] {
  const ids = new Set(components.map((component) => component.sourcedId));
  return components.filter((component) => {
    const parent =
      component.parentComponentSourcedId && ids.has(component.parentComponentSourcedId)
        ? component.parentComponentSourcedId
        : null;
    return parent === parentId;
  });
}

/** A lesson is a part of a unit: its parent is a top-level component of the course. */
function isLesson(components: CourseComponent[], component: CourseComponent): boolean {
  const parent = components.find((entry) => entry.sourcedId === component.parentComponentSourcedId);
  return parent !== undefined && childrenOf(components, null).includes(parent);
}

/** Every component with its outline depth, parents before their parts: the "Part of" choices. */
function outline(components: CourseComponent[], parentId: string | null = null, depth = 0) {
  return childrenOf(components, parentId).flatMap(
    (component): { component: CourseComponent; depth: number }[] => [
      { component, depth },
      ...outline(components, component.sourcedId, depth + 1),
    ],
  );
}

const smallButton = "rounded-md border px-2 py-1 text-xs font-semibold disabled:opacity-40";
const quietButton = `${smallButton} border-slate-300 bg-white hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800`;
const dangerButton = `${smallButton} border-red-300 bg-white text-red-700 hover:bg-red-50 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950`;

export function ComponentsOutline({
  courseId,
  components,
  canEdit,
}: {
  courseId: string;
  components: CourseComponent[];
  canEdit: boolean;
}) {
  const { t } = useTranslation("courses");
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: courseKeys.detail(courseId) });
  const move = useMutation({
    mutationFn: (ids: string[]) => reorderComponents(courseId, ids),
    onSuccess: refresh,
    onError: (error) => setProblem(errorText(error)),
  });
  const context: OutlineContext = {
    courseId,
    components,
    canEdit,
    isMoving: move.isPending,
    onMove: (siblings, index, step) => {
      setProblem(null);
      const ids = siblings.map((sibling) => sibling.sourcedId);
      const [moved] = ids.splice(index, 1);
      ids.splice(index + step, 0, moved as string);
      move.mutate(ids);
    },
    onChanged: refresh,
    onProblem: setProblem,
  };

  return (
    <div>
      {components.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("outline.empty")}</p>
      ) : (
        <UnitList parentId={null} context={context} />
      )}
      {problem && (
        <div className="mt-3">
          <Problem>{problem}</Problem>
        </div>
      )}
      {canEdit && <AddComponentForm context={context} />}
    </div>
  );
}

interface OutlineContext {
  courseId: string;
  components: CourseComponent[];
  canEdit: boolean;
  isMoving: boolean;
  onMove: (siblings: CourseComponent[], index: number, step: -1 | 1) => void;
  onChanged: () => Promise<unknown>;
  onProblem: (problem: string | null) => void;
}

function UnitList({ parentId, context }: { parentId: string | null; context: OutlineContext }) {
  const { t } = useTranslation("courses");
  const siblings = childrenOf(context.components, parentId);
  if (siblings.length === 0) return null;
  return (
    <ol
      aria-label={parentId ? undefined : t("units")}
      className={
        parentId ? "mt-2 space-y-2 border-l-2 border-slate-200 pl-4 dark:border-slate-700" : "space-y-2"
      }
    >
      {siblings.map((component, index) => (
        <UnitItem
          key={component.sourcedId}
          component={component}
          index={index}
          siblings={siblings}
          context={context}
        />
      ))}
    </ol>
  );
}

function UnitItem({
  component,
  index,
  siblings,
  context,
}: {
  component: CourseComponent;
  index: number;
  siblings: CourseComponent[];
  context: OutlineContext;
}) {
  const { t } = useTranslation("courses");
  const [mode, setMode] = useState<"view" | "edit" | "confirm-remove">("view");
  const remove = useMutation({
    mutationFn: () => removeComponent(context.courseId, component.sourcedId),
    onSuccess: context.onChanged,
    onError: (error) => {
      setMode("view");
      context.onProblem(errorText(error));
    },
  });

  return (
    <li className="rounded-xl border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-950">
      {mode === "edit" ? (
        <ComponentFields
          context={context}
          component={component}
          submitLabel={t("outline.saveUnit")}
          onDone={() => setMode("view")}
        />
      ) : (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <span
            aria-hidden="true"
            className="flex h-7 min-w-7 items-center justify-center rounded-full bg-brand-100 px-2 text-xs font-bold text-brand-900 dark:bg-brand-900 dark:text-brand-50"
          >
            {index + 1}
          </span>
          {isLesson(context.components, component) ? (
            <Link
              to="/app/lesson/$lessonId"
              params={{ lessonId: component.sourcedId }}
              className="min-w-40 flex-1 font-semibold text-brand-700 underline hover:no-underline dark:text-brand-100"
            >
              {component.title}
            </Link>
          ) : (
            <span className="min-w-40 flex-1 font-semibold">{component.title}</span>
          )}
          {component.sortOrder === null && (
            <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              {t("outline.noSetOrder")}
            </span>
          )}
          {context.canEdit && mode === "view" && (
            <span className="flex flex-wrap gap-1.5">
              <button
                type="button"
                className={quietButton}
                disabled={index === 0 || context.isMoving}
                onClick={() => context.onMove(siblings, index, -1)}
                aria-label={t("outline.moveUpLabel", { title: component.title })}
              >
                {t("outline.moveUp")}
              </button>
              <button
                type="button"
                className={quietButton}
                disabled={index === siblings.length - 1 || context.isMoving}
                onClick={() => context.onMove(siblings, index, 1)}
                aria-label={t("outline.moveDownLabel", { title: component.title })}
              >
                {t("outline.moveDown")}
              </button>
              <button
                type="button"
                className={quietButton}
                onClick={() => setMode("edit")}
                aria-label={t("outline.editLabel", { title: component.title })}
              >
                {t("outline.edit")}
              </button>
              <button
                type="button"
                className={dangerButton}
                onClick={() => setMode("confirm-remove")}
                aria-label={t("outline.removeLabel", { title: component.title })}
              >
                {t("outline.remove")}
              </button>
            </span>
          )}
          {mode === "confirm-remove" && (
            <span className="flex flex-wrap items-center gap-1.5">
              <span className="text-sm font-medium">{t("outline.removeQuestion")}</span>
              <button
                type="button"
                className={dangerButton}
                disabled={remove.isPending}
                onClick={() => remove.mutate()}
                aria-label={t("outline.confirmRemoveLabel", { title: component.title })}
              >
                {remove.isPending ? t("outline.removing") : t("outline.confirmRemove")}
              </button>
              <button type="button" className={quietButton} onClick={() => setMode("view")}>
                {t("outline.keep")}
              </button>
            </span>
          )}
        </div>
      )}
      <UnitList parentId={component.sourcedId} context={context} />
    </li>
  );
}

function AddComponentForm({ context }: { context: OutlineContext }) {
  const { t } = useTranslation("courses");
  return (
    <div className="mt-5 border-t border-slate-200 pt-4 dark:border-slate-800">
      <h3 className="font-semibold">{t("outline.addTitle")}</h3>
      <ComponentFields context={context} submitLabel={t("outline.addUnit")} />
    </div>
  );
}

/** Title, place in the outline and order of a new or existing component. */
function ComponentFields({
  context,
  component,
  submitLabel,
  onDone,
}: {
  context: OutlineContext;
  component?: CourseComponent;
  submitLabel: string;
  onDone?: () => void;
}) {
  const { t } = useTranslation("courses");
  const ids = { parent: useId(), order: useId(), orderHint: useId() };
  const [title, setTitle] = useState(component?.title ?? "");
  const [parentId, setParentId] = useState(component?.parentComponentSourcedId ?? "");
  const [order, setOrder] = useState(
    component?.sortOrder === null || !component ? "" : String(component.sortOrder),
  );
  const [problem, setProblem] = useState<string | null>(null);
  // A component cannot go inside itself or its own parts.
  const excluded = new Set(
    component
      ? [
          component.sourcedId,
          ...outline(context.components, component.sourcedId).map((entry) => entry.component.sourcedId),
        ]
      : [],
  );
  const save = useMutation({
    mutationFn: () => {
      const values = {
        title: title.trim(),
        parentComponentSourcedId: parentId || null,
        sortOrder: order.trim() === "" ? null : Number(order),
      };
      return component
        ? updateComponent(context.courseId, component.sourcedId, values)
        : createComponent(context.courseId, values);
    },
    onSuccess: async () => {
      await context.onChanged();
      if (!component) {
        setTitle("");
        setOrder("");
      }
      onDone?.();
    },
    onError: (error) => setProblem(errorText(error)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    context.onProblem(null);
    if (!title.trim()) return setProblem(t("outline.giveTitle"));
    if (order.trim() !== "" && !Number.isInteger(Number(order))) return setProblem(t("outline.orderInvalid"));
    setProblem(null);
    save.mutate();
  }

  return (
    <form onSubmit={submit} noValidate className="mt-3 space-y-3">
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          className="sm:col-span-3"
          label={component ? t("outline.unitTitle") : t("outline.newUnitTitle")}
          required
          maxLength={200}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <div className="sm:col-span-2">
          <label htmlFor={ids.parent} className="text-sm font-medium">
            {t("outline.partOf")}
          </label>
          <select
            id={ids.parent}
            value={parentId}
            onChange={(event) => setParentId(event.target.value)}
            className={SELECT_CLASS}
          >
            <option value="">{t("outline.topLevel")}</option>
            {outline(context.components)
              .filter((entry) => !excluded.has(entry.component.sourcedId))
              .map((entry) => (
                <option key={entry.component.sourcedId} value={entry.component.sourcedId}>
                  {"— ".repeat(entry.depth)}
                  {entry.component.title}
                </option>
              ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.order} className="text-sm font-medium">
            {t("outline.order")}
          </label>
          <input
            id={ids.order}
            type="number"
            inputMode="numeric"
            step={1}
            value={order}
            onChange={(event) => setOrder(event.target.value)}
            aria-describedby={ids.orderHint}
            className={SELECT_CLASS}
          />
          <p id={ids.orderHint} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t("outline.orderHint")}
          </p>
        </div>
      </div>
      {problem && <Problem>{problem}</Problem>}
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={save.isPending} className={buttonClass("primary")}>
          {save.isPending ? t("courseForm.saving") : submitLabel}
        </button>
        {onDone && (
          <button type="button" className={buttonClass("secondary")} onClick={onDone}>
            {t("common:dialog.cancel")}
          </button>
        )}
      </div>
    </form>
  );
}
