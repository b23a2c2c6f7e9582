import { describe, expect, it } from "vitest";
import type { Syllabus, SyllabusResource } from "../../../shared/contracts/content";
import {
  applyMove,
  arrange,
  isSamePlace,
  layoutOf,
  moveIn,
  moveTo,
  parentOf,
  stepMove,
} from "./course-builder-moves";

const resource = (id: string, sortOrder: number | null): SyllabusResource => ({
  id,
  kind: "video",
  title: id,
  sortOrder,
  qtiItems: [],
  qtiTest: null,
  articleHtml: null,
  videoUrl: "https://example.org/v",
  appId: null,
  appName: null,
  launchUrl: null,
});
const lesson = (sourcedId: string, resources: SyllabusResource[]) => ({
  sourcedId,
  title: sourcedId,
  sortOrder: 1,
  expectedXp: 10,
  masteryPercent: 80,
  descriptionHtml: null,
  resources,
});

const syllabus: Syllabus = {
  course: { sourcedId: "c", title: "Course", subjects: [], grades: [] },
  units: [
    {
      sourcedId: "A",
      title: "A",
      sortOrder: 1,
      lessons: [lesson("a1", [resource("r1", 1), resource("r2", 2)]), lesson("a2", [])],
    },
    { sourcedId: "B", title: "B", sortOrder: 2, lessons: [lesson("b1", [resource("r3", null)])] },
    { sourcedId: "C", title: "C", sortOrder: null, lessons: [] },
  ],
};
const layout = layoutOf(syllabus);

describe("the course builder's moves", () => {
  it("reads where each node sits", () => {
    expect(layout.units).toEqual(["A", "B", "C"]);
    expect(parentOf(layout, "lesson", "b1")).toBe("B");
    expect(parentOf(layout, "resource", "r2")).toBe("a1");
    expect(parentOf(layout, "unit", "A")).toBeNull();
  });

  it("moves up and down among siblings, and on into the neighbouring parent at the ends", () => {
    expect(stepMove(layout, "unit", "B", -1)).toEqual({
      kind: "unit",
      id: "B",
      parentId: null,
      orderedIds: ["B", "A", "C"],
    });
    expect(stepMove(layout, "unit", "A", -1)).toBeNull();
    expect(stepMove(layout, "lesson", "a2", 1)).toEqual({
      kind: "lesson",
      id: "a2",
      parentId: "B",
      orderedIds: ["a2", "b1"],
    });
    expect(stepMove(layout, "lesson", "b1", -1)).toEqual({
      kind: "lesson",
      id: "b1",
      parentId: "A",
      orderedIds: ["a1", "a2", "b1"],
    });
    expect(stepMove(layout, "lesson", "b1", 1)).toEqual({
      kind: "lesson",
      id: "b1",
      parentId: "C",
      orderedIds: ["b1"],
    });
    // A resource crosses into the next lesson, even one of another unit, and skips none.
    expect(stepMove(layout, "resource", "r2", 1)).toEqual({
      kind: "resource",
      id: "r2",
      parentId: "a2",
      orderedIds: ["r2"],
    });
    expect(stepMove(layout, "resource", "r3", -1)).toEqual({
      kind: "resource",
      id: "r3",
      parentId: "a2",
      orderedIds: ["r3"],
    });
    expect(stepMove(layout, "resource", "r3", 1)).toBeNull();
  });

  it("tells a real move from a drop back in place", () => {
    const dragged = moveTo(layout, "lesson", "a1", "B", 1);
    expect(moveIn(dragged, "lesson", "a1")).toEqual({
      kind: "lesson",
      id: "a1",
      parentId: "B",
      orderedIds: ["b1", "a1"],
    });
    expect(isSamePlace(layout, dragged, "lesson", "a1")).toBe(false);
    expect(isSamePlace(layout, moveTo(layout, "lesson", "a1", "A", 0), "lesson", "a1")).toBe(true);
  });

  it("shows a move at once, numbering the reordered list as the server does", () => {
    const move = { kind: "resource" as const, id: "r1", parentId: "b1", orderedIds: ["r3", "r1"] };
    const shown = arrange(syllabus, applyMove(layout, move), move);
    expect(shown.units[0]?.lessons[0]?.resources.map((entry) => entry.id)).toEqual(["r2"]);
    expect(shown.units[1]?.lessons[0]?.resources.map((entry) => [entry.id, entry.sortOrder])).toEqual([
      ["r3", 1],
      ["r1", 2],
    ]);
    const units = { kind: "unit" as const, id: "C", parentId: null, orderedIds: ["C", "A", "B"] };
    expect(
      arrange(syllabus, applyMove(layout, units), units).units.map((unit) => [
        unit.sourcedId,
        unit.sortOrder,
      ]),
    ).toEqual([
      ["C", 1],
      ["A", 2],
      ["B", 3],
    ]);
  });
});
