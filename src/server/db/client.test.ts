import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, queryRows } from "./client";

describe("maintenance of the embedded database", () => {
  it("refreshes the planner's statistics, which PGlite never does by itself", async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const handle = await openDatabase({ pglite: await PGlite.create() });
    const reltuples = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            handle.db,
            sql`select reltuples as n from pg_class where relname = 'numbers'`,
          )
        )[0]?.n,
      );
    await handle.db.execute(sql`create table numbers as select n from generate_series(1, 500) n`);
    await handle.db.execute(sql`delete from numbers where n > 400`);
    expect(await reltuples()).toBe(-1);
    expect(await handle.maintain()).toBe(true);
    expect(await reltuples()).toBe(400);
    await handle.close();
  }, 60_000);
});
