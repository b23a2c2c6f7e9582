/**
 * Writes Dash's copy of NWEA's 2020 MAP Growth status norms (the RIT at each percentile 1–99, per
 * measurement scale, season and grade) from a parsed norms CSV:
 *   npx tsx scripts/make-map-norms.ts [path-to-csv]
 * The CSV has the columns measurementscale, fallwinterspring, grade (0 = K … 12), RIT and
 * student_percentile; by default it is ../shared/fixtures/map/status_norms_2020_parsed.csv from the
 * project's root. The output, src/server/domains/assessment/data/status-norms-2020.json, is kept in
 * the project (the figures are published facts; the CSV itself is not).
 *
 * Gaps are kept, not filled: a percentile the CSV lacks is null in its grade's list of 99. The 2020
 * file Dash was built from stops at the 90th percentile in every table, and each of its Language
 * Usage and General Science tables has one stray row (percentile 1 with the grade as the RIT, in a
 * block between percentiles 49 and 50): rows whose RIT is off the RIT scale are dropped and listed.
 * Two different RITs for one percentile, or a RIT below that of a lower percentile, stop the script.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "csv-parse/sync";
import { MAP_SEASONS, type MapSeason } from "../src/shared/contracts/assessment";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_CSV = path.resolve(PROJECT_ROOT, "../shared/fixtures/map/status_norms_2020_parsed.csv");
const OUTPUT = path.join(PROJECT_ROOT, "src/server/domains/assessment/data/status-norms-2020.json");
const SOURCE = "NWEA 2020 MAP Growth status norms (published RIT by percentile)";
const NOTE =
  "Per measurement scale, season and grade (0 = K): the RIT at percentiles 1 to 99, in order; " +
  "null where the source table lacks that percentile.";
const COLUMNS = ["measurementscale", "fallwinterspring", "grade", "RIT", "student_percentile"];
/** The RIT scale as validators of MAP data accept it: anything outside is not a score. */
const RIT_MIN = 100;
const RIT_MAX = 350;

type Grades = Record<string, (number | null)[]>;

function integerIn(value: string, min: number, max: number, what: string, line: number): number {
  const number = Number(value);
  if (value.trim() === "" || !Number.isInteger(number) || number < min || number > max) {
    throw new Error(`line ${line}: ${what} "${value}" is not a whole number from ${min} to ${max}`);
  }
  return number;
}

function makeNorms(csvPath: string) {
  const records: Record<string, string>[] = parse(readFileSync(csvPath, "utf8"), {
    columns: true,
    skip_empty_lines: true,
    trim: true,
  });
  const header = Object.keys(records[0] ?? {});
  const absent = COLUMNS.filter((column) => !header.includes(column));
  if (absent.length > 0) throw new Error(`${csvPath} lacks the columns ${absent.join(", ")}`);

  const subjects: Record<string, Partial<Record<MapSeason, Grades>>> = {};
  const dropped: string[] = [];
  records.forEach((record, index) => {
    const line = index + 2;
    const scale = record.measurementscale ?? "";
    const season = (record.fallwinterspring ?? "").toLowerCase() as MapSeason;
    if (scale === "") throw new Error(`line ${line}: no measurementscale`);
    if (!MAP_SEASONS.includes(season)) throw new Error(`line ${line}: season "${record.fallwinterspring}"`);
    const grade = integerIn(record.grade ?? "", 0, 12, "grade", line);
    const percentile = integerIn(record.student_percentile ?? "", 1, 99, "student_percentile", line);
    const rit = integerIn(record.RIT ?? "", 0, 1000, "RIT", line);
    if (rit < RIT_MIN || rit > RIT_MAX) {
      dropped.push(`line ${line}: ${scale} ${season} grade ${grade} p${percentile} RIT ${rit}`);
      return;
    }
    subjects[scale] ??= {};
    subjects[scale][season] ??= {};
    subjects[scale][season][grade] ??= Array<number | null>(99).fill(null);
    const rits = subjects[scale][season][grade];
    const known = rits[percentile - 1];
    if (known != null && known !== rit) {
      throw new Error(
        `line ${line}: ${scale} ${season} grade ${grade} p${percentile} is ${known} and ${rit}`,
      );
    }
    rits[percentile - 1] = rit;
  });

  const gaps: string[] = [];
  for (const [scale, seasons] of Object.entries(subjects)) {
    for (const season of MAP_SEASONS) {
      for (const [grade, rits] of Object.entries(seasons[season] ?? {})) {
        let previous = -Infinity;
        rits.forEach((rit, index) => {
          if (rit == null) return;
          if (rit < previous)
            throw new Error(`${scale} ${season} grade ${grade}: p${index + 1} falls to ${rit}`);
          previous = rit;
        });
        const missing = rits.flatMap((rit, index) => (rit == null ? [index + 1] : []));
        if (missing.length > 0) gaps.push(`${scale} ${season} grade ${grade}: ${ranges(missing)}`);
      }
    }
  }
  // Seasons in the school year's order, whatever order the CSV gave them in.
  const ordered = Object.fromEntries(
    Object.entries(subjects).map(([scale, seasons]) => [
      scale,
      Object.fromEntries(
        MAP_SEASONS.flatMap((season) => (seasons[season] ? [[season, seasons[season]]] : [])),
      ),
    ]),
  );
  return { norms: { source: SOURCE, note: NOTE, subjects: ordered }, dropped, gaps };
}

/** 91, 92, …, 99 as "p91-99". */
function ranges(percentiles: number[]): string {
  const parts: string[] = [];
  let start = percentiles[0] ?? 0;
  percentiles.forEach((percentile, index) => {
    const next = percentiles[index + 1];
    if (next === percentile + 1) return;
    parts.push(start === percentile ? `p${start}` : `p${start}-${percentile}`);
    start = next ?? 0;
  });
  return parts.join(", ");
}

const csvPath = path.resolve(process.argv[2] ?? DEFAULT_CSV);
const { norms, dropped, gaps } = makeNorms(csvPath);
// Two-space JSON is what the project's formatter (Biome) leaves as it is.
writeFileSync(OUTPUT, `${JSON.stringify(norms, null, 2)}\n`);

console.log(`wrote ${path.relative(PROJECT_ROOT, OUTPUT)} from ${csvPath}`);
for (const [scale, seasons] of Object.entries(norms.subjects)) {
  for (const [season, grades] of Object.entries(seasons)) {
    console.log(`  ${scale} ${season}: grades ${Object.keys(grades).join(", ")}`);
  }
}
if (dropped.length > 0) {
  console.log(`dropped ${dropped.length} rows whose RIT is not from ${RIT_MIN} to ${RIT_MAX}:`);
  for (const row of dropped) console.log(`  ${row}`);
}
if (gaps.length > 0) {
  console.log(`${gaps.length} tables lack percentiles (kept as null):`);
  for (const gap of gaps) console.log(`  ${gap}`);
}
