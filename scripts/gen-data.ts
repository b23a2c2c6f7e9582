/**
 * Fills a separate, empty database with a large synthetic school for benchmarks:
 *   npm run gen:data -- --students 10000 --days 180 [--guides 80] [--parents 2000] [--data-dir .tmp/gen-data]
 * Uses DATABASE_URL when set, else an embedded database in --data-dir. Writes the daily totals
 * directly with SQL (generate_series), so millions of rows take seconds, not hours.
 * Sign-in accounts (password `bench-password`): bench-admin@dash.bench, bench-guide@dash.bench
 * (Guide of the class gen-class-1) and bench-student@dash.bench; with `--guides` every student,
 * Guide and parent signs in too (student-N@, guide-N@ and parent-N@dash.bench; parent N is the
 * parent of student N). App key `bench-app-key`.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { type Database, openDatabase, queryRows } from "../src/server/db/client";
import { setMeta } from "../src/server/db/meta";
import { hashPassword } from "../src/server/domains/auth/password";
import { FALLBACK_DAILY_GOALS } from "../src/server/domains/goals/daily-goals";
import { readEnv } from "../src/server/env";
import { hashSecret } from "../src/server/lib/secrets";

export const BENCH_PASSWORD = "bench-password";
export const BENCH_APP_KEY = "bench-app-key";
export const CLASS_SIZE = 30;
const STUDENTS_PER_SCHOOL = 1000;

export async function generateSchool(
  db: Database,
  options: {
    students: number;
    days: number;
    today: string;
    /** One Guide per class: the students are shared out in this many classes (one per 30 by default). */
    guides?: number;
    /** Students 1 to `parents` each get a parent. */
    parents?: number;
    /** Every student, Guide and parent gets an email and the benchmark password. */
    everyoneSignsIn?: boolean;
    /** Students per school (1,000 by default). */
    studentsPerSchool?: number;
  },
) {
  const [existing] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from users`);
  if (existing?.n) throw new Error("The database is not empty: gen:data fills a separate, empty database");
  const { students, days, today } = options;
  const perSchool = options.studentsPerSchool ?? STUDENTS_PER_SCHOOL;
  const schools = Math.ceil(students / perSchool);
  const classes = options.guides ?? Math.ceil(students / CLASS_SIZE);
  const classSize = Math.ceil(students / classes);
  const parents = Math.min(options.parents ?? 0, students);
  const everyone = options.everyoneSignsIn ?? false;
  const studentEmail = everyone
    ? sql`case when s = 1 then 'bench-student@dash.bench' else 'student-' || s || '@dash.bench' end`
    : sql`case when s = 1 then 'bench-student@dash.bench' end`;
  const guideEmail = everyone
    ? sql`case when c = 1 then 'bench-guide@dash.bench' else 'guide-' || c || '@dash.bench' end`
    : sql`case when c = 1 then 'bench-guide@dash.bench' end`;
  const passwordHash = await hashPassword(BENCH_PASSWORD);

  await db.execute(
    sql`insert into orgs (sourced_id, name, type) values ('gen-district', 'Benchmark District', 'district')`,
  );
  await db.execute(sql`insert into orgs (sourced_id, name, type, parent_sourced_id)
    select 'gen-school-' || s, 'Benchmark School ' || s, 'school', 'gen-district' from generate_series(1, ${schools}) s`);
  await db.execute(
    sql`insert into courses (sourced_id, title, org_sourced_id) values ('gen-course', 'Benchmark Course', 'gen-district')`,
  );

  // Students, one Guide and one class per 30 students, each class in the students' school.
  await db.execute(sql`insert into users (sourced_id, given_name, family_name, email, primary_org_sourced_id, grades)
    select 'gen-student-' || s, 'Student', lpad(s::text, 6, '0'),
      ${studentEmail},
      'gen-school-' || ((s - 1) / ${perSchool} + 1), array[lpad(((s % 9) + 1)::text, 2, '0')]
    from generate_series(1, ${students}) s`);
  await db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
    select 'gen-student-' || s, 'student', 'primary', 'gen-school-' || ((s - 1) / ${perSchool} + 1)
    from generate_series(1, ${students}) s`);
  await db.execute(sql`insert into users (sourced_id, given_name, family_name, email, primary_org_sourced_id)
    select 'gen-guide-' || c, 'Guide', lpad(c::text, 5, '0'), ${guideEmail},
      'gen-school-' || (((c - 1) * ${classSize}) / ${perSchool} + 1)
    from generate_series(1, ${classes}) c`);
  await db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
    select 'gen-guide-' || c, 'teacher', 'primary', 'gen-school-' || (((c - 1) * ${classSize}) / ${perSchool} + 1)
    from generate_series(1, ${classes}) c`);
  await db.execute(sql`insert into classes (sourced_id, title, course_sourced_id, school_sourced_id, subjects)
    select 'gen-class-' || c, 'Class ' || c, 'gen-course', 'gen-school-' || (((c - 1) * ${classSize}) / ${perSchool} + 1),
      array['Math', 'Reading', 'Language', 'Science']
    from generate_series(1, ${classes}) c`);
  await db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role, "primary")
    select 'gen-enrollment-t' || c, 'gen-guide-' || c, 'gen-class-' || c,
      'gen-school-' || (((c - 1) * ${classSize}) / ${perSchool} + 1), 'teacher', true
    from generate_series(1, ${classes}) c`);
  await db.execute(sql`insert into enrollments (sourced_id, user_sourced_id, class_sourced_id, school_sourced_id, role)
    select 'gen-enrollment-s' || s, 'gen-student-' || s, 'gen-class-' || ((s - 1) / ${classSize} + 1),
      'gen-school-' || ((s - 1) / ${perSchool} + 1), 'student'
    from generate_series(1, ${students}) s`);

  if (parents > 0) {
    await db.execute(sql`insert into users (sourced_id, given_name, family_name, email, primary_org_sourced_id)
      select 'gen-parent-' || s, 'Parent', lpad(s::text, 6, '0'),
        ${everyone ? sql`'parent-' || s || '@dash.bench'` : null},
        'gen-school-' || ((s - 1) / ${perSchool} + 1)
      from generate_series(1, ${parents}) s`);
    await db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
      select 'gen-parent-' || s, 'parent', 'primary', 'gen-school-' || ((s - 1) / ${perSchool} + 1)
      from generate_series(1, ${parents}) s`);
    await db.execute(sql`insert into user_agents (user_sourced_id, agent_sourced_id)
      select 'gen-student-' || s, 'gen-parent-' || s from generate_series(1, ${parents}) s`);
  }

  await db.execute(sql`insert into users (sourced_id, given_name, family_name, email, primary_org_sourced_id)
    values ('gen-admin', 'Bench', 'Admin', 'bench-admin@dash.bench', 'gen-district')`);
  await db.execute(sql`insert into user_roles (user_sourced_id, role, role_type, org_sourced_id)
    values ('gen-admin', 'administrator', 'primary', 'gen-district')`);
  await db.execute(sql`insert into user_credentials (user_sourced_id, password_hash)
    select sourced_id, ${passwordHash} from users where email like '%@dash.bench'`);

  const [app] = await queryRows<{ id: string }>(
    db,
    sql`insert into learning_apps (name, subjects) values ('Benchmark App', array['Math', 'Reading', 'Language', 'Science']) returning id`,
  );
  await db.execute(sql`insert into app_api_keys (app_id, label, key_prefix, key_hash)
    values (${app?.id}, 'bench', 'bench-app-ke', ${hashSecret(BENCH_APP_KEY)})`);
  await setMeta(db, "daily_xp_goals", FALLBACK_DAILY_GOALS);

  // Daily totals for every school day (Monday to Friday) of the period, per subject.
  await db.execute(sql`select setseed(0.42)`);
  await db.execute(sql`insert into daily_student_metrics (student_sourced_id, local_date, subject, app_key, xp,
      active_seconds, waste_seconds, total_questions, correct_questions, mastered_units, events, last_event_at)
    select 'gen-student-' || s, d::date, subject, ${app?.id},
      round((5 + random() * 40)::numeric, 2), (600 + random() * 2400)::int, (random() * 300)::int,
      q, (q * (0.7 + random() * 0.3))::int, (random() * 3)::int, 1 + (random() * 3)::int, d + interval '14 hours'
    from generate_series(1, ${students}) s
      cross join generate_series(${today}::date - (${days} - 1), ${today}::date, interval '1 day') d
      cross join unnest(array['Math', 'Reading', 'Language', 'Science']) subject
      cross join lateral (select (5 + random() * 15)::int as q) questions
    where extract(isodow from d) < 6`);
  // A maintained server has its statistics and visibility map up to date.
  await db.execute(sql`vacuum analyze`);
  const [rows] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from daily_student_metrics`,
  );
  return { schools, classes, dailyRows: rows?.n ?? 0 };
}

