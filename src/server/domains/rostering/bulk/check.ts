import { sql } from "drizzle-orm";
import type { ImportFileSummary } from "../../../../shared/contracts/roster-bulk";
import { dashRoleOf } from "../../../../shared/roles";
import { type Database, queryRows } from "../../../db/client";
import type { FileSet, FileSetEntry } from "../../../lib/file-set";
import { message } from "../../../lib/i18n";
import { CsvSyntaxError, readCsvRecords } from "../../../lib/uploads";
import { type Header, RowReader, readHeader } from "./fields";
import { MANIFEST, readManifest } from "./manifest";
import type { ProblemLog } from "./problems";
import { type FileMode, RosterIds } from "./roster-ids";
import { type ParsedRow, type Reference, ROW_READERS, roleKeyOf } from "./rows";
import {
  COLUMNS,
  closestName,
  fileNameOf,
  REQUIRED_COLUMNS,
  type RosterFile,
  SKIPPED_FILES,
  STORED_FILES,
  type StoredFile,
  USER_PROFILE_COLUMNS,
  USERS_V1P1_COLUMNS,
} from "./spec";

/** A stored file the import reads, with the mode the manifest gives it. */
export interface PlannedFile {
  file: StoredFile;
  entry: FileSetEntry;
  mode: Exclude<FileMode, "absent">;
  summary: ImportFileSummary;
}

export interface ImportPlan {
  version: "1.1" | "1.2" | null;
  files: PlannedFile[];
  /** One line per file of the set (and per stored file the manifest names), for the report. */
  summaries: ImportFileSummary[];
  ids: RosterIds;
  /** Users whose email another user of users.csv takes over: cleared first, so the swap can be written. */
  emailReleases: string[];
}

export interface CheckOptions {
  /** The person importing: the import must not remove them or their administrator role. */
  protectUserId?: string;
  /** Hears how many bytes of the planned files have been read. */
  onBytes?: (file: StoredFile, bytes: number) => void;
}

export function emptySummary(file: string, mode: ImportFileSummary["mode"]): ImportFileSummary {
  return { file, mode, rows: 0, created: 0, updated: 0, deleted: 0, unchanged: 0 };
}

/** The known and the required columns of a file: a delta needs status and dateLastModified, a 1.1 users.csv its roles. */
export function columnsOf(file: StoredFile, options: { isDelta: boolean; hasV1p1Roles: boolean }) {
  const known = file === "users" ? [...COLUMNS.users, ...USERS_V1P1_COLUMNS] : COLUMNS[file];
  const required = [
    ...REQUIRED_COLUMNS[file],
    ...(options.isDelta ? ["status", "dateLastModified"] : []),
    ...(file === "users" && options.hasV1p1Roles ? USERS_V1P1_COLUMNS : []),
  ];
  return { known, required };
}

/**
 * First pass of an import: reads the whole set once, streaming, and reports every problem with
 * its place. Nothing is written. What it learns (modes, ids) is the plan the apply pass follows.
 */
