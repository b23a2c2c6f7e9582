import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportResult } from "../../../shared/contracts/reports";
import { columnHeading, formatChange, formatReportValue } from "../../../shared/report-values";
import { DEMO_FIRST_SCHOOL_ID } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { chartSvg, labelStep, niceTicks } from "./chart-svg";
import { reportFileName } from "./csv";
import { reportPdf } from "./pdf";

/** Each page's text, its spaces and line breaks made single spaces. */
async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, " "));
}

const NAMES = ["Ana Peña", "Łukasz Wiśniewski", "Ayşe Yılmaz", "Trần Thị Hương", "Zoë Brontë"];

/** A report built by hand: a main table of `rows` students, a chart and an empty second table. */
function longReport(rows: number): ReportResult {
  return {
    id: "student-xp-report",
    title: "Student XP report",
    subtitle: "1 Nov 2026 to 27 Nov 2026",
    scope: "Maple Grove School",
    applied: [{ label: "Grade", value: "3rd grade" }],
    filters: { startDate: "2026-11-01" },
    filterKeys: ["grade", "startDate", "endDate"],
    options: {},
    generatedAt: "2026-11-28T15:00:00.000Z",
    comparedWith: null,
    figures: [{ key: "xp", label: "XP earned", value: 18234.5, unit: "xp", change: 0.12 }],
    highlights: ["Best week: 8 Nov to 14 Nov."],
    charts: [
      {
        key: "xpPerDay",
        title: "XP per day",
        kind: "bar",
        unit: "xp",
        categories: ["1 Nov", "2 Nov", "3 Nov"],
        series: [{ name: "XP", values: [120, 0, 75.5] }],
      },
    ],
    tables: [
      {
        key: "students",
        title: "Students",
        empty: "No students match these filters.",
        main: true,
        sortable: [],
        total: rows,
        columns: [
          { key: "student", label: "Student", unit: "text", unitLabel: "" },
          { key: "xp", label: "XP", unit: "xp", unitLabel: "XP" },
          { key: "minutesOnTask", label: "On task", unit: "minutes", unitLabel: "min" },
          { key: "trend", label: "Trend", unit: "trend", unitLabel: "XP" },
        ],
        rows: Array.from({ length: rows }, (_, index) => [
          `${NAMES[index % NAMES.length]} ${index + 1}`,
          index * 1.5,
          30 + (index % 60),
          [index % 4, 2, (index * 3) % 5],
        ]),
      },
      {
        key: "absent",
        title: "Absent from learning",
        empty: "Every student learned.",
        main: false,
        sortable: [],
        total: 0,
        columns: [{ key: "student", label: "Student", unit: "text", unitLabel: "" }],
        rows: [],
      },
    ],
  };
}

describe("a report's PDF", () => {
  it("prints every row of a long table with its headings and the page number on every page", async () => {
    const pages = await pagesOf(await reportPdf(longReport(300), "en"));
    expect(pages.length).toBeGreaterThan(3);
    const [first = ""] = pages;
    for (const words of [
      "Dash",
      "Student XP report",
      "Maple Grove School",
      "Grade: 3rd grade",
      "18,234.5",
      "+12%",
    ])
      expect(first).toContain(words);
    expect(first).toContain("Made on November 28, 2026 at 10:00 AM EST");
    expect(pages[1]).toContain(`Page 2 of ${pages.length}`);
    const tablePages = pages.filter((page) => /Ana Peña \d+/.test(page));
    expect(tablePages.length).toBeGreaterThan(2);
    const headings = "Students Student XP On task (min) Trend (XP)";
    for (const page of tablePages) expect(page).toContain(headings);
    const everything = pages.join(" ");
    for (const name of ["Łukasz Wiśniewski 2", "Ayşe Yılmaz 3", "Trần Thị Hương 4", "Zoë Brontë 300"])
      expect(everything).toContain(name);
    expect(everything).toContain("448.5");
    expect(pages.at(-1)).toContain("Every student learned.");
  });

  it("writes its own words in the reader's language", async () => {
    const [first = ""] = await pagesOf(await reportPdf(longReport(3), "es"));
    expect(first).toContain("Generado el 28 de noviembre de 2026");
    expect(first).toMatch(/Página 1 de 1/);
    expect(first).toContain("18.234,5");
  });
});

