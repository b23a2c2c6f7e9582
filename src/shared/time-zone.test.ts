import { describe, expect, it } from "vitest";
import { addDays, isTimeZone, isWeekday, localDateOf, weekStartOf } from "./time-zone";

describe("local dates", () => {
  it("gives the same instant different dates in different timezones", () => {
    const instant = new Date("2026-11-21T05:30:00Z"); // 00:30 on the 21st in New York, 21:30 on the 20th in Los Angeles
    expect(localDateOf(instant, "America/New_York")).toBe("2026-11-21");
    expect(localDateOf(instant, "America/Los_Angeles")).toBe("2026-11-20");
    expect(localDateOf(instant, "Europe/London")).toBe("2026-11-21");
    const lateInLosAngeles = new Date("2026-11-21T07:30:00Z"); // 23:30 on the 20th in Los Angeles, 02:30 on the 21st in New York
    expect(localDateOf(lateInLosAngeles, "America/Los_Angeles")).toBe("2026-11-20");
    expect(localDateOf(lateInLosAngeles, "America/New_York")).toBe("2026-11-21");
  });

  it("knows IANA timezones", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
  });

  it("starts weeks on Sunday and moves days across month and DST edges", () => {
    expect(weekStartOf("2026-11-22")).toBe("2026-11-22"); // a Sunday
    expect(weekStartOf("2026-11-21")).toBe("2026-11-15");
    expect(addDays("2026-11-01", -1)).toBe("2026-10-31");
    expect(addDays("2026-03-07", 1)).toBe("2026-03-08");
    expect(isWeekday("2026-11-20")).toBe(true);
    expect(isWeekday("2026-11-21")).toBe(false);
    // Across years, leap days and long spans.
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
    expect(addDays("2026-11-23", -400)).toBe("2025-10-19");
    expect(weekStartOf("2027-01-02")).toBe("2026-12-27");
  });
});
