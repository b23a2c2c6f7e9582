import { describe, expect, it } from "vitest";
import { csvOf } from "./metrics-table";

describe("the learning metrics CSV", () => {
  it("neutralises names that a spreadsheet would run as formulas, and keeps numbers", () => {
    const csv = csvOf({
      columns: [
        { label: "Day", isNumber: false },
        { label: "Student", isNumber: false },
        { label: "Total XP", isNumber: true },
      ],
      rows: [
        { key: "1", cells: ["2026-01-05", '=HYPERLINK("http://evil.example","Grades")', 12] },
        { key: "2", cells: ["2026-01-05", "@Ada Lovelace", -3] },
        { key: "3", cells: ["2026-01-05", "Grace Hopper", null] },
      ],
    });
    expect(csv.split("\r\n")).toEqual([
      "Day,Student,Total XP",
      `2026-01-05,"'=HYPERLINK(""http://evil.example"",""Grades"")",12`,
      "2026-01-05,'@Ada Lovelace,-3",
      "2026-01-05,Grace Hopper,",
      "",
    ]);
  });
});
