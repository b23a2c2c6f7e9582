import { sql } from "drizzle-orm";
import {
  GROWTH_MULTIPLE_TARGET,
  type GrowthWindow,
  type ReportedGrowth,
} from "../../../shared/contracts/assessment";
import { queryRows } from "../../db/client";
import { message } from "../../lib/i18n";
import { registerEarningRule } from "../rewards/earning";
import { growthBetween } from "./growth";

/**
 * The MAP growth bounty, one of the rewards' earning rules: when a winter or spring result
 * arrives, the student earns Alphas for the growth since the fall test of the same school year,
 * scaled by how it compares with the projection: the most (the rule's amount) at twice the
 * projection, half of it at the projection, nothing without growth. Paid once per subject and
 * window, whichever import or job finds it first.
 */

const WINDOW_ENDING_IN: Record<"winter" | "spring", GrowthWindow> = {
  winter: "fallToWinter",
  spring: "fallToSpring",
};

interface GrowthPair {
  studentId: string;
  subject: string;
  schoolYear: number;
  season: "winter" | "spring";
  startRit: number;
  endRit: number;
  startGrowth: Partial<Record<GrowthWindow, ReportedGrowth>>;
  endGrowth: Partial<Record<GrowthWindow, ReportedGrowth>>;
  date: string;
}

registerEarningRule({
  key: "map_growth",
  name: message("assessment:bounty.name"),
  async awardsDue(db, range, settings) {
    const most = settings.earning.mapGrowth;
    if (most === 0) return [];
    const onlyStudents = range.studentIds
      ? sql`and e.student_sourced_id in (select jsonb_array_elements_text(${JSON.stringify(range.studentIds)}::jsonb))`
      : sql``;
    // Results count from the day they arrived, which is when the student hears of them.
    const pairs = await queryRows<GrowthPair>(
      db,
      sql`select e.student_sourced_id as "studentId", e.subject, e.school_year as "schoolYear", e.season,
          s.rit as "startRit", e.rit as "endRit", s.growth as "startGrowth", e.growth as "endGrowth",
          to_char(e.imported_at at time zone 'UTC', 'YYYY-MM-DD') as date
        from map_results e
        join lateral (select f.rit, f.growth from map_results f
          where f.student_sourced_id = e.student_sourced_id and f.subject = e.subject
            and f.school_year = e.school_year and f.season = 'fall' and f.growth_measure
          order by f.test_date desc limit 1) s on true
        where e.season in ('winter', 'spring') and e.growth_measure
          and (e.imported_at at time zone 'UTC')::date between ${range.from}::date and ${range.to}::date
          ${onlyStudents}`,
    );
    return pairs.flatMap((pair) => {
      const window = WINDOW_ENDING_IN[pair.season];
      const growth = growthBetween(
        { rit: pair.startRit, growth: pair.startGrowth },
        { rit: pair.endRit, growth: pair.endGrowth },
        window,
      );
      if (growth.multiple === null || growth.multiple <= 0) return [];
      const amount = Math.round(
        (most * Math.min(growth.multiple, GROWTH_MULTIPLE_TARGET)) / GROWTH_MULTIPLE_TARGET,
      );
      if (amount === 0) return [];
      return [
        {
          studentId: pair.studentId,
          period: `map:${pair.subject}:${pair.schoolYear}:${window}`,
          date: pair.date,
          amount,
          reason: message("assessment:bounty.reason", {
            subject: pair.subject,
            multiple: growth.multiple,
            season: message(`assessment:bounty.seasons.${pair.season}`),
          }),
        },
      ];
    });
  },
});
