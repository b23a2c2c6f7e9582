import {
  type Announcements,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  type UniqueIdentifier,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import {
  AppWindow,
  ArrowDown,
  ArrowUp,
  BookOpen,
  ChevronDown,
  ChevronRight,
  FileText,
  GraduationCap,
  GripVertical,
  ListChecks,
  type LucideIcon,
  PlayCircle,
} from "lucide-react";
import { type ReactNode, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  Syllabus,
  SyllabusLesson,
  SyllabusMove,
  SyllabusResource,
  SyllabusResourceKind,
  SyllabusUnit,
} from "../../../shared/contracts/content";
import {
  isSamePlace,
  type Layout,
  layoutOf,
  moveIn,
  moveTo,
  type NodeKind,
  parentOf,
  parentsInOrder,
  siblingsIn,
  stepMove,
} from "./course-builder-moves";
import { IconButton } from "./course-builder-resource-dialog";

/**
 * The syllabus as a tree: units, their lessons, each lesson's resources. Each entry is chosen with
 * its title, moved with its handle (mouse, touch, or the keyboard: Space to pick up, arrows to
 * move, Space to drop, Escape to cancel) or with Move up and Move down. A lesson can be dropped
 * into another unit, a resource into another lesson.
 */

export type Selection = { kind: NodeKind; id: string } | null;

export const RESOURCE_ICONS: Record<SyllabusResourceKind, LucideIcon> = {
  qti: ListChecks,
  article: FileText,
  video: PlayCircle,
  app: AppWindow,
};

/** What a drop target's id says: an entry (`unit:…`, `lesson:…`, `resource:…`) or a parent's header (`into-…`). */
type Target = { prefix: NodeKind | "into-unit" | "into-lesson"; id: string };
const targetOf = (id: UniqueIdentifier): Target => {
  const text = String(id);
  const colon = text.indexOf(":");
  return { prefix: text.slice(0, colon) as Target["prefix"], id: text.slice(colon + 1) };
};
/** The unit (and lesson) an entry sits in. */
function parentsAbove(layout: Layout, kind: NodeKind, id: string): string[] {
  if (kind === "unit") return [];
  const parentId = parentOf(layout, kind, id);
  if (!parentId) return [];
  return kind === "lesson" ? [parentId] : [parentId, ...parentsAbove(layout, "lesson", parentId)];
}

/** The header a kind can be dropped into: a lesson into a unit's, a resource into a lesson's. */
const INTO: Partial<Record<NodeKind, Target["prefix"]>> = { lesson: "into-unit", resource: "into-lesson" };

interface TreeContext {
  layout: Layout;
  units: Map<string, SyllabusUnit>;
  lessons: Map<string, SyllabusLesson>;
  resources: Map<string, SyllabusResource>;
  selected: Selection;
  onSelect: (selection: { kind: NodeKind; id: string }) => void;
  /** The kind being dragged: only its own kind (and the parents it may go into) take drops meanwhile. */
  dragging: NodeKind | null;
  expanded: ReadonlySet<string>;
  toggle: (id: string) => void;
  step: (kind: NodeKind, id: string, step: -1 | 1) => void;
  canStep: (kind: NodeKind, id: string, step: -1 | 1) => boolean;
  isMoving: boolean;
}

export function SyllabusTree({
  syllabus,
  selected,
  onSelect,
  onMove,
  isMoving,
}: {
  syllabus: Syllabus;
  selected: Selection;
  onSelect: (selection: { kind: NodeKind; id: string }) => void;
  onMove: (move: SyllabusMove) => void;
  isMoving: boolean;
}) {
  const { t } = useTranslation("content");
  const saved = useMemo(() => layoutOf(syllabus), [syllabus]);
  const [drag, setDrag] = useState<{ kind: NodeKind; id: string; layout: Layout } | null>(null);
  const layout = drag?.layout ?? saved;
  const lookups = useMemo(
    () => ({
      units: new Map(syllabus.units.map((unit) => [unit.sourcedId, unit])),
      lessons: new Map(
        syllabus.units.flatMap((unit) => unit.lessons).map((lesson) => [lesson.sourcedId, lesson]),
      ),
      resources: new Map(
        syllabus.units
          .flatMap((unit) => unit.lessons.flatMap((lesson) => lesson.resources))
          .map((resource) => [resource.id, resource]),
      ),
    }),
    [syllabus],
  );
  // Units open, lessons closed, until someone says otherwise; the parents of the chosen entry and
  // of the one being dragged open (so is a chosen lesson).
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const expanded = useMemo(() => {
    const open = new Set(syllabus.units.map((unit) => unit.sourcedId));
    for (const id of toggled)
      if (open.has(id)) open.delete(id);
      else open.add(id);
    if (selected?.kind === "lesson") open.add(selected.id);
    for (const entry of [selected, drag])
      if (entry) for (const parentId of parentsAbove(layout, entry.kind, entry.id)) open.add(parentId);
    return open;
  }, [syllabus, toggled, selected, drag, layout]);
  const toggle = (id: string) =>
    setToggled((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const titleOf = (id: UniqueIdentifier): string => {
    const { prefix, id: key } = targetOf(id);
    if (prefix === "unit" || prefix === "into-unit") return lookups.units.get(key)?.title ?? "";
    if (prefix === "lesson" || prefix === "into-lesson") return lookups.lessons.get(key)?.title ?? "";
    return lookups.resources.get(key)?.title ?? "";
  };
  const hasLeftPlace = useRef(false);
  const announcements: Announcements = {
    onDragStart: ({ active }) => t("builder.drag.picked", { title: titleOf(active.id) }),
    onDragOver: ({ active, over }) => {
      const title = titleOf(active.id);
      // Over its own place as the drag starts there is nothing new to say; coming back to it, there is.
      if (over?.id === active.id) return hasLeftPlace.current ? t("builder.drag.back", { title }) : undefined;
      hasLeftPlace.current = true;
      if (!over) return t("builder.drag.nowhere", { title });
      const into = targetOf(over.id).prefix.startsWith("into-");
      return t(into ? "builder.drag.into" : "builder.drag.over", { title, target: titleOf(over.id) });
    },
    onDragEnd: ({ active }) => t("builder.drag.dropped", { title: titleOf(active.id) }),
    onDragCancel: ({ active }) => t("builder.drag.cancelled", { title: titleOf(active.id) }),
  };

  function onDragStart({ active }: DragStartEvent) {
    hasLeftPlace.current = false;
    const { prefix, id } = targetOf(active.id);
    setDrag({ kind: prefix as NodeKind, id, layout: saved });
  }

  /** A lesson or resource taken over another parent moves into it: before the entry it is over, or to the nearer end. */
  function onDragOver({ over }: DragOverEvent) {
    setDrag((current) => {
      if (!current || !over || current.kind === "unit") return current;
      const { kind, id } = current;
      const target = targetOf(over.id);
      const from = parentOf(current.layout, kind, id);
      let parentId: string | null = null;
      let index = 0;
      if (target.prefix === kind) {
        parentId = parentOf(current.layout, kind, target.id);
        index = siblingsIn(current.layout, kind, parentId).indexOf(target.id);
      } else if (target.prefix === INTO[kind]) {
        parentId = target.id;
        const parents = parentsInOrder(current.layout, kind);
        const comesFromAbove = from !== null && parents.indexOf(parentId) > parents.indexOf(from);
        index = comesFromAbove ? 0 : siblingsIn(current.layout, kind, parentId).length;
      }
      if (!parentId || parentId === from) return current;
      return { ...current, layout: moveTo(current.layout, kind, id, parentId, index) };
    });
  }

  function onDragEnd({ over }: DragEndEvent) {
    if (!drag) return;
    let final = drag.layout;
    const target = over && targetOf(over.id);
    if (target && target.prefix === drag.kind && target.id !== drag.id) {
      const parentId = parentOf(final, drag.kind, drag.id);
      const to = siblingsIn(final, drag.kind, parentId).indexOf(target.id);
      if (to >= 0) final = moveTo(final, drag.kind, drag.id, parentId, to);
    }
    setDrag(null);
    if (!isSamePlace(saved, final, drag.kind, drag.id)) onMove(moveIn(final, drag.kind, drag.id));
  }

  const context: TreeContext = {
    layout,
    ...lookups,
    selected,
    onSelect,
    dragging: drag?.kind ?? null,
    expanded,
    toggle,
    isMoving,
    step: (kind, id, step) => {
      const move = stepMove(saved, kind, id, step);
      if (move) onMove(move);
    },
    canStep: (kind, id, step) => stepMove(saved, kind, id, step) !== null,
  };

  return (
    <DndContext
      sensors={sensors}
      measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
      onDragStart={onDragStart}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDrag(null)}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: t("builder.drag.instructions") },
      }}
    >
      {layout.units.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("builder.tree.empty")}</p>
      ) : (
        <SortableContext
          items={layout.units.map((id) => `unit:${id}`)}
          strategy={verticalListSortingStrategy}
        >
          <ol aria-label={t("builder.tree.label")} className="space-y-2">
            {layout.units.map((unitId) => (
              <UnitNode key={unitId} unitId={unitId} context={context} />
            ))}
          </ol>
        </SortableContext>
      )}
      <DragOverlay>
        {drag && (
          <div className="rounded-lg border border-brand-600 bg-white px-3 py-2 text-sm font-semibold shadow-lg dark:bg-slate-900">
            {titleOf(`${drag.kind}:${drag.id}`)}
          </div>
        )}
      </DragOverlay>
    </DndContext>
  );
}

