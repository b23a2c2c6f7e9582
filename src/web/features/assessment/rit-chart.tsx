import { useTranslation } from "react-i18next";
import { Area, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from "recharts";
import { type MapTestRecord, mapScaleOf } from "../../../shared/contracts/assessment";
import {
  CATEGORY_AXIS,
  CHART_GRID,
  ChartFigure,
  TOOLTIP_FRAME,
  VALUE_AXIS,
} from "../../components/charts/chart-style";
import { subjectColor } from "../../lib/subjects";

/** NWEA's scales under Dash's subject names, for the subject's colour. */
const DASH_SUBJECT_OF_SCALE: Record<string, string> = {
  Mathematics: "Math",
  Reading: "Reading",
  "Language Usage": "Language",
  "General Science": "Science",
};

interface Point {
  term: string;
  rit: number;
  /** The middle half of students in the grade and season (25th to 75th percentile). */
  band: [number, number] | null;
  median: number | null;
}

/**
 * A subject's RIT over its tests, over the band where the middle half of students of the grade
 * score in that season, with the median as a dashed line. Screen readers hear every score.
 */
export function RitChart({ subject, tests }: { subject: string; tests: MapTestRecord[] }) {
  const { t } = useTranslation("assessment");
  const points: Point[] = tests.map((test) => ({
    term: test.termName,
    rit: test.rit,
    band: test.normBand ? [test.normBand.p25, test.normBand.p75] : null,
    median: test.normBand?.p50 ?? null,
  }));
  const values = points.flatMap((point) => [point.rit, ...(point.band ?? [])]);
  const low = Math.floor((Math.min(...values) - 5) / 10) * 10;
  const high = Math.ceil((Math.max(...values) + 5) / 10) * 10;
  const summary = points.map((point) => `${point.term}: ${point.rit}`).join("; ");
  const hasBand = points.some((point) => point.band !== null);
  const color = subjectColor(DASH_SUBJECT_OF_SCALE[mapScaleOf(subject) ?? ""] ?? subject);
  return (
    <ChartFigure
      label={t("map.chart.label", { subject, summary })}
      caption={hasBand ? t("map.chart.captionWithBand") : t("map.chart.caption")}
    >
      <ComposedChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid {...CHART_GRID} />
        <XAxis {...CATEGORY_AXIS} dataKey="term" interval="preserveStartEnd" minTickGap={16} />
        <YAxis {...VALUE_AXIS} domain={[low, high]} />
        <Tooltip
          {...TOOLTIP_FRAME}
          formatter={(value, name) => [Array.isArray(value) ? value.join("–") : String(value), String(name)]}
        />
        {hasBand && (
          <Area
            dataKey="band"
            name={t("map.chart.band")}
            fill="#94a3b8"
            fillOpacity={0.25}
            stroke="none"
            isAnimationActive={false}
            connectNulls
          />
        )}
        {hasBand && (
          <Line
            dataKey="median"
            name={t("map.chart.median")}
            stroke="#64748b"
            strokeDasharray="5 4"
            dot={false}
            isAnimationActive={false}
            connectNulls
          />
        )}
        <Line
          dataKey="rit"
          name={t("map.rit")}
          stroke={color}
          strokeWidth={3}
          dot={{ r: 5, fill: color }}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ChartFigure>
  );
}
