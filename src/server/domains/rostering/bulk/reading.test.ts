import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CsvSyntaxError, readCsvRecords } from "../../../lib/uploads";
import { RowReader, readHeader } from "./fields";
import { ProblemLog } from "./problems";
import { COLUMNS, closestName } from "./spec";

async function records(text: string | Buffer) {
  const result: { line: number; fields: string[] }[] = [];
  for await (const record of readCsvRecords(Readable.from([text]), { file: "t.csv" })) result.push(record);
  return result;
}

describe("reading CSV records", () => {
  it("skips a byte-order mark and reads CRLF, LF and CR line ends alike", async () => {
    const text = "\uFEFFa,b\r\n1,2\n3,4\r5,6";
    expect(await records(text)).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["1", "2"] },
      { line: 3, fields: ["3", "4"] },
      { line: 4, fields: ["5", "6"] },
    ]);
  });

  it("reads quoted commas, doubled quotes and line breaks, and keeps counting lines after them", async () => {
    const text =
      'a,b\r\n"Room 2, east","He said ""hi"""\r\n"two\r\nlines",x\r\n\r\nlast,"one\nmore"\r\nend,1\r\n';
    expect(await records(text)).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["Room 2, east", 'He said "hi"'] },
      { line: 3, fields: ["two\r\nlines", "x"] },
      // line 5 is blank
      { line: 6, fields: ["last", "one\nmore"] },
      { line: 8, fields: ["end", "1"] },
    ]);
  });

  it("reads UTF-8 split across chunks", async () => {
    const bytes = Buffer.from("name\nJosé Núñez\n", "utf8");
    const split = bytes.indexOf(0xc3) + 1; // in the middle of é
    const result: string[][] = [];
    for await (const record of readCsvRecords(
      Readable.from([bytes.subarray(0, split), bytes.subarray(split)]),
      { file: "t.csv" },
    )) {
      result.push(record.fields);
    }
    expect(result).toEqual([["name"], ["José Núñez"]]);
  });

  it("stops with the line where a quoted field is never closed", async () => {
    await expect(records('a,b\n1,2\n3,"open\n4,5\n')).rejects.toSatisfy(
      (error) => error instanceof CsvSyntaxError && error.line === 3,
    );
  });
});

describe("reading a header", () => {
  const options = { file: "users.csv", known: COLUMNS.users, required: ["sourcedId", "givenName"] };

  it("maps standard columns, reads other cases with a warning and keeps metadata columns", () => {
    const problems = new ProblemLog();
    const header = readHeader(["sourcedId", "GivenName", "metadata.locker", ""], options, problems);
    expect(header.isUsable).toBe(true);
    expect(header.index.get("givenName")).toBe(1);
    expect(header.metadata.get("locker")).toBe(2);
    expect(header.unnamed).toEqual([3]);
    expect(problems.errorCount).toBe(0);
    expect(problems.list().map((problem) => problem.message)).toEqual([
      "Column GivenName is read as givenName",
      "Column 4 has no name: its values are not read",
    ]);
  });

  it("reports misspelt columns with a suggestion, repeated columns and missing required ones", () => {
    const problems = new ProblemLog();
    const header = readHeader(
      ["sourcedId", "prefferedGivenName", "sourcedId", "shoeSize"],
      options,
      problems,
    );
    expect(header.isUsable).toBe(false);
    expect(problems.list()).toEqual([
      expect.objectContaining({
        line: 1,
        column: "prefferedGivenName",
        message: expect.stringContaining("did you mean preferredGivenName?"),
      }),
      expect.objectContaining({ column: "sourcedId", message: "Column sourcedId appears twice" }),
      expect.objectContaining({ column: "shoeSize", message: expect.not.stringContaining("did you mean") }),
      expect.objectContaining({ column: "givenName", message: "The required column givenName is missing" }),
    ]);
  });
});

describe("reading values", () => {
  const header = readHeader(
    ["status", "startDate", "dateLastModified", "enabledUser", "grades", "classType", "x"],
    {
      file: "t.csv",
      known: ["status", "startDate", "dateLastModified", "enabledUser", "grades", "classType", "x"],
      required: [],
    },
    new ProblemLog(),
  );
  const rowOf = (fields: string[]) => {
    const problems = new ProblemLog();
    return { row: new RowReader("t.csv", 7, header, fields, problems), problems };
  };

  it("reads a value in another case as the standard spelling, with a warning at its place", () => {
    const { row, problems } = rowOf(["Active", "", "", "", "", "Scheduled"]);
    expect(row.enumeration("status", "status")).toBe("active");
    expect(row.enumeration("classType", "classType")).toBe("scheduled");
    expect(problems.errorCount).toBe(0);
    expect(problems.list()[1]).toMatchObject({ line: 7, column: "classType", severity: "warning" });
  });

  it("rejects values outside a vocabulary, impossible dates and non-booleans", () => {
    const { row, problems } = rowOf(["inactive", "2025-02-30", "1/05/2023", "yes", "", "lab"]);
    expect(row.enumeration("status", "status")).toBeNull();
    expect(row.date("startDate")).toBeNull();
    expect(row.dateTime("dateLastModified")).toBeNull();
    expect(row.boolean("enabledUser")).toBeNull();
    expect(row.enumeration("classType", "classType", { allowExtension: true })).toBeNull();
    expect(problems.list().map((problem) => problem.column)).toEqual([
      "status",
      "startDate",
      "dateLastModified",
      "enabledUser",
      "classType",
    ]);
  });

  it("accepts ext: values, a date-time with an offset, a date alone (with a warning) and TRUE", () => {
    const { row, problems } = rowOf([
      "active",
      "2024-02-29",
      "2025-08-01T10:00:00+02:00",
      "TRUE",
      "kg,04",
      "ext:lab",
    ]);
    expect(row.enumeration("classType", "classType", { allowExtension: true })).toBe("ext:lab");
    expect(row.date("startDate")).toBe("2024-02-29");
    expect(row.dateTime("dateLastModified")).toBe("2025-08-01T10:00:00+02:00");
    expect(row.boolean("enabledUser")).toBe(true);
    expect(row.grades("grades")).toEqual(["KG", "04"]);
    expect(problems.errorCount).toBe(0);
    const dateOnly = rowOf(["", "", "2025-08-01", "", "", ""]);
    expect(dateOnly.row.dateTime("dateLastModified")).toBe("2025-08-01T00:00:00Z");
    expect(dateOnly.problems.warningCount).toBe(1);
  });

  it("reports a value under a column without a name, and extra fields", () => {
    const unnamedHeader = readHeader(
      ["status", ""],
      { file: "t.csv", known: ["status"], required: [] },
      new ProblemLog(),
    );
    const problems = new ProblemLog();
    new RowReader("t.csv", 3, unnamedHeader, ["active", "surprise", "more"], problems);
    expect(problems.list().map((problem) => problem.message)).toEqual([
      "A value (surprise) stands under column 2, which has no name",
      "The line has 3 fields but the header has 2 columns",
    ]);
  });
});

describe("suggesting names", () => {
  it("suggests close names only", () => {
    expect(closestName("dataLastModified", COLUMNS.roles)).toBe("dateLastModified");
    expect(closestName("prefferedFamilyName", COLUMNS.users)).toBe("preferredFamilyName");
    expect(closestName("shoeSize", COLUMNS.users)).toBeNull();
  });
});
