import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type {
  AppCredential,
  CredentialChange,
  CredentialDecrypt,
  CredentialImportReport,
  MyAppCredentials,
} from "../../../shared/contracts/credentials";
import { queryRows } from "../../db/client";
import { createSecretBox } from "../../lib/secret-box";
import { rotateStoredSecrets, unlistedEnvelopeColumns } from "../../lib/secret-key-rotation";
import { DEMO_APPS, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { zipFilesOf } from "../../test/zip-files";
import { studentIdsOfGuide } from "../rostering/scope";
import { secretContextOf } from "../webhooks/delivery";
import { credentialContext } from "./credentials";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian", "proctor"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const PATEL = demoId("guide-patel");
const MATH = demoId(`app-${DEMO_APPS[0].key}`);
const READING = demoId(`app-${DEMO_APPS[1].key}`);
const LANGUAGE = demoId(`app-${DEMO_APPS[2].key}`);
const SCIENCE = demoId(`app-${DEMO_APPS[3].key}`);

async function call(
  cookie: string | undefined,
  path: string,
  init: { method?: string; json?: unknown } = {},
) {
  const response = await t.request(path, { ...init, cookie });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

async function save(studentId: string, appId: string, username: string, password: string) {
  const saved = await call(cookies.admin, "/api/admin/app-credentials", {
    json: { studentId, appId, username, password },
  });
  if (saved.status >= 300) throw new Error(`save: ${saved.status} ${JSON.stringify(saved.body)}`);
  return saved.body.credential as AppCredential;
}

/** Uploads a credentials CSV, as an administrator unless another cookie is given. */
function upload(csv: string, fields: Record<string, string> = {}, cookie = cookies.admin) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([csv]), "logins.csv");
  return t.request("/api/admin/app-credentials/import", { method: "POST", body: form, cookie });
}

const decrypt = (cookie: string | undefined, id: string) =>
  call(cookie, `/api/app-credentials/${id}/decrypt`, { method: "POST" });

/** Another student of Maya Patel's than Ava. */
async function classmateOfAva() {
  const [row] = await queryRows<{ id: string }>(
    t.db,
    sql`select s.user_sourced_id as id from (${studentIdsOfGuide(PATEL)}) s where s.user_sourced_id <> ${AVA}
      order by 1 limit 1`,
  );
  return row?.id as string;
}

