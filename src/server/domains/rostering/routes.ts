import { type SQL, sql } from "drizzle-orm";
import { Hono } from "hono";
import { viewableUsersQuerySchema } from "../../../shared/contracts/rostering";
import { dashRoleOf } from "../../../shared/roles";
import { type Database, queryRows } from "../../db/client";
import { requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { message } from "../../lib/i18n";
import { readQuery } from "../../lib/validation";
import { containsPattern } from "./filter";
import { classIdsInGuideReach, peopleIdsOfGuide, studentIdsInReach, studentIdsOfGuide } from "./scope";

interface PersonRow {
  sourcedId: string;
  givenName: string;
  familyName: string;
  email: string | null;
  grades: string[];
  roles: string[];
  total: number | string;
}

/** People matching a search inside a scope, with their Dash roles, sorted by name. */
async function findPeople(db: Database, scope: SQL, page: { search: string; limit: number; offset: number }) {
  const pattern = containsPattern(page.search);
  const rows = await queryRows<PersonRow>(
    db,
    sql`select u.sourced_id as "sourcedId", u.given_name as "givenName", u.family_name as "familyName", u.email, u.grades,
          coalesce((select array_agg(distinct r.role) from user_roles r where r.user_sourced_id = u.sourced_id), '{}') as roles,
          count(*) over () as total
        from users u
        where u.status = 'active' and ${scope}
          and (${page.search} = '' or u.given_name || ' ' || u.family_name ilike ${pattern}
               or coalesce(u.email, '') ilike ${pattern} or coalesce(u.preferred_first_name, '') ilike ${pattern})
        order by u.family_name, u.given_name, u.sourced_id
        limit ${page.limit} offset ${page.offset}`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    data: rows.map(({ total: _total, roles, ...person }) => ({
      ...person,
      roles: [...new Set(roles.map(dashRoleOf).filter((role) => role !== null))],
    })),
  };
}

/**
 * A Guide's students matching a search (by their own name or a family member's), each with the
 * parents and guardians linked to them, sorted by the student's name.
 */
async function findStudentsWithFamilies(
  db: Database,
  guideId: string,
  page: { search: string; limit: number; offset: number },
) {
  const pattern = containsPattern(page.search);
  const matches = (alias: string) => sql.raw(`${alias}.given_name || ' ' || ${alias}.family_name ilike `);
  const students = await findPeople(
    db,
    sql`u.sourced_id in (${studentIdsOfGuide(guideId)})
        and (${page.search} = '' or ${matches("u")}${pattern} or coalesce(u.email, '') ilike ${pattern} or exists (
          select 1 from user_agents a join users f on f.sourced_id = a.agent_sourced_id
          where a.user_sourced_id = u.sourced_id and f.status = 'active' and ${matches("f")}${pattern}))`,
    { ...page, search: "" },
  );
  if (students.data.length === 0) return { total: students.total, data: [] };
  const ids = sql.join(
    students.data.map((student) => sql`${student.sourcedId}`),
    sql`, `,
  );
  const [families, links] = await Promise.all([
    findPeople(
      db,
      sql`u.sourced_id in (select a.agent_sourced_id from user_agents a where a.user_sourced_id in (${ids}))`,
      { search: "", limit: 1000, offset: 0 },
    ),
    queryRows<{ studentId: string; agentId: string }>(
      db,
      sql`select user_sourced_id as "studentId", agent_sourced_id as "agentId" from user_agents
          where user_sourced_id in (${ids})`,
    ),
  ]);
  const isLinked = new Set(links.map((link) => `${link.studentId} ${link.agentId}`));
  return {
    total: students.total,
    // Families keep findPeople's order: by family name, then given name.
    data: students.data.map((student) => ({
      ...student,
      families: families.data.filter((person) => isLinked.has(`${student.sourcedId} ${person.sourcedId}`)),
    })),
  };
}

export function rosteringRoutes({ db }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/users/viewable", async (c) => {
      // The people an administrator or Guide may view Dash as: anyone, or a Guide's students and their families.
      const actor = requireActiveRole(c, ["administrator", "teacher"], message("rostering:actions.viewAs"));
      const page = readQuery(c, viewableUsersQuerySchema);
      const self = actor.realUser.sourcedId;
      const scope =
        actor.activeRole === "administrator"
          ? sql`u.sourced_id <> ${self}`
          : sql`u.sourced_id in (${peopleIdsOfGuide(self)})`;
      return c.json({ success: true, ...(await findPeople(db, scope, page)) });
    })
    .get("/users/viewable/students", async (c) => {
      // A Guide's students, each with their family: whom the Guide may view Dash as, grouped.
      const actor = requireActiveRole(c, ["teacher"], message("rostering:actions.viewAs"));
      const page = readQuery(c, viewableUsersQuerySchema);
      return c.json({
        success: true,
        ...(await findStudentsWithFamilies(db, actor.realUser.sourcedId, page)),
      });
    })
    .get("/classes/mine", async (c) => {
      // The classes a Guide teaches, or every class for an administrator: the class pickers' lists.
      const actor = requireActiveRole(
        c,
        ["administrator", "teacher"],
        message("rostering:actions.listClasses"),
      );
      const scope =
        actor.activeRole === "administrator"
          ? sql`true`
          : sql`k.sourced_id in (${classIdsInGuideReach(actor)})`;
      const classes = await queryRows<{
        sourcedId: string;
        title: string;
        schoolName: string | null;
        students: number;
      }>(
        db,
        sql`select k.sourced_id as "sourcedId", k.title, o.name as "schoolName",
              (select count(*)::int from enrollments e where e.class_sourced_id = k.sourced_id and e.role = 'student'
                and e.status = 'active') as students
            from classes k left join orgs o on o.sourced_id = k.school_sourced_id
            where k.status = 'active' and ${scope} order by o.name, k.title limit 1000`,
      );
      return c.json({ success: true, data: classes });
    })
    .get("/parent/children", async (c) => {
      const actor = requireActiveRole(c, ["parent", "guardian"], message("rostering:actions.seeChildren"));
      const children = await findPeople(db, sql`u.sourced_id in (${studentIdsInReach(actor)})`, {
        search: "",
        limit: 100,
        offset: 0,
      });
      return c.json({ success: true, data: children.data, error: null });
    });
}
