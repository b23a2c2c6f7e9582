import { sql } from "drizzle-orm";
import type { OrgCounts } from "../../../shared/contracts/people";
import { type Database, queryRows } from "../../db/client";
import type { EventBus } from "../../platform/events/bus";
import { grantsRole } from "./queries";

/**
 * The numbers of every organisation (people and classes in it and under it, students per grade)
 * and of every class, computed together and kept for a short while: the organisation pages show
 * them on every visit, and counting a large district costs far more than reading it (PGlite runs
 * one query at a time). Changes made through Dash drop them at once in every process; other
 * changes (an import) show within MAX_AGE_MS.
 */

const MAX_AGE_MS = 30_000;
const ORG_NUMBERS_CHANGED_CHANNEL = "rostering.org-numbers";

export interface OrgNumbers {
  /** Per organisation: distinct people, classes and schools in it and under it. */
  orgs: Map<string, OrgCounts & { families: number }>;
  /** Per organisation: its students (and those under it) per grade; "" is no grade. */
  grades: Map<string, { grade: string; students: number }[]>;
  /** Per class: active students and Guides. */
  classes: Map<string, { students: number; guides: number }>;
}

export const NO_COUNTS: OrgCounts & { families: number } = {
  students: 0,
  guides: 0,
  classes: 0,
  schools: 0,
  families: 0,
};

/** Every active organisation paired with itself and each active organisation under it. */
const closure = sql`with recursive closure(ancestor, descendant) as (
    select o.sourced_id, o.sourced_id from orgs o where o.status = 'active'
    union
    select c.ancestor, o.sourced_id from closure c join orgs o on o.parent_sourced_id = c.descendant
    where o.status = 'active'
  )`;

/** Each active person holding a role in an organisation or under it, once, with what they are there. */
const holders = sql`holders as (
    select c.ancestor, r.user_sourced_id,
      bool_or(${grantsRole(sql`r.role`, "student")}) as is_student,
      bool_or(${grantsRole(sql`r.role`, "teacher")}) as is_guide,
      bool_or(${grantsRole(sql`r.role`, "parent")} or ${grantsRole(sql`r.role`, "guardian")}) as is_family
    from closure c join user_roles r on r.org_sourced_id = c.descendant
    join users u on u.sourced_id = r.user_sourced_id and u.status = 'active'
    group by c.ancestor, r.user_sourced_id
  )`;

async function computeNumbers(db: Database): Promise<OrgNumbers> {
  const orgRows = await queryRows<OrgCounts & { families: number; orgId: string }>(
    db,
    sql`${closure}, ${holders},
        people as (
          select ancestor, count(*) filter (where is_student) as students, count(*) filter (where is_guide) as guides,
            count(*) filter (where is_family) as families
          from holders group by ancestor
        ),
        class_counts as (
          select c.ancestor, count(*) as classes from closure c
          join classes k on k.school_sourced_id = c.descendant and k.status = 'active' group by c.ancestor
        ),
        school_counts as (
          select c.ancestor, count(*) as schools from closure c join orgs o on o.sourced_id = c.descendant
          where lower(o.type) = 'school' and c.descendant <> c.ancestor group by c.ancestor
        )
        select a.ancestor as "orgId", coalesce(p.students, 0)::int as students, coalesce(p.guides, 0)::int as guides,
          coalesce(p.families, 0)::int as families, coalesce(k.classes, 0)::int as classes,
          coalesce(s.schools, 0)::int as schools
        from (select distinct ancestor from closure) a
        left join people p on p.ancestor = a.ancestor
        left join class_counts k on k.ancestor = a.ancestor
        left join school_counts s on s.ancestor = a.ancestor`,
  );
  const gradeRows = await queryRows<{ orgId: string; grade: string; students: number }>(
    db,
    sql`${closure}, ${holders}
        select h.ancestor as "orgId", g.grade, count(*)::int as students
        from holders h join users u on u.sourced_id = h.user_sourced_id
        cross join lateral unnest(case when cardinality(u.grades) = 0 then array['']::text[] else u.grades end) as g(grade)
        where h.is_student
        group by h.ancestor, g.grade`,
  );
  const classRows = await queryRows<{ classId: string; students: number; guides: number }>(
    db,
    sql`select e.class_sourced_id as "classId",
          count(*) filter (where e.role = 'student')::int as students,
          count(*) filter (where e.role = 'teacher')::int as guides
        from enrollments e where e.status = 'active' group by e.class_sourced_id`,
  );

  const grades = new Map<string, { grade: string; students: number }[]>();
  for (const { orgId, grade, students } of gradeRows) {
    const list = grades.get(orgId) ?? [];
    list.push({ grade, students });
    grades.set(orgId, list);
  }
  for (const list of grades.values()) list.sort((a, b) => compareGrades(a.grade, b.grade));
  return {
    orgs: new Map(orgRows.map(({ orgId, ...counts }) => [orgId, counts])),
    grades,
    classes: new Map(classRows.map(({ classId, ...counts }) => [classId, counts])),
  };
}

/** Grades in school order: K before 1, 2 before 10; unknown ones after, "" (no grade) last. */
const GRADE_ORDER = [
  "IT",
  "PR",
  "PK",
  "TK",
  "KG",
  ...Array.from({ length: 13 }, (_, index) => String(index + 1).padStart(2, "0")),
  "PS",
  "UG",
  "Other",
];
function compareGrades(a: string, b: string): number {
  const rank = (grade: string) => {
    if (grade === "") return Number.MAX_SAFE_INTEGER;
    const index = GRADE_ORDER.indexOf(grade);
    return index === -1 ? GRADE_ORDER.length : index;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** The numbers, computed at most once per MAX_AGE_MS (concurrent callers share one computation). */
export function createOrgNumbers(db: Database, now: () => Date, bus: EventBus) {
  let cached: { numbers: Promise<OrgNumbers>; until: number } | null = null;
  const drop = () => {
    cached = null;
  };
  bus.subscribe(ORG_NUMBERS_CHANGED_CHANNEL, drop);
  bus.onMissedMessages(drop);
  return {
    get(): Promise<OrgNumbers> {
      const at = now().getTime();
      if (cached && cached.until > at) return cached.numbers;
      const numbers = computeNumbers(db);
      const entry = { numbers, until: at + MAX_AGE_MS };
      cached = entry;
      // A failed computation is not kept: the next caller tries again.
      numbers.catch(() => {
        if (cached === entry) cached = null;
      });
      return numbers;
    },
    /** After a change made through Dash: the next caller counts afresh, in every process. */
    forget(): void {
      void bus.publish(ORG_NUMBERS_CHANGED_CHANNEL, null);
    },
  };
}

export type OrgNumbersCache = ReturnType<typeof createOrgNumbers>;
