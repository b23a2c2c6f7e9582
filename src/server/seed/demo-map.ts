import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { gradeLevelOf } from "../../shared/contracts/assessment";
import { csvLine } from "../../shared/csv";
import { type Database, queryRows } from "../db/client";
import { normalCdf } from "../domains/assessment/growth";
import { importMapExport } from "../domains/assessment/map-import";
import { percentileFromNorms } from "../domains/assessment/norms";
import { openFileSet } from "../lib/file-set";
import { demoId } from "./demo-accounts";

/** Last school year's three terms: the demo's results are a whole year of growth. */
const TERMS = [
  { name: "Fall", date: "09-15", yearOffset: 0 },
  { name: "Winter", date: "01-20", yearOffset: 1 },
  { name: "Spring", date: "05-12", yearOffset: 1 },
] as const;

/** Typical fall RITs by grade (0 = K), near the national medians, and a year's typical growth. */
const SUBJECTS = [
  {
    scale: "Mathematics",
    fall: [140, 161, 176, 190, 201, 210, 215, 221, 225],
    goals: ["Operations and Algebraic Thinking", "Number and Operations", "Measurement and Data", "Geometry"],
  },
  {
    scale: "Reading",
    fall: [137, 155, 172, 186, 197, 205, 210, 214, 217],
    goals: ["Literary Text", "Informational Text", "Vocabulary"],
  },
  {
    scale: "Language Usage",
    fall: [null, null, 175, 188, 198, 205, 209, 213, 216],
    goals: ["Writing", "Grammar and Usage", "Mechanics"],
  },
] as const;
const yearGrowthAt = (grade: number) => Math.max(5, 17 - grade * 1.4);
/** The spread of a year's growth among students starting alike (the norms' SD, roughly). */
const GROWTH_SD = 7;

/** A number from 0 to 1 fixed by a text, so the demo is the same on every run. */
function unitOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return ((hash >>> 0) % 10_000) / 10_000;
}

const HEADER = [
  "StudentID",
  "TermName",
  "SchoolName",
  "Grade",
  "MeasurementScale",
  "Discipline",
  "TestName",
  "TestType",
  "GrowthMeasureYN",
  "TestStartDate",
  "TestDurationMinutes",
  "TestRITScore",
  "TestStandardError",
  "TestPercentile",
  ...[1, 2, 3, 4].flatMap((n) => [`Goal${n}Name`, `Goal${n}RitScore`, `Goal${n}Range`, `Goal${n}Adjective`]),
  ...["FallToWinter", "FallToSpring", "WinterToSpring"].flatMap((window) => [
    `${window}ProjectedGrowth`,
    `${window}ObservedGrowth`,
    `${window}MetProjectedGrowth`,
    `${window}ConditionalGrowthIndex`,
    `${window}ConditionalGrowthPercentile`,
  ]),
];

const BANDS = ["Low", "LoAvg", "Avg", "HiAvg", "High"];

/**
 * Three terms of MAP Growth for the demo students in grades 1–8 (they were a grade lower last
 * year; this year's kindergarten had no tests), written as an NWEA export and imported through the
 * import itself. Students grow from well below their projection to past 2×; Ava Johnson reaches
 * 2× in Mathematics and falls short in Reading, so every page has both stories to tell.
 */
