import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type MapTestEvent, NO_REPORTED_GROWTH } from "../../../shared/contracts/assessment";
import { translate } from "../../lib/i18n";
import { type CsvRecord, readCsvRecords } from "../../lib/uploads";
import {
  MAP_FILES,
  type MapProblem,
  readMapHeader,
  readMapRow,
  readStudentRow,
  readStudentsHeader,
  roleOfFile,
} from "./map-columns";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../../../..");
const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);
/** NWEA's own training export (fake students), kept outside the project. */
const NWEA_SAMPLE = path.resolve(PROJECT_ROOT, "../shared/fixtures/map/Spring2013AssessmentResults.csv");

async function readRecords(file: string): Promise<CsvRecord[]> {
  const records: CsvRecord[] = [];
  for await (const record of readCsvRecords(createReadStream(file), { file: path.basename(file) })) {
    records.push(record);
  }
  return records;
}

/** An export's header and every data row, read: its event or its problems (in English). */
async function readExport(file: string) {
  const [head, ...rows] = await readRecords(file);
  const header = readMapHeader(head?.fields ?? []);
  if ("missing" in header) throw new Error(`${file} lacks ${header.missing.join(", ")}`);
  const events: MapTestEvent[] = [];
  const problems: { line: number; column: string | null; message: string }[] = [];
  for (const { line, fields } of rows) {
    const outcome = readMapRow(header, fields);
    if ("event" in outcome) events.push(outcome.event);
    else problems.push(...inEnglish(outcome.problems).map((problem) => ({ line, ...problem })));
  }
  return { header, events, problems };
}

const inEnglish = (problems: MapProblem[]) =>
  problems.map(({ column, message }) => ({ column, message: translate(message, "en") }));

const eventOf = (events: MapTestEvent[], studentId: string, subject: string, termName?: string) => {
  const event = events.find(
    (e) => e.studentId === studentId && e.subject === subject && (!termName || e.termName === termName),
  );
  if (!event) throw new Error(`no ${subject} test of ${studentId}`);
  return event;
};

const NO_GROWTH = NO_REPORTED_GROWTH;

describe("the header of a MAP export", () => {
  it("finds columns in any order and case, trimmed, past a byte-order mark and with FalltoFall spelt either way", () => {
    const header = readMapHeader([
      "\uFEFF termname ",
      "Grade",
      "STUDENTID",
      "TestRITScore",
      "teststartdate",
      " MeasurementScale",
      "FalltoFallObservedGrowth",
      "TypicalFallToFallGrowth",
    ]);
    expect(header).toMatchObject({ generation: "cdf-2013" });
    if ("missing" in header) return;
    expect(header.columns.TermName).toEqual({ index: 0, name: "termname" });
    expect(header.columns.StudentID).toEqual({ index: 2, name: "STUDENTID" });
    expect(header.columns.MeasurementScale).toEqual({ index: 5, name: "MeasurementScale" });
    expect(header.columns.FallToFallObservedGrowth).toEqual({ index: 6, name: "FalltoFallObservedGrowth" });
    expect(header.columns.TypicalFallToFallGrowth).toEqual({ index: 7, name: "TypicalFallToFallGrowth" });
  });

  it("names the required columns it lacks, the subject as the generation calls it", () => {
    expect(readMapHeader(["TermName", "TestRITScore", "Grade"])).toEqual({
      missing: ["StudentID", "TestStartDate", "MeasurementScale"],
    });
    expect(
      readMapHeader(["TermName", "StudentID", "StudentLastName", "TestRITScore", "TestStartDate"]),
    ).toEqual({ missing: ["Subject"] });
  });
});

