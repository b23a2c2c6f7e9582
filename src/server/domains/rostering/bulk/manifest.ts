import type { FileSetEntry } from "../../../lib/file-set";
import { message } from "../../../lib/i18n";
import { type CsvRecord, CsvSyntaxError, readCsvRecords } from "../../../lib/uploads";
import { standardSpelling } from "./fields";
import type { ProblemLog } from "./problems";
import type { FileMode } from "./roster-ids";
import { closestName, MANIFEST_PROPERTIES, type RosterFile, SKIPPED_FILES, STORED_FILES } from "./spec";

export const MANIFEST = "manifest.csv";
const KNOWN_FILES: readonly RosterFile[] = [...STORED_FILES, ...SKIPPED_FILES];

export interface Manifest {
  /** "1.1" or "1.2"; null when the manifest does not say (or says something else). */
  version: "1.1" | "1.2" | null;
  /** Each file the manifest names, with its mode and the manifest line that says so. */
  files: Map<RosterFile, { mode: FileMode; line: number }>;
}

/** Reads manifest.csv (propertyName,value): the OneRoster version and how to read each file. */
export async function readManifest(entry: FileSetEntry, problems: ProblemLog): Promise<Manifest> {
  const manifest: Manifest = { version: null, files: new Map() };
  const place = (line: number | null, column: string | null = null) => ({ file: MANIFEST, line, column });
  const records: CsvRecord[] = [];
  try {
    for await (const record of readCsvRecords(await entry.open(), { file: MANIFEST })) records.push(record);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    problems.error(place(error.line), error.message);
  }
  const [header, ...rows] = records;
  const names = header?.fields.map((field) => field.trim().toLowerCase());
  if (names?.[0] !== "propertyname" || names[1] !== "value") {
    problems.error(place(1), message("rostering:bulk.manifestHeader"));
    return manifest;
  }
  const seen = new Map<string, number>();
  for (const { line, fields } of rows) {
    const property = (fields[0] ?? "").trim();
    const value = (fields[1] ?? "").trim();
    const earlier = seen.get(property.toLowerCase());
    if (earlier !== undefined) {
      problems.error(
        place(line, "propertyName"),
        message("rostering:bulk.propertyTwice", { property, line: String(earlier) }),
      );
      continue;
    }
    seen.set(property.toLowerCase(), line);
    if (property.toLowerCase().startsWith("file.")) {
      readFileMode(property, value, line, manifest, problems);
    } else if (property.toLowerCase() === "oneroster.version") {
      if (/^1\.1(\.\d+)?$/.test(value)) manifest.version = "1.1";
      else if (/^1\.2(\.\d+)?$/.test(value)) manifest.version = "1.2";
      else
        problems.error(
          place(line, "value"),
          value ? message("rostering:bulk.badVersion", { value }) : message("rostering:bulk.emptyVersion"),
        );
    } else if (!MANIFEST_PROPERTIES.some((known) => known.toLowerCase() === property.toLowerCase())) {
      const suggestion = closestName(property, [
        ...MANIFEST_PROPERTIES,
        ...KNOWN_FILES.map((file) => `file.${file}`),
      ]);
      problems.warning(
        place(line, "propertyName"),
        suggestion
          ? message("rostering:bulk.unknownPropertySuggestion", { property, suggestion })
          : message("rostering:bulk.unknownProperty", { property }),
      );
    }
  }
  if (!seen.has("oneroster.version")) problems.error(place(null), message("rostering:bulk.noVersion"));
  return manifest;
}

function readFileMode(
  property: string,
  value: string,
  line: number,
  manifest: Manifest,
  problems: ProblemLog,
) {
  const place = { file: MANIFEST, line, column: "value" };
  const name = property.slice("file.".length);
  const file =
    KNOWN_FILES.find((known) => known === name) ??
    KNOWN_FILES.find((known) => known.toLowerCase() === name.toLowerCase());
  if (!file) {
    const suggestion = closestName(name, KNOWN_FILES);
    problems.warning(
      { ...place, column: "propertyName" },
      suggestion
        ? message("rostering:bulk.notFilePropertySuggestion", { property, suggestion })
        : message("rostering:bulk.notFileProperty", { property }),
    );
    return;
  }
  if (value === "") {
    problems.warning(place, message("rostering:bulk.noMode", { property }));
    manifest.files.set(file, { mode: "absent", line });
    return;
  }
  const mode = standardSpelling("fileMode", value) as FileMode | undefined;
  if (!mode) {
    problems.error(place, message("rostering:bulk.badMode", { property, value }));
    return;
  }
  if (mode !== value)
    problems.warning(place, message("rostering:bulk.standardSpelling", { value, standard: mode }));
  manifest.files.set(file, { mode, line });
}
