import { type MapSeason, mapScaleOf } from "../../../shared/contracts/assessment";
import norms from "./data/status-norms-2020.json" with { type: "json" };

/**
 * NWEA's 2020 status norms, written by scripts/make-map-norms.ts: per measurement scale, season and
 * grade (0 = K), the RIT at percentiles 1–99 (index 0 is the 1st), null where the source lacks one.
 * The tables Dash has stop at the 90th percentile, cover Language Usage in grades 2–11 and General
 * Science in grades 3–11 only, and Mathematics and Reading in K–12.
 */
type NormTables = Record<string, Partial<Record<MapSeason, Record<string, readonly (number | null)[]>>>>;

const tables: NormTables = norms.subjects;

function normsOf(subject: string, season: MapSeason, grade: number): readonly (number | null)[] | null {
  const scale = mapScaleOf(subject);
  if (scale === null || !Number.isInteger(grade)) return null;
  return tables[scale]?.[season]?.[String(grade)] ?? null;
}

/**
 * The percentile of a RIT in one norms table (the RIT at percentiles 1–99, null where unknown): the
 * highest percentile whose RIT is at or below the score, 1 below the 1st percentile's RIT, 99 at or
 * above the 99th's. Null when the answer falls in a gap: in a table that ends at the 90th
 * percentile, a score at or above the 90th's RIT is at the 90th percentile or higher, but which one
 * cannot be told.
 */
export function percentileInTable(rits: readonly (number | null)[], rit: number): number | null {
  if (!Number.isFinite(rit)) return null;
  let highest = 0;
  rits.forEach((normRit, index) => {
    if (normRit !== null && normRit <= rit) highest = index + 1;
  });
  if (highest === 99) return 99;
  // The next percentile's RIT, when known, is above the score and so are all after it.
  return rits[highest] == null ? null : Math.max(highest, 1);
}

/**
 * The status percentile (1–99) of a RIT score for a subject (any of NWEA's spellings), season and
 * grade, by `percentileInTable`; null when the norms lack the subject, season or grade.
 */
export function percentileFromNorms(
  subject: string,
  season: MapSeason,
  grade: number,
  rit: number,
): number | null {
  const rits = normsOf(subject, season, grade);
  return rits === null ? null : percentileInTable(rits, rit);
}

/** The RITs at the 25th, 50th and 75th percentiles: the middle half of students, for charts. */
export function normBands(
  subject: string,
  season: MapSeason,
  grade: number,
): { p25: number; p50: number; p75: number } | null {
  const rits = normsOf(subject, season, grade);
  const [p25, p50, p75] = [rits?.[24], rits?.[49], rits?.[74]];
  if (p25 == null || p50 == null || p75 == null) return null;
  return { p25, p50, p75 };
}
