import type { TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import type { Forecast, GoalProgress } from "../../../shared/contracts/goals";
import { i18next, loadCatalogues, startI18n } from "../../lib/i18n";
import { forecastText, goalTitle, nearestTarget, sourceText, toneOf } from "./describe";

let t: TFunction<"goals">;

beforeAll(async () => {
  await startI18n("en");
  await loadCatalogues(["goals"]);
  t = i18next.getFixedT("en", "goals") as TFunction<"goals">;
});

const TODAY = "2026-02-18";

function goal(changes: Partial<GoalProgress> = {}, forecast: Partial<Forecast> = {}): GoalProgress {
  return {
    id: "g1",
    kind: "units",
    source: "student",
    classId: null,
    classTitle: null,
    subject: null,
    courseId: null,
    courseTitle: null,
    target: 40,
    baseline: null,
    startsOn: "2026-02-01",
    deadline: "2026-03-02",
    setByName: "Maya Patel",
    canEdit: true,
    value: 10,
    percent: 25,
    forecast: {
      status: "on_track",
      pacePerDay: 2,
      reachedOn: "2026-02-24",
      dailyNeeded: 3,
      schoolDaysLeft: 9,
      ...forecast,
    },
    ...changes,
  };
}

describe("a goal's title", () => {
  it("says what each kind asks for and by when", () => {
    expect(goalTitle(goal(), TODAY, t)).toBe("Master 40 units by Mar 2");
    expect(goalTitle(goal({ subject: "Math", target: 1 }), TODAY, t)).toBe("Master 1 unit in Math by Mar 2");
    expect(goalTitle(goal({ kind: "course", courseTitle: "Grade 4 Math" }), TODAY, t)).toBe(
      "Finish Grade 4 Math by Mar 2",
    );
    expect(
      goalTitle(goal({ kind: "rit", target: 220, subject: "Reading", deadline: "2027-05-15" }), TODAY, t),
    ).toBe("Reach 220 RIT in Reading by May 15, 2027");
    expect(goalTitle(goal({ kind: "weekly_xp", target: 1500 }), TODAY, t)).toBe("Earn 1,500 XP each week");
  });
});

describe("a forecast in words", () => {
  it("tells a student when they get there, and how early", () => {
    expect(forecastText(goal(), "self", t)).toBe(
      "At your pace you'll get there by Tue, Feb 24 — 6 days early.",
    );
    expect(forecastText(goal({}, { reachedOn: "2026-03-02" }), "other", t)).toBe(
      "At this pace, there by Mon, Mar 2 — just in time.",
    );
  });

  it("says what a school day needs when behind or without pace, in the goal's own measure", () => {
    expect(forecastText(goal({}, { status: "behind", reachedOn: "2026-03-10" }), "self", t)).toBe(
      "At your pace you'll get there on Tue, Mar 10; about 3 units a school day from today makes it.",
    );
    expect(
      forecastText(
        goal({ kind: "course" }, { status: "no_pace", reachedOn: null, dailyNeeded: 45 }),
        "self",
        t,
      ),
    ).toBe("Do some learning to see when you'll get there; 45 XP a school day makes it.");
    expect(forecastText(goal({}, { status: "behind", reachedOn: null }), "other", t)).toMatch(/long while/);
  });

  it("celebrates, regrets or waits for MAP", () => {
    expect(forecastText(goal({}, { status: "reached" }), "self", t)).toBe("Done! 🎉");
    expect(forecastText(goal({}, { status: "missed" }), "self", t)).toBe("The deadline passed.");
    expect(forecastText(goal({ kind: "rit" }, { status: "awaiting_test" }), "self", t)).toBe(
      "Your next MAP test will tell.",
    );
  });
});

describe("where a goal comes from", () => {
  it("tells the student's own goals from those set by staff, a class or the school", () => {
    const own = goal({ setByName: "Ava Johnson" });
    expect(sourceText(own, "Ava Johnson", "self", t)).toBe("Your own goal");
    expect(sourceText(own, "Ava Johnson", "other", t)).toBe("Ava Johnson's own goal");
    expect(sourceText(goal(), "Ava Johnson", "self", t)).toBe("Set by Maya Patel");
    expect(sourceText(goal({ source: "class", classTitle: "Math 4A" }), "Ava Johnson", "self", t)).toBe(
      "Class goal: Math 4A",
    );
    expect(sourceText(goal({ source: "school", setByName: null }), "Ava Johnson", "self", t)).toBe(
      "From the school's daily goals",
    );
  });
});

describe("the goal a home shows", () => {
  it("is the open goal due first, else the first of those done", () => {
    const reached = goal({ id: "done", deadline: "2026-02-20" }, { status: "reached" });
    const later = goal({ id: "later", deadline: "2026-04-01" });
    const sooner = goal({ id: "sooner", deadline: "2026-03-01" }, { status: "behind" });
    expect(nearestTarget([reached, later, sooner])?.id).toBe("sooner");
    expect(nearestTarget([reached])?.id).toBe("done");
    expect(nearestTarget([])).toBeUndefined();
  });

  it("is green on track, orange behind, grey otherwise", () => {
    expect(toneOf("on_track")).toBe("good");
    expect(toneOf("reached")).toBe("good");
    expect(toneOf("behind")).toBe("warn");
    expect(toneOf("no_pace")).toBe("neutral");
    expect(toneOf("awaiting_test")).toBe("neutral");
  });
});
