import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client";
import { createAdministrator } from "../domains/auth/admin-account";
import { createTestApp, type TestApp } from "../test/harness";
import { demoId } from "./demo-accounts";
import { schoolYearOf } from "./demo-school";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const count = async (query: ReturnType<typeof sql>) => {
  const [row] = await queryRows<{ n: number }>(t.db, query);
  return Number(row?.n);
};

describe("the demo school", () => {
  it("has a district with two schools, nine Guides, 153 students, 186 parents and 12 guardians, as the README says", async () => {
    expect(await count(sql`select count(*) as n from orgs where type = 'district'`)).toBe(1);
    expect(
      await count(
        sql`select count(*) as n from orgs where type = 'school' and parent_sourced_id = ${demoId("district")}`,
      ),
    ).toBe(2);
    expect(
      await count(
        sql`select count(distinct user_sourced_id) as n from user_roles where role = 'teacher' and user_sourced_id <> ${demoId("multi")}`,
      ),
    ).toBe(8);
    // Jordan Lee (multi@dash.demo) is the ninth Guide and one of the students.
    expect(
      await count(sql`select count(distinct user_sourced_id) as n from user_roles where role = 'teacher'`),
    ).toBe(9);
    expect(
      await count(sql`select count(distinct user_sourced_id) as n from user_roles where role = 'student'`),
    ).toBe(153);
    expect(
      await count(sql`select count(distinct user_sourced_id) as n from user_roles where role = 'parent'`),
    ).toBe(186);
    expect(
      await count(sql`select count(distinct user_sourced_id) as n from user_roles where role = 'guardian'`),
    ).toBe(12);
    const [grades] = await queryRows<{ grades: string[] }>(
      t.db,
      sql`select array_agg(distinct g order by g) as grades from users, unnest(grades) g`,
    );
    expect(grades?.grades).toEqual(["01", "02", "03", "04", "05", "06", "07", "08", "KG"]);
  });

  it("links every student to a parent or guardian and to classes with a Guide", async () => {
    expect(
      await count(sql`select count(*) as n from user_roles r where r.role = 'student'
        and not exists (select 1 from user_agents a where a.user_sourced_id = r.user_sourced_id)
        and r.user_sourced_id <> ${demoId("multi")}`),
    ).toBe(0);
    expect(
      await count(sql`select count(*) as n from enrollments e where e.role = 'student'
        and not exists (select 1 from enrollments t where t.class_sourced_id = e.class_sourced_id and t.role = 'teacher')`),
    ).toBe(0);
    expect(await count(sql`select count(*) as n from classes`)).toBe(32);
    expect(await count(sql`select count(*) as n from academic_sessions where type = 'term'`)).toBe(2);
    // Four units per course, the last of each without a sortOrder; the Science course at Maple
    // Grove has two more units built in Dash, of two lessons each.
    expect(
      await count(sql`select count(*) as n from course_components where parent_component_sourced_id is null`),
    ).toBe(34);
    expect(
      await count(
        sql`select count(*) as n from course_components where parent_component_sourced_id is not null`,
      ),
    ).toBe(4);
    expect(await count(sql`select count(*) as n from course_components where sort_order is null`)).toBe(8);
  });

  it("makes guide@dash.demo the Guide of student@dash.demo and parent@dash.demo the parent of two children", async () => {
    const [guide] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*) as n from enrollments s join enrollments g on g.class_sourced_id = s.class_sourced_id
          join users gu on gu.sourced_id = g.user_sourced_id join users su on su.sourced_id = s.user_sourced_id
          where gu.email = 'guide@dash.demo' and g.role = 'teacher' and su.email = 'student@dash.demo' and s.role = 'student'`,
    );
    expect(Number(guide?.n)).toBeGreaterThan(0);
    const children = await queryRows<{ email: string }>(
      t.db,
      sql`select c.email from user_agents a join users p on p.sourced_id = a.agent_sourced_id
          join users c on c.sourced_id = a.user_sourced_id where p.email = 'parent@dash.demo' order by c.email`,
    );
    expect(children.map((child) => child.email)).toEqual([
      "leo.johnson@learners.dash.demo",
      "student@dash.demo",
    ]);
    const guardianOf = await queryRows<{ email: string }>(
      t.db,
      sql`select c.email from user_agents a join users p on p.sourced_id = a.agent_sourced_id
          join users c on c.sourced_id = a.user_sourced_id where p.email = 'guardian@dash.demo'`,
    );
    expect(guardianOf.map((child) => child.email)).toEqual(["student@dash.demo"]);
  });

  it("uses stable ids and school years", () => {
    expect(demoId("district")).toBe(demoId("district"));
    expect(demoId("district")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(schoolYearOf(new Date("2026-11-22T12:00:00Z"))).toEqual({ startYear: 2026, title: "2026-2027" });
    expect(schoolYearOf(new Date("2027-03-01T12:00:00Z"))).toEqual({ startYear: 2026, title: "2026-2027" });
  });
});

describe("createAdministrator", () => {
  const input = {
    password: "a-long-password",
    givenName: "Ada",
    familyName: "Lovelace",
    organisationName: "Unused",
  };

  it("adds an administrator of the top organisation who can sign in", async () => {
    const admin = await createAdministrator(t.db, { ...input, email: "ada@school.example" });
    expect(admin.organisation.name).toBe("Dash Demo District");
    const cookie = await t.signIn("ada@school.example", "a-long-password");
    const me = await (await t.request("/api/auth/me", { cookie })).json();
    expect(me.user.roles.map((role: { role: string }) => role.role)).toEqual(["administrator"]);
  });

  it("refuses a taken email, a bad email and a password against the policy", async () => {
    await expect(createAdministrator(t.db, { ...input, email: "ADMIN@dash.demo" })).rejects.toThrow(
      "already exists",
    );
    await expect(createAdministrator(t.db, { ...input, email: "not-an-email" })).rejects.toThrow(
      "Not an email address",
    );
    await expect(
      createAdministrator(t.db, { ...input, email: "x@school.example", password: "short" }),
    ).rejects.toThrow("Choose a longer password: at least 8 characters");
    await expect(
      createAdministrator(t.db, { ...input, email: "y@school.example", password: "password1" }),
    ).rejects.toThrow("This password is too common");
    await expect(
      createAdministrator(t.db, { ...input, email: "z@school.example", password: "ada lovelace's key" }),
    ).rejects.toThrow("Leave your name, email, username and the word “Dash” out of your password");
  });
});
