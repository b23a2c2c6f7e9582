// Aliased: the server's bundle declares `createRequire` itself (build-server.ts).
import { createRequire as requireRelativeTo } from "node:module";
import type { Content, TableCell, TDocumentDefinitions } from "pdfmake/interfaces";
import type {
  ReportChart,
  ReportColumn,
  ReportFigure,
  ReportResult,
  ReportTable,
  ReportUnit,
} from "../../../shared/contracts/reports";
import type { Language } from "../../../shared/languages";
import { columnHeading, formatChange, formatReportValue } from "../../../shared/report-values";
import { SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { message, translate } from "../../lib/i18n";
import { chartSvg, SERIES_COLOURS, sparklinePoints } from "./chart-svg";
import { LOCALES } from "./engine";

/**
 * A report as a PDF made on the server from the same result the page and the CSV show: a header
 * with the school, the filters and when it was made, the figures, the highlights, every chart and
 * every table in full with its headings on each page, and page numbers. Decision record 027.
 */

const requireFromHere = requireRelativeTo(import.meta.url);

/**
 * Roboto as pdfmake ships it (Apache 2.0): Latin with its extensions, Vietnamese, Greek and
 * Cyrillic, so any student's name prints; nothing depends on the fonts of the machine.
 */
const FONT_FILES = {
  normal: requireFromHere.resolve("pdfmake/fonts/Roboto/Roboto-Regular.ttf"),
  bold: requireFromHere.resolve("pdfmake/fonts/Roboto/Roboto-Medium.ttf"),
  italics: requireFromHere.resolve("pdfmake/fonts/Roboto/Roboto-Italic.ttf"),
  bolditalics: requireFromHere.resolve("pdfmake/fonts/Roboto/Roboto-MediumItalic.ttf"),
};
const FONT_PATHS: ReadonlySet<string> = new Set(Object.values(FONT_FILES));

type Pdfmake = typeof import("pdfmake");
let pdfmake: Pdfmake | undefined;

/** pdfmake, loaded on the first PDF (the server starts without it): our fonts only, no file or address of a document read. */
function printer(): Pdfmake {
  if (!pdfmake) {
    const loaded = requireFromHere("pdfmake") as Pdfmake;
    loaded.setFonts({ Roboto: FONT_FILES });
    loaded.setUrlAccessPolicy(() => false);
    loaded.setLocalAccessPolicy((path) => FONT_PATHS.has(path));
    pdfmake = loaded;
  }
  return pdfmake;
}

const INK = "#0f172a";
const MUTED = "#475569";
const RULE = "#cbd5e1";
const BOX = "#f1f5f9";
const ZEBRA = "#f8fafc";
const HEADING_FILL = "#e2e8f0";
const BRAND = SERIES_COLOURS[0];
const MARGIN = 40;
/** A4 in points, portrait. */
const PAGE = { width: 595.28, height: 841.89 };
/** The main table turns the page to landscape past this many columns. */
const PORTRAIT_COLUMNS = 7;
/** Charts take a third of a portrait page's height, less of a landscape one's. */
const CHART_HEIGHT = { portrait: 190, landscape: 160 };
const CELL_PADDING = 5;
const SPARKLINE = { width: 56, height: 12 };
/** Units a chart's axis names above it; a count needs no name and a percent's ticks say it. */
const AXIS_UNITS: ReadonlySet<ReportUnit> = new Set(["xp", "minutes", "hours", "xpPerHour", "rit"]);
/** Units written to the left of a cell: words and dates. */
const LEFT_ALIGNED: ReadonlySet<ReportUnit> = new Set(["text", "date"]);

interface Writer {
  locale: string;
  t: (key: string, values?: Record<string, unknown>) => string;
  /** Width of the text column of a page, in points. */
  width: number;
}

export async function reportPdf(result: ReportResult, language: Language): Promise<Uint8Array<ArrayBuffer>> {
  const buffer = await printer().createPdf(reportDocument(result, language)).getBuffer();
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

/** The document pdfmake lays out: exported for the tests that look at its parts. */
export function reportDocument(result: ReportResult, language: Language): TDocumentDefinitions {
  const main = result.tables.find((table) => table.main) ?? result.tables[0];
  const landscape = (main?.columns.length ?? 0) > PORTRAIT_COLUMNS;
  const writer: Writer = {
    locale: LOCALES[language],
    t: (key, values) => translate(message(`reports:${key}`, values), language),
    width: (landscape ? PAGE.height : PAGE.width) - 2 * MARGIN,
  };
  return {
    pageSize: "A4",
    pageOrientation: landscape ? "landscape" : "portrait",
    pageMargins: [MARGIN, MARGIN, MARGIN, MARGIN + 14],
    language,
    info: {
      title: `${result.title}: ${result.subtitle}`,
      subject: result.scope,
      author: "Dash",
      creator: "Dash",
    },
    defaultStyle: { font: "Roboto", fontSize: 9.5, color: INK, lineHeight: 1.2 },
    styles: {
      brand: { fontSize: 11, bold: true, color: BRAND, characterSpacing: 0.5 },
      title: { fontSize: 22, bold: true, margin: [0, 14, 0, 2] },
      subtitle: { fontSize: 12.5, color: MUTED },
      scope: { fontSize: 12.5, bold: true, margin: [0, 10, 0, 2] },
      muted: { fontSize: 9, color: MUTED },
      section: { fontSize: 12.5, bold: true, margin: [0, 18, 0, 8] },
    },
    content: [
      ...header(result, writer),
      ...figures(result, writer),
      ...highlights(result, writer),
      ...result.charts.map((chart) => chartBlock(chart, writer)),
      ...result.tables.map((table) => tableBlock(table, writer)),
    ],
    footer: (currentPage, pageCount) => ({
      margin: [MARGIN, 14, MARGIN, 0],
      columns: [
        { text: `Dash · ${result.title}`, style: "muted" },
        {
          text: writer.t("pdf.page", { page: currentPage, pages: pageCount }),
          style: "muted",
          alignment: "right",
        },
      ],
    }),
  };
}

function madeOn(result: ReportResult, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: SCHOOL_TIME_ZONE,
    timeZoneName: "short",
  }).format(new Date(result.generatedAt));
}