describe("a pre-2015 CDF (map-2013.csv)", async () => {
  const { header, events, problems } = await readExport(fixture("map-2013.csv"));

  it("reads every row of the quoted file", () => {
    expect(header.generation).toBe("cdf-2013");
    expect(problems).toEqual([]);
    expect(events).toHaveLength(9);
  });

  it("reads a test with its goals and the typical growth of the window it starts", () => {
    expect(events[0]).toEqual({
      studentId: "C13001",
      termName: "Spring 2013-2014",
      season: "spring",
      schoolYear: 2013,
      schoolName: "Cedar Hollow School",
      subject: "Reading",
      discipline: "Reading",
      testName: "MAP: Reading 2-5 Common Core 2010",
      testId: "88410021",
      testType: "Survey With Goals",
      growthMeasure: true,
      testDate: "2014-04-08",
      testStartTime: "09:15:00",
      durationMinutes: 47,
      rit: 196,
      standardError: 3.2,
      percentile: 55,
      achievementQuintile: null,
      percentCorrect: 49,
      rapidGuessingPercent: null,
      lexile: "512",
      grade: null,
      goals: [
        { name: "Literature", rit: 199, standardError: 5.1, rangeLow: 194, rangeHigh: 204, band: "Avg" },
        {
          name: "Informational Text",
          rit: 192,
          standardError: 5.4,
          rangeLow: 187,
          rangeHigh: 197,
          band: "LoAvg",
        },
        {
          name: "Foundational Skills and Vocabulary",
          rit: 197,
          standardError: 5,
          rangeLow: 192,
          rangeHigh: 202,
          band: "Avg",
        },
      ],
      growth: { springToSpring: { ...NO_GROWTH, typical: 9 } },
      firstName: null,
      lastName: null,
    });
  });

  it("reads quoted commas, zero-padded dates, a Survey without goals and a fifth goal", () => {
    const language = eventOf(events, "C13002", "Language Usage");
    expect(language.goals[0]?.name).toBe("Writing: Plan, Organize, Develop, Revise, Research");
    expect(language.discipline).toBe("Language");
    expect(language.testDate).toBe("2014-04-10");

    const survey = eventOf(events, "C13002", "Mathematics");
    expect(survey).toMatchObject({ testType: "Survey", testDate: "2014-04-11", goals: [], growth: {} });

    const algebra = events.find((e) => e.testName === "End of Course: Algebra I");
    expect(algebra?.goals.map((goal) => goal.name)).toHaveLength(5);
    expect(algebra?.goals[4]).toEqual({
      name: "Equations and Inequalities",
      rit: 239,
      standardError: 5.2,
      rangeLow: 234,
      rangeHigh: 244,
      band: "HiAvg",
    });
  });

  it("keeps a Lexile of BR (beginning reader) as written", () => {
    expect(eventOf(events, "C13004", "Reading")).toMatchObject({ lexile: "BR", percentile: 4, rit: 168 });
  });
});

describe("StudentsBySchool.csv", async () => {
  const [head, ...rows] = await readRecords(fixture("StudentsBySchool.csv"));
  const header = readStudentsHeader(head?.fields ?? []);
  if ("missing" in header) throw new Error("StudentsBySchool.csv lacks StudentID");
  const students = rows.map(({ fields }) => readStudentRow(header, fields));

  it("names the students of map-2013.csv, with their grades", async () => {
    expect(students[1]).toEqual({
      studentId: "C13002",
      termName: "Spring 2013-2014",
      firstName: "Tomás",
      lastName: "Reyes",
      schoolName: "Cedar Hollow School",
      grade: 5,
    });
    const { events } = await readExport(fixture("map-2013.csv"));
    const named = new Set(students.map((student) => student?.studentId));
    expect(events.filter((event) => !named.has(event.studentId))).toEqual([]);
  });

  it("needs a StudentID column, and passes over a row without one", () => {
    expect(readStudentsHeader(["TermName", "StudentLastName", "Grade"])).toEqual({ missing: ["StudentID"] });
    expect(readStudentRow(header, ["Spring 2013-2014", "", "", "Nobody", "", "", " ", "", "", "", "4"])).toBe(
      null,
    );
  });

  it("reads K as grade 0 and leaves out a grade it cannot read", () => {
    const columns = readStudentsHeader(["StudentID", "Grade"]);
    if ("missing" in columns) throw new Error("no StudentID");
    expect(readStudentRow(columns, ["X1", "K"])?.grade).toBe(0);
    expect(readStudentRow(columns, ["X1", "PK"])?.grade).toBe(null);
  });
});

