import { sql } from "drizzle-orm";
import { addDays, localDateOf, SCHOOL_TIME_ZONE } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import {
  checkChartChecks,
  checkChartLevels,
  checkCharts,
  checkObservations,
} from "../domains/assessment/schema";
import { demoId } from "./demo-accounts";
import { seededRandom } from "./demo-school";

/** The demo's check chart: four levels of math facts, from adding within 10 to times tables. */
const MATH_FACTS = [
  {
    name: "Adding within 10",
    checks: [
      "Adds doubles up to 5 + 5",
      "Makes 10 from any number",
      "Adds 1 or 2 without counting",
      "Adds within 10 in under 3 seconds",
      "Explains a strategy for a fact",
    ],
  },
  {
    name: "Subtracting within 10",
    checks: [
      "Subtracts 1 or 2 without counting",
      "Uses addition to subtract",
      "Subtracts from 10",
      "Subtracts within 10 in under 3 seconds",
    ],
  },
  {
    name: "Adding and subtracting within 20",
    checks: [
      "Adds near doubles",
      "Makes 10 to add past 10",
      "Subtracts across 10",
      "Finds a missing number in a fact",
      "Answers within 20 in under 3 seconds",
      "Writes the fact family of three numbers",
    ],
  },
  {
    name: "Times tables",
    checks: [
      "Multiplies by 2, 5 and 10",
      "Multiplies by 3 and 4",
      "Multiplies by 6, 7, 8 and 9",
      "Uses a known fact to find another",
      "Answers any fact to 10 × 10 in under 3 seconds",
    ],
  },
] as const;

const CHART_ID = demoId("check-chart-math-facts");
const MAYA = demoId("guide-patel");
const AVA = demoId("student-ava");
const ALEX = demoId("admin");

/**
 * "Math facts fluency", made by Maya Patel, with the ticks she made for the students of her Math
 * class at Maple Grove over the last six weeks: Ava has finished the first level and is part-way
 * through subtracting; her classmates are spread over the levels, a few finished. Its first level
 * is mapped to grade 1 in the legacy review.
 */
export async function seedDemoCheckCharts(db: Database, today: Date): Promise<void> {
  const day = localDateOf(today, SCHOOL_TIME_ZONE);
  const levels = MATH_FACTS.map((level, position) => ({
    id: demoId(`check-chart-math-facts-level-${position + 1}`),
    position,
    level,
  }));
  const checks = levels.flatMap(({ id, position: levelPosition, level }) =>
    level.checks.map((name, position) => ({
      id: demoId(`check-chart-math-facts-check-${levelPosition + 1}-${position + 1}`),
      levelId: id,
      position,
      name,
    })),
  );
  const students = await queryRows<{ id: string }>(
    db,
    sql`select e.user_sourced_id as id from enrollments e
      where e.class_sourced_id = ${demoId("class-maple-grove-guide-patel-Math")} and e.role = 'student'
        and e.status = 'active'
      order by e.user_sourced_id`,
  );

  const random = seededRandom(4_2017);
  const observations: (typeof checkObservations.$inferInsert)[] = [];
  for (const { id: studentId } of students) {
    // How many checks, in the chart's order, this student has shown: Ava the first level and three more.
    const shown = studentId === AVA ? 8 : Math.floor(random() * (checks.length + 1));
    // Spread over the last six weeks, earliest first; never today, so a Guide's tick today stands out.
    checks.slice(0, shown).forEach((check, index) => {
      const daysAgo = Math.max(1, Math.round(42 - (index / shown) * 40 - random() * 2));
      observations.push({
        checkId: check.id,
        studentSourcedId: studentId,
        observedOn: addDays(day, -daysAgo),
        observedBy: MAYA,
        recordedAt: today,
      });
    });
  }

  await db.transaction(async (tx) => {
    await tx.insert(checkCharts).values({
      id: CHART_ID,
      title: "Math facts fluency",
      subject: "Math",
      description: "Quick, sure recall of number facts, from adding within 10 to the times tables.",
      createdBy: MAYA,
      createdAt: today,
      updatedAt: today,
    });
    await tx.insert(checkChartLevels).values(
      levels.map(({ id, position, level }) => ({
        id,
        chartId: CHART_ID,
        position,
        name: level.name,
        ...(position === 0 && { mappedGrade: 1, mappedBy: ALEX, mappedAt: today }),
      })),
    );
    await tx.insert(checkChartChecks).values(checks);
    if (observations.length > 0) await tx.insert(checkObservations).values(observations);
  });
}
