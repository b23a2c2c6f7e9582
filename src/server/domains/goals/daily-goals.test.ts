import { describe, expect, it } from "vitest";
import { completedSubjects, streakOf } from "./daily-goals";

const goals = { Math: 30, Reading: 20 };
const met = { Math: 30, Reading: 25 };
const missed = { Math: 30, Reading: 5 };

describe("daily goals", () => {
  it("completes a subject when its goal is met", () => {
    expect(completedSubjects(goals, { Math: 31, Reading: 19.5 })).toEqual(["Math"]);
    expect(completedSubjects(goals, {})).toEqual([]);
  });
});

describe("streaks", () => {
  // 2026-11-16 is a Monday; 2026-11-21/22 a weekend.
  const days = (entries: [string, Record<string, number>][]) => new Map(entries);

  it("counts school days with every goal met, skipping weekends", () => {
    const xpByDay = days([
      ["2026-11-13", met],
      ["2026-11-16", met],
      ["2026-11-17", met],
      ["2026-11-18", met],
      ["2026-11-19", met],
      ["2026-11-20", met],
    ]);
    expect(streakOf({ today: "2026-11-23", goals, xpByDay, holidays: new Set() }).days).toBe(6);
  });

  it("counts today once its goals are met, and yesterday's streak until then", () => {
    const xpByDay = days([
      ["2026-11-19", met],
      ["2026-11-20", met],
    ]);
    expect(streakOf({ today: "2026-11-23", goals, xpByDay, holidays: new Set() }).days).toBe(2);
    xpByDay.set("2026-11-23", met);
    expect(streakOf({ today: "2026-11-23", goals, xpByDay, holidays: new Set() }).days).toBe(3);
  });

  it("breaks on a school day with a goal missed, but not on a holiday", () => {
    const xpByDay = days([
      ["2026-11-16", met],
      ["2026-11-17", missed],
      ["2026-11-18", met],
      ["2026-11-20", met],
    ]);
    expect(streakOf({ today: "2026-11-20", goals, xpByDay, holidays: new Set() }).days).toBe(1);
    expect(streakOf({ today: "2026-11-20", goals, xpByDay, holidays: new Set(["2026-11-19"]) }).days).toBe(2);
  });

  it("says when the run of complete days reaches the first day it may look at", () => {
    const xpByDay = days([
      ["2026-11-19", met],
      ["2026-11-20", met],
    ]);
    const input = { today: "2026-11-20", goals, xpByDay, holidays: new Set<string>() };
    expect(streakOf({ ...input, since: "2026-11-19" })).toEqual({ days: 2, reachesSince: true });
    expect(streakOf({ ...input, since: "2026-11-16" })).toEqual({ days: 2, reachesSince: false });
  });

  it("is zero without activity", () => {
    expect(streakOf({ today: "2026-11-20", goals, xpByDay: new Map(), holidays: new Set() }).days).toBe(0);
  });
});
