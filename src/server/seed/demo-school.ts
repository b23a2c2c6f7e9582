import { inArray, sql } from "drizzle-orm";
import { ONEROSTER_SCOPE_LIST } from "../../shared/contracts/api-clients";
import { type Database, queryRows } from "../db/client";
import { getMeta, setMeta } from "../db/meta";
import { appApiKeys, learningApps } from "../domains/activity/schema";
import { hashPassword, type ScryptCost } from "../domains/auth/password";
import { userCredentials } from "../domains/auth/schema";
import { apiClients } from "../domains/oauth/schema";
import {
  academicSessions,
  classes,
  courseComponents,
  courses,
  enrollments,
  orgs,
  userAgents,
  userRoles,
  users,
} from "../domains/rostering/schema";
import type { Env } from "../env";
import type { SecretBox } from "../lib/secret-box";
import { hashSecret } from "../lib/secrets";
import type { FileStorage } from "../platform/storage";
import {
  DEMO_ACCOUNTS,
  DEMO_APP_KEY,
  DEMO_APPS,
  DEMO_PASSWORD,
  DEMO_SIS_CLIENT,
  type DemoEmail,
  demoId,
} from "./demo-accounts";
import { seedDemoActivity } from "./demo-activity";
import { seedDemoAnalytics } from "./demo-analytics";
import { seedDemoAthletics } from "./demo-athletics";
import { seedDemoCheckCharts } from "./demo-check-charts";
import { seedDemoContent } from "./demo-content";
import { seedDemoCredentials } from "./demo-credentials";
import { seedDemoGoals } from "./demo-goals";
import { seedDemoIntegrity } from "./demo-integrity";
import { seedDemoLeaderboards } from "./demo-leaderboards";
import { seedDemoMap } from "./demo-map";
import { seedDemoMessaging } from "./demo-messaging";
import { seedDemoNotifications } from "./demo-notifications";
import { seedDemoPlacements } from "./demo-placements";
import { seedDemoPulse } from "./demo-pulse";
import { seedDemoReportSchedules } from "./demo-report-schedules";
import { seedDemoRewards } from "./demo-rewards";
import { seedDemoSurveys } from "./demo-surveys";
import { seedDemoTours } from "./demo-tours";
import { seedDemoWebhooks } from "./demo-webhooks";

/**
 * The demo school: a district with two schools, nine Guides, 153 students in grades K–8
 * with their parents and guardians, classes per subject, enrollments and a school year with
 * terms. Deterministic: the same date gives the same rows and ids.
 */

type UserRow = typeof users.$inferInsert;
type RoleRow = typeof userRoles.$inferInsert;
type EnrollmentRow = typeof enrollments.$inferInsert;

const SUBJECTS = ["Math", "Reading", "Language", "Science"] as const;
/** Each course's units in order; the last has no sortOrder (it sorts after the others). */
const UNITS: Record<(typeof SUBJECTS)[number], string[]> = {
  Math: ["Number sense", "Operations", "Fractions", "Math games"],
  Reading: ["Phonics and fluency", "Vocabulary", "Comprehension", "Reading for fun"],
  Language: ["Grammar", "Spelling", "Writing", "Word play"],
  Science: ["Life science", "Earth and space", "Physical science", "Investigations"],
};
const GIVEN_NAMES = [
  "Liam",
  "Olivia",
  "Noah",
  "Emma",
  "Elijah",
  "Amelia",
  "Mateo",
  "Sophia",
  "Lucas",
  "Isabella",
  "Levi",
  "Mia",
  "Ezra",
  "Evelyn",
  "Asher",
  "Harper",
  "Leo",
  "Luna",
  "James",
  "Camila",
  "Kai",
  "Gianna",
  "Hudson",
  "Elena",
  "Theo",
  "Aria",
  "Miles",
  "Nora",
  "Rowan",
  "Zoe",
  "Omar",
  "Priya",
  "Diego",
  "Hana",
  "Malik",
  "Ines",
  "Arjun",
  "Chloe",
  "Felix",
  "Yara",
];
const FAMILY_NAMES = [
  "Smith",
  "Garcia",
  "Nguyen",
  "Brown",
  "Williams",
  "Martinez",
  "Kim",
  "Davis",
  "Lopez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Hernandez",
  "Moore",
  "Okafor",
  "Jackson",
  "Chen",
  "Lee",
  "Walker",
  "Hall",
  "Young",
  "Singh",
  "King",
  "Wright",
  "Scott",
  "Torres",
  "Adams",
  "Baker",
  "Nelson",
  "Hill",
];
const PARENT_GIVEN_NAMES = [
  "Maria",
  "David",
  "Jennifer",
  "Michael",
  "Aisha",
  "Carlos",
  "Linda",
  "Wei",
  "Fatima",
  "Robert",
];