export async function seedDemoMap(db: Database, today: Date): Promise<void> {
  const students = await queryRows<{ id: string; identifier: string; grade: string; school: string }>(
    db,
    sql`select u.sourced_id as id, u.identifier, u.grades[1] as grade, o.name as school
      from users u join orgs o on o.sourced_id = u.primary_org_sourced_id
      where u.identifier like 'student-%' order by u.identifier`,
  );
  const schoolYear = today.getUTCMonth() >= 6 ? today.getUTCFullYear() - 1 : today.getUTCFullYear() - 2;
  const lines = [csvLine(HEADER)];
  for (const student of students) {
    const grade = (gradeLevelOf(student.grade) ?? 0) - 1;
    if (grade < 0) continue;
    for (const subject of SUBJECTS) {
      const typicalFall = subject.fall[grade];
      if (typicalFall == null) continue;
      const key = `${student.identifier}:${subject.scale}`;
      const fall = Math.round(typicalFall + (unitOf(`${key}:start`) - 0.5) * 24);
      const projected = Math.round(yearGrowthAt(grade));
      const multiple = multipleOf(student.id, subject.scale, unitOf(`${key}:growth`));
      const spring = fall + Math.round(projected * multiple);
      const winter = fall + Math.round((spring - fall) * (0.45 + unitOf(`${key}:winter`) * 0.2));
      const rits = [fall, winter, spring];
      for (const [index, term] of TERMS.entries()) {
        const rit = rits[index] as number;
        const year = schoolYear + term.yearOffset;
        lines.push(
          csvLine([
            student.identifier,
            `${term.name} ${schoolYear}-${schoolYear + 1}`,
            student.school,
            grade === 0 ? "K" : grade,
            subject.scale,
            subject.scale === "Mathematics"
              ? "Mathematics"
              : subject.scale === "Reading"
                ? "Reading"
                : "Language Arts",
            `Growth: ${subject.scale} ${grade <= 2 ? "K-2" : "2-5"} CCSS 2010`,
            "Survey With Goals",
            "TRUE",
            `${year}-${term.date}`,
            38 + Math.round(unitOf(`${key}:${index}:minutes`) * 25),
            rit,
            (3 + unitOf(`${key}:${index}:se`)).toFixed(1),
            percentileOf(subject.scale, term.name, grade, rit, unitOf(`${key}:${index}:top`)),
            ...goalCells(subject.goals, rit, `${key}:${index}`),
            ...windowCells(
              index === 1 ? { start: fall, end: rit, projected: Math.round(projected * 0.5) } : null,
            ),
            ...windowCells(index === 2 ? { start: fall, end: rit, projected } : null),
            ...windowCells(
              index === 2
                ? { start: winter, end: rit, projected: projected - Math.round(projected * 0.5) }
                : null,
            ),
          ]),
        );
      }
    }
  }
  const folder = await mkdtemp(path.join(tmpdir(), "dash-demo-map-"));
  try {
    const file = path.join(folder, "AssessmentResults.csv");
    await writeFile(file, lines.join(""));
    const files = await openFileSet(folder);
    try {
      const report = await importMapExport(db, files, {
        dryRun: false,
        actorId: demoId("admin"),
        fileName: "AssessmentResults.csv",
        now: today,
        language: "en",
      });
      if (report.errors.length > 0)
        throw new Error(`demo MAP rows were refused: ${JSON.stringify(report.errors[0])}`);
    } finally {
      await files.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Growth as a multiple of the projection: Ava's two stories, and a spread from 0.4× to 2.6× for the rest. */
function multipleOf(studentId: string, scale: string, unit: number): number {
  if (studentId === demoId("student-ava"))
    return scale === "Mathematics" ? 2.2 : scale === "Reading" ? 0.7 : 1.3;
  return 0.4 + unit * 2.2;
}

function goalCells(names: readonly string[], rit: number, key: string): (string | number | null)[] {
  return [0, 1, 2, 3].flatMap((index) => {
    const name = names[index];
    if (!name) return [null, null, null, null];
    const score = Math.round(rit + (unitOf(`${key}:goal${index}`) - 0.5) * 14);
    const band = BANDS[Math.min(4, Math.floor(unitOf(`${key}:band${index}`) * 5))] as string;
    return [name, score, `${score - 5}-${score + 5}`, band];
  });
}

function windowCells(
  window: { start: number; end: number; projected: number } | null,
): (string | number | null)[] {
  if (!window) return [null, null, null, null, null];
  const observed = window.end - window.start;
  const index = (observed - window.projected) / GROWTH_SD;
  const percentile = Math.min(99, Math.max(1, Math.round(normalCdf(index) * 100)));
  return [
    window.projected,
    observed,
    observed >= window.projected ? "Yes" : "No",
    index.toFixed(2),
    percentile,
  ];
}

/** The norms' percentile; Dash's tables stop at the 90th, so a score above it is drawn from 91–99. */
function percentileOf(scale: string, term: string, grade: number, rit: number, unit: number): number {
  const season = term.toLowerCase() as "fall" | "winter" | "spring";
  return percentileFromNorms(scale, season, grade, rit) ?? 91 + Math.floor(unit * 9);
}