export async function checkRosterSet(
  db: Database,
  source: FileSet,
  problems: ProblemLog,
  options: CheckOptions = {},
): Promise<ImportPlan> {
  const csvEntries = new Map<string, FileSetEntry>();
  for (const entry of source.entries) {
    if (!entry.name.toLowerCase().endsWith(".csv")) {
      problems.warning({ file: entry.name }, message("rostering:bulk.notCsv"));
      continue;
    }
    const lower = entry.name.toLowerCase();
    if (csvEntries.has(lower)) problems.error({ file: entry.name }, message("rostering:bulk.sameName"));
    csvEntries.set(lower, entry);
  }
  const manifestEntry = csvEntries.get(MANIFEST);
  if (!manifestEntry) {
    problems.error({ file: MANIFEST }, message("rostering:bulk.noManifest"));
    return { version: null, files: [], summaries: [], ids: new RosterIds(db, new Map()), emailReleases: [] };
  }
  const manifest = await readManifest(manifestEntry, problems);
  const summaries: ImportFileSummary[] = [];
  const planned = new Map<StoredFile, PlannedFile>();

  // The files the manifest names for reading must be there.
  for (const [file, { mode, line }] of manifest.files) {
    const entry = csvEntries.get(fileNameOf(file).toLowerCase());
    if (mode === "absent") continue;
    if (!entry) {
      problems.error(
        { file: MANIFEST, line, column: "value" },
        message("rostering:bulk.fileMissing", { file, mode, fileName: fileNameOf(file) }),
      );
      continue;
    }
    if ((SKIPPED_FILES as readonly string[]).includes(file)) continue;
    const summary = emptySummary(entry.name, mode);
    planned.set(file as StoredFile, { file: file as StoredFile, entry, mode, summary });
  }

  // Every file of the set is either read, or skipped with a word why.
  for (const [lower, entry] of csvEntries) {
    if (lower === MANIFEST) continue;
    const file = [...STORED_FILES, ...SKIPPED_FILES].find(
      (known) => fileNameOf(known).toLowerCase() === lower,
    );
    if (!file) {
      const suggestion = closestName(entry.name.replace(/\.csv$/i, ""), [...STORED_FILES, ...SKIPPED_FILES]);
      problems.warning(
        { file: entry.name },
        suggestion
          ? message("rostering:bulk.notOneRosterFileSuggestion", { suggestion: fileNameOf(suggestion) })
          : message("rostering:bulk.notOneRosterFile"),
      );
      summaries.push(emptySummary(entry.name, "skipped"));
      continue;
    }
    if (entry.name !== fileNameOf(file)) {
      problems.warning(
        { file: entry.name },
        message("rostering:bulk.fileNameReadAs", { fileName: fileNameOf(file) }),
      );
    }
    const plannedFile = planned.get(file as StoredFile);
    if (plannedFile) continue;
    const mode = manifest.files.get(file)?.mode;
    if (mode === "bulk" || mode === "delta") {
      problems.warning(
        { file: entry.name },
        message("rostering:bulk.notStored", { fileName: fileNameOf(file) }),
      );
      await describeSkippedColumns(entry, file, problems);
      summaries.push(emptySummary(entry.name, "skipped"));
    } else {
      problems.warning(
        { file: entry.name },
        mode === "absent"
          ? message("rostering:bulk.manifestSaysAbsent", { file })
          : message("rostering:bulk.manifestDoesNotName", { file }),
      );
      await describeSkippedColumns(entry, file, problems);
      summaries.push(emptySummary(entry.name, "absent"));
    }
  }

  const modes = new Map<StoredFile, FileMode>(
    STORED_FILES.map((file) => [file, planned.get(file)?.mode ?? "absent"]),
  );
  const ids = new RosterIds(db, modes);
  const checker = new SetChecker(db, ids, problems, options, planned);
  for (const file of STORED_FILES) {
    const plannedFile = planned.get(file);
    if (plannedFile) await checker.checkFile(plannedFile);
  }
  const emailReleases = await checker.checkEmails();
  if (options.protectUserId) await checker.checkProtectedUser(options.protectUserId);

  const files = STORED_FILES.flatMap((file) => planned.get(file) ?? []);
  return {
    version: manifest.version,
    files,
    summaries: [...files.map((file) => file.summary), ...summaries],
    ids,
    emailReleases,
  };
}

/** Says what a file Dash skips seems to hold, when its columns are another file's (a misnamed file). */
async function describeSkippedColumns(entry: FileSetEntry, file: RosterFile, problems: ProblemLog) {
  const own: readonly string[] = (STORED_FILES as readonly string[]).includes(file)
    ? COLUMNS[file as StoredFile]
    : file === "userProfiles"
      ? USER_PROFILE_COLUMNS
      : [];
  let names: string[] = [];
  try {
    for await (const record of readCsvRecords(await entry.open(), { file: entry.name })) {
      names = record.fields.map((field) => field.trim()).filter((name) => name !== "");
      break;
    }
  } catch {
    return; // a broken file that is skipped anyway
  }
  const fits = (columns: readonly string[]) =>
    names.length > 0 && names.every((name) => columns.includes(name) || closestName(name, columns) !== null);
  // Only files whose own columns are known, and headers with enough columns to tell, are compared.
  if (own.length === 0 || names.length < 4 || fits(own)) return;
  const lookalike = STORED_FILES.find((stored) => fits(COLUMNS[stored]));
  if (lookalike) {
    problems.warning(
      { file: entry.name, line: 1 },
      message("rostering:bulk.misnamed", { lookalike: fileNameOf(lookalike), fileName: fileNameOf(file) }),
    );
  }
}

