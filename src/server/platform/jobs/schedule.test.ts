import { describe, expect, it } from "vitest";
import { describeSchedule, latestOccurrence, nextOccurrenceAt } from "./schedule";

const paris = { dailyAt: "02:30", timeZone: "Europe/Paris" };

describe("job schedules", () => {
  it("places interval runs on multiples of the interval", () => {
    const hourly = { everyMs: 60 * 60_000 };
    const now = new Date("2026-11-24T08:42:10.000Z");
    expect(latestOccurrence(hourly, now)).toEqual({
      key: "2026-11-24T08:00:00.000Z",
      at: new Date("2026-11-24T08:00:00.000Z"),
    });
    expect(nextOccurrenceAt(hourly, now).toISOString()).toBe("2026-11-24T09:00:00.000Z");
  });

  it("runs a daily job at the local time of its timezone, keyed by the local date", () => {
    // 02:30 in Paris is 01:30 UTC in winter.
    expect(latestOccurrence(paris, new Date("2026-11-24T01:29:00.000Z"))).toEqual({
      key: "2026-11-23",
      at: new Date("2026-11-23T01:30:00.000Z"),
    });
    expect(latestOccurrence(paris, new Date("2026-11-24T01:30:00.000Z"))).toEqual({
      key: "2026-11-24",
      at: new Date("2026-11-24T01:30:00.000Z"),
    });
    expect(nextOccurrenceAt(paris, new Date("2026-11-24T12:00:00.000Z")).toISOString()).toBe(
      "2026-11-25T01:30:00.000Z",
    );
    // West of UTC the local date can still be yesterday's.
    const chicago = { dailyAt: "23:00", timeZone: "America/Chicago" };
    expect(latestOccurrence(chicago, new Date("2026-11-24T05:30:00.000Z"))).toEqual({
      key: "2026-11-23",
      at: new Date("2026-11-24T05:00:00.000Z"),
    });
  });

  it("keeps the local time across daylight-saving changes", () => {
    // Summer time: 02:30 in Paris is 00:30 UTC.
    expect(latestOccurrence(paris, new Date("2026-07-01T12:00:00.000Z")).at.toISOString()).toBe(
      "2026-07-01T00:30:00.000Z",
    );
    // 29 March 2026: clocks jump from 02:00 to 03:00, so 02:30 does not exist; it runs at 03:30 local.
    expect(latestOccurrence(paris, new Date("2026-03-29T12:00:00.000Z")).at.toISOString()).toBe(
      "2026-03-29T01:30:00.000Z",
    );
    // 25 October 2026: 02:30 happens twice; the run takes one of them, once.
    const autumn = latestOccurrence(paris, new Date("2026-10-25T12:00:00.000Z"));
    expect(autumn.key).toBe("2026-10-25");
    expect(["2026-10-25T00:30:00.000Z", "2026-10-25T01:30:00.000Z"]).toContain(autumn.at.toISOString());
  });

  it("describes schedules for people", () => {
    expect(describeSchedule({ everyMs: 60 * 60_000 })).toBe("Every hour");
    expect(describeSchedule({ everyMs: 6 * 60 * 60_000 })).toBe("Every 6 hours");
    expect(describeSchedule({ everyMs: 15 * 60_000 })).toBe("Every 15 minutes");
    expect(describeSchedule({ everyMs: 30_000 })).toBe("Every 30 seconds");
    expect(describeSchedule(paris)).toBe("Daily at 02:30 (Europe/Paris)");
    expect(describeSchedule({ everyMs: 60_000 })).toBe("Every minute");
    expect(describeSchedule({ everyMs: 6 * 60 * 60_000 }, "es")).toBe("Cada 6 horas");
    expect(describeSchedule({ everyMs: 60_000 }, "es")).toBe("Cada minuto");
    expect(describeSchedule(paris, "es")).toBe("Todos los días a las 02:30 (Europe/Paris)");
  });
});
