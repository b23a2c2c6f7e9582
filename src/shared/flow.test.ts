import { describe, expect, it } from "vitest";
import { chunksOf, type FlowEvent } from "./flow";

const event = (id: string, start: string, end: string, subject = "Math", xp = 10): FlowEvent => ({
  id,
  subject,
  activityName: null,
  appName: null,
  start: `2026-11-20T${start}:00Z`,
  end: `2026-11-20T${end}:00Z`,
  xp,
  accuracy: 1,
});

describe("chunksOf", () => {
  it("joins events separated by short pauses and splits at long ones", () => {
    const chunks = chunksOf([
      event("c", "10:00", "10:20", "Reading", 5),
      event("a", "09:00", "09:20"),
      event("b", "09:25", "09:40", "Math", 7.5),
    ]);
    expect(
      chunks.map((chunk) => [chunk.start.slice(11, 16), chunk.end.slice(11, 16), chunk.minutes, chunk.xp]),
    ).toEqual([
      ["09:00", "09:40", 40, 17.5],
      ["10:00", "10:20", 20, 5],
    ]);
    expect(chunks[0]?.events.map((e) => e.id)).toEqual(["a", "b"]);
    expect(chunks[1]?.subjects).toEqual(["Reading"]);
  });

  it("keeps overlapping events in one chunk and lists each subject once", () => {
    const chunks = chunksOf([
      event("a", "09:00", "09:30"),
      event("b", "09:10", "09:20", "Science"),
      event("c", "09:35", "09:50"),
    ]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.end.slice(11, 16)).toBe("09:50");
    expect(chunks[0]?.subjects).toEqual(["Math", "Science"]);
  });

  it("has no chunks without events", () => {
    expect(chunksOf([])).toEqual([]);
  });
});