const REFERENCED_FILES: Record<StoredFile, StoredFile[]> = {
  orgs: ["orgs"],
  academicSessions: ["academicSessions"],
  courses: ["academicSessions", "orgs"],
  classes: ["courses", "orgs", "academicSessions"],
  users: ["orgs", "users"],
  roles: ["users", "orgs"],
  demographics: ["users"],
  enrollments: ["classes", "orgs", "users"],
};

interface RoleOfProtectedUser {
  key: string;
  role: string;
  sourcedId: string | null;
}

class SetChecker {
  /** users.csv emails (lower case): who has each, on which line. */
  private readonly emailOwners = new Map<string, { userId: string; line: number }>();
  private readonly roleKeys = new Map<string, number>();
  private protectedUserRow: { roles: string[] | null } | null = null;
  private readonly protectedRoleRows: {
    active: RoleOfProtectedUser[];
    removedKeys: string[];
    removedIds: string[];
  } = { active: [], removedKeys: [], removedIds: [] };

  constructor(
    private readonly db: Database,
    private readonly ids: RosterIds,
    private readonly problems: ProblemLog,
    private readonly options: CheckOptions,
    private readonly planned: ReadonlyMap<StoredFile, PlannedFile>,
  ) {}

  async checkFile(planned: PlannedFile): Promise<void> {
    const { file, entry, mode, summary } = planned;
    for (const target of new Set([file, ...REFERENCED_FILES[file]])) await this.ids.prepare(target);
    const lines = this.ids.linesOf(file);
    const deferred: { reference: Reference; line: number }[] = [];
    let header: Header | null = null;
    try {
      const records = readCsvRecords(await entry.open(), {
        file: entry.name,
        onBytes: (bytes) => this.options.onBytes?.(file, bytes),
      });
      for await (const record of records) {
        if (!header) {
          header = this.readFileHeader(planned, record.fields);
          if (!header.isUsable) {
            this.ids.unreadable.add(file);
            return;
          }
          continue;
        }
        summary.rows++;
        const row = new RowReader(entry.name, record.line, header, record.fields, this.problems);
        const parsed = ROW_READERS[file](row, { isDelta: mode === "delta" });
        if (!parsed) continue;
        const earlier = lines.get(parsed.sourcedId);
        if (earlier !== undefined) {
          row.error(
            "sourcedId",
            message("rostering:bulk.idTwice", {
              sourcedId: parsed.sourcedId,
              line: String(Math.abs(earlier)),
            }),
          );
          continue;
        }
        lines.set(parsed.sourcedId, parsed.isRemoval ? -record.line : record.line);
        let isDropped = false;
        for (const reference of parsed.references) {
          // A reference inside the file waits for the end of the file: it may come later.
          if (reference.file === file) deferred.push({ reference, line: record.line });
          else {
            const place = { file: entry.name, line: record.line };
            isDropped ||= this.ids.checkReference(reference, place, this.problems) === "dropped";
          }
        }
        if (isDropped) this.ids.drop(file, parsed.sourcedId);
        else this.checkRow(parsed, row);
      }
    } catch (error) {
      if (!(error instanceof CsvSyntaxError)) throw error;
      this.problems.error({ file: entry.name, line: error.line }, error.message);
    }
    if (!header) {
      this.ids.unreadable.add(file);
      this.problems.error({ file: entry.name, line: 1 }, message("rostering:bulk.emptyFile"));
      return;
    }
    for (const { reference, line } of deferred) {
      this.ids.checkReference(reference, { file: entry.name, line }, this.problems);
    }
  }

  private readFileHeader(planned: PlannedFile, fields: string[]): Header {
    const { file, entry, mode } = planned;
    const names = fields.map((field) => field.trim());
    const hasV1p1Roles = file === "users" && names.some((name) => name.toLowerCase() === "role");
    const header = readHeader(
      fields,
      { file: entry.name, ...columnsOf(file, { isDelta: mode === "delta", hasV1p1Roles }) },
      this.problems,
    );
    if (hasV1p1Roles && this.planned.has("roles")) {
      this.problems.error(
        { file: entry.name, line: 1, column: "role" },
        message("rostering:bulk.rolesTwoWays"),
      );
    }
    return header;
  }

