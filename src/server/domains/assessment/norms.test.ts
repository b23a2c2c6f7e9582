import { existsSync, readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import type { MapSeason } from "../../../shared/contracts/assessment";
import { normBands, percentileFromNorms, percentileInTable } from "./norms";

// Kindergarten Mathematics in the fall, as the norms JSON has it: p1 111, p2 114, p47–49 139,
// p50–53 140, p88 154, p89 155, p90 156, and no percentiles after the 90th.
describe("the percentile of a RIT in the 2020 status norms", () => {
  it("is the highest percentile whose RIT is at or below the score", () => {
    expect(percentileFromNorms("Mathematics", "fall", 0, 111)).toBe(1);
    expect(percentileFromNorms("Mathematics", "fall", 0, 114)).toBe(2);
    // 139 is the RIT of p47, p48 and p49; 140 that of p50 to p53.
    expect(percentileFromNorms("Mathematics", "fall", 0, 139)).toBe(49);
    expect(percentileFromNorms("Mathematics", "fall", 0, 140)).toBe(53);
    expect(percentileFromNorms("Mathematics", "fall", 0, 155)).toBe(89);
  });

  it("gives a score between two norm RITs the lower percentile", () => {
    expect(percentileFromNorms("Mathematics", "fall", 0, 113)).toBe(1);
    expect(percentileFromNorms("Mathematics", "fall", 0, 154.5)).toBe(88);
  });

  it("gives 1 below the 1st percentile's RIT", () => {
    expect(percentileFromNorms("Mathematics", "fall", 0, 110)).toBe(1);
    expect(percentileFromNorms("Mathematics", "fall", 0, 100)).toBe(1);
  });

  it("cannot tell a percentile at or above the last one the table has (p90 here)", () => {
    expect(percentileFromNorms("Mathematics", "fall", 0, 156)).toBeNull();
    expect(percentileFromNorms("Mathematics", "fall", 0, 300)).toBeNull();
  });

  it("is null for what the norms do not have", () => {
    expect(percentileFromNorms("Mathematics", "fall", 13, 200)).toBeNull();
    expect(percentileFromNorms("Mathematics", "fall", -1, 200)).toBeNull();
    expect(percentileFromNorms("Mathematics", "fall", 2.5, 200)).toBeNull();
    // Language Usage starts in grade 2, General Science in grade 3 and ends in grade 11.
    expect(percentileFromNorms("Language Usage", "fall", 1, 170)).toBeNull();
    expect(percentileFromNorms("General Science", "spring", 12, 220)).toBeNull();
    expect(percentileFromNorms("Art", "fall", 3, 200)).toBeNull();
    expect(percentileFromNorms("Mathematics", "fall", 0, Number.NaN)).toBeNull();
  });

  it("accepts NWEA's spellings of a subject, whatever their case", () => {
    // Grade 8 General Science in the fall: p1 177, p2 181.
    for (const subject of ["Science - General Science", "General Science", "science", "SCIENCE"]) {
      expect(percentileFromNorms(subject, "fall", 8, 181)).toBe(2);
    }
    // Grade 2 Language Usage in the winter: p1 148, p2 152.
    for (const subject of ["Language Usage", "language usage", "Language", " Language  Usage "]) {
      expect(percentileFromNorms(subject, "winter", 2, 152)).toBe(2);
    }
    for (const subject of ["Mathematics", "Math", "MATH"])
      expect(percentileFromNorms(subject, "fall", 0, 114)).toBe(2);
    // Grade 5 Reading in the spring: p1 174, p2 178.
    expect(percentileFromNorms("reading", "spring", 5, 178)).toBe(2);
    expect(percentileFromNorms("Math K-12", "fall", 0, 114)).toBeNull();
  });

  it("in a full table, gives 99 at or above the 99th percentile's RIT", () => {
    const full = Array.from({ length: 99 }, (_, index) => 150 + index);
    expect(percentileInTable(full, 248)).toBe(99);
    expect(percentileInTable(full, 400)).toBe(99);
    expect(percentileInTable(full, 247)).toBe(98);
    expect(percentileInTable(full, 149)).toBe(1);
  });

  it("cannot tell a percentile that falls in a gap of a table", () => {
    // p9 159, p10 unknown (159, 160 or 161), p11 161: 159 and 160 may be the 9th percentile or the 10th.
    const gap = Array.from({ length: 99 }, (_, index) => (index === 9 ? null : 151 + index));
    expect(percentileInTable(gap, 158)).toBe(8);
    expect(percentileInTable(gap, 159)).toBeNull();
    expect(percentileInTable(gap, 160)).toBeNull();
    expect(percentileInTable(gap, 161)).toBe(11);
    // Without a 1st percentile, a score below the 2nd's RIT may be the 1st or below it.
    const noFirst = [null, ...Array.from({ length: 98 }, (_, index) => 152 + index)];
    expect(percentileInTable(noFirst, 140)).toBeNull();
  });
});

describe("the norms' middle band", () => {
  it("gives the RITs at the 25th, 50th and 75th percentiles", () => {
    expect(normBands("Mathematics", "fall", 0)).toEqual({ p25: 131, p50: 140, p75: 148 });
    expect(normBands("Reading", "spring", 5)).toEqual({ p25: 200, p50: 211, p75: 222 });
    expect(normBands("Math", "spring", 12)).toEqual({ p25: 218, p50: 234, p75: 251 });
  });

  it("is null for what the norms do not have", () => {
    expect(normBands("General Science", "fall", 2)).toBeNull();
    expect(normBands("Music", "fall", 5)).toBeNull();
  });
});

const NORMS_CSV = "../shared/fixtures/map/status_norms_2020_parsed.csv";
const haveCsv = existsSync(NORMS_CSV);

describe("the norms JSON against the CSV it was made from", () => {
  it.skipIf(!haveCsv)("places the RIT at every percentile of every table at that percentile", () => {
    const rows: {
      measurementscale: string;
      fallwinterspring: string;
      grade: string;
      RIT: string;
      student_percentile: string;
    }[] = parse(readFileSync(NORMS_CSV, "utf8"), { columns: true, skip_empty_lines: true });
    // The generator drops rows whose RIT is off the RIT scale (stray rows in the 2020 file).
    const scored = rows.filter((row) => Number(row.RIT) >= 100 && Number(row.RIT) <= 350);
    expect(rows.length - scored.length).toBeLessThan(100);

    // Per table: the highest percentile at each RIT (ties share a RIT) and the last percentile.
    const tables = new Map<string, { highestAt: Map<number, number>; last: number }>();
    for (const row of scored) {
      const key = `${row.measurementscale}|${row.fallwinterspring}|${row.grade}`;
      const table = tables.get(key) ?? { highestAt: new Map(), last: 0 };
      const [rit, percentile] = [Number(row.RIT), Number(row.student_percentile)];
      table.highestAt.set(rit, Math.max(table.highestAt.get(rit) ?? 0, percentile));
      table.last = Math.max(table.last, percentile);
      tables.set(key, table);
    }

    const wrong: string[] = [];
    for (const row of scored) {
      const table = tables.get(`${row.measurementscale}|${row.fallwinterspring}|${row.grade}`);
      const [rit, percentile] = [Number(row.RIT), Number(row.student_percentile)];
      const highest = table?.highestAt.get(rit) ?? Number.NaN;
      // The table's last percentile may share its RIT with the missing ones after it.
      const expected = highest === table?.last && highest < 99 ? null : highest;
      const season = row.fallwinterspring.toLowerCase() as MapSeason;
      const found = percentileFromNorms(row.measurementscale, season, Number(row.grade), rit);
      const fits = found === expected && (found === null || found >= percentile);
      if (!fits)
        wrong.push(
          `${row.measurementscale} ${season} grade ${row.grade} p${percentile} RIT ${rit}: ${found}`,
        );
    }
    expect(wrong).toEqual([]);
    expect(scored.length).toBeGreaterThan(12_000);
  });
});
