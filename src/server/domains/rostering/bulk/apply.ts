import { type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { ImportFileSummary } from "../../../../shared/contracts/roster-bulk";
import { type Database, queryRows } from "../../../db/client";
import { readCsvRecords } from "../../../lib/uploads";
import {
  academicSessions,
  classes,
  courses,
  demographics,
  enrollments,
  orgs,
  userAgents,
  userRoles,
  users,
} from "../schema";
import { columnsOf, emptySummary, type ImportPlan, type PlannedFile } from "./check";
import { type Header, RowReader, readHeader } from "./fields";
import { SilentProblemLog } from "./problems";
import { tableOf } from "./roster-ids";
import { type ParsedRow, ROW_READERS, type RoleKey, type RoleValues, type RowOf, roleKeyOf } from "./rows";
import type { StoredFile } from "./spec";
import { type ColumnSpec, columnList, columnSpecsOf, unnestRows } from "./unnest";

/**
 * Second pass of an import, inside one transaction: reads the checked files again and writes
 * them in batches of upserts that change only what differs, so the counts say what was created,
 * updated, removed or left as it was.
 */

type RecordFile = Exclude<StoredFile, "roles">;

const TABLES = {
  orgs,
  academicSessions,
  courses,
  classes,
  users,
  demographics,
  enrollments,
} satisfies Record<RecordFile, PgTable>;

/** Columns that OneRoster CSV does not carry: an import leaves them as they are. */
const KEPT_COLUMNS: Partial<Record<RecordFile, readonly string[]>> = {
  users: ["timezone"],
  academicSessions: ["orgSourcedId"],
};

const BATCH_ROWS = 5_000;

/** Removed records keep their rows (status tobedeleted), as activity and history refer to them; see docs/decisions. */
const isSoftRemoval = (file: RecordFile) => file !== "demographics";

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** An id list as one array parameter: long IN lists crash PGlite, and one parameter plans faster. */
const anyOf = (ids: readonly string[]) => sql`any(${sql.param([...ids])}::text[])`;
const ROLE_KEY = columnSpecsOf(userRoles).filter((spec) =>
  ["userSourcedId", "role", "orgSourcedId"].includes(spec.key),
);
const sameRole = (left: string, right: string) =>
  sql.raw(ROLE_KEY.map((spec) => `${left}."${spec.name}" = ${right}."${spec.name}"`).join(" and "));

export interface ApplyOptions {
  now: Date;
  onBytes?: (file: StoredFile, bytes: number) => void;
}

export async function applyRosterSet(db: Database, plan: ImportPlan, options: ApplyOptions): Promise<void> {
  const applier = new Applier(db, plan, options);
  for (const planned of plan.files) await applier.applyFile(planned);
  await applier.removeEnrollmentsOfRemovedRecords();
}

class Applier {
  /** Users whose agents changed: replaced once every user of the file is written. */
  private agentChanges: { userId: string; agentIds: string[] }[] = [];
  private readonly now: string;

  constructor(
    private readonly db: Database,
    private readonly plan: ImportPlan,
    private readonly options: ApplyOptions,
  ) {
    this.now = options.now.toISOString();
  }

  async applyFile(planned: PlannedFile): Promise<void> {
    const { file, entry, mode, summary } = planned;
    const isDelta = mode === "delta";
    const roleKeysInFile = new Set<string>();
    const silent = new SilentProblemLog();
    let header: Header | null = null;
    let batch: ParsedRow[] = [];
    let removals: ParsedRow[] = [];
    const flush = async () => {
      if (batch.length > 0) await this.writeBatch(file, batch, summary);
      if (removals.length > 0) await this.removeRows(file, removals, summary);
      batch = [];
      removals = [];
    };

    if (file === "users") await this.releaseEmails();
    for await (const record of readCsvRecords(await entry.open(), {
      file: entry.name,
      onBytes: (bytes) => this.options.onBytes?.(file, bytes),
    })) {
      if (!header) {
        const hasV1p1Roles =
          file === "users" && record.fields.some((field) => field.trim().toLowerCase() === "role");
        header = readHeader(
          record.fields,
          { file: entry.name, ...columnsOf(file, { isDelta, hasV1p1Roles }) },
          silent,
        );
        continue;
      }
      const row = new RowReader(entry.name, record.line, header, record.fields, silent);
      const parsed = ROW_READERS[file](row, { isDelta });
      if (!parsed || this.plan.ids.isDropped(file, parsed.sourcedId)) continue;
      if (parsed.file === "roles" && parsed.key && !parsed.isRemoval)
        roleKeysInFile.add(roleKeyOf(parsed.key));
      (parsed.isRemoval ? removals : batch).push(parsed);
      if (batch.length >= BATCH_ROWS || removals.length >= BATCH_ROWS) await flush();
    }
    await flush();
    if (file === "users") await this.replaceAgents();
    if (mode === "bulk") {
      if (file === "roles") await this.removeRolesMissingFrom(roleKeysInFile, summary);
      else await this.removeRecordsMissingFromFile(file, summary);
    }
  }

  /** Emails another user of users.csv takes over are cleared first, so a swap can be written. */
  private async releaseEmails(): Promise<void> {
    for (const ids of chunks(this.plan.emailReleases, BATCH_ROWS)) {
      await this.db.execute(sql`update users set email = null where sourced_id = ${anyOf(ids)}`);
    }
  }

  private async writeBatch(file: StoredFile, rows: ParsedRow[], summary: ImportFileSummary) {
    if (file === "roles") return this.writeRoles(rows as RowOf<"roles">[], summary);
    const { written, existed } = await this.upsertRecords(file, rows);
    if (file === "users") {
      const userRows = rows as RowOf<"users">[];
      for (const id of await this.findAgentChanges(userRows)) written.add(id);
      for (const id of await this.replaceRolesFromUsersFile(userRows)) written.add(id);
    }
    for (const row of rows) {
      if (!written.has(row.sourcedId)) summary.unchanged++;
      else if (existed.has(row.sourcedId)) summary.updated++;
      else summary.created++;
    }
  }

  /** Inserts new records and updates those that differ: the ids written, and those that existed before. */
  private async upsertRecords(file: RecordFile, rows: ParsedRow[]) {
    const specs = columnSpecsOf(TABLES[file], KEPT_COLUMNS[file]);
    const table = tableOf(file);
    const written = new Set<string>();
    // A row without dateLastModified is compared on its data only, and stamped with the import's time.
    for (const isDated of [true, false]) {
      const group = rows.filter((row) => (row.modifiedAt !== null) === isDated);
      if (group.length === 0) continue;
      const input = unnestRows(
        specs,
        group.map((row) => ({ ...row.values, dateLastModified: row.modifiedAt ?? this.now })),
      );
      const updated = specs.filter((spec) => spec.key !== "sourcedId");
      const compared = updated.filter((spec) => isDated || spec.key !== "dateLastModified");
      const result = await queryRows<{ id: string }>(
        this.db,
        sql`insert into ${table} (${columnList(specs)}) ${input}
            on conflict (sourced_id) do update set ${assignments(updated)}
            where ${differs(table, compared)}
            returning sourced_id as id`,
      );
      for (const row of result) written.add(row.id);
    }
    const existed = new Set(
      rows.filter((row) => this.plan.ids.existedInDatabase(file, row.sourcedId)).map((row) => row.sourcedId),
    );
    return { written, existed };
  }

  /** Users of the batch whose agents differ from users.csv; their agents are replaced after the file. */
  private async findAgentChanges(rows: RowOf<"users">[]): Promise<string[]> {
    const current = new Map<string, string[]>();
    const pairs = await queryRows<{ userId: string; agentId: string }>(
      this.db,
      sql`select user_sourced_id as "userId", agent_sourced_id as "agentId" from user_agents
          where user_sourced_id = ${anyOf(rows.map((row) => row.sourcedId))}`,
    );
    for (const { userId, agentId } of pairs) current.set(userId, [...(current.get(userId) ?? []), agentId]);
    const changed: string[] = [];
    for (const row of rows) {
      const before = (current.get(row.sourcedId) ?? []).sort();
      const after = [...row.agentSourcedIds].sort();
      if (before.join("\u0000") === after.join("\u0000")) continue;
      changed.push(row.sourcedId);
      this.agentChanges.push({ userId: row.sourcedId, agentIds: after });
    }
    return changed;
  }

  private async replaceAgents(): Promise<void> {
    const specs = columnSpecsOf(userAgents);
    for (const group of chunks(this.agentChanges, BATCH_ROWS)) {
      await this.db.execute(
        sql`delete from user_agents where user_sourced_id = ${anyOf(group.map((change) => change.userId))}`,
      );
      const pairs = group.flatMap((change) =>
        change.agentIds.map((agentSourcedId) => ({ userSourcedId: change.userId, agentSourcedId })),
      );
      if (pairs.length === 0) continue;
      await this.db.execute(sql`insert into user_agents (${columnList(specs)}) ${unnestRows(specs, pairs)}`);
    }
    this.agentChanges = [];
  }

  /** OneRoster 1.1: a user's roles are the users.csv `role` at each of `orgSourcedIds`. */
  private async replaceRolesFromUsersFile(rows: RowOf<"users">[]): Promise<string[]> {
    const withRoles = rows.filter((row) => row.rolesFromUsersFile !== null);
    if (withRoles.length === 0) return [];
    const current = await queryRows<RoleValues>(
      this.db,
      sql`select user_sourced_id as "userSourcedId", role, role_type as "roleType", org_sourced_id as "orgSourcedId",
            begin_date::text as "beginDate", end_date::text as "endDate", sourced_id as "sourcedId"
          from user_roles where user_sourced_id = ${anyOf(withRoles.map((row) => row.sourcedId))}`,
    );
    const describe = (roles: RoleValues[]) =>
      roles
        .map((role) =>
          [role.role, role.orgSourcedId, role.roleType, role.beginDate, role.endDate, role.sourcedId].join(
            "\u0001",
          ),
        )
        .sort()
        .join("\u0000");
    const changed = withRoles.filter(
      (row) =>
        describe(current.filter((role) => role.userSourcedId === row.sourcedId)) !==
        describe(row.rolesFromUsersFile ?? []),
    );
    if (changed.length === 0) return [];
    await this.db.execute(
      sql`delete from user_roles where user_sourced_id = ${anyOf(changed.map((row) => row.sourcedId))}`,
    );
    const specs = columnSpecsOf(userRoles);
    const roles = changed.flatMap((row) => row.rolesFromUsersFile ?? []);
    if (roles.length > 0) {
      await this.db.execute(sql`insert into user_roles (${columnList(specs)}) ${unnestRows(specs, roles)}`);
    }
    return changed.map((row) => row.sourcedId);
  }

  /** roles.csv: a role is identified by user, role and org; its sourcedId follows the row. */
  private async writeRoles(rows: RowOf<"roles">[], summary: ImportFileSummary): Promise<void> {
    const keyed = rows.filter((row): row is RowOf<"roles"> & { key: RoleKey } => row.key !== null);
    // A sourcedId that now names another user, role or org: the old role goes, the new one comes.
    const moved = await queryRows<{ id: string } & RoleKey>(
      this.db,
      sql`select sourced_id as id, user_sourced_id as "userSourcedId", role, org_sourced_id as "orgSourcedId"
          from user_roles where sourced_id = ${anyOf(keyed.map((row) => row.sourcedId))}`,
    );
    const keyOfId = new Map(keyed.map((row) => [row.sourcedId, roleKeyOf(row.key)]));
    const movedIds = new Set(
      moved.filter((role) => keyOfId.get(role.id) !== roleKeyOf(role)).map((role) => role.id),
    );
    if (movedIds.size > 0) {
      await this.db.execute(sql`delete from user_roles where sourced_id = ${anyOf([...movedIds])}`);
    }
    const specs = columnSpecsOf(userRoles);
    const updated = specs.filter((spec) => !ROLE_KEY.some((key) => key.name === spec.name));
    const result = await queryRows<RoleKey>(
      this.db,
      sql`insert into user_roles (${columnList(specs)}) ${unnestRows(
        specs,
        keyed.map((row) => row.values),
      )}
          on conflict (${columnList(ROLE_KEY)}) do update set ${assignments(updated)}
          where ${differs(sql.raw("user_roles"), updated)}
          returning user_sourced_id as "userSourcedId", role, org_sourced_id as "orgSourcedId"`,
    );
    const written = new Set(result.map(roleKeyOf));
    for (const row of keyed) {
      const key = roleKeyOf(row.key);
      if (!written.has(key)) summary.unchanged++;
      else if (this.plan.ids.roleKeysInDatabase.has(key) || movedIds.has(row.sourcedId)) summary.updated++;
      else summary.created++;
    }
  }

  /** Rows marked tobedeleted: the records they name are removed (or were already gone). */
  private async removeRows(file: StoredFile, rows: ParsedRow[], summary: ImportFileSummary): Promise<void> {
    const removed =
      file === "roles"
        ? await this.removeRoles(rows as RowOf<"roles">[])
        : await this.removeRecords(
            file,
            rows.map((row) => row.sourcedId),
          );
    summary.deleted += removed;
    summary.unchanged += rows.length - removed;
  }

  /** Roles named by user, role and org, or by sourcedId alone when the row leaves those empty. */
  private async removeRoles(rows: RowOf<"roles">[]): Promise<number> {
    const keys = rows.flatMap((row) => row.key ?? []);
    const ids = rows.filter((row) => !row.key).map((row) => row.sourcedId);
    const byKey = await queryRows(
      this.db,
      sql`delete from user_roles r using (${unnestRows(ROLE_KEY, keys)}) k where ${sameRole("r", "k")} returning 1`,
    );
    const byId = await queryRows(
      this.db,
      sql`delete from user_roles where sourced_id = ${anyOf(ids)} returning 1`,
    );
    return byKey.length + byId.length;
  }

  /** Removes records by id: a soft removal (status tobedeleted) or, for demographics, a delete. Returns how many. */
  private async removeRecords(file: RecordFile, ids: readonly string[]): Promise<number> {
    let removed = 0;
    for (const group of chunks(ids, BATCH_ROWS)) {
      const statement: SQL = isSoftRemoval(file)
        ? sql`update ${tableOf(file)} set status = 'tobedeleted', date_last_modified = ${this.now}::timestamptz
              where sourced_id = ${anyOf(group)} and status <> 'tobedeleted' returning 1`
        : sql`delete from ${tableOf(file)} where sourced_id = ${anyOf(group)} returning 1`;
      removed += (await queryRows(this.db, statement)).length;
    }
    return removed;
  }

  /** A bulk file is the whole set of its kind: active records it does not hold are removed. */
  private async removeRecordsMissingFromFile(file: RecordFile, summary: ImportFileSummary): Promise<void> {
    const kept = this.plan.ids.linesOf(file);
    const missing = this.plan.ids
      .databaseIds(file, { includeRemoved: !isSoftRemoval(file) })
      .filter((id) => !((kept.get(id) ?? 0) > 0));
    summary.deleted += await this.removeRecords(file, missing);
  }

  private async removeRolesMissingFrom(keys: ReadonlySet<string>, summary: ImportFileSummary): Promise<void> {
    const missing = [...this.plan.ids.roleKeysInDatabase]
      .filter((key) => !keys.has(key))
      .map((key) => {
        const [userSourcedId = "", role = "", orgSourcedId = ""] = key.split("\u0000");
        return { userSourcedId, role, orgSourcedId };
      });
    for (const group of chunks(missing, BATCH_ROWS)) {
      const removed = await queryRows(
        this.db,
        sql`delete from user_roles r using (${unnestRows(ROLE_KEY, group)}) k where ${sameRole("r", "k")} returning 1`,
      );
      summary.deleted += removed.length;
    }
  }

  /** Enrollments of removed users or classes end with them, counted with enrollments.csv. */
  async removeEnrollmentsOfRemovedRecords(): Promise<void> {
    if (!this.plan.files.some((planned) => planned.file === "users" || planned.file === "classes")) return;
    const removed = await queryRows(
      this.db,
      sql`update enrollments e set status = 'tobedeleted', date_last_modified = ${this.now}::timestamptz
          where e.status = 'active'
            and (exists (select 1 from users u where u.sourced_id = e.user_sourced_id and u.status <> 'active')
              or exists (select 1 from classes k where k.sourced_id = e.class_sourced_id and k.status <> 'active'))
          returning 1`,
    );
    if (removed.length === 0) return;
    let summary = this.plan.summaries.find((entry) => entry.file.toLowerCase() === "enrollments.csv");
    if (!summary) {
      summary = emptySummary("enrollments.csv", "absent");
      this.plan.summaries.push(summary);
    }
    summary.deleted += removed.length;
  }
}

function assignments(specs: readonly ColumnSpec[]): SQL {
  return sql.raw(specs.map((spec) => `"${spec.name}" = excluded."${spec.name}"`).join(", "));
}

/** `(table.a, …) is distinct from (excluded.a, …)`: an upsert writes only rows that change. */
function differs(table: SQL, specs: readonly ColumnSpec[]): SQL {
  return sql`(${sql.join(
    specs.map((spec) => sql`${table}.${sql.raw(`"${spec.name}"`)}`),
    sql`, `,
  )}) is distinct from (${columnList(specs, "excluded.")})`;
}