describe("a printed chart", () => {
  it("has a few round ticks from zero past the highest value", () => {
    expect(niceTicks(0, 17_834)).toEqual([0, 5_000, 10_000, 15_000, 20_000]);
    expect(niceTicks(0, 0.83, 4, 0.01)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(-30, 90)).toEqual([-50, 0, 50, 100]);
    expect(niceTicks(0, 0)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0, 2)).toEqual([0, 1, 2]);
    expect(niceTicks(0, 0, 4, 0.01)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it("thins the category labels so that none overlaps the next", () => {
    const days = Array.from({ length: 30 }, (_, index) => `Nov ${index + 1}, 2026`);
    expect(labelStep(["K", "1", "2"], 100)).toBe(1);
    const step = labelStep(days, 500 / days.length);
    expect(step).toBeGreaterThan(1);
    const drawn = chartSvg(
      {
        key: "xp",
        title: "XP",
        kind: "bar",
        unit: "xp",
        categories: days,
        series: [{ name: "XP", values: days.map(() => 1) }],
      },
      { width: 500, height: 180, locale: "en-US", unitLabel: "XP" },
    );
    expect(drawn.match(/>Nov \d+, 2026</g)).toHaveLength(Math.ceil(days.length / step));
  });

  it("names each series in a legend when there are several, and breaks a line where a value is missing", () => {
    const drawn = chartSvg(
      {
        key: "learning",
        title: "Learning",
        kind: "line",
        unit: "count",
        categories: ["a", "b", "c", "d"],
        series: [
          { name: "Maple Grove & Co", values: [1, 2, null, 4] },
          { name: "Riverside", values: [3, 3, 3, 3] },
        ],
      },
      { width: 400, height: 160, locale: "en-US", unitLabel: "" },
    );
    expect(drawn).toContain(">Maple Grove &#38; Co<");
    expect(drawn).toContain(">Riverside<");
    expect(drawn.match(/<polyline/g)).toHaveLength(2);
  });
});

describe("GET /api/reports/:id/pdf", () => {
  let t: TestApp;
  const cookies: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp();
    for (const who of ["admin", "guide"]) cookies[who] = await t.signIn(`${who}@dash.demo`);
  });
  afterAll(() => t.close());

  const search = `schoolId=${DEMO_FIRST_SCHOOL_ID}`;

  it("downloads the week report with the figures, filters and headings its page shows", async () => {
    const page = await t.request(`/api/reports/week-report?${search}`, { cookie: cookies.admin });
    expect(page.status).toBe(200);
    const result = ((await page.json()) as { data: ReportResult }).data;

    const response = await t.request(`/api/reports/week-report/pdf?${search}`, { cookie: cookies.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="${reportFileName(result, "pdf")}"`,
    );
    const pages = await pagesOf(new Uint8Array(await response.arrayBuffer()));
    const [first = ""] = pages;
    for (const words of [result.title, result.subtitle, result.scope]) expect(first).toContain(words);
    expect(result.applied.length).toBeGreaterThan(0);
    for (const { label, value } of result.applied) expect(first).toContain(`${label}: ${value}`);
    for (const figure of result.figures) {
      expect(first).toContain(`${figure.label} ${formatReportValue(figure.value, figure.unit, "en-US")}`);
      const change = formatChange(figure.change, "en-US");
      if (change) expect(first).toContain(change);
    }
    const everything = pages.join(" ");
    for (const chart of result.charts) expect(everything).toContain(chart.title);
    for (const table of result.tables) {
      expect(everything).toContain(table.title);
      if (table.rows.length > 0) expect(everything).toContain(table.columns.map(columnHeading).join(" "));
      else expect(everything).toContain(table.empty);
    }
  });

  it("answers in Spanish to a Spanish reader", async () => {
    const headers = { "accept-language": "es" };
    const page = await t.request(`/api/reports/week-report?${search}`, { cookie: cookies.admin, headers });
    const result = ((await page.json()) as { data: ReportResult }).data;
    const response = await t.request(`/api/reports/week-report/pdf?${search}`, {
      cookie: cookies.admin,
      headers,
    });
    expect(response.status).toBe(200);
    const [first = ""] = await pagesOf(new Uint8Array(await response.arrayBuffer()));
    expect(first).toContain(result.title);
    expect(first).toContain("Generado el");
    expect(first).toMatch(/Página 1 de \d+/);
  });

  it("falls back on a bad search and refuses anyone but an administrator", async () => {
    const fallback = await t.request("/api/reports/week-report/pdf?date=yesterday&schoolId=", {
      cookie: cookies.admin,
    });
    expect(fallback.status).toBe(200);
    const guide = await t.request(`/api/reports/week-report/pdf?${search}`, { cookie: cookies.guide });
    expect(guide.status).toBe(403);
    const nobody = await t.request(`/api/reports/week-report/pdf?${search}`);
    expect(nobody.status).toBe(401);
  });
});