/** Small seeded random generator (mulberry32): deterministic and good enough for demo data. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isoDate = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** The school year that contains `today`: it starts in August. */
export function schoolYearOf(today: Date): { startYear: number; title: string } {
  const startYear = today.getUTCMonth() >= 6 ? today.getUTCFullYear() : today.getUTCFullYear() - 1;
  return { startYear, title: `${startYear}-${startYear + 1}` };
}

/** The dates of the demo school year that starts in August of `startYear`: terms and grading periods. */
export function demoSchoolYearDates(startYear: number) {
  return {
    fall: { start: isoDate(startYear, 8, 17), end: isoDate(startYear, 12, 18) },
    spring: { start: isoDate(startYear + 1, 1, 4), end: isoDate(startYear + 1, 6, 11) },
    quarters: [
      { title: "Quarter 1", start: isoDate(startYear, 8, 17), end: isoDate(startYear, 10, 16) },
      { title: "Quarter 2", start: isoDate(startYear, 10, 19), end: isoDate(startYear, 12, 18) },
      { title: "Quarter 3", start: isoDate(startYear + 1, 1, 4), end: isoDate(startYear + 1, 3, 19) },
      { title: "Quarter 4", start: isoDate(startYear + 1, 3, 29), end: isoDate(startYear + 1, 6, 11) },
    ],
  } as const;
}

interface School {
  key: string;
  name: string;
  identifier: string;
  grades: string[];
  guides: { key: string; givenName: string; familyName: string; email?: DemoEmail }[];
}

const SCHOOLS: School[] = [
  {
    key: "maple-grove",
    name: "Maple Grove School",
    identifier: "MGS",
    grades: ["KG", "01", "02", "03", "04"],
    guides: [
      { key: "guide-patel", givenName: "Maya", familyName: "Patel", email: "guide@dash.demo" },
      { key: "guide-okoro", givenName: "Daniel", familyName: "Okoro" },
      { key: "guide-hughes", givenName: "Rachel", familyName: "Hughes" },
      { key: "guide-santos", givenName: "Marco", familyName: "Santos" },
    ],
  },
  {
    key: "riverside",
    name: "Riverside School",
    identifier: "RVS",
    grades: ["05", "06", "07", "08"],
    guides: [
      { key: "guide-fischer", givenName: "Hannah", familyName: "Fischer" },
      { key: "guide-mensah", givenName: "Kwame", familyName: "Mensah" },
      { key: "guide-novak", givenName: "Elena", familyName: "Novak" },
      { key: "guide-brooks", givenName: "Tyler", familyName: "Brooks" },
    ],
  },
];
const STUDENTS_PER_SCHOOL = 75;

function person(
  key: string,
  givenName: string,
  familyName: string,
  email: string,
  extra: Partial<UserRow> = {},
): UserRow {
  return {
    sourcedId: demoId(key),
    givenName,
    familyName,
    email,
    username: email.split("@")[0],
    identifier: key,
    ...extra,
  };
}

/**
 * The demo accounts' password is printed on the sign-in page, so its hash protects nothing: it is
 * made at a low scrypt cost, and signing in as a demo account costs the server little (the test
 * suites sign in thousands of times). A password a person sets later gets the full cost.
 */
const DEMO_PASSWORD_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