  private checkRow(parsed: ParsedRow, row: RowReader): void {
    const protectedId = this.options.protectUserId;
    if (parsed.file === "users" && !parsed.isRemoval) {
      const email = parsed.values.email?.toLowerCase();
      if (email) {
        const owner = this.emailOwners.get(email);
        if (owner)
          row.error(
            "email",
            message("rostering:bulk.emailInFile", {
              email: parsed.values.email,
              userId: owner.userId,
              line: String(owner.line),
            }),
          );
        else this.emailOwners.set(email, { userId: parsed.sourcedId, line: row.line });
      }
      if (parsed.sourcedId === protectedId) {
        this.protectedUserRow = { roles: parsed.rolesFromUsersFile?.map((role) => role.role) ?? null };
      }
    }
    if (parsed.file === "roles" && parsed.key) {
      const key = roleKeyOf(parsed.key);
      const earlier = this.roleKeys.get(key);
      if (earlier !== undefined) {
        row.error(
          "role",
          message("rostering:bulk.roleTwice", {
            userId: parsed.key.userSourcedId,
            role: parsed.key.role,
            orgId: parsed.key.orgSourcedId,
            line: String(earlier),
          }),
        );
      } else {
        this.roleKeys.set(key, row.line);
      }
    }
    if (parsed.file === "roles" && protectedId) {
      if (parsed.isRemoval) {
        if (parsed.key) this.protectedRoleRows.removedKeys.push(roleKeyOf(parsed.key));
        this.protectedRoleRows.removedIds.push(parsed.sourcedId);
      } else if (parsed.key?.userSourcedId === protectedId) {
        this.protectedRoleRows.active.push({
          key: roleKeyOf(parsed.key),
          role: parsed.key.role,
          sourcedId: null,
        });
      }
    }
  }

  /** An email may belong to one user only, among the file's users and those already in Dash. */
  async checkEmails(): Promise<string[]> {
    const planned = this.planned.get("users");
    if (!planned || this.emailOwners.size === 0) return [];
    const releases: string[] = [];
    const existing = await queryRows<{ id: string; email: string }>(
      this.db,
      sql`select sourced_id as id, lower(email) as email from users where email is not null`,
    );
    for (const { id, email } of existing) {
      const claimant = this.emailOwners.get(email);
      if (!claimant || claimant.userId === id) continue;
      // The email is free when its holder is in the file with another email (or none).
      if ((this.ids.linesOf("users").get(id) ?? 0) > 0) {
        releases.push(id);
        continue;
      }
      this.problems.error(
        { file: planned.entry.name, line: claimant.line, column: "email" },
        message("rostering:bulk.emailInDash", { email, userId: id }),
      );
    }
    return releases;
  }

  /** The person importing keeps their account and an administrator role, or nothing is imported. */
  async checkProtectedUser(userId: string): Promise<void> {
    const usersFile = this.planned.get("users");
    await this.ids.prepare("users");
    if (!this.ids.isLive("users", userId)) {
      this.problems.error(
        { file: usersFile?.entry.name ?? "users.csv", line: lineOf(this.ids.linesOf("users").get(userId)) },
        message("rostering:bulk.removesOwnAccount", { userId }),
      );
      return;
    }
    const current = await queryRows<{ role: string; orgSourcedId: string; sourcedId: string | null }>(
      this.db,
      sql`select role, org_sourced_id as "orgSourcedId", sourced_id as "sourcedId" from user_roles where user_sourced_id = ${userId}`,
    );
    let roles: RoleOfProtectedUser[] = current.map((role) => ({
      key: roleKeyOf({ userSourcedId: userId, role: role.role, orgSourcedId: role.orgSourcedId }),
      role: role.role,
      sourcedId: role.sourcedId,
    }));
    if (this.protectedUserRow?.roles) {
      roles = this.protectedUserRow.roles.map((role) => ({ key: role, role, sourcedId: null }));
    }
    const rolesFile = this.planned.get("roles");
    if (rolesFile?.mode === "bulk") roles = this.protectedRoleRows.active;
    if (rolesFile?.mode === "delta") {
      const { removedKeys, removedIds, active } = this.protectedRoleRows;
      roles = [
        ...roles.filter(
          (role) =>
            !removedKeys.includes(role.key) && !(role.sourcedId && removedIds.includes(role.sourcedId)),
        ),
        ...active,
      ];
    }
    if (!roles.some((role) => dashRoleOf(role.role) === "administrator")) {
      this.problems.error(
        { file: rolesFile?.entry.name ?? usersFile?.entry.name ?? "roles.csv" },
        message("rostering:bulk.removesOwnAdministratorRole", { userId }),
      );
    }
  }
}

const lineOf = (line: number | undefined) => (line === undefined ? null : Math.abs(line));