async function main() {
  const { values } = parseArgs({
    options: {
      students: { type: "string", default: "10000" },
      days: { type: "string", default: "180" },
      guides: { type: "string" },
      parents: { type: "string", default: "0" },
      "data-dir": { type: "string", default: ".tmp/gen-data" },
    },
  });
  const students = Number(values.students);
  const days = Number(values.days);
  if (!Number.isInteger(students) || students < 1 || !Number.isInteger(days) || days < 1) {
    throw new Error("--students and --days take whole numbers of at least 1");
  }
  const guides = values.guides === undefined ? undefined : Number(values.guides);
  const parents = Number(values.parents);
  if (
    (guides !== undefined && (!Number.isInteger(guides) || guides < 1)) ||
    !Number.isInteger(parents) ||
    parents < 0
  ) {
    throw new Error("--guides takes a whole number of at least 1, --parents one of at least 0");
  }
  const env = readEnv();
  const database = await openDatabase(
    env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir: values["data-dir"] },
  );
  const started = performance.now();
  try {
    await database.migrate();
    const today = new Date().toISOString().slice(0, 10);
    const result = await generateSchool(database.db, {
      students,
      days,
      today,
      guides,
      parents,
      everyoneSignsIn: guides !== undefined,
    });
    const where = env.DATABASE_URL ? "DATABASE_URL" : values["data-dir"];
    process.stdout.write(
      `Generated ${students} students in ${result.schools} schools and ${result.classes} classes, ` +
        `${result.dailyRows} daily rows over ${days} days, into ${where} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    process.stderr.write(`gen:data: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