function UnitNode({ unitId, context }: { unitId: string; context: TreeContext }) {
  const { t } = useTranslation("content");
  const unit = context.units.get(unitId);
  const lessons = context.layout.lessons[unitId] ?? [];
  const isOpen = context.expanded.has(unitId);
  const into = useDroppable({ id: `into-unit:${unitId}`, disabled: context.dragging !== "lesson" });
  if (!unit) return null;
  return (
    <Node
      kind="unit"
      id={unitId}
      title={unit.title}
      context={context}
      headerRef={into.setNodeRef}
      isDropTarget={into.isOver}
      icon={BookOpen}
      toggle={{ isOpen, count: t("builder.tree.lessonCount", { count: lessons.length }) }}
    >
      {isOpen && (
        <SortableContext items={lessons.map((id) => `lesson:${id}`)} strategy={verticalListSortingStrategy}>
          {lessons.length === 0 ? (
            <p className="mt-1 ml-9 text-sm text-slate-600 dark:text-slate-300">
              {t("builder.tree.noLessons")}
            </p>
          ) : (
            <ol
              aria-label={t("builder.tree.lessonsOf", { title: unit.title })}
              className="mt-1 ml-2 space-y-1 border-l-2 border-slate-200 pl-1 sm:ml-4 sm:pl-2 dark:border-slate-700"
            >
              {lessons.map((lessonId) => (
                <LessonNode key={lessonId} lessonId={lessonId} context={context} />
              ))}
            </ol>
          )}
        </SortableContext>
      )}
    </Node>
  );
}

