import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../../db/client";
import { message } from "../../../lib/i18n";
import type { ProblemLog } from "./problems";
import { type Reference, type RoleKey, roleKeyOf } from "./rows";
import { fileNameOf, type StoredFile } from "./spec";

export type FileMode = "bulk" | "delta" | "absent";

const TABLE_OF: Record<Exclude<StoredFile, "roles">, string> = {
  orgs: "orgs",
  academicSessions: "academic_sessions",
  courses: "courses",
  classes: "classes",
  users: "users",
  demographics: "demographics",
  enrollments: "enrollments",
};
export const tableOf = (file: Exclude<StoredFile, "roles">) => sql.raw(TABLE_OF[file]);

/**
 * Which records exist before and after the import: the ids each file keeps (line > 0) or
 * removes (line < 0), and the ids already in the database with whether they are active. Only
 * ids are held, never rows. The apply pass reads them too: what existed decides between
 * "created" and "updated", and a bulk file removes the active ids it does not hold.
 */
export class RosterIds {
  private readonly lines = new Map<StoredFile, Map<string, number>>();
  /** Per file: every id in the database, and whether its record is active. */
  private readonly inDatabase = new Map<StoredFile, Map<string, boolean>>();
  /** Keys (roleKeyOf) of the roles in the database, when roles.csv is imported. */
  roleKeysInDatabase = new Set<string>();
  /** Files whose header could not be read: references to them are not checked. */
  readonly unreadable = new Set<StoredFile>();
  /** Per file: rows the check left out (with a warning), which the apply pass skips. */
  private readonly dropped = new Map<StoredFile, Set<string>>();

  constructor(
    private readonly db: Database,
    readonly modes: ReadonlyMap<StoredFile, FileMode>,
  ) {}

  modeOf(file: StoredFile): FileMode {
    return this.modes.get(file) ?? "absent";
  }

  linesOf(file: StoredFile): Map<string, number> {
    let lines = this.lines.get(file);
    if (!lines) {
      lines = new Map();
      this.lines.set(file, lines);
    }
    return lines;
  }

  /** Loads the ids of a table once (for roles, the keys of every role). */
  async prepare(file: StoredFile): Promise<void> {
    if (file === "roles") {
      const roles = await queryRows<RoleKey>(
        this.db,
        sql`select user_sourced_id as "userSourcedId", role, org_sourced_id as "orgSourcedId" from user_roles`,
      );
      this.roleKeysInDatabase = new Set(roles.map(roleKeyOf));
      return;
    }
    if (this.inDatabase.has(file)) return;
    const rows = await queryRows<{ id: string; active: boolean }>(
      this.db,
      sql`select sourced_id as id, status = 'active' as active from ${tableOf(file)}`,
    );
    this.inDatabase.set(file, new Map(rows.map((row) => [row.id, row.active])));
  }

  existsInDatabase(file: StoredFile, id: string): boolean {
    return this.inDatabase.get(file)?.get(id) === true;
  }

  /** Whether the database had the record before the import, active or not. */
  existedInDatabase(file: StoredFile, id: string): boolean {
    return this.inDatabase.get(file)?.has(id) ?? false;
  }

  /** The database's ids of a file; only the active ones unless told otherwise. */
  databaseIds(file: StoredFile, options: { includeRemoved?: boolean } = {}): string[] {
    const ids: string[] = [];
    for (const [id, isActive] of this.inDatabase.get(file) ?? [])
      if (isActive || options.includeRemoved) ids.push(id);
    return ids;
  }

  /** Whether a record is active once the import is applied. */
  isLive(file: StoredFile, id: string): boolean {
    const line = this.linesOf(file).get(id);
    if (line !== undefined) return line > 0;
    return this.modeOf(file) !== "bulk" && this.existsInDatabase(file, id);
  }

  /** Leaves a row of a file out of the import: the check has warned why. */
  drop(file: StoredFile, id: string): void {
    this.linesOf(file).delete(id);
    let ids = this.dropped.get(file);
    if (!ids) {
      ids = new Set();
      this.dropped.set(file, ids);
    }
    ids.add(id);
  }

  isDropped(file: StoredFile, id: string): boolean {
    return this.dropped.get(file)?.has(id) ?? false;
  }

  /**
   * Checks a reference to a record that will not exist. A reference that may dangle is kept with
   * a warning; a row naming a record the set removes is dropped with a warning, when its file
   * allows it; anything else is an error.
   */
  checkReference(
    reference: Reference,
    place: { file: string; line: number },
    problems: ProblemLog,
  ): "fine" | "kept" | "dropped" | "refused" {
    const { file, id, column, lenience } = reference;
    if (this.unreadable.has(file) || this.isLive(file, id)) return "fine";
    const fileName = fileNameOf(file);
    const line = this.linesOf(file).get(id);
    const mode = this.modeOf(file);
    // The messages name the record by its file: "the org o-1", "the academic session s-1"…
    const about = { file, id, fileName };
    const where = { ...place, column };
    if (line !== undefined) {
      const removed = { ...about, line: String(-line) };
      if (lenience !== "drop") {
        problems.error(where, message("rostering:bulk.markedRemoved", removed));
        return "refused";
      }
      problems.warning(where, message("rostering:bulk.markedRemovedLeftOut", removed));
      return "dropped";
    }
    if (lenience !== "keep") {
      problems.error(
        where,
        mode === "bulk"
          ? message("rostering:bulk.missingInFile", about)
          : mode === "delta"
            ? message("rostering:bulk.missingInFileOrDash", about)
            : message("rostering:bulk.missingInDash", about),
      );
      return "refused";
    }
    problems.warning(
      where,
      mode === "bulk"
        ? message("rostering:bulk.missingInFileKept", about)
        : mode === "delta"
          ? message("rostering:bulk.missingInFileOrDashKept", about)
          : message("rostering:bulk.missingInDashKept", about),
    );
    return "kept";
  }
}
