import { sql } from "drizzle-orm";
import { type Database, queryRows } from "../db/client";
import { credentialContext } from "../domains/credentials/credentials";
import type { SecretBox } from "../lib/secret-box";
import { DEMO_APPS, demoId } from "./demo-accounts";

/**
 * The demo's app logins: Ava's to Math Academy and Reading Quest, and Math Academy logins for a few
 * of her classmates, with their history (Ava's added by hand and her Reading Quest login changed
 * since, her classmates' imported, a Language Lab login of hers added and removed again) and two
 * reveals in the audit. The passwords are sealed with the server's own key, so they are seeded
 * only where that key is known (not into the tests' shared template).
 */

const DAY_MS = 86_400_000;
const MATH_APP = demoId(`app-${DEMO_APPS[0].key}`);
const READING_APP = demoId(`app-${DEMO_APPS[1].key}`);
const LANGUAGE_APP = demoId(`app-${DEMO_APPS[2].key}`);

export async function seedDemoCredentials(db: Database, today: Date, secretBox: SecretBox): Promise<void> {
  const ava = demoId("student-ava");
  const admin = demoId("admin");
  const patel = demoId("guide-patel");
  const logins = [
    {
      key: "ava-math",
      studentId: ava,
      appId: MATH_APP,
      username: "ava.johnson",
      password: "maple-fox-24",
      action: "added",
    },
    {
      key: "ava-reading",
      studentId: ava,
      appId: READING_APP,
      username: "ajohnson3",
      password: "story-owl-81",
      action: "added",
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
      action: "imported",
    });

  const createdAt = new Date(today.getTime() - 14 * DAY_MS);
  for (const login of logins) {
    const id = demoId(`app-credential-${login.key}`);
    await db.execute(
      sql`insert into app_credentials (id, student_sourced_id, app_id, username, password_envelope, created_by, created_at)
        values (${id}::uuid, ${login.studentId}, ${login.appId}::uuid, ${login.username},
          ${secretBox.encryptSecret(login.password, credentialContext(id))}, ${admin}, ${createdAt})`,
    );
    await recordChange(db, {
      key: `${login.key}-${login.action}`,
      credentialId: id,
      studentId: login.studentId,
      appId: login.appId,
      action: login.action,
      at: createdAt,
    });
  }

  // Ava's Reading Quest password was reset since; a Language Lab login of hers came and went.
  const changedAt = new Date(today.getTime() - 5 * DAY_MS);
  const avasReading = demoId("app-credential-ava-reading");
  await db.execute(
    sql`update app_credentials set updated_by = ${admin}, updated_at = ${changedAt} where id = ${avasReading}::uuid`,
  );
  const history = [
    {
      key: "ava-reading-changed",
      credentialId: avasReading,
      appId: READING_APP,
      action: "changed",
      at: changedAt,
    },
    {
      key: "ava-language-added",
      credentialId: demoId("app-credential-ava-language"),
      appId: LANGUAGE_APP,
      action: "added",
      at: new Date(today.getTime() - 20 * DAY_MS),
    },
    {
      key: "ava-language-removed",
      credentialId: demoId("app-credential-ava-language"),
      appId: LANGUAGE_APP,
      action: "removed",
      at: new Date(today.getTime() - 10 * DAY_MS),
    },
  ];
  for (const change of history) await recordChange(db, { ...change, studentId: ava });
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

async function recordChange(
  db: Database,
  change: { key: string; credentialId: string; studentId: string; appId: string; action: string; at: Date },
) {
  await db.execute(
    sql`insert into app_credential_changes (id, credential_id, student_sourced_id, app_id, action, changed_by, at)
      values (${demoId(`app-credential-change-${change.key}`)}::uuid, ${change.credentialId}::uuid,
        ${change.studentId}, ${change.appId}::uuid, ${change.action}, ${demoId("admin")}, ${change.at})`,
  );
}