function LessonNode({ lessonId, context }: { lessonId: string; context: TreeContext }) {
  const { t } = useTranslation("content");
  const lesson = context.lessons.get(lessonId);
  const resources = context.layout.resources[lessonId] ?? [];
  const isOpen = context.expanded.has(lessonId);
  const into = useDroppable({ id: `into-lesson:${lessonId}`, disabled: context.dragging !== "resource" });
  if (!lesson) return null;
  return (
    <Node
      kind="lesson"
      id={lessonId}
      title={lesson.title}
      context={context}
      headerRef={into.setNodeRef}
      isDropTarget={into.isOver}
      icon={GraduationCap}
      toggle={{ isOpen, count: t("builder.tree.resourceCount", { count: resources.length }) }}
    >
      {isOpen && (
        <SortableContext
          items={resources.map((id) => `resource:${id}`)}
          strategy={verticalListSortingStrategy}
        >
          {resources.length === 0 ? (
            <p className="mt-1 ml-9 text-sm text-slate-600 dark:text-slate-300">
              {t("builder.tree.noResources")}
            </p>
          ) : (
            <ol
              aria-label={t("builder.tree.resourcesOf", { title: lesson.title })}
              className="mt-1 ml-2 space-y-1 border-l-2 border-slate-200 pl-1 sm:ml-4 sm:pl-2 dark:border-slate-700"
            >
              {resources.map((resourceId) => {
                const resource = context.resources.get(resourceId);
                return resource ? (
                  <Node
                    key={resourceId}
                    kind="resource"
                    id={resourceId}
                    title={resource.title}
                    context={context}
                    icon={RESOURCE_ICONS[resource.kind]}
                    iconLabel={t(`builder.kinds.${resource.kind}`)}
                  />
                ) : null;
              })}
            </ol>
          )}
        </SortableContext>
      )}
    </Node>
  );
}

