import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepPreparedStatements } from "./pglite-statements";

let plain: PGlite;
let prepared: PGlite;
const setup = `
  create table people (id int primary key, name text, born date, seen timestamptz, tags text[], extra jsonb);
  insert into people values
    (1, 'Ada', '2015-03-01', '2026-11-24T08:00:00Z', '{a,b}', '{"grade": 4}'),
    (2, 'Bo', null, null, '{}', null);`;

const kept = async (db: PGlite) =>
  (await db.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map(
    (row) => row.name,
  );

beforeAll(async () => {
  plain = await PGlite.create();
  prepared = await PGlite.create();
  keepPreparedStatements(prepared, 3);
  await plain.exec(setup);
  await prepared.exec(setup);
});
afterAll(async () => {
  await plain.close();
  await prepared.close();
});

describe("prepared statements on the embedded database", () => {
  it("answers exactly as PGlite's own query does, in objects and in arrays", async () => {
    const text = "select * from people where id >= $1 order by id";
    for (const options of [undefined, { rowMode: "array" as const }]) {
      for (let run = 0; run < 7; run++) {
        expect(await prepared.query(text, [1], options)).toEqual(await plain.query(text, [1], options));
      }
    }
    const reading = await prepared.query<{ born: Date; extra: unknown }>(text, [1]);
    expect(reading.rows[0]?.born).toBeInstanceOf(Date);
    expect(reading.rows[0]?.extra).toEqual({ grade: 4 });
  });

  it("keeps one statement per text and reuses it", async () => {
    await prepared.query("select name from people where id = $1", [1]);
    const before = await kept(prepared);
    await prepared.query("select name from people where id = $1", [2]);
    expect(await kept(prepared)).toEqual(before);
  });

  it("sends parameters as their types want them, nulls included", async () => {
    const text = "insert into people (id, name, born, tags, extra) values ($1, $2, $3, $4, $5) returning *";
    const values = [3, "Cy", new Date("2016-05-02T00:00:00Z"), ["x"], { a: 1 }];
    expect(await prepared.query(text, values)).toEqual(await plain.query(text, values));
    const update = "update people set name = $1 where id = $2";
    expect((await prepared.query(update, [null, 3])).affectedRows).toBe(1);
    expect((await prepared.query("select name from people where id = 3")).rows).toEqual([{ name: null }]);
  });

  it("closes the least recently used statement beyond the limit", async () => {
    for (const id of [10, 11, 12, 13]) await prepared.query(`select ${id} as n`);
    const names = await kept(prepared);
    expect(names).toHaveLength(3);
  });

  it("reports errors as PGlite does and keeps working after them", async () => {
    await expect(prepared.query("select nothing from nowhere")).rejects.toMatchObject({ code: "42P01" });
    await expect(
      prepared.query("select name from people where id = $1", ["not a number"]),
    ).rejects.toMatchObject({ code: "22P02" });
    expect((await prepared.query("select name from people where id = $1", [1])).rows).toEqual([
      { name: "Ada" },
    ]);
  });

  it("runs in transactions, and a statement prepared in one that rolled back still works", async () => {
    const text = "select count(*)::int as n from people where name = $1";
    await expect(
      prepared.transaction(async (tx) => {
        await tx.query("insert into people (id, name) values ($1, $2)", [20, "Tx"]);
        expect((await tx.query(text, ["Tx"])).rows).toEqual([{ n: 1 }]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect((await prepared.query(text, ["Tx"])).rows).toEqual([{ n: 0 }]);
    await prepared.transaction(async (tx) => {
      await tx.query("insert into people (id, name) values ($1, $2)", [21, "Kept"]);
    });
    expect((await prepared.query(text, ["Kept"])).rows).toEqual([{ n: 1 }]);
  });

  it("prepares a statement again when its table changed shape", async () => {
    const text = "select * from people where id = $1";
    expect((await prepared.query(text, [1])).fields).toHaveLength(6);
    await prepared.exec("alter table people add column nickname text");
    expect((await prepared.query(text, [1])).fields).toHaveLength(7);
  });
});
