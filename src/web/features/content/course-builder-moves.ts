import type { Syllabus, SyllabusMove } from "../../../shared/contracts/content";

/**
 * The course builder's order of things, apart from their content: the units, each unit's lessons
 * and each lesson's resources, by id. Dragging rearranges a copy of it; a finished move is sent as
 * the destination's new order of siblings, and shown at once with `arrange`.
 */

export type NodeKind = SyllabusMove["kind"];

export interface Layout {
  units: string[];
  lessons: Record<string, string[]>;
  resources: Record<string, string[]>;
}

export function layoutOf(syllabus: Syllabus): Layout {
  const lessons: Layout["lessons"] = {};
  const resources: Layout["resources"] = {};
  for (const unit of syllabus.units) {
    lessons[unit.sourcedId] = unit.lessons.map((lesson) => lesson.sourcedId);
    for (const lesson of unit.lessons)
      resources[lesson.sourcedId] = lesson.resources.map((resource) => resource.id);
  }
  return { units: syllabus.units.map((unit) => unit.sourcedId), lessons, resources };
}

/** The lists that hold a kind: every unit's lessons, or every lesson's resources, by parent. */
function listsOf(layout: Layout, kind: "lesson" | "resource"): Record<string, string[]> {
  return kind === "lesson" ? layout.lessons : layout.resources;
}

/** The parents a kind can sit in, in the order they show: units for lessons, lessons for resources. */
export function parentsInOrder(layout: Layout, kind: "lesson" | "resource"): string[] {
  return kind === "lesson" ? layout.units : layout.units.flatMap((unit) => layout.lessons[unit] ?? []);
}

/** Where a node sits: null for a unit (or a node the layout does not hold). */
export function parentOf(layout: Layout, kind: NodeKind, id: string): string | null {
  if (kind === "unit") return null;
  for (const [parentId, children] of Object.entries(listsOf(layout, kind)))
    if (children.includes(id)) return parentId;
  return null;
}

/** The siblings under a parent (the units for a null parent), in order. */
export function siblingsIn(layout: Layout, kind: NodeKind, parentId: string | null): string[] {
  if (kind === "unit") return layout.units;
  return (parentId && listsOf(layout, kind)[parentId]) || [];
}

/** The layout with a node taken out of its place and put under `parentId` at `index`. */
export function moveTo(
  layout: Layout,
  kind: NodeKind,
  id: string,
  parentId: string | null,
  index: number,
): Layout {
  if (kind === "unit")
    return {
      ...layout,
      units: insertAt(
        layout.units.filter((unit) => unit !== id),
        id,
        index,
      ),
    };
  const lists = Object.fromEntries(
    Object.entries(listsOf(layout, kind)).map(([parent, children]) => [
      parent,
      children.filter((child) => child !== id),
    ]),
  );
  if (parentId) lists[parentId] = insertAt(lists[parentId] ?? [], id, index);
  return kind === "lesson" ? { ...layout, lessons: lists } : { ...layout, resources: lists };
}

function insertAt(list: string[], id: string, index: number): string[] {
  const at = Math.max(0, Math.min(index, list.length));
  return [...list.slice(0, at), id, ...list.slice(at)];
}

/** The move that puts a node where it now is in `layout`. */
export function moveIn(layout: Layout, kind: NodeKind, id: string): SyllabusMove {
  const parentId = parentOf(layout, kind, id);
  return { kind, id, parentId, orderedIds: siblingsIn(layout, kind, parentId) };
}

/** Whether two layouts put a node in the same place among the same siblings. */
export function isSamePlace(before: Layout, after: Layout, kind: NodeKind, id: string): boolean {
  const was = moveIn(before, kind, id);
  const is = moveIn(after, kind, id);
  return was.parentId === is.parentId && was.orderedIds.join("\n") === is.orderedIds.join("\n");
}

/**
 * "Move up" and "Move down": one place among the siblings; from the first or last place a lesson
 * goes on to the end or start of the unit before or after (a resource, of the lesson before or
 * after). Null where there is nowhere to go.
 */
export function stepMove(layout: Layout, kind: NodeKind, id: string, step: -1 | 1): SyllabusMove | null {
  const parentId = parentOf(layout, kind, id);
  const siblings = siblingsIn(layout, kind, parentId);
  const index = siblings.indexOf(id);
  if (index < 0) return null;
  const target = index + step;
  if (target >= 0 && target < siblings.length)
    return moveIn(moveTo(layout, kind, id, parentId, target), kind, id);
  if (kind === "unit" || !parentId) return null;
  const parents = parentsInOrder(layout, kind);
  const neighbour = parents[parents.indexOf(parentId) + step];
  if (!neighbour) return null;
  const at = step < 0 ? siblingsIn(layout, kind, neighbour).length : 0;
  return moveIn(moveTo(layout, kind, id, neighbour, at), kind, id);
}

/** The layout after a move, as the server will make it. */
export function applyMove(layout: Layout, move: SyllabusMove): Layout {
  const moved = moveTo(layout, move.kind, move.id, move.parentId, 0);
  if (move.kind === "unit") return { ...moved, units: move.orderedIds };
  const lists = { ...listsOf(moved, move.kind), [move.parentId as string]: move.orderedIds };
  return move.kind === "lesson" ? { ...moved, lessons: lists } : { ...moved, resources: lists };
}

/** The syllabus rearranged as `layout` says, each reordered list numbered 1, 2, 3… as the server numbers it. */
export function arrange(syllabus: Syllabus, layout: Layout, move: SyllabusMove): Syllabus {
  const units = new Map(syllabus.units.map((unit) => [unit.sourcedId, unit]));
  const lessons = new Map(
    syllabus.units.flatMap((unit) => unit.lessons).map((lesson) => [lesson.sourcedId, lesson]),
  );
  const resources = new Map(
    syllabus.units
      .flatMap((unit) => unit.lessons.flatMap((lesson) => lesson.resources))
      .map((resource) => [resource.id, resource]),
  );
  const numbered = (kind: NodeKind, id: string, index: number, sortOrder: number | null) =>
    move.kind === kind && move.orderedIds.includes(id) ? index + 1 : sortOrder;
  return {
    ...syllabus,
    units: layout.units.flatMap((unitId, unitIndex) => {
      const unit = units.get(unitId);
      if (!unit) return [];
      return [
        {
          ...unit,
          sortOrder: numbered("unit", unitId, unitIndex, unit.sortOrder),
          lessons: (layout.lessons[unitId] ?? []).flatMap((lessonId, lessonIndex) => {
            const lesson = lessons.get(lessonId);
            if (!lesson) return [];
            return [
              {
                ...lesson,
                sortOrder: numbered("lesson", lessonId, lessonIndex, lesson.sortOrder),
                resources: (layout.resources[lessonId] ?? []).flatMap((resourceId, resourceIndex) => {
                  const resource = resources.get(resourceId);
                  return resource
                    ? [
                        {
                          ...resource,
                          sortOrder: numbered("resource", resourceId, resourceIndex, resource.sortOrder),
                        },
                      ]
                    : [];
                }),
              },
            ];
          }),
        },
      ];
    }),
  };
}
