import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { ImportFileSummary } from "../../../../shared/contracts/roster-bulk";
import { type Database, queryRows } from "../../../db/client";
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
import { readCsvRecords } from "./csv";
import { type Header, RowReader, readHeader } from "./fields";
import { SilentProblemLog } from "./problems";
import { tableOf } from "./roster-ids";
import { type ParsedRow, ROW_READERS, type RoleKey, type RoleValues, type RowOf, roleKeyOf } from "./rows";
import type { StoredFile } from "./spec";

/**
 * Second pass of an import, inside one transaction: reads the checked files again and writes
 * them in batches of multi-row upserts that change only what differs, so the counts say what
 * was created, updated, removed or left as it was.
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

// PostgreSQL takes at most 65,535 parameters in one statement.
const MAX_PARAMETERS_PER_STATEMENT = 30_000;
const ID_BATCH = 5_000;

/** Removed records keep their rows (status tobedeleted), as activity and history refer to them; see docs/decisions. */
const isSoftRemoval = (file: RecordFile) => file !== "demographics";

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * Lists travel as one array parameter (`= any(...)`, `unnest(...)`): long IN lists of values or
 * of tuples crash PGlite, and one parameter is cheaper to plan.
 */
const anyOf = (ids: readonly string[]) => sql`any(${sql.param([...ids])}::text[])`;
const roleKeysTable = (keys: readonly RoleKey[]) =>
  sql`unnest(${sql.param(keys.map((key) => key.userSourcedId))}::text[], ${sql.param(keys.map((key) => key.role))}::text[],
    ${sql.param(keys.map((key) => key.orgSourcedId))}::text[]) as k(user_sourced_id, role, org_sourced_id)`;

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

  constructor(
    private readonly db: Database,
    private readonly plan: ImportPlan,
    private readonly options: ApplyOptions,
  ) {}

  async applyFile(planned: PlannedFile): Promise<void> {
    const { file, entry, mode, summary } = planned;
    const roleKeysInFile = new Set<string>();
    let header: Header | null = null;
    let batch: ParsedRow[] = [];
    let removals: ParsedRow[] = [];
    const batchSize = Math.floor(
      MAX_PARAMETERS_PER_STATEMENT /
        (file === "roles" ? 8 : Object.keys(getTableColumns(TABLES[file])).length),
    );
    const silent = new SilentProblemLog();

    if (file === "users" && this.plan.emailReleases.length > 0) {
      for (const ids of chunks(this.plan.emailReleases, ID_BATCH)) {
        await this.db.execute(sql`update users set email = null where sourced_id = ${anyOf(ids)}`);
      }
    }
    const flush = async () => {
      if (batch.length > 0) await this.writeBatch(file, batch, summary);
      if (removals.length > 0) await this.removeRows(file, removals, summary);
      batch = [];
      removals = [];
    };
    const records = readCsvRecords(await entry.open(), (bytes) => this.options.onBytes?.(file, bytes));
    for await (const record of records) {
      if (!header) {
        const hasV1p1Roles = record.fields.some((field) => field.trim().toLowerCase() === "role");
        const columns = columnsOf(file, {
          isDelta: mode === "delta",
          hasV1p1Roles: file === "users" && hasV1p1Roles,
        });
        header = readHeader(record.fields, { file: entry.name, ...columns }, silent);
        continue;
      }
      const parsed = ROW_READERS[file](
        new RowReader(entry.name, record.line, header, record.fields, silent),
        {
          isDelta: mode === "delta",
        },
      );
      if (!parsed) continue;
      if (parsed.file === "roles" && parsed.key && !parsed.isRemoval)
        roleKeysInFile.add(roleKeyOf(parsed.key));
      (parsed.isRemoval ? removals : batch).push(parsed);
      if (batch.length >= batchSize || removals.length >= ID_BATCH) await flush();
    }
    await flush();
    if (file === "users") await this.replaceAgents();
    if (mode === "bulk") {
      if (file === "roles") await this.removeRolesMissingFrom(roleKeysInFile, summary);
      else await this.removeRecordsMissingFromFile(file, summary);
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
    const table = TABLES[file];
    const before = await queryRows<{ id: string }>(
      this.db,
      sql`select sourced_id as id from ${tableOf(file)} where sourced_id = ${anyOf(rows.map((row) => row.sourcedId))}`,
    );
    const existed = new Set(before.map((row) => row.id));

    const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(
      ([key]) => key !== "sourcedId" && key !== "dateLastModified" && !KEPT_COLUMNS[file]?.includes(key),
    );
    const written = new Set<string>();
    // A row without dateLastModified is compared on its data only, and stamped with the import's time.
    for (const isDated of [true, false]) {
      const group = rows.filter((row) => (row.modifiedAt !== null) === isDated);
      if (group.length === 0) continue;
      const compared = isDated
        ? [...columns, ["dateLastModified", table.dateLastModified] as const]
        : columns;
      const setWhere = sql`(${sql.join(
        compared.map(([, column]) => sql`${column}`),
        sql`, `,
      )}) is distinct from (${sql.join(
        compared.map(([, column]) => sql.raw(`excluded."${column.name}"`)),
        sql`, `,
      )})`;
      const returned = await this.db
        .insert(table)
        .values(
          group.map((row) => ({
            ...row.values,
            dateLastModified: sql`${row.modifiedAt ?? this.options.now.toISOString()}::timestamptz`,
          })) as never,
        )
        .onConflictDoUpdate({
          target: table.sourcedId,
          set: Object.fromEntries(
            [...columns, ["dateLastModified", table.dateLastModified] as const].map(([key, column]) => [
              key,
              sql.raw(`excluded."${column.name}"`),
            ]),
          ),
          setWhere,
        })
        .returning({ id: table.sourcedId });
      for (const { id } of returned) written.add(id);
    }
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
    for (const group of chunks(this.agentChanges, ID_BATCH)) {
      await this.db.execute(
        sql`delete from user_agents where user_sourced_id = ${anyOf(group.map((change) => change.userId))}`,
      );
      const pairs = group.flatMap((change) =>
        change.agentIds.map((agentSourcedId) => ({ userSourcedId: change.userId, agentSourcedId })),
      );
      for (const values of chunks(pairs, ID_BATCH)) await this.db.insert(userAgents).values(values);
    }
    this.agentChanges = [];
  }

  /** OneRoster 1.1: a user's roles are the users.csv `role` at each of `orgSourcedIds`. */
  private async replaceRolesFromUsersFile(rows: RowOf<"users">[]): Promise<string[]> {
    const withRoles = rows.filter((row) => row.rolesFromUsersFile !== null);
    if (withRoles.length === 0) return [];
    const current = await queryRows<RoleValues & { userSourcedId: string }>(
      this.db,
      sql`select user_sourced_id as "userSourcedId", role, role_type as "roleType", org_sourced_id as "orgSourcedId",
            begin_date as "beginDate", end_date as "endDate", sourced_id as "sourcedId"
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
    const roles = changed.flatMap((row) => row.rolesFromUsersFile ?? []);
    for (const values of chunks(roles, ID_BATCH)) await this.db.insert(userRoles).values(values);
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
    const existing = await queryRows<RoleKey>(
      this.db,
      sql`select r.user_sourced_id as "userSourcedId", r.role, r.org_sourced_id as "orgSourcedId"
          from ${roleKeysTable(keyed.map((row) => row.key))}
          join user_roles r on r.user_sourced_id = k.user_sourced_id and r.role = k.role and r.org_sourced_id = k.org_sourced_id`,
    );
    const existingKeys = new Set(existing.map(roleKeyOf));
    const compared = [userRoles.roleType, userRoles.beginDate, userRoles.endDate, userRoles.sourcedId];
    const returned = await this.db
      .insert(userRoles)
      .values(keyed.map((row) => row.values))
      .onConflictDoUpdate({
        target: [userRoles.userSourcedId, userRoles.role, userRoles.orgSourcedId],
        set: Object.fromEntries(
          (["roleType", "beginDate", "endDate", "sourcedId"] as const).map((key) => [
            key,
            sql.raw(`excluded."${userRoles[key].name}"`),
          ]),
        ),
        setWhere: sql`(${sql.join(
          compared.map((column) => sql`${column}`),
          sql`, `,
        )}) is distinct from (${sql.join(
          compared.map((column) => sql.raw(`excluded."${column.name}"`)),
          sql`, `,
        )})`,
      })
      .returning({
        userSourcedId: userRoles.userSourcedId,
        role: userRoles.role,
        orgSourcedId: userRoles.orgSourcedId,
      });
    const written = new Set(returned.map(roleKeyOf));
    for (const row of keyed) {
      const key = roleKeyOf(row.key);
      if (!written.has(key)) summary.unchanged++;
      else if (existingKeys.has(key) || movedIds.has(row.sourcedId)) summary.updated++;
      else summary.created++;
    }
  }

  /** Rows marked tobedeleted: the records they name are removed (or were already gone). */
  private async removeRows(file: StoredFile, rows: ParsedRow[], summary: ImportFileSummary): Promise<void> {
    let removed = 0;
    if (file === "roles") {
      for (const row of rows as RowOf<"roles">[]) {
        const match = row.key
          ? sql`user_sourced_id = ${row.key.userSourcedId} and role = ${row.key.role} and org_sourced_id = ${row.key.orgSourcedId}`
          : sql`sourced_id = ${row.sourcedId}`;
        removed += (await queryRows(this.db, sql`delete from user_roles where ${match} returning 1`)).length;
      }
    } else {
      removed = await this.removeRecords(
        file,
        rows.map((row) => row.sourcedId),
      );
    }
    summary.deleted += removed;
    summary.unchanged += rows.length - removed;
  }

  /** Removes records by id: a soft removal (status tobedeleted) or, for demographics, a delete. Returns how many. */
  private async removeRecords(file: RecordFile, ids: readonly string[]): Promise<number> {
    let removed = 0;
    for (const group of chunks(ids, ID_BATCH)) {
      const statement: SQL = isSoftRemoval(file)
        ? sql`update ${tableOf(file)} set status = 'tobedeleted', date_last_modified = ${this.options.now.toISOString()}::timestamptz
              where sourced_id = ${anyOf(group)} and status <> 'tobedeleted' returning 1`
        : sql`delete from ${tableOf(file)} where sourced_id = ${anyOf(group)} returning 1`;
      removed += (await queryRows(this.db, statement)).length;
    }
    return removed;
  }

  /** A bulk file is the whole set of its kind: active records it does not hold are removed. */
  private async removeRecordsMissingFromFile(file: RecordFile, summary: ImportFileSummary): Promise<void> {
    const kept = this.plan.ids.linesOf(file);
    const current = await queryRows<{ id: string }>(
      this.db,
      isSoftRemoval(file)
        ? sql`select sourced_id as id from ${tableOf(file)} where status = 'active'`
        : sql`select sourced_id as id from ${tableOf(file)}`,
    );
    const missing = current.map((row) => row.id).filter((id) => !((kept.get(id) ?? 0) > 0));
    summary.deleted += await this.removeRecords(file, missing);
  }

  private async removeRolesMissingFrom(keys: ReadonlySet<string>, summary: ImportFileSummary): Promise<void> {
    const current = await queryRows<RoleKey>(
      this.db,
      sql`select user_sourced_id as "userSourcedId", role, org_sourced_id as "orgSourcedId" from user_roles`,
    );
    const missing = current.filter((role) => !keys.has(roleKeyOf(role)));
    for (const group of chunks(missing, ID_BATCH)) {
      const removed = await queryRows(
        this.db,
        sql`delete from user_roles r using ${roleKeysTable(group)}
            where r.user_sourced_id = k.user_sourced_id and r.role = k.role and r.org_sourced_id = k.org_sourced_id
            returning 1`,
      );
      summary.deleted += removed.length;
    }
  }

  /** Enrollments of removed users or classes end with them, counted with enrollments.csv. */
  async removeEnrollmentsOfRemovedRecords(): Promise<void> {
    if (!this.plan.files.some((planned) => planned.file === "users" || planned.file === "classes")) return;
    const removed = await queryRows(
      this.db,
      sql`update enrollments e set status = 'tobedeleted', date_last_modified = ${this.options.now.toISOString()}::timestamptz
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