describe("saving and listing app logins", () => {
  it("encrypts the password under the row's context and lists logins without it", async () => {
    const credential = await save(AVA, MATH, "ava.math", "first-Secret-1");
    expect(credential).toMatchObject({
      student: { id: AVA, name: "Ava Johnson" },
      app: { id: MATH },
      username: "ava.math",
    });
    const [row] = await queryRows<{ envelope: string }>(
      t.db,
      sql`select password_envelope as envelope from app_credentials where id = ${credential.id}::uuid`,
    );
    expect(row?.envelope.startsWith("v1.")).toBe(true);
    expect(t.secretBox.decryptSecret(row?.envelope as string, credentialContext(credential.id))).toBe(
      "first-Secret-1",
    );
    // Sealed to its row: the same envelope does not open as another row's.
    expect(() =>
      t.secretBox.decryptSecret(row?.envelope as string, credentialContext(randomUUID())),
    ).toThrow();

    // Saving again replaces it: same row, new password, who changed it.
    const again = await call(cookies.admin, "/api/admin/app-credentials", {
      json: { studentId: AVA, appId: MATH, username: "ava.m", password: "second-Secret-2" },
    });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.credential.id).toBe(credential.id);
    expect((await decrypt(cookies.admin, credential.id)).body.password).toBe("second-Secret-2");

    const list = await call(cookies.admin, `/api/admin/app-credentials?studentId=${AVA}`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThanOrEqual(1);
    const listed = (list.body.credentials as AppCredential[]).find((entry) => entry.id === credential.id);
    expect(listed).toMatchObject({ username: "ava.m", changedBy: { name: "Alex Morgan" } });
    expect(JSON.stringify(list.body)).not.toMatch(/second-Secret-2|password|envelope|v1\./);
    const searched = await call(
      cookies.admin,
      `/api/admin/app-credentials?search=${encodeURIComponent("ava.m")}`,
    );
    expect((searched.body.credentials as AppCredential[]).map((entry) => entry.id)).toContain(credential.id);
    const otherApp = await call(
      cookies.admin,
      `/api/admin/app-credentials?studentId=${AVA}&appId=${READING}`,
    );
    expect(otherApp.body.credentials).toEqual([]);
  });

  it("refuses bad input, unknown students and apps, and every role but administrators", async () => {
    const bad = await call(cookies.admin, "/api/admin/app-credentials", {
      json: { studentId: AVA, appId: "nope", username: "", password: "" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      "appId",
      "password",
      "username",
    ]);
    const notStudent = await call(cookies.admin, "/api/admin/app-credentials", {
      json: { studentId: PATEL, appId: MATH, username: "x", password: "y" },
    });
    expect(notStudent.status).toBe(404);
    const noApp = await call(cookies.admin, "/api/admin/app-credentials", {
      json: { studentId: AVA, appId: randomUUID(), username: "x", password: "y" },
    });
    expect(noApp.status).toBe(404);
    for (const who of ["guide", "student", "parent", "proctor"]) {
      const write = await call(cookies[who], "/api/admin/app-credentials", {
        json: { studentId: AVA, appId: MATH, username: "x", password: "y" },
      });
      expect(write.status, who).toBe(403);
      expect((await call(cookies[who], "/api/admin/app-credentials")).status, who).toBe(403);
      expect((await call(cookies[who], "/api/admin/app-credentials/decrypts")).status, who).toBe(403);
    }
    expect((await call(undefined, "/api/admin/app-credentials")).status).toBe(401);
  });

  it("deletes a login; a second delete is a 404", async () => {
    const credential = await save(LEO, READING, "leo.reads", "leo-Secret");
    expect(
      (await call(cookies.guide, `/api/admin/app-credentials/${credential.id}`, { method: "DELETE" })).status,
    ).toBe(403);
    expect(
      (await call(cookies.admin, `/api/admin/app-credentials/${credential.id}`, { method: "DELETE" })).status,
    ).toBe(204);
    expect(
      (await call(cookies.admin, `/api/admin/app-credentials/${credential.id}`, { method: "DELETE" })).status,
    ).toBe(404);
    expect((await decrypt(cookies.admin, credential.id)).status).toBe(404);
  });
});

describe("revealing a password", () => {
  it("lets a student reveal their own, a Guide their students', an administrator anyone's, each audited", async () => {
    const avas = await save(AVA, READING, "ava.reads", "ava-Reading-Secret");
    const before = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from credential_decrypts`,
    );

    const mine = await call(cookies.student, "/api/app-credentials/mine");
    expect(mine.status).toBe(200);
    const listed = (mine.body as MyAppCredentials).credentials.find((entry) => entry.id === avas.id);
    expect(listed).toMatchObject({
      username: "ava.reads",
      app: { name: "Reading Quest", launchUrl: "https://reading.example.org" },
    });
    expect(JSON.stringify(mine.body)).not.toContain("ava-Reading-Secret");

    for (const who of ["student", "guide", "admin"]) {
      const revealed = await decrypt(cookies[who], avas.id);
      expect(revealed.status, who).toBe(200);
      expect(revealed.body).toEqual({ id: avas.id, username: "ava.reads", password: "ava-Reading-Secret" });
      expect(revealed.headers.get("cache-control")).toBe("no-store");
    }
    const after = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from credential_decrypts`,
    );
    expect((after[0]?.n ?? 0) - (before[0]?.n ?? 0)).toBe(3);

    const audit = await call(
      cookies.admin,
      `/api/admin/app-credentials/decrypts?studentId=${AVA}&appId=${READING}`,
    );
    expect(audit.status).toBe(200);
    const entries = audit.body.decrypts as CredentialDecrypt[];
    expect(entries.slice(0, 3).map((entry) => [entry.by.name, entry.role])).toEqual(
      expect.arrayContaining([
        ["Ava Johnson", "student"],
        ["Maya Patel", "teacher"],
        ["Alex Morgan", "administrator"],
      ]),
    );
    expect(entries[0]).toMatchObject({
      student: { id: AVA, name: "Ava Johnson" },
      app: { id: READING, name: "Reading Quest" },
    });
    // The privacy log every domain shares names it too.
    const [logged] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from sensitive_access_log where kind = 'credential_decrypt' and person_sourced_id = ${AVA}`,
    );
    expect(logged?.n).toBeGreaterThanOrEqual(3);
  });

  it("refuses another student's, a Guide's outside their students, parents and proctors, leaving no audit", async () => {
    const classmate = await classmateOfAva();
    const classmates = await save(classmate, MATH, "mate.math", "mate-Secret");
    const leos = await save(LEO, MATH, "leo.math", "leo-Math-Secret");
    const before = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from credential_decrypts`,
    );

    expect((await decrypt(cookies.student, classmates.id)).status).toBe(404);
    expect((await decrypt(cookies.guide, leos.id)).status).toBe(404);
    expect((await decrypt(cookies.guide, classmates.id)).status).toBe(200);
    for (const who of ["parent", "guardian", "proctor"]) {
      const refused = await decrypt(cookies[who], leos.id);
      expect(refused.status, who).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain("leo-Math-Secret");
    }
    expect((await call(cookies.parent, "/api/app-credentials/mine")).status).toBe(403);
    expect((await decrypt(cookies.admin, randomUUID())).status).toBe(404);
    expect((await decrypt(cookies.admin, "not-a-uuid")).status).toBe(400);
    expect((await decrypt(undefined, leos.id)).status).toBe(401);

    const after = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from credential_decrypts`,
    );
    // Only the Guide's one allowed reveal.
    expect((after[0]?.n ?? 0) - (before[0]?.n ?? 0)).toBe(1);
  });

  it("while a Guide views Dash as a student, reveals only that student's own", async () => {
    const classmate = await classmateOfAva();
    const [avas] = (await call(cookies.admin, `/api/admin/app-credentials?studentId=${AVA}&appId=${MATH}`))
      .body.credentials as AppCredential[];
    const [classmates] = (
      await call(cookies.admin, `/api/admin/app-credentials?studentId=${classmate}&appId=${MATH}`)
    ).body.credentials as AppCredential[];
    const viewer = await t.signIn("guide@dash.demo");
    const started = await t.request("/api/auth/impersonation", {
      json: { userId: AVA, reason: "Helping Ava sign in to her apps" },
      cookie: viewer,
    });
    expect(started.status).toBe(200);
    expect((await decrypt(viewer, avas?.id as string)).status).toBe(200);
    // The Guide's own student, but not the viewed student's: the intersection refuses it.
    expect((await decrypt(viewer, classmates?.id as string)).status).toBe(404);
    // Recorded as the Guide who saw it, in the role they acted in.
    const audited = await queryRows<{ credentialId: string }>(
      t.db,
      sql`select credential_id::text as "credentialId" from credential_decrypts
        where decrypted_by = ${PATEL} and role = 'student'`,
    );
    expect(audited).toEqual([{ credentialId: avas?.id }]);
  });

  it("is limited per person", async () => {
    const credential = await save(AVA, MATH, "ava.math", "limited-Secret");
    const cookie = await t.signIn("multi@dash.demo");
    const admin = await t.signIn("admin@dash.demo");
    let last = 0;
    for (let attempt = 0; attempt < 61; attempt += 1) last = (await decrypt(admin, credential.id)).status;
    expect(last).toBe(429);
    // Another person is not affected; the window ends.
    expect((await decrypt(cookie, credential.id)).status).not.toBe(429);
    t.clock.advance(16 * 60_000);
    expect((await decrypt(admin, credential.id)).status).toBe(200);
  });
});

describe("the history of app logins", () => {
  const ADMIN = demoId("admin");
  const historyOf = (credentialId: string) =>
    queryRows<{ action: string; by: string; student: string; app: string }>(
      t.db,
      sql`select action, changed_by as by, student_sourced_id as student, app_id::text as app
        from app_credential_changes where credential_id = ${credentialId}::uuid order by at, action`,
    );
  const changeCount = async () =>
    (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from app_credential_changes`))[0]?.n;

  it("keeps ids only: no column for a username or a password", async () => {
    const columns = await queryRows<{ name: string }>(
      t.db,
      sql`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = 'app_credential_changes' order by column_name`,
    );
    expect(columns.map((column) => column.name)).toEqual([
      "action",
      "app_id",
      "at",
      "changed_by",
      "credential_id",
      "id",
      "student_sourced_id",
    ]);
  });

  it("writes a row when a login is added, changed and removed, by the administrator who did it", async () => {
    const username = `history-${randomUUID()}`;
    const password = `History-Secret-${randomUUID()}`;
    const added = await save(LEO, LANGUAGE, username, password);
    t.clock.advance(60_000);
    await save(LEO, LANGUAGE, `${username}-2`, `${password}-2`);
    t.clock.advance(60_000);
    expect(
      (await call(cookies.admin, `/api/admin/app-credentials/${added.id}`, { method: "DELETE" })).status,
    ).toBe(204);
    expect(await historyOf(added.id)).toEqual(
      ["added", "changed", "removed"].map((action) => ({ action, by: ADMIN, student: LEO, app: LANGUAGE })),
    );
    const values = await queryRows(
      t.db,
      sql`select 1 from app_credential_changes h
        where h::text like ${`%${username}%`} or h::text like ${`%${password}%`}`,
    );
    expect(values).toEqual([]);

    const listed = await call(cookies.admin, `/api/admin/app-credentials/changes?studentId=${LEO}&limit=3`);
    expect(listed.status).toBe(200);
    const [newest] = listed.body.changes as CredentialChange[];
    expect(newest).toMatchObject({
      action: "removed",
      by: { id: ADMIN, name: "Alex Morgan" },
      student: { id: LEO },
      app: { id: LANGUAGE, name: "Language Lab" },
    });
    expect((listed.body.changes as CredentialChange[]).map((change) => change.action)).toEqual([
      "removed",
      "changed",
      "added",
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(username);
  });

  it("marks what a CSV import saved as imported, whether it added or replaced a login", async () => {
    const csv = `student,app,username,password\n${LEO},${SCIENCE},leo.science,Science-Secret-1\n`;
    expect(((await (await upload(csv)).json()) as CredentialImportReport).created).toBe(1);
    t.clock.advance(60_000);
    expect(((await (await upload(csv)).json()) as CredentialImportReport).updated).toBe(1);
    const [login] = (
      await call(cookies.admin, `/api/admin/app-credentials?studentId=${LEO}&appId=${SCIENCE}`)
    ).body.credentials as AppCredential[];
    expect((await historyOf(login?.id as string)).map((change) => change.action)).toEqual([
      "imported",
      "imported",
    ]);
  });

  it("writes nothing when a save or an import fails", async () => {
    const before = await changeCount();
    const refused = [
      await call(cookies.admin, "/api/admin/app-credentials", {
        json: { studentId: LEO, appId: randomUUID(), username: "x", password: "y" },
      }),
      await call(cookies.admin, "/api/admin/app-credentials", {
        json: { studentId: PATEL, appId: MATH, username: "x", password: "y" },
      }),
      await call(cookies.admin, "/api/admin/app-credentials", {
        json: { studentId: LEO, appId: MATH, username: "", password: "y" },
      }),
      await call(cookies.guide, "/api/admin/app-credentials", {
        json: { studentId: AVA, appId: MATH, username: "x", password: "y" },
      }),
      await call(cookies.admin, `/api/admin/app-credentials/${randomUUID()}`, { method: "DELETE" }),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([404, 404, 400, 403, 404]);
    const rejected = (await (
      await upload(
        `student,app,username,password\n${LEO},${MATH},leo.ok,fine\nnobody@dash.demo,${MATH},x,y\n`,
      )
    ).json()) as CredentialImportReport;
    expect(rejected.applied).toBe(false);
    expect(await changeCount()).toBe(before);
  });

  it("pages the list newest first and refuses bad queries", async () => {
    const all = await call(cookies.admin, "/api/admin/app-credentials/changes?limit=200");
    expect(all.status).toBe(200);
    const changes = all.body.changes as CredentialChange[];
    expect(all.body.total).toBe(await changeCount());
    expect(changes.map((change) => change.at)).toEqual(
      changes
        .map((change) => change.at)
        .sort()
        .reverse(),
    );
    const second = await call(cookies.admin, "/api/admin/app-credentials/changes?offset=1&limit=1");
    expect(second.body).toEqual({ changes: [changes[1]], total: all.body.total });
    const nobody = await call(cookies.admin, "/api/admin/app-credentials/changes?studentId=nobody");
    expect(nobody.body).toEqual({ changes: [], total: 0 });
    for (const query of ["limit=0", "limit=201", "offset=-1", "offset=many", `studentId=${"x".repeat(201)}`])
      expect((await call(cookies.admin, `/api/admin/app-credentials/changes?${query}`)).status, query).toBe(
        400,
      );
  });

  it("is for administrators only", async () => {
    for (const who of ["guide", "student", "parent", "guardian", "proctor"])
      expect((await call(cookies[who], "/api/admin/app-credentials/changes")).status, who).toBe(403);
    expect((await call(undefined, "/api/admin/app-credentials/changes")).status).toBe(401);
  });
});

describe("plaintext", () => {
  it("is never in the database, its files or the logs", async () => {
    const secret = `Plain-${randomUUID()}`;
    const username = `marker-${randomUUID()}`;
    const logged = t.logLines.length;
    const credential = await save(AVA, SCIENCE, username, secret);
    expect((await decrypt(cookies.student, credential.id)).body.password).toBe(secret);
    const imported = await upload(`student,app,username,password\n${AVA},${SCIENCE},${username},${secret}\n`);
    expect(((await imported.json()) as CredentialImportReport).applied).toBe(true);
    await call(cookies.admin, "/api/admin/app-credentials");
    await call(cookies.admin, "/api/admin/app-credentials/decrypts");
    await call(cookies.admin, "/api/admin/app-credentials/changes");

    // Every text column of every table, in every schema of the database.
    const columns = await queryRows<{ schema: string; table: string; column: string }>(
      t.db,
      sql`select c.table_schema as schema, c.table_name as table, c.column_name as column
        from information_schema.columns c join information_schema.tables s
          on s.table_schema = c.table_schema and s.table_name = c.table_name and s.table_type = 'BASE TABLE'
        where c.table_schema not in ('pg_catalog', 'information_schema')
          and c.data_type in ('text', 'character varying', 'character', 'ARRAY', 'jsonb', 'json')`,
    );
    expect(columns.length).toBeGreaterThan(50);
    const holding = async (value: string) => {
      const found: string[] = [];
      for (const { schema, table, column } of columns) {
        const rows = await queryRows(
          t.db,
          sql`select 1 from ${sql.identifier(schema)}.${sql.identifier(table)}
            where ${sql.identifier(column)}::text like ${`%${value}%`} limit 1`,
        );
        if (rows.length) found.push(`${table}.${column}`);
      }
      return found;
    };
    expect(await holding(secret)).toEqual([]);
    // The search finds what is there: the username is stored as it is.
    expect(await holding(username)).toEqual(["app_credentials.username"]);

    // The database's own files (PGlite's data directory) or its dump (PostgreSQL).
    const files = await databaseBytes();
    expect(files.includes(Buffer.from(username))).toBe(true);
    expect(files.includes(Buffer.from(secret))).toBe(false);

    const logs = t.logLines.slice(logged).join("\n");
    expect(logs).toContain("app credentials import");
    expect(logs).not.toContain(secret);
  });
});

/** The database as bytes: PGlite's data directory after a checkpoint, or a pg_dump of PostgreSQL's. */
async function databaseBytes(): Promise<Buffer> {
  if (t.kind === "pglite") {
    const client = (t.db as unknown as { $client: PGlite }).$client;
    await client.exec("checkpoint");
    const dump = await client.dumpDataDir("none");
    return Buffer.from(await dump.arrayBuffer());
  }
  const template = inject("testDatabase");
  if (template.kind !== "postgres") throw new Error("a PostgreSQL run has a PostgreSQL template");
  const [current] = await queryRows<{ name: string }>(t.db, sql`select current_database() as name`);
  const url = new URL(template.adminUrl);
  url.pathname = `/${current?.name}`;
  const pgBin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
  return execFileSync(`${pgBin}/pg_dump`, ["--data-only", `--dbname=${url.toString()}`], {
    maxBuffer: 1024 * 1024 * 1024,
  });
}

describe("the CSV import", () => {
  it("saves every row of a class by id or email and app id or name", async () => {
    const classmate = await classmateOfAva();
    const [klass] = await queryRows<{ id: string }>(
      t.db,
      sql`select s.class_sourced_id as id from enrollments s join enrollments g on g.class_sourced_id = s.class_sourced_id
        where s.user_sourced_id = ${AVA} and s.role = 'student' and s.status = 'active'
          and g.user_sourced_id = ${classmate} and g.role = 'student' and g.status = 'active' limit 1`,
    );
    const csv = [
      "Student,App,Username,Password",
      `student@dash.demo,Language Lab,ava.lang,"pass, with comma"`,
      `${classmate},${LANGUAGE},mate.lang,mate-Lang-1`,
      "",
    ].join("\r\n");
    const response = await upload(csv, { classId: klass?.id as string });
    expect(response.status).toBe(200);
    const report = (await response.json()) as CredentialImportReport;
    expect(report).toEqual({ applied: true, rows: 2, created: 2, updated: 0, errors: [] });
    const [ava] = (await call(cookies.admin, `/api/admin/app-credentials?studentId=${AVA}&search=ava.lang`))
      .body.credentials as AppCredential[];
    expect((await decrypt(cookies.admin, ava?.id as string)).body.password).toBe("pass, with comma");
    // Again: the same rows replace what is there.
    const again = (await (
      await upload(csv, { classId: klass?.id as string })
    ).json()) as CredentialImportReport;
    expect(again).toMatchObject({ applied: true, created: 0, updated: 2 });
  });

  it("saves nothing when any row is wrong, and names each problem with its line", async () => {
    const csv = [
      "student,app,username,password",
      "student@dash.demo,Math Academy,ava.ok,fine-Password",
      "nobody@dash.demo,Math Academy,x,y",
      `${LEO},No Such App,leo.x,`,
      "student@dash.demo,Math Academy,ava.twice,again",
      `${PATEL},Math Academy,guide,pw`,
    ].join("\n");
    const response = await upload(csv);
    expect(response.status).toBe(200);
    const report = (await response.json()) as CredentialImportReport;
    expect(report.applied).toBe(false);
    expect(report.errors.map((error) => error.line)).toEqual([3, 4, 4, 5, 6]);
    expect(report.errors[0]?.message).toBe("No student has the id or email nobody@dash.demo");
    expect(report.errors[3]?.message).toBe("The same student and app are on line 2 already");
    const [saved] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from app_credentials where username = 'ava.ok'`,
    );
    expect(saved?.n).toBe(0);

    const notInClass = (await (
      await upload("student,app,username,password\nstudent@dash.demo,Math Academy,a,b\n", {
        classId: (
          await queryRows<{ id: string }>(
            t.db,
            sql`select class_sourced_id as id from enrollments where user_sourced_id = ${LEO} and role = 'student' limit 1`,
          )
        )[0]?.id as string,
      })
    ).json()) as CredentialImportReport;
    expect(notInClass.errors[0]?.message).toBe("student@dash.demo is not a student of this class");
  });

  it("refuses a file without the columns, an empty one, and anyone but an administrator", async () => {
    const missing = await upload("student,app\nx,y\n");
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toContain("username, password");
    expect((await upload("student,app,username,password\n")).status).toBe(400);
    expect((await upload("student,app,username,password\n", {}, cookies.guide)).status).toBe(403);
    const spanish = await t.request("/api/admin/app-credentials/import", {
      method: "POST",
      body: (() => {
        const form = new FormData();
        form.set(
          "file",
          new Blob(["student,app,username,password\nnadie@x.org,Math Academy,a,b\n"]),
          "a.csv",
        );
        return form;
      })(),
      cookie: cookies.admin,
      headers: { "accept-language": "es" },
    });
    expect(((await spanish.json()) as CredentialImportReport).errors[0]?.message).toBe(
      "Ningún alumno tiene el identificador o correo nadie@x.org",
    );
  });
});

describe("rotating the secret key", () => {
  it("re-encrypts every stored envelope in one go, and changes nothing when one cannot be opened", async () => {
    const credential = await save(AVA, MATH, "ava.rotate", "rotate-Secret");
    const subscriptionId = randomUUID();
    await t.db.execute(sql`insert into webhook_subscriptions (id, url, events, secret_envelope, created_by)
      values (${subscriptionId}::uuid, 'http://127.0.0.1:9/hook', '{xp.awarded}',
        ${t.secretBox.encryptSecret("webhook-Secret", secretContextOf(subscriptionId))}, ${PATEL})`);
    expect(await unlistedEnvelopeColumns(t.db)).toEqual([]);
    const newBox = createSecretBox(randomUUID() + randomUUID());
    const counts = await rotateStoredSecrets(t.db, t.secretBox, newBox);
    const credentials = counts.find((count) => count.table === "app_credentials");
    expect(credentials?.rows).toBeGreaterThanOrEqual(1);
    const [row] = await queryRows<{ envelope: string }>(
      t.db,
      sql`select password_envelope as envelope from app_credentials where id = ${credential.id}::uuid`,
    );
    expect(newBox.decryptSecret(row?.envelope as string, credentialContext(credential.id))).toBe(
      "rotate-Secret",
    );
    expect(() =>
      t.secretBox.decryptSecret(row?.envelope as string, credentialContext(credential.id)),
    ).toThrow();
    const [subscription] = await queryRows<{ envelope: string }>(
      t.db,
      sql`select secret_envelope as envelope from webhook_subscriptions where id = ${subscriptionId}::uuid`,
    );
    expect(newBox.decryptSecret(subscription?.envelope as string, secretContextOf(subscriptionId))).toBe(
      "webhook-Secret",
    );

    // The old key again does not open what the new one sealed: the whole rotation is refused.
    await expect(
      rotateStoredSecrets(t.db, t.secretBox, createSecretBox(randomUUID() + randomUUID())),
    ).rejects.toThrow(/cannot be opened with the old key/);
    const [unchanged] = await queryRows<{ envelope: string }>(
      t.db,
      sql`select password_envelope as envelope from app_credentials where id = ${credential.id}::uuid`,
    );
    expect(unchanged?.envelope).toBe(row?.envelope);
    // Back to the app's key, so the server's decrypts work again.
    await rotateStoredSecrets(t.db, newBox, t.secretBox);
    expect((await decrypt(cookies.admin, credential.id)).body.password).toBe("rotate-Secret");
  });
});

describe("a student's privacy", () => {
  it("exports their logins without passwords, the reveals and the changes; anonymising removes the logins and keeps the audit and history", async () => {
    const credential = await save(AVA, MATH, "ava.private", "export-Secret-9");
    await decrypt(cookies.student, credential.id);
    const exported = await t.request(`/api/admin/privacy/students/${AVA}/export`, { cookie: cookies.admin });
    expect(exported.status).toBe(200);
    const files = await zipFilesOf(exported);
    expect(files["app-logins.csv"]?.split("\r\n")[0]).toBe("app,username,addedAt,changedAt");
    expect(files["app-logins.csv"]).toContain("Math Academy,ava.private");
    expect(files["app-login-reveals.csv"]).toContain("Math Academy,Ava Johnson,student");
    expect(files["app-login-changes.csv"]?.split("\r\n")[0]).toBe("at,app,action,by");
    expect(files["app-login-changes.csv"]).toContain("Math Academy,added,Alex Morgan");
    expect(files["app-login-changes.csv"]).toContain("Math Academy,changed,Alex Morgan");
    expect(Object.values(files).join("")).not.toContain("export-Secret-9");

    const anonymised = await t.request(`/api/admin/privacy/students/${AVA}/anonymise`, {
      cookie: cookies.admin,
      json: { confirm: "Ava Johnson", reason: "The family asked for erasure" },
    });
    expect(anonymised.status).toBe(200);
    const [left] = await queryRows<{ logins: number; reveals: number; changes: number }>(
      t.db,
      sql`select (select count(*)::int from app_credentials where student_sourced_id = ${AVA}) as logins,
        (select count(*)::int from credential_decrypts where student_sourced_id = ${AVA}) as reveals,
        (select count(*)::int from app_credential_changes where student_sourced_id = ${AVA}) as changes`,
    );
    expect(left?.logins).toBe(0);
    expect(left?.reveals).toBeGreaterThan(0);
    expect(left?.changes).toBeGreaterThan(0);
    expect((await decrypt(cookies.admin, credential.id)).status).toBe(404);
  });
});
