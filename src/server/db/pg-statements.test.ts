import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { withDatabase } from "../test/global-setup";
import { nameStatements } from "./pg-statements";

const template = inject("testDatabase");

describe.skipIf(template.kind !== "postgres")("named prepared statements on PostgreSQL", () => {
  const name = `dash_test_statements_${randomUUID().replaceAll("-", "").slice(0, 8)}`;
  let admin: pg.Client;
  let plain: pg.Client;
  let named: pg.Client;
  let url: string;

  const kept = async () =>
    (await named.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map(
      (row) => row.name,
    );

  beforeAll(async () => {
    if (template.kind !== "postgres") return;
    admin = new pg.Client({ connectionString: template.adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    // The server itself: a pooler in transaction mode cannot carry named statements.
    url = withDatabase(template.adminUrl, name);
    plain = new pg.Client({ connectionString: url });
    named = new pg.Client({ connectionString: url });
    await Promise.all([plain.connect(), named.connect()]);
    nameStatements(named as unknown as pg.PoolClient, 3);
    await plain.query(`
      create table people (id int primary key, name text, born date, seen timestamptz, tags text[], extra jsonb);
      insert into people values
        (1, 'Ada', '2015-03-01', '2026-11-24T08:00:00Z', '{a,b}', '{"grade": 4}'),
        (2, 'Bo', null, null, '{}', null);`);
  });
  afterAll(async () => {
    await Promise.all([plain?.end(), named?.end()]);
    await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  it("answers exactly as an unnamed query does, in objects and in arrays, run after run", async () => {
    const text = "select * from people where id >= $1 order by id";
    const inObjects = (client: pg.Client) => client.query({ text, values: [1] });
    const inArrays = (client: pg.Client) => client.query({ text, values: [1], rowMode: "array" });
    for (const run of [inObjects, inArrays]) {
      for (let time = 0; time < 7; time++) {
        const [expected, actual] = await Promise.all([run(plain), run(named)]);
        expect(actual.rows).toEqual(expected.rows);
        expect(actual.fields.map((field) => field.name)).toEqual(expected.fields.map((field) => field.name));
      }
    }
    expect((await kept()).length).toBe(1);
  });

  it("names a statement after its text, the same on every connection, and reuses it", async () => {
    await named.query("select name from people where id = $1", [1]);
    const before = await kept();
    const again = await named.query("select name from people where id = $1", [2]);
    expect(again.rows).toEqual([{ name: "Bo" }]);
    expect(await kept()).toEqual(before);
    expect(before.every((statement) => /^dash_[\w-]{27}$/.test(statement))).toBe(true);
  });

  it("sends parameters as their types want them, nulls included", async () => {
    const text =
      "select $1::int + 1 as n, $2::date as d, $3::jsonb as j, $4::text[] as t, $5::text as missing";
    const values = [41, "2026-11-24", JSON.stringify({ a: [1, 2] }), ["x", "y"], null];
    expect((await named.query(text, values)).rows).toEqual((await plain.query(text, values)).rows);
  });

  it("leaves queries without parameters unnamed, so they may hold several statements", async () => {
    const before = await kept();
    await named.query("select 1; select 2");
    expect(await kept()).toEqual(before);
  });

  it("names no more than its bound: further texts run unnamed, and still answer", async () => {
    for (let id = 0; id < 5; id++) {
      const result = await named.query(`select ${id} as n, name from people where id = $1`, [1]);
      expect(result.rows).toEqual([{ n: id, name: "Ada" }]);
    }
    expect((await kept()).length).toBe(3);
  });

  it("reports errors and works on, in and out of transactions", async () => {
    await expect(named.query("select * from people where id = $1::int", ["not a number"])).rejects.toThrow(
      /invalid input syntax/,
    );
    await named.query("begin");
    await named.query("update people set name = $1 where id = $2", ["Bea", 2]);
    await named.query("rollback");
    expect((await named.query("select name from people where id = $1", [2])).rows).toEqual([{ name: "Bo" }]);
  });

  it("runs a statement unnamed once its table changed shape under it", async () => {
    const fresh = new pg.Client({ connectionString: url });
    await fresh.connect();
    try {
      nameStatements(fresh as unknown as pg.PoolClient);
      const text = "select * from people where id = $1";
      await fresh.query(text, [1]);
      await plain.query("alter table people add column nickname text");
      await expect(fresh.query(text, [1])).rejects.toMatchObject({ code: "0A000" });
      const after = await fresh.query(text, [1]);
      expect(after.rows[0]).toMatchObject({ id: 1, name: "Ada", nickname: null });
    } finally {
      await fresh.end();
    }
  });
});
