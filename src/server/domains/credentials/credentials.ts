import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type {
  AppCredential,
  AppCredentialInput,
  AppCredentialList,
  AppCredentialListQuery,
  CredentialChangeAction,
  CredentialChangeList,
  CredentialChangesQuery,
  CredentialDecrypt,
  CredentialDecryptsQuery,
  DecryptedCredential,
  MyAppCredentials,
} from "../../../shared/contracts/credentials";
import { type Database, isoInstant, queryJsonRows, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import type { SecretBox } from "../../lib/secret-box";
import { recordSensitiveAccess } from "../privacy/access-log";
import { isStudent, nameOf } from "../rostering/queries";
import { studentIdsInReach, studentIdsOfClass, studentIdsUnder, studentVisibleTo } from "../rostering/scope";

/**
 * Students' logins to their learning apps. The password is encrypted with the secret box under a
 * context naming its row, so an envelope copied onto another row does not decrypt there; it leaves
 * the server only in a decrypt, which is audited in the same transaction as the read.
 */

/** The secret box's context for a credential's password. */
export const credentialContext = (credentialId: string) => `app-credential:${credentialId}`;

/** The roles that may reveal a password at all; each is then limited to the students it reaches. */
const REVEALING_ROLES = new Set(["student", "teacher", "administrator"]);

type Writer = Pick<Database, "execute" | "insert">;

const credentialJson = sql`json_build_object(
    'id', c.id,
    'student', json_build_object('id', c.student_sourced_id, 'name', coalesce(${nameOf(sql`c.student_sourced_id`)}, c.student_sourced_id)),
    'app', json_build_object('id', a.id, 'name', a.name),
    'username', c.username,
    'changedBy', case when coalesce(c.updated_by, c.created_by) is null then null else json_build_object(
      'id', coalesce(c.updated_by, c.created_by),
      'name', coalesce(${nameOf(sql`coalesce(c.updated_by, c.created_by)`)}, coalesce(c.updated_by, c.created_by))) end,
    'changedAt', ${isoInstant(sql`coalesce(c.updated_at, c.created_at)`)})`;

/**
 * The row of the login's history that a change to `app_credentials` writes, as the statement's
 * own insert: `changed` names the CTE holding the changed rows (id, student, app). Ids only.
 */
const historyOf = (changed: SQL, action: CredentialChangeAction, byId: string, now: Date) =>
  sql`insert into app_credential_changes (credential_id, student_sourced_id, app_id, action, changed_by, at)
    select id, student_sourced_id, app_id, ${action}::text, ${byId}::text, ${now.toISOString()}::timestamptz
    from ${changed}
    returning credential_id as id`;

/** Where a save came from: the tab (a login added or changed) or a CSV import. */
export type SaveOrigin = "tab" | "import";

/**
 * Adds a student's login to an app, or replaces the one they have (a new envelope either way).
 * One writer: an administrator, checked by the route.
 */
export async function saveCredential(
  db: Database,
  box: SecretBox,
  actor: Actor,
  input: AppCredentialInput,
  now: Date,
): Promise<{ credential: AppCredential; created: boolean }> {
  return db.transaction(async (tx) => saveCredentialIn(tx, box, actor.realUser.sourcedId, input, now, "tab"));
}

/**
 * The same inside a caller's transaction (the CSV import saves every row in one). Each save writes
 * its row of the login's history in the statement that makes it.
 */
export async function saveCredentialIn(
  tx: Database,
  box: SecretBox,
  byId: string,
  input: AppCredentialInput,
  now: Date,
  origin: SaveOrigin,
): Promise<{ credential: AppCredential; created: boolean }> {
  const [target] = await queryRows<{ isStudent: boolean; appExists: boolean }>(
    tx,
    sql`select ${isStudent(sql`${input.studentId}::text`)} as "isStudent",
        exists (select 1 from learning_apps where id = ${input.appId}::uuid and kind = 'learning') as "appExists"`,
  );
  if (!target?.isStudent) throw new AppError("not_found", message("credentials:studentNotFound"));
  if (!target.appExists) throw new AppError("not_found", message("credentials:appNotFound"));

  // The row's id is the envelope's context, so it is chosen before the insert.
  const newId = randomUUID();
  const [inserted] = await queryRows<{ id: string }>(
    tx,
    sql`with added as (
        insert into app_credentials (id, student_sourced_id, app_id, username, password_envelope, created_by, created_at)
        values (${newId}::uuid, ${input.studentId}, ${input.appId}::uuid, ${input.username},
          ${box.encryptSecret(input.password, credentialContext(newId))}, ${byId}, ${now})
        on conflict (student_sourced_id, app_id) do nothing
        returning id, student_sourced_id, app_id)
      ${historyOf(sql`added`, origin === "import" ? "imported" : "added", byId, now)}`,
  );
  let id = inserted?.id;
  if (!id) {
    const [existing] = await queryRows<{ id: string }>(
      tx,
      sql`select id from app_credentials where student_sourced_id = ${input.studentId} and app_id = ${input.appId}::uuid
        for update`,
    );
    if (!existing) throw new AppError("conflict", message("credentials:changedMeanwhile"));
    id = existing.id;
    await tx.execute(
      sql`with replaced as (
          update app_credentials set username = ${input.username},
            password_envelope = ${box.encryptSecret(input.password, credentialContext(id))},
            updated_by = ${byId}, updated_at = ${now}
          where id = ${id}::uuid
          returning id, student_sourced_id, app_id)
        ${historyOf(sql`replaced`, origin === "import" ? "imported" : "changed", byId, now)}`,
    );
  }
  const [saved] = await queryRows<{ credential: AppCredential }>(
    tx,
    sql`select ${credentialJson} as credential from app_credentials c join learning_apps a on a.id = c.app_id
      where c.id = ${id}::uuid`,
  );
  if (!saved) throw new AppError("conflict", message("credentials:changedMeanwhile"));
  return { credential: saved.credential, created: Boolean(inserted) };
}

/** Removes a login, writing `removed` to its history; the history and decrypt audit stay (ids only). */
export async function deleteCredential(
  db: Database,
  actor: Actor,
  credentialId: string,
  now: Date,
): Promise<void> {
  const [removed] = await queryRows<{ id: string }>(
    db,
    sql`with removed as (
        delete from app_credentials where id = ${credentialId}::uuid returning id, student_sourced_id, app_id)
      ${historyOf(sql`removed`, "removed", actor.realUser.sourcedId, now)}`,
  );
  if (!removed) throw new AppError("not_found", message("credentials:notFound"));
}

function listFilters(query: AppCredentialListQuery): SQL[] {
  const filters: SQL[] = [];
  if (query.studentId) filters.push(sql`c.student_sourced_id = ${query.studentId}`);
  if (query.appId) filters.push(sql`c.app_id = ${query.appId}::uuid`);
  if (query.classId) filters.push(sql`c.student_sourced_id in (${studentIdsOfClass(query.classId)})`);
  if (query.schoolId)
    filters.push(sql`c.student_sourced_id in (${studentIdsUnder(sql`select ${query.schoolId}::text`)})`);
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, "\\$&")}%`;
    filters.push(sql`(c.username ilike ${pattern} or a.name ilike ${pattern}
      or ${nameOf(sql`c.student_sourced_id`)} ilike ${pattern} or c.student_sourced_id ilike ${pattern})`);
  }
  return filters;
}

/** Every student's logins for administrators, filtered and paged: names and usernames, never passwords. */
export async function listCredentials(
  db: Database,
  query: AppCredentialListQuery,
): Promise<AppCredentialList> {
  const filters = listFilters(query);
  const where = filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const [page] = await queryRows<{ credentials: AppCredential[] | null; total: number | string }>(
    db,
    sql`with matching as (
        select c.*, a.name as app_name from app_credentials c join learning_apps a on a.id = c.app_id ${where})
      select (select json_agg(p.item order by p.student_name, p.app_name, p.id) from (
          select ${credentialJson} as item, ${nameOf(sql`c.student_sourced_id`)} as student_name, c.app_name, c.id
          from matching c join learning_apps a on a.id = c.app_id
          order by student_name, c.app_name, c.id limit ${query.limit} offset ${query.offset}) p) as credentials,
        (select count(*) from matching) as total`,
  );
  return { credentials: page?.credentials ?? [], total: Number(page?.total ?? 0) };
}

/** A student's own logins (while viewing as them, only when the viewer reaches them too). */
export async function myCredentials(db: Database, actor: Actor): Promise<MyAppCredentials> {
  if (actor.activeRole !== "student")
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("credentials:actions.mine") }),
    );
  const visible = studentVisibleTo(actor, actor.user.sourcedId) ?? sql`false`;
  const credentials = await queryJsonRows<MyAppCredentials["credentials"][number]>(
    db,
    sql`select c.id, json_build_object('id', a.id, 'name', a.name, 'launchUrl', a.launch_url) as app, c.username
      from app_credentials c join learning_apps a on a.id = c.app_id
      where c.student_sourced_id = ${actor.user.sourcedId} and a.is_active and ${visible}
      order by a.name, c.id`,
  );
  return { credentials };
}

/**
 * The spec's decryptCredential: a student their own, a Guide their students', an administrator
 * anyone's; others are refused. The reach is checked in the query that reads the envelope, and
 * the audit row is written in the same transaction, so no password is shown unaudited.
 */
export async function decryptCredential(
  db: Database,
  box: SecretBox,
  actor: Actor,
  credentialId: string,
  now: Date,
): Promise<DecryptedCredential> {
  if (!REVEALING_ROLES.has(actor.activeRole ?? ""))
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("credentials:actions.reveal") }),
    );
  // Every student for an administrator; a role that reveals nothing was refused above.
  const reach = studentIdsInReach(actor) ?? sql`select null::text where false`;
  return db.transaction(async (tx) => {
    const [found] = await queryRows<{
      id: string;
      studentId: string;
      appId: string;
      appName: string;
      username: string;
      envelope: string;
    }>(
      tx,
      sql`select c.id, c.student_sourced_id as "studentId", c.app_id as "appId", a.name as "appName",
          c.username, c.password_envelope as envelope
        from app_credentials c join learning_apps a on a.id = c.app_id
        where c.id = ${credentialId}::uuid and c.student_sourced_id in (${reach})`,
    );
    if (!found) throw new AppError("not_found", message("credentials:notFound"));
    const password = box.decryptSecret(found.envelope, credentialContext(found.id));
    await recordDecrypt(tx, actor, found, now);
    return { id: found.id, username: found.username, password };
  });
}

async function recordDecrypt(
  tx: Writer,
  actor: Actor,
  credential: { id: string; studentId: string; appId: string; appName: string },
  now: Date,
) {
  await tx.execute(
    sql`insert into credential_decrypts (credential_id, student_sourced_id, app_id, decrypted_by, role, at)
      values (${credential.id}::uuid, ${credential.studentId}, ${credential.appId}::uuid,
        ${actor.realUser.sourcedId}, ${actor.activeRole}, ${now})`,
  );
  // The privacy log every domain shares, so the student's access history shows it too.
  await recordSensitiveAccess(tx, {
    actorId: actor.user.sourcedId,
    realActorId: actor.realUser.sourcedId,
    personId: credential.studentId,
    kind: "credential_decrypt",
    detail: credential.appName,
    at: now,
  });
}

/** The decrypt audit for administrators, newest first. */
export async function listDecrypts(
  db: Database,
  query: CredentialDecryptsQuery,
): Promise<{ decrypts: CredentialDecrypt[]; total: number }> {
  const filters: SQL[] = [];
  if (query.studentId) filters.push(sql`h.student_sourced_id = ${query.studentId}`);
  if (query.appId) filters.push(sql`h.app_id = ${query.appId}::uuid`);
  const page = await auditPage<CredentialDecrypt>(db, {
    table: sql`credential_decrypts`,
    by: sql`h.decrypted_by`,
    own: sql`'role', h.role`,
    where: filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``,
    page: query,
  });
  return { decrypts: page.items, total: page.total };
}

/** The history of students' logins for administrators, newest first: who changed which login, never its values. */
export async function listChanges(
  db: Database,
  query: CredentialChangesQuery,
): Promise<CredentialChangeList> {
  const page = await auditPage<CredentialChangeList["changes"][number]>(db, {
    table: sql`app_credential_changes`,
    by: sql`h.changed_by`,
    own: sql`'action', h.action`,
    where: query.studentId ? sql`where h.student_sourced_id = ${query.studentId}` : sql``,
    page: query,
  });
  return { changes: page.items, total: page.total };
}

/**
 * A page of one of the logins' audit tables (reveals, changes), newest first, each row with when,
 * who, whose login and which app by name, and the table's own fields (`own`, as json_build_object
 * pairs). The table is read as `h`, as `where` must name it.
 */
async function auditPage<Item>(
  db: Database,
  log: { table: SQL; by: SQL; own: SQL; where: SQL; page: { limit: number; offset: number } },
): Promise<{ items: Item[]; total: number }> {
  const [page] = await queryRows<{ items: Item[] | null; total: number | string }>(
    db,
    sql`select (select json_agg(p.item order by p.at desc, p.id) from (
          select h.at, h.id, json_build_object(
            'id', h.id, 'at', ${isoInstant(sql`h.at`)}, ${log.own},
            'by', json_build_object('id', ${log.by}, 'name', coalesce(${nameOf(log.by)}, ${log.by})),
            'student', json_build_object('id', h.student_sourced_id, 'name', coalesce(${nameOf(sql`h.student_sourced_id`)}, h.student_sourced_id)),
            'app', json_build_object('id', h.app_id, 'name', coalesce(a.name, h.app_id::text))) as item
          from ${log.table} h left join learning_apps a on a.id = h.app_id ${log.where}
          order by h.at desc, h.id limit ${log.page.limit} offset ${log.page.offset}) p) as items,
        (select count(*) from ${log.table} h ${log.where}) as total`,
  );
  return { items: page?.items ?? [], total: Number(page?.total ?? 0) };
}
