import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/client";
import { createTestApp, type TestApp } from "../../test/harness";
import { type FilterFields, filterToSql, readFilter } from "./filter";

describe("readFilter", () => {
  it.each([
    ["status='active'", [[{ field: "status", operator: "=", value: "active" }]]],
    [
      "status = 'active' AND role!='student'",
      [
        [
          { field: "status", operator: "=", value: "active" },
          { field: "role", operator: "!=", value: "student" },
        ],
      ],
    ],
    [
      "a>='1' or b<'2' AND c~'x'",
      [
        [{ field: "a", operator: ">=", value: "1" }],
        [
          { field: "b", operator: "<", value: "2" },
          { field: "c", operator: "~", value: "x" },
        ],
      ],
    ],
    ["roles.role='teacher'", [[{ field: "roles.role", operator: "=", value: "teacher" }]]],
    ["familyName='O''Brien'", [[{ field: "familyName", operator: "=", value: "O'Brien" }]]],
    ["title='A AND B'", [[{ field: "title", operator: "=", value: "A AND B" }]]],
  ])("reads %s", (input, expected) => {
    expect(readFilter(input)).toEqual(expected);
  });

  it.each([
    ["status", "expected an operator"],
    ["status='active", "no closing quote"],
    ["status=active", "single quotes"],
    ["status='a' XOR role='b'", "AND or OR"],
    ["='a'", "field name"],
    ["status='a' AND", "field name"],
    ["status=='a'", "single quotes"],
  ])("refuses %s with a readable message", (input, message) => {
    expect(() => readFilter(input)).toThrow(message);
  });

  it("refuses an overlong filter", () => {
    expect(() => readFilter(`a='${"x".repeat(3000)}'`)).toThrow("longer than");
  });
});

describe("filterToSql on the database", () => {
  let t: TestApp;
  const fields: FilterFields = {
    status: { column: sql`u.status`, kind: "text" },
    givenName: { column: sql`u.given_name`, kind: "text" },
    familyName: { column: sql`u.family_name`, kind: "text" },
    grades: { column: sql`u.grades`, kind: "textArray" },
    enabledUser: { column: sql`u.enabled_user`, kind: "boolean" },
    dateLastModified: { column: sql`u.date_last_modified`, kind: "timestamp" },
    birthDay: { column: sql`u.date_last_modified::date`, kind: "date" },
    nameLength: { column: sql`length(u.given_name)`, kind: "number" },
    "roles.role": {
      build: (operator, value) =>
        operator === "="
          ? sql`exists (select 1 from user_roles r where r.user_sourced_id = u.sourced_id and lower(r.role) = lower(${value}))`
          : sql`false`,
    },
  };
  const count = async (filter: string) => {
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from users u where ${filterToSql(filter, fields)}`,
    );
    return row?.n ?? -1;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("selects with AND, OR, contains, lists, booleans, dates and dotted paths", async () => {
    const all = await count("");
    expect(all).toBeGreaterThan(100);
    expect(await count("status='active'")).toBe(all);
    const teachers = await count("roles.role='teacher'");
    expect(teachers).toBeGreaterThanOrEqual(8);
    expect(await count("roles.role='teacher' AND status='active'")).toBe(teachers);
    expect(await count("roles.role='teacher' OR roles.role='TEACHER'")).toBe(teachers);
    expect(await count("grades='03'")).toBeGreaterThan(0);
    expect(await count("givenName~'AV'")).toBeGreaterThan(0);
    expect(await count("enabledUser='true'")).toBe(all);
    expect(await count("dateLastModified>'2000-01-01'")).toBe(all);
    expect(await count("dateLastModified<'2000-01-01'")).toBe(0);
  });

  it("keeps injection attempts as plain values", async () => {
    expect(await count("givenName='x'' OR ''1''=''1'")).toBe(0);
    expect(await count("givenName='x''; drop table users; --'")).toBe(0);
    expect(await count("givenName~'%'")).toBe(0);
    expect(await count("status='active'")).toBeGreaterThan(100);
  });

  it("refuses unknown fields and values of the wrong kind", async () => {
    await expect(count("password='x'")).rejects.toMatchObject({ reason: "field", status: 400 });
    await expect(count("enabledUser='yes'")).rejects.toMatchObject({ reason: "syntax" });
    await expect(count("dateLastModified>'soon'")).rejects.toMatchObject({ reason: "syntax" });
    await expect(count("grades>'03'")).rejects.toMatchObject({ reason: "syntax" });
    await expect(count("constructor='x'")).rejects.toMatchObject({ reason: "field" });
  });

  it.each([
    "dateLastModified>'2024-02-30'",
    "dateLastModified>'2024-99-99'",
    "dateLastModified>'2024-02-30T00:00:00Z'",
    "dateLastModified>'2024-01-01T99:00:00Z'",
    "dateLastModified>'2024-01-01 junk'",
    "birthDay='2023-02-29'",
    "nameLength>'99999999999999999999'",
    "nameLength>'2147483648'",
  ])("refuses %s as a syntax error, before the database sees it", async (filter) => {
    await expect(count(filter)).rejects.toMatchObject({ reason: "syntax", status: 400 });
  });

  it("takes real dates, date-times and numbers in range", async () => {
    expect(await count("birthDay>'2024-02-29'")).toBeGreaterThanOrEqual(0);
    expect(await count("dateLastModified>'2000-01-01T00:00Z'")).toBeGreaterThan(0);
    expect(await count("dateLastModified>'2000-01-01T00:00:00.000+02:00'")).toBeGreaterThan(0);
    expect(await count("nameLength<'2147483647'")).toBeGreaterThan(0);
  });
});