function header(result: ReportResult, writer: Writer): Content[] {
  const applied = result.applied.map(({ label, value }) => `${label}: ${value}`).join("   ·   ");
  return [
    {
      columns: [
        { text: "Dash", style: "brand", width: "auto" },
        {
          text: writer.t("pdf.madeOn", { date: madeOn(result, writer.locale) }),
          style: "muted",
          alignment: "right",
        },
      ],
    },
    { text: result.title, style: "title" },
    { text: result.subtitle, style: "subtitle" },
    { text: result.scope, style: "scope" },
    ...(applied ? [{ text: applied, style: "muted" } satisfies Content] : []),
    {
      canvas: [{ type: "line", x1: 0, y1: 0, x2: writer.width, y2: 0, lineWidth: 0.8, lineColor: RULE }],
      margin: [0, 12, 0, 0],
    },
  ];
}

/** The figures as boxes, four to a row (six across a landscape page). */
function figures(result: ReportResult, writer: Writer): Content[] {
  if (result.figures.length === 0) return [];
  const perRow = writer.width > PAGE.width ? 6 : 4;
  const rows: TableCell[][] = [];
  for (let start = 0; start < result.figures.length; start += perRow) {
    const cells: TableCell[] = result.figures
      .slice(start, start + perRow)
      .map((figure) => figureBox(figure, writer.locale));
    while (cells.length < perRow) cells.push({ text: "", fillColor: "#ffffff" });
    rows.push(cells);
  }
  return [
    {
      margin: [-4, 14, -4, 0],
      table: { widths: Array(perRow).fill("*"), body: rows, dontBreakRows: true },
      layout: {
        hLineWidth: () => 4,
        vLineWidth: () => 4,
        hLineColor: () => "#ffffff",
        vLineColor: () => "#ffffff",
        paddingLeft: () => 9,
        paddingRight: () => 9,
        paddingTop: () => 8,
        paddingBottom: () => 8,
      },
    },
    ...(result.comparedWith
      ? [{ text: result.comparedWith, style: "muted", italics: true, margin: [0, 4, 0, 0] } satisfies Content]
      : []),
  ];
}

function figureBox(figure: ReportFigure, locale: string): TableCell {
  const change = formatChange(figure.change, locale);
  return {
    fillColor: BOX,
    stack: [
      { text: figure.label, fontSize: 8.5, color: MUTED },
      {
        text: formatReportValue(figure.value, figure.unit, locale),
        fontSize: 17,
        bold: true,
        margin: [0, 3, 0, 0],
      },
      ...(change ? [{ text: change, fontSize: 8.5, color: MUTED } satisfies Content] : []),
    ],
  };
}