/** One entry: its handle, its open/close toggle, its title (which chooses it) and Move up / Move down. */
function Node({
  kind,
  id,
  title,
  context,
  icon: Icon,
  iconLabel,
  toggle,
  headerRef,
  isDropTarget = false,
  children,
}: {
  kind: NodeKind;
  id: string;
  title: string;
  context: TreeContext;
  icon: LucideIcon;
  iconLabel?: string;
  toggle?: { isOpen: boolean; count: string };
  headerRef?: (element: HTMLElement | null) => void;
  isDropTarget?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation("content");
  const sortable = useSortable({
    id: `${kind}:${id}`,
    // While another kind is dragged, this entry is no place to drop it.
    disabled: {
      draggable: context.isMoving,
      droppable: context.dragging !== null && context.dragging !== kind,
    },
  });
  const isSelected = context.selected?.kind === kind && context.selected.id === id;
  return (
    <li
      ref={sortable.setNodeRef}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      className={sortable.isDragging ? "opacity-40" : undefined}
    >
      <div
        ref={headerRef}
        className={`flex items-center gap-1 rounded-lg border px-1 py-1 ${
          isSelected
            ? "border-brand-600 bg-brand-50 dark:border-brand-500 dark:bg-slate-800"
            : "border-transparent hover:bg-slate-50 dark:hover:bg-slate-800/60"
        } ${isDropTarget ? "ring-2 ring-brand-600" : ""}`}
      >
        <button
          type="button"
          ref={sortable.setActivatorNodeRef}
          {...sortable.attributes}
          {...sortable.listeners}
          aria-label={t("builder.tree.drag", { title })}
          className="cursor-grab touch-none rounded-md p-1.5 text-slate-500 hover:bg-slate-200 active:cursor-grabbing dark:text-slate-400 dark:hover:bg-slate-700"
        >
          <GripVertical aria-hidden="true" className="size-4" />
        </button>
        {toggle ? (
          <button
            type="button"
            aria-expanded={toggle.isOpen}
            aria-label={t(toggle.isOpen ? "builder.tree.collapse" : "builder.tree.expand", { title })}
            onClick={() => context.toggle(id)}
            className="rounded-md p-1.5 text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-700"
          >
            {toggle.isOpen ? (
              <ChevronDown aria-hidden="true" className="size-4" />
            ) : (
              <ChevronRight aria-hidden="true" className="size-4" />
            )}
          </button>
        ) : null}
        <button
          type="button"
          aria-current={isSelected ? "true" : undefined}
          onClick={() => context.onSelect({ kind, id })}
          className="flex min-w-0 flex-1 items-center gap-2 rounded-md px-1.5 py-1 text-left text-sm"
        >
          <Icon
            aria-hidden={iconLabel ? undefined : true}
            aria-label={iconLabel}
            role={iconLabel ? "img" : undefined}
            className="size-4 shrink-0 text-slate-500 dark:text-slate-400"
          />
          <span className={`min-w-0 flex-1 break-words ${kind === "unit" ? "font-semibold" : ""}`}>
            {title}
          </span>
          {/* On a phone the title needs the room more than the count does. */}
          {toggle && (
            <span className="hidden shrink-0 text-xs text-slate-600 tabular-nums sm:inline dark:text-slate-400">
              {toggle.count}
            </span>
          )}
        </button>
        <IconButton
          label={t("builder.tree.moveUp", { title })}
          icon={ArrowUp}
          disabled={context.isMoving || !context.canStep(kind, id, -1)}
          onClick={() => context.step(kind, id, -1)}
        />
        <IconButton
          label={t("builder.tree.moveDown", { title })}
          icon={ArrowDown}
          disabled={context.isMoving || !context.canStep(kind, id, 1)}
          onClick={() => context.step(kind, id, 1)}
        />
      </div>
      {children}
    </li>
  );
}
