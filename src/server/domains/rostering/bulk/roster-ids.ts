import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../../../db/client";
import type { ProblemLog } from "./problems";
import type { Reference } from "./rows";
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

const LABEL: Record<StoredFile, string> = {
  orgs: "org",
  academicSessions: "academic session",
  courses: "course",
  classes: "class",
  users: "user",
  roles: "role",
  demographics: "demographics record",
  enrollments: "enrollment",
};

/**
 * Which records exist once the import is applied, to check references: the ids each file
 * keeps (line > 0) or removes (line < 0), and the active ids already in the database for files
 * that are delta or absent (a bulk file replaces them). Only ids are held, never rows.
 */
export class RosterIds {
  private readonly lines = new Map<StoredFile, Map<string, number>>();
  private readonly inDatabase = new Map<StoredFile, Set<string>>();
  /** Files whose header could not be read: references to them are not checked. */
  readonly unreadable = new Set<StoredFile>();

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

  /** The ids the file keeps active. */
  activeIdsOf(file: StoredFile): string[] {
    return [...this.linesOf(file)].filter(([, line]) => line > 0).map(([id]) => id);
  }

  /** Loads the database's active ids of a file that will keep them (delta or absent). */
  async prepare(file: StoredFile): Promise<void> {
    if (file === "roles" || this.inDatabase.has(file) || this.modeOf(file) === "bulk") return;
    const rows = await queryRows<{ id: string }>(
      this.db,
      sql`select sourced_id as id from ${tableOf(file)} where status = 'active'`,
    );
    this.inDatabase.set(file, new Set(rows.map((row) => row.id)));
  }

  existsInDatabase(file: StoredFile, id: string): boolean {
    return this.inDatabase.get(file)?.has(id) ?? false;
  }

  /** Whether a record is active once the import is applied. */
  isLive(file: StoredFile, id: string): boolean {
    const line = this.linesOf(file).get(id);
    if (line !== undefined) return line > 0;
    return this.modeOf(file) !== "bulk" && this.existsInDatabase(file, id);
  }

  /** Reports a reference to a record that will not exist; true when it is fine. */
  checkReference(reference: Reference, place: { file: string; line: number }, problems: ProblemLog): boolean {
    const { file, id, column } = reference;
    if (this.unreadable.has(file) || this.isLive(file, id)) return true;
    const fileName = fileNameOf(file);
    const line = this.linesOf(file).get(id);
    const mode = this.modeOf(file);
    const what = `${LABEL[file]} ${id}`;
    let message: string;
    if (line !== undefined) message = `The ${what} is marked tobedeleted in ${fileName} (line ${-line})`;
    else if (mode === "bulk") message = `There is no ${what} in ${fileName}`;
    else if (mode === "delta") message = `There is no ${what} in ${fileName} or in Dash`;
    else message = `There is no ${what} in Dash (the set has no ${fileName})`;
    problems.error({ ...place, column }, message);
    return false;
  }
}