function highlights(result: ReportResult, writer: Writer): Content[] {
  if (result.highlights.length === 0) return [];
  return [
    {
      unbreakable: true,
      stack: [
        { text: writer.t("pdf.highlights"), style: "section" },
        {
          ul: result.highlights.map((sentence) => ({ text: sentence, margin: [0, 0, 0, 4] })),
          markerColor: BRAND,
        },
      ],
    },
  ];
}

function chartBlock(chart: ReportChart, writer: Writer): Content {
  const unitLabel = AXIS_UNITS.has(chart.unit) ? writer.t(`units.${chart.unit}`) : "";
  return {
    unbreakable: true,
    stack: [
      { text: chart.title, style: "section" },
      {
        svg: chartSvg(chart, {
          width: writer.width,
          height: writer.width > PAGE.width ? CHART_HEIGHT.landscape : CHART_HEIGHT.portrait,
          locale: writer.locale,
          unitLabel,
        }),
        width: writer.width,
      },
    ],
  };
}

/**
 * A table in full. Its title and headings are the table's heading rows, so both repeat on every
 * page and stay with at least one row: a title never ends a page alone.
 */
function tableBlock(table: ReportTable, writer: Writer): Content {
  if (table.rows.length === 0)
    return {
      unbreakable: true,
      stack: [
        { text: table.title, style: "section" },
        { text: table.empty, style: "muted" },
      ],
    };
  // The first column of words (a name) takes the room the others leave; without one all share it.
  const wide = table.columns.findIndex((column) => column.unit === "text");
  const widths = table.columns.map((column, index) =>
    column.unit === "trend" ? SPARKLINE.width + 8 : wide < 0 || index === wide ? "*" : "auto",
  );
  const title: TableCell[] = table.columns.map(
    (_, index): TableCell =>
      index === 0
        ? {
            text: table.title,
            style: "section",
            colSpan: table.columns.length,
            margin: [-CELL_PADDING, 18, 0, 5],
          }
        : {},
  );
  const headings: TableCell[] = table.columns.map((column, index) => ({
    text: columnHeading(column),
    bold: true,
    fontSize: 8.5,
    noWrap: index !== wide,
    alignment: alignmentOf(column),
  }));
  const body = table.rows.map((row) =>
    table.columns.map((column, index) => cellOf(row[index] ?? null, column, writer.locale)),
  );
  return {
    table: {
      headerRows: 2,
      keepWithHeaderRows: 1,
      dontBreakRows: true,
      widths,
      body: [title, headings, ...body],
    },
    layout: {
      fillColor: (row) => (row === 1 ? HEADING_FILL : row > 1 && row % 2 === 1 ? ZEBRA : null),
      hLineWidth: (index, node) => (index === 2 || index === node.table.body.length ? 0.6 : 0),
      hLineColor: () => RULE,
      vLineWidth: () => 0,
      paddingLeft: () => CELL_PADDING,
      paddingRight: () => CELL_PADDING,
      paddingTop: (row) => (row === 0 ? 0 : 3),
      paddingBottom: (row) => (row === 0 ? 0 : 3),
    },
  };
}

function alignmentOf(column: ReportColumn): "left" | "right" | "center" {
  if (column.unit === "trend") return "center";
  return LEFT_ALIGNED.has(column.unit) ? "left" : "right";
}

function cellOf(value: ReportTable["rows"][number][number], column: ReportColumn, locale: string): TableCell {
  if (column.unit === "trend" && Array.isArray(value) && value.length > 0) return sparkline(value);
  return { text: formatReportValue(value, column.unit, locale), alignment: alignmentOf(column) };
}

function sparkline(values: readonly number[]): TableCell {
  const points = sparklinePoints(values, SPARKLINE.width, SPARKLINE.height);
  const last = points.at(-1) ?? { x: 0, y: 0 };
  return {
    margin: [4, 1, 0, 0],
    canvas: [
      ...(points.length > 1
        ? [{ type: "polyline" as const, points, lineWidth: 1, lineColor: BRAND, lineJoin: "round" as const }]
        : []),
      { type: "ellipse", x: last.x, y: last.y, r1: 1.4, r2: 1.4, color: BRAND },
    ],
  };
}
