import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client";
import { credentialContext } from "../domains/credentials/credentials";
import type { SecretBox } from "../lib/secret-box";
import { DEMO_APPS, demoId } from "./demo-accounts";

/**
 * The demo's app logins: Ava's to Math Academy and Reading Quest, and Math Academy logins for a few
 * of her classmates, with two reveals in the audit. The passwords are sealed with the server's own
 * key, so they are seeded only where that key is known (not into the tests' shared template).
 */

const DAY_MS = 86_400_000;
const MATH_APP = demoId(`app-${DEMO_APPS[0].key}`);
const READING_APP = demoId(`app-${DEMO_APPS[1].key}`);

export async function seedDemoCredentials(db: Database, today: Date, secretBox: SecretBox): Promise<void> {
  const ava = demoId("student-ava");
  const admin = demoId("admin");
  const patel = demoId("guide-patel");
  const logins = [
    { key: "ava-math", studentId: ava, appId: MATH_APP, username: "ava.johnson", password: "maple-fox-24" },
    {
      key: "ava-reading",
      studentId: ava,
      appId: READING_APP,
      username: "ajohnson3",
      password: "story-owl-81",
    },
  ];
  const classmates = await queryRows<{ id: string; username: string | null }>(
    db,
    sql`select s.user_sourced_id as id, u.username from enrollments t
      join enrollments s on s.class_sourced_id = t.class_sourced_id and s.role = 'student' and s.status = 'active'
      join users u on u.sourced_id = s.user_sourced_id
      where t.user_sourced_id = ${patel} and t.role = 'teacher' and s.user_sourced_id <> ${ava}
      group by s.user_sourced_id, u.username order by s.user_sourced_id limit 3`,
  );
  for (const [index, classmate] of classmates.entries())
    logins.push({
      key: `classmate-${index}-math`,
      studentId: classmate.id,
      appId: MATH_APP,
      username: classmate.username ?? `student${index + 1}`,
      password: `maple-math-${index + 11}`,
    });

  const createdAt = new Date(today.getTime() - 14 * DAY_MS);
  for (const login of logins) {
    const id = demoId(`app-credential-${login.key}`);
    await db.execute(
      sql`insert into app_credentials (id, student_sourced_id, app_id, username, password_envelope, created_by, created_at)
        values (${id}::uuid, ${login.studentId}, ${login.appId}::uuid, ${login.username},
          ${secretBox.encryptSecret(login.password, credentialContext(id))}, ${admin}, ${createdAt})`,
    );
  }
  const reveals = [
    { key: "ava-reading", by: patel, role: "teacher", daysAgo: 3 },
    { key: "ava-math", by: ava, role: "student", daysAgo: 1 },
  ];
  for (const reveal of reveals) {
    const login = logins.find((entry) => entry.key === reveal.key);
    if (!login) continue;
    await db.execute(
      sql`insert into credential_decrypts (id, credential_id, student_sourced_id, app_id, decrypted_by, role, at)
        values (${demoId(`credential-decrypt-${reveal.key}`)}::uuid, ${demoId(`app-credential-${reveal.key}`)}::uuid,
          ${login.studentId}, ${login.appId}::uuid, ${reveal.by}, ${reveal.role},
          ${new Date(today.getTime() - reveal.daysAgo * DAY_MS)})`,
    );
  }
}