export async function seedDemoSchool(
  db: Database,
  today: Date = new Date(),
  storage?: FileStorage,
  /** The server's secret box: without it (the tests' shared template) no app logins are seeded. */
  secretBox?: SecretBox,
): Promise<void> {
  const rand = seededRandom(20260817);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const { startYear, title: yearTitle } = schoolYearOf(today);

  const district = {
    sourcedId: demoId("district"),
    name: "Dash Demo District",
    type: "district",
    identifier: "DDD",
  };
  const orgRows: (typeof orgs.$inferInsert)[] = [district];
  for (const school of SCHOOLS) {
    orgRows.push({
      sourcedId: demoId(school.key),
      name: school.name,
      type: "school",
      identifier: school.identifier,
      parentSourcedId: district.sourcedId,
    });
  }

  const yearId = demoId(`year-${yearTitle}`);
  const dates = demoSchoolYearDates(startYear);
  const fall = { id: demoId(`term-fall-${startYear}`), title: `Fall ${startYear}`, ...dates.fall };
  const spring = {
    id: demoId(`term-spring-${startYear + 1}`),
    title: `Spring ${startYear + 1}`,
    ...dates.spring,
  };
  const sessionRows: (typeof academicSessions.$inferInsert)[] = [
    {
      sourcedId: yearId,
      title: yearTitle,
      type: "schoolYear",
      startDate: fall.start,
      endDate: spring.end,
      schoolYear: String(startYear + 1),
      orgSourcedId: district.sourcedId,
    },
    ...[fall, spring].map((term) => ({
      sourcedId: term.id,
      title: term.title,
      type: "term",
      startDate: term.start,
      endDate: term.end,
      parentSourcedId: yearId,
      schoolYear: String(startYear + 1),
      orgSourcedId: district.sourcedId,
    })),
    ...dates.quarters.map((quarter, index) => ({
      sourcedId: demoId(`period-${quarter.title}-${startYear}`),
      title: quarter.title,
      type: "gradingPeriod",
      startDate: quarter.start,
      endDate: quarter.end,
      parentSourcedId: index < 2 ? fall.id : spring.id,
      schoolYear: String(startYear + 1),
      orgSourcedId: district.sourcedId,
    })),
  ];

  const userRows: UserRow[] = [];
  const roleRows: RoleRow[] = [];
  const agentRows: (typeof userAgents.$inferInsert)[] = [];
  const courseRows: (typeof courses.$inferInsert)[] = [];
  const componentRows: (typeof courseComponents.$inferInsert)[] = [];
  const classRows: (typeof classes.$inferInsert)[] = [];
  const enrollmentRows: EnrollmentRow[] = [];
  const demoUserIds = new Map<DemoEmail, string>();

  const addUser = (
    row: UserRow,
    roles: { role: string; orgId: string; roleType?: "primary" | "secondary" }[],
  ) => {
    userRows.push({ primaryOrgSourcedId: roles[0]?.orgId, ...row });
    for (const [index, role] of roles.entries()) {
      roleRows.push({
        userSourcedId: row.sourcedId,
        role: role.role,
        roleType: role.roleType ?? (index === 0 ? "primary" : "secondary"),
        orgSourcedId: role.orgId,
        beginDate: fall.start,
      });
    }
    const demo = DEMO_ACCOUNTS.find((account) => account.email === row.email);
    if (demo) demoUserIds.set(demo.email, row.sourcedId);
    return row.sourcedId;
  };
  const enroll = (userId: string, classId: string, schoolId: string, role: string, primary = false) =>
    enrollmentRows.push({
      sourcedId: demoId(`enrollment-${classId}-${userId}-${role}`),
      userSourcedId: userId,
      classSourcedId: classId,
      schoolSourcedId: schoolId,
      role,
      primary,
      beginDate: fall.start,
    });

  addUser(person("admin", "Alex", "Morgan", "admin@dash.demo"), [
    { role: "administrator", orgId: district.sourcedId },
  ]);

  let familyIndex = 0;
  for (const school of SCHOOLS) {
    const schoolId = demoId(school.key);
    const band = `${school.grades[0]}–${school.grades.at(-1)}`.replace("KG", "K");

    // Courses per subject for the school's grade band; classes per subject for each Guide's group.
    const courseIds = new Map<string, string>();
    for (const subject of SUBJECTS) {
      const courseId = demoId(`course-${school.key}-${subject}`);
      courseIds.set(subject, courseId);
      courseRows.push({
        sourcedId: courseId,
        title: `${subject} ${band}`,
        courseCode: `${school.identifier}-${subject.toUpperCase().slice(0, 4)}`,
        grades: school.grades,
        subjects: [subject],
        orgSourcedId: schoolId,
        schoolYearSourcedId: yearId,
      });
      UNITS[subject].forEach((title, index, units) => {
        componentRows.push({
          sourcedId: demoId(`component-${school.key}-${subject}-${index}`),
          courseSourcedId: courseId,
          title,
          sortOrder: index < units.length - 1 ? index + 1 : null,
        });
      });
    }

    const guideIds = school.guides.map((guide) =>
      addUser(
        person(
          guide.key,
          guide.givenName,
          guide.familyName,
          guide.email ?? `${guide.givenName}.${guide.familyName}@staff.dash.demo`.toLowerCase(),
        ),
        [{ role: "teacher", orgId: schoolId }],
      ),
    );
    const groupClassIds = school.guides.map((guide) =>
      SUBJECTS.map((subject) => {
        const classId = demoId(`class-${school.key}-${guide.key}-${subject}`);
        classRows.push({
          sourcedId: classId,
          title: `${subject} · ${guide.familyName} group`,
          classCode: `${school.identifier}-${subject.slice(0, 4).toUpperCase()}-${guide.familyName.slice(0, 3).toUpperCase()}`,
          classType: "scheduled",
          location: `Studio ${guide.familyName}`,
          grades: school.grades,
          subjects: [subject],
          courseSourcedId: courseIds.get(subject) as string,
          schoolSourcedId: schoolId,
          termSourcedIds: [fall.id, spring.id],
        });
        return classId;
      }),
    );
    guideIds.forEach((guideId, group) => {
      for (const classId of groupClassIds[group] ?? []) enroll(guideId, classId, schoolId, "teacher", true);
    });

    for (let index = 0; index < STUDENTS_PER_SCHOOL; index++) {
      const grade = school.grades[index % school.grades.length] as string;
      const group = index % school.guides.length;
      const givenName = pick(GIVEN_NAMES);
      const familyName = pick(FAMILY_NAMES);
      const key = `student-${school.key}-${index}`;
      const studentId = addUser(
        person(
          key,
          givenName,
          familyName,
          `${givenName}.${familyName}.${school.identifier}${index}@learners.dash.demo`.toLowerCase(),
          { grades: [grade] },
        ),
        [{ role: "student", orgId: schoolId }],
      );
      for (const classId of groupClassIds[group] ?? []) enroll(studentId, classId, schoolId, "student");

      // Every family has one parent; some a second parent, some a guardian instead.
      familyIndex++;
      const roll = rand();
      const agentRole = roll < 0.1 ? "guardian" : "parent";
      const agentId = addUser(
        person(
          `family-${familyIndex}-a`,
          pick(PARENT_GIVEN_NAMES),
          familyName,
          `family${familyIndex}.a@families.dash.demo`,
        ),
        [{ role: agentRole, orgId: schoolId }],
      );
      agentRows.push({ userSourcedId: studentId, agentSourcedId: agentId });
      if (roll > 0.7) {
        const secondId = addUser(
          person(
            `family-${familyIndex}-b`,
            pick(PARENT_GIVEN_NAMES),
            familyName,
            `family${familyIndex}.b@families.dash.demo`,
          ),
          [{ role: "parent", orgId: schoolId }],
        );
        agentRows.push({ userSourcedId: studentId, agentSourcedId: secondId });
      }
    }

    if (school.key === "maple-grove") {
      // The named demo family: Ava (grade 3, Maya Patel's group), her parent and her guardian.
      const avaId = addUser(
        person("student-ava", "Ava", "Johnson", "student@dash.demo", { grades: ["03"] }),
        [{ role: "student", orgId: schoolId }],
      );
      for (const classId of groupClassIds[0] ?? []) enroll(avaId, classId, schoolId, "student");
      const guardianId = addUser(person("guardian-grace", "Grace", "Miller", "guardian@dash.demo"), [
        { role: "guardian", orgId: schoolId },
      ]);
      agentRows.push({ userSourcedId: avaId, agentSourcedId: guardianId });
      addUser(person("proctor", "Pat", "Rivera", "proctor@dash.demo"), [
        { role: "proctor", orgId: schoolId },
      ]);
      // Jordan Lee co-teaches Science in Maya Patel's group and is a student in Daniel Okoro's Math class.
      const jordanId = addUser(person("multi", "Jordan", "Lee", "multi@dash.demo"), [
        { role: "teacher", orgId: schoolId },
        { role: "student", orgId: schoolId },
      ]);
      enroll(jordanId, groupClassIds[0]?.[3] as string, schoolId, "teacher");
      enroll(jordanId, groupClassIds[1]?.[0] as string, schoolId, "student");
    }
  }

  // Ava's brother Leo is in grade 6 at Riverside; Sam Johnson is the parent of both.
  const riverside = SCHOOLS[1] as School;
  const riversideId = demoId(riverside.key);
  const leoId = addUser(
    person("student-leo", "Leo", "Johnson", "leo.johnson@learners.dash.demo", { grades: ["06"] }),
    [{ role: "student", orgId: riversideId }],
  );
  for (const subject of SUBJECTS) {
    enroll(
      leoId,
      demoId(`class-${riverside.key}-${riverside.guides[0]?.key}-${subject}`),
      riversideId,
      "student",
    );
  }
  const samId = addUser(person("parent-sam", "Sam", "Johnson", "parent@dash.demo"), [
    { role: "parent", orgId: demoId("maple-grove") },
    { role: "parent", orgId: riversideId },
  ]);
  agentRows.push(
    { userSourcedId: demoId("student-ava"), agentSourcedId: samId },
    { userSourcedId: leoId, agentSourcedId: samId },
  );

  const credentialRows = await Promise.all(
    [...demoUserIds.values()].map(async (userSourcedId) => ({
      userSourcedId,
      passwordHash: await hashPassword(DEMO_PASSWORD, DEMO_PASSWORD_COST),
    })),
  );

  await db.transaction(async (tx) => {
    // Batches keep each statement well under PostgreSQL's limit of 65,535 parameters.
    const insertAll = async <Row>(rows: Row[], insert: (batch: Row[]) => Promise<unknown>) => {
      for (let start = 0; start < rows.length; start += 500) await insert(rows.slice(start, start + 500));
    };
    await insertAll(orgRows, (batch) => tx.insert(orgs).values(batch));
    await insertAll(sessionRows, (batch) => tx.insert(academicSessions).values(batch));
    await insertAll(courseRows, (batch) => tx.insert(courses).values(batch));
    await insertAll(componentRows, (batch) => tx.insert(courseComponents).values(batch));
    await insertAll(classRows, (batch) => tx.insert(classes).values(batch));
    await insertAll(userRows, (batch) => tx.insert(users).values(batch));
    await insertAll(roleRows, (batch) => tx.insert(userRoles).values(batch));
    await insertAll(agentRows, (batch) => tx.insert(userAgents).values(batch));
    await insertAll(enrollmentRows, (batch) => tx.insert(enrollments).values(batch));
    await insertAll(credentialRows, (batch) => tx.insert(userCredentials).values(batch));
    await tx.insert(learningApps).values(
      DEMO_APPS.map(({ key, subjects, ...app }) => ({
        ...app,
        subjects: [...subjects],
        id: demoId(`app-${key}`),
      })),
    );
    await tx.insert(appApiKeys).values({
      appId: demoId("app-math"),
      label: "Demo key",
      keyPrefix: DEMO_APP_KEY.slice(0, 12),
      keyHash: hashSecret(DEMO_APP_KEY),
    });
    await tx.insert(apiClients).values({
      id: demoId("api-client-demo-sis"),
      name: DEMO_SIS_CLIENT.name,
      clientId: DEMO_SIS_CLIENT.clientId,
      secretHash: hashSecret(DEMO_SIS_CLIENT.clientSecret),
      scopes: [...ONEROSTER_SCOPE_LIST],
      createdBy: demoId("admin"),
      createdAt: today,
    });
    await setMeta(tx as unknown as Database, "demo_seeded_at", today.toISOString());
  });

  await seedDemoActivity(db, today);
  await seedDemoRewards(db, today);
  await seedDemoLeaderboards(db, today);
  await seedDemoGoals(db, today);
  await seedDemoMap(db, today);
  await seedDemoIntegrity(db, today, storage);
  await seedDemoPlacements(db, today);
  await seedDemoCheckCharts(db, today);
  await seedDemoContent(db, today);
  await seedDemoPulse(db, today);
  await seedDemoSurveys(db, today);
  await seedDemoMessaging(db, today, storage);
  await seedDemoAthletics(db, today);
  await seedDemoTours(db, today);
  if (secretBox) await seedDemoCredentials(db, today, secretBox);
  // Last: the notifications are made from what the other parts seeded.
  await seedDemoNotifications(db, today);
  await seedDemoAnalytics(db, today);
  await seedDemoWebhooks(db, today);
  await seedDemoReportSchedules(db, today);
}

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const [row] = await queryRows<{ hasUsers: boolean }>(
    db,
    sql`select exists (select 1 from users) as "hasUsers"`,
  );
  return !row?.hasUsers;
}

/** The demo school's sign-in accounts this database still holds (they share a published password). */
export async function findDemoAccounts(db: Database): Promise<(typeof DEMO_ACCOUNTS)[number][]> {
  const present = await db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        sql`lower(${users.email})`,
        DEMO_ACCOUNTS.map((account) => account.email),
      ),
    );
  const emails = new Set(present.map((row) => row.email?.toLowerCase()));
  return DEMO_ACCOUNTS.filter((account) => emails.has(account.email));
}

/**
 * Demo mode: the demo school was seeded here and Dash does not run in production. Only then does
 * the sign-in page list the demo accounts; a real school's page shows none.
 */
export async function findListedDemoAccounts(
  db: Database,
  env: Pick<Env, "NODE_ENV">,
): Promise<(typeof DEMO_ACCOUNTS)[number][]> {
  if (env.NODE_ENV === "production" || !(await getMeta(db, "demo_seeded_at"))) return [];
  return findDemoAccounts(db);
}
