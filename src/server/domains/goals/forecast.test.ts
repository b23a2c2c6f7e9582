import { describe, expect, it } from "vitest";
import { forecastOf, schoolCalendar } from "./forecast";

// March 2027: Monday 1st. Spring break on Thursday 11 and Friday 12.
const holidays = new Set(["2027-03-11", "2027-03-12"]);
const calendar = schoolCalendar(holidays);
const TODAY = "2027-03-22"; // a Monday

describe("a goal's forecast", () => {
  it("reads the pace of the 15 school days before today, skipping weekends and holidays", () => {
    const days = calendar.daysBefore(TODAY, 15);
    expect(days).toHaveLength(15);
    expect(days[0]).toBe("2027-03-19");
    expect(days).not.toContain("2027-03-11");
    expect(days).not.toContain("2027-03-13");
    // Five days of the week before, three of the week of the break, five of the first week of March: Thursday 25 February is the 15th.
    expect(days.at(-1)).toBe("2027-02-25");
  });

  it("tells the day the target is reached, whether that is on time, and what each day needs", () => {
    const forecast = forecastOf({
      value: 100,
      target: 400,
      today: TODAY,
      deadline: "2027-04-02",
      calendar,
      // 30 XP on each of the 15 school days of the window.
      paceEarned: 15 * 30,
    });
    // 300 to go at 30 a school day: ten school days from today, Monday 22 to Friday 2 April.
    expect(forecast).toEqual({
      status: "on_track",
      pacePerDay: 30,
      reachedOn: "2027-04-02",
      dailyNeeded: 30,
      schoolDaysLeft: 10,
    });
  });

  it("skips the school's holidays ahead as well, so a break makes a goal late", () => {
    const withBreak = schoolCalendar(new Set([...holidays, "2027-03-29", "2027-03-30"]));
    const forecast = forecastOf({
      value: 100,
      target: 400,
      today: TODAY,
      deadline: "2027-04-02",
      calendar: withBreak,
      paceEarned: 15 * 30,
    });
    expect(forecast.status).toBe("behind");
    expect(forecast.reachedOn).toBe("2027-04-06");
    expect(forecast.schoolDaysLeft).toBe(8);
    expect(forecast.dailyNeeded).toBe(38); // 300 / 8, rounded up
  });

  it("says reached, missed or without a pace when that is what it is", () => {
    const base = { today: TODAY, calendar, deadline: "2027-04-02", paceEarned: 15 * 10 };
    expect(forecastOf({ ...base, value: 50, target: 50 }).status).toBe("reached");
    expect(forecastOf({ ...base, value: 10, target: 50, deadline: "2027-03-19" })).toMatchObject({
      status: "missed",
      dailyNeeded: null,
    });
    expect(forecastOf({ ...base, value: 10, target: 50, paceEarned: 0 })).toMatchObject({
      status: "no_pace",
      reachedOn: null,
      dailyNeeded: 4,
    });
  });
});
