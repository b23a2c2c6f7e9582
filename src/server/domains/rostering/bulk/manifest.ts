import { type CsvRecord, CsvSyntaxError, readCsvRecords } from "../../../lib/uploads";
import { standardSpelling } from "./fields";
import type { ProblemLog } from "./problems";
import type { FileMode } from "./roster-ids";
import type { SourceEntry } from "./source";
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
export async function readManifest(entry: SourceEntry, problems: ProblemLog): Promise<Manifest> {
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
    problems.error(place(1), "The header of manifest.csv must be propertyName,value");
    return manifest;
  }
  const seen = new Map<string, number>();
  for (const { line, fields } of rows) {
    const property = (fields[0] ?? "").trim();
    const value = (fields[1] ?? "").trim();
    const earlier = seen.get(property.toLowerCase());
    if (earlier !== undefined) {
      problems.error(place(line, "propertyName"), `${property} is given twice (first on line ${earlier})`);
      continue;
    }
    seen.set(property.toLowerCase(), line);
    if (property.toLowerCase().startsWith("file.")) {
      readFileMode(property, value, line, manifest, problems);
    } else if (property.toLowerCase() === "oneroster.version") {
      if (/^1\.1(\.\d+)?$/.test(value)) manifest.version = "1.1";
      else if (/^1\.2(\.\d+)?$/.test(value)) manifest.version = "1.2";
      else problems.error(place(line, "value"), `oneroster.version ${value || "(empty)"} is not 1.1 or 1.2`);
    } else if (!MANIFEST_PROPERTIES.some((known) => known.toLowerCase() === property.toLowerCase())) {
      const suggestion = closestName(property, [
        ...MANIFEST_PROPERTIES,
        ...KNOWN_FILES.map((file) => `file.${file}`),
      ]);
      problems.warning(
        place(line, "propertyName"),
        `Unknown property ${property}${suggestion ? `: did you mean ${suggestion}?` : ""}; it is ignored`,
      );
    }
  }
  if (!seen.has("oneroster.version"))
    problems.error(place(null), "The manifest does not give oneroster.version");
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
      `${property} is not a OneRoster file${suggestion ? `: did you mean file.${suggestion}?` : ""}; it is ignored`,
    );
    return;
  }
  if (value === "") {
    problems.warning(
      place,
      `${property} has no value (bulk, delta or absent): the file is treated as absent`,
    );
    manifest.files.set(file, { mode: "absent", line });
    return;
  }
  const mode = standardSpelling("fileMode", value) as FileMode | undefined;
  if (!mode) {
    problems.error(place, `${property} is ${value}, which is not bulk, delta or absent`);
    return;
  }
  if (mode !== value) problems.warning(place, `${value} is read as ${mode} (the standard spelling)`);
  manifest.files.set(file, { mode, line });
}