describe("a post-2015 CDF (map-2015.csv)", async () => {
  const { header, events, problems } = await readExport(fixture("map-2015.csv"));

  it("reads its columns in their own order past the byte-order mark, and CRLF lines", () => {
    expect(header.generation).toBe("cdf-2015");
    expect(header.columns.StudentID).toEqual({ index: 0, name: "StudentID" });
    expect(header.columns.TermName).toEqual({ index: 4, name: "TermName" });
    expect(problems).toEqual([]);
    expect(events).toHaveLength(9);
    expect(events.map((event) => event.season)).toEqual(Array(3).fill(["fall", "winter", "spring"]).flat());
  });

  it("reads a fall test without growth, and the winter test's fall-to-winter growth", () => {
    expect(eventOf(events, "B2001", "Mathematics", "Fall 2016-2017")).toMatchObject({
      testDate: "2016-09-14",
      rit: 201,
      growth: {},
    });
    const winter = eventOf(events, "B2001", "Mathematics", "Winter 2016-2017");
    expect(winter).toMatchObject({ testDate: "2017-01-18", rit: 207, standardError: 3, percentile: 55 });
    expect(winter.testStartTime).toBe("09:31:00");
    expect(winter.goals[1]).toEqual({
      name: "The Real and Complex Number Systems",
      rit: 207,
      standardError: 5,
      rangeLow: 202,
      rangeHigh: 212,
      band: "Avg",
    });
    expect(winter.growth).toEqual({
      fallToWinter: {
        ...NO_GROWTH,
        projected: 7,
        observed: 6,
        observedStandardError: 4.3,
        met: false,
        conditionalGrowthIndex: -0.2,
        conditionalGrowthPercentile: 42,
      },
    });
  });

  it("reads every window that ends in spring", () => {
    const spring = eventOf(events, "B2001", "Mathematics", "Spring 2016-2017");
    expect(Object.keys(spring.growth)).toEqual(["fallToSpring", "winterToSpring", "springToSpring"]);
    expect(spring.growth.springToSpring).toEqual({
      ...NO_GROWTH,
      projected: 12,
      observed: 14,
      observedStandardError: 4.6,
      met: true,
      conditionalGrowthIndex: 0.29,
      conditionalGrowthPercentile: 61,
    });
    expect(eventOf(events, "B2003", "Mathematics", "Winter 2016-2017").growth.fallToWinter?.observed).toBe(
      -2,
    );
  });

  it("reads growth that agrees with the scores: observed is end minus start, met is observed ≥ projected", () => {
    const ritOf = (studentId: string, season: string) =>
      events.find((e) => e.studentId === studentId && e.season === season)?.rit ?? Number.NaN;
    for (const event of events) {
      for (const [window, growth] of Object.entries(event.growth)) {
        if (window === "springToSpring") continue; // starts in the year before the file
        const start = window.slice(0, window.indexOf("To"));
        expect(growth.observed).toBe(event.rit - ritOf(event.studentId, start));
        expect(growth.met).toBe((growth.observed ?? 0) >= (growth.projected ?? 0));
      }
    }
  });
});

describe("a Combined Data File (map-combined.csv)", async () => {
  const { header, events, problems } = await readExport(fixture("map-combined.csv"));

  it("reads the student's names and grade, K as 0", () => {
    expect(header.generation).toBe("combined");
    expect(problems).toEqual([]);
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({
      studentId: "D3001",
      firstName: "Lena",
      lastName: "Okafor",
      grade: 0,
      season: "fall",
      schoolYear: 2025,
      subject: "Mathematics",
      discipline: "Math K-12",
      testId: null,
      testDate: "2025-09-10",
      achievementQuintile: "Avg",
      rapidGuessingPercent: 0,
      lexile: null,
    });
    expect(eventOf(events, "D3003", "Reading")).toMatchObject({ grade: 7, rapidGuessingPercent: 12 });
  });

  it("reads a goal NWEA could not score (*) as no band", () => {
    expect(events[0]?.goals[2]).toEqual({
      name: "Measurement and Data",
      rit: 143,
      standardError: 6,
      rangeLow: 138,
      rangeHigh: 148,
      band: null,
    });
  });

  it("reads the FalltoFall columns, Yes* as met, and the typical growth of the windows the term starts", () => {
    expect(header.columns.FallToFallMetProjectedGrowth?.name).toBe("FalltoFallMetProjectedGrowth");
    expect(events[0]?.growth).toEqual({
      fallToFall: { ...NO_GROWTH, typical: 19 },
      fallToWinter: { ...NO_GROWTH, typical: 8 },
      fallToSpring: { ...NO_GROWTH, typical: 15 },
    });
    const reading = eventOf(events, "D3002", "Reading");
    expect(reading.lexile).toBe("391L");
    expect(reading.growth.fallToFall).toEqual({
      projected: 8,
      observed: 9,
      observedStandardError: 4.6,
      met: true,
      conditionalGrowthIndex: 0.15,
      conditionalGrowthPercentile: 56,
      quintile: "Avg",
      typical: 7,
    });
    expect(eventOf(events, "D3002", "Mathematics").growth.fallToFall?.met).toBe(false);
    expect(eventOf(events, "D3003", "Reading").growth.fallToFall?.quintile).toBe("High");
  });
});

describe("a file with problems (map-bad.csv)", async () => {
  const { events, problems } = await readExport(fixture("map-bad.csv"));
  const notTerm =
    "is not a term such as Fall 2025-2026: Fall, Winter or Spring, then the two years of the school year";

  it("reads the good row", () => {
    expect(events.map((event) => event.studentId)).toEqual(["E4001"]);
  });

  it("names the column of each problem as the header writes it, and says what is wrong", () => {
    expect(problems).toEqual([
      { line: 3, column: "TermName", message: `Fall 2024 ${notTerm}` },
      { line: 4, column: "TermName", message: `Fall 2024-2026 ${notTerm}` },
      { line: 5, column: "TestStartDate", message: "There is no such date as 9/31/2024" },
      {
        line: 6,
        column: "TestStartDate",
        message: "2024.09.17 is not a date in the form M/D/YYYY or YYYY-MM-DD",
      },
      { line: 7, column: "TESTRITSCORE", message: "412 is not a number from 100 to 350" },
      { line: 8, column: "TestPercentile", message: "high is not a number from 1 to 99" },
      { line: 9, column: "StudentId", message: "StudentId is required" },
      { line: 10, column: "TermName", message: `Summer 2024-2025 ${notTerm}` },
      { line: 10, column: "MeasurementScale", message: "MeasurementScale is required" },
      { line: 10, column: "TestStartDate", message: "There is no such date as 13/1/2024" },
      { line: 10, column: "TESTRITSCORE", message: "abc is not a number from 100 to 350" },
      { line: 10, column: "TestStandardError", message: "n/a is not a number" },
      { line: 10, column: "TestPercentile", message: "0 is not a number from 1 to 99" },
    ]);
  });

  it("refuses an unreadable goal range, growth answer or grade", () => {
    const header = readMapHeader([
      "TermName",
      "StudentID",
      "Subject",
      "TestStartDate",
      "TestRITScore",
      "Grade",
      "Goal1Name",
      "Goal1Range",
      "FalltoFallMetProjectedGrowth",
    ]);
    if ("missing" in header) throw new Error("columns missing");
    const row = [
      "Fall 2025-2026",
      "Z1",
      "Reading",
      "2025-09-10",
      "201",
      "PK",
      "Vocabulary",
      "201/210",
      "Maybe",
    ];
    const outcome = readMapRow(header, row);
    expect("problems" in outcome && inEnglish(outcome.problems)).toEqual([
      { column: "Grade", message: "PK is not a grade: K or a number from 1 to 12" },
      { column: "Goal1Range", message: "201/210 is not a RIT range such as 222-231" },
      { column: "FalltoFallMetProjectedGrowth", message: "Maybe is not Yes or No" },
    ]);
  });
});

describe("the files of a CDF package", () => {
  it("are recognised by name, in any case and folder", () => {
    expect(roleOfFile("AssessmentResults.csv")).toBe("results");
    expect(roleOfFile("Spring 2026/assessmentresults.CSV")).toBe("results");
    expect(roleOfFile("StudentsBySchool.csv")).toBe("students");
    expect(roleOfFile("ClassAssignments.csv")).toBe("classAssignments");
    expect(roleOfFile("ComboStudentAssessment.csv")).toBe(null);
    expect(MAP_FILES.filter((file) => file.required).map((file) => file.name)).toEqual([
      "AssessmentResults.csv",
    ]);
  });
});

describe("NWEA's Spring 2013 sample export", () => {
  it.skipIf(!existsSync(NWEA_SAMPLE))("reads every one of its 2347 rows", async () => {
    const { header, events, problems } = await readExport(NWEA_SAMPLE);
    expect(header.generation).toBe("cdf-2013");
    expect(problems).toEqual([]);
    expect(events).toHaveLength(2347);
    expect(new Set(events.map((event) => event.subject))).toEqual(
      new Set(["Mathematics", "Reading", "Language Usage", "Science - General Science"]),
    );
    const rits = events.map((event) => event.rit);
    expect([Math.min(...rits), Math.max(...rits)]).toEqual([136, 274]);

    const first = events[0];
    expect(first).toMatchObject({
      studentId: "F08000002",
      termName: "Spring 2013-2014",
      season: "spring",
      schoolYear: 2013,
      subject: "Language Usage",
      rit: 221,
      standardError: 4,
      percentile: 64,
      testDate: "2014-03-24",
    });
    expect(first?.goals).toHaveLength(3);
    expect(first?.goals[0]).toMatchObject({ rangeLow: 222, rangeHigh: 231, band: "HiAvg" });
    expect(first?.growth).toEqual({ springToSpring: { ...NO_GROWTH, typical: 3 } });
  });
});
