import { sql } from "drizzle-orm";
import type { LanguageSettings } from "../../../shared/contracts/auth";
import { isLanguage, type Language } from "../../../shared/languages";
import { type Database, queryRows } from "../../db/client";

/** A person's own language and their school's default (the school's district's, if it has none). */
export async function languageSettingsOf(db: Database, userId: string): Promise<LanguageSettings> {
  const [row] = await queryRows<{ own: string | null; school: string | null }>(
    db,
    sql`select u.preferred_language as own,
        coalesce(school.default_language, district.default_language) as school
      from users u
      left join orgs school on school.sourced_id = u.primary_org_sourced_id
      left join orgs district on district.sourced_id = school.parent_sourced_id
      where u.sourced_id = ${userId}`,
  );
  return {
    own: isLanguage(row?.own) ? row.own : null,
    school: isLanguage(row?.school) ? row.school : null,
  };
}

/** Not a OneRoster field: a roster sync neither reads nor changes it, nor its modification date. */
export async function setPreferredLanguage(db: Database, userId: string, language: Language | null) {
  await db.execute(sql`update users set preferred_language = ${language} where sourced_id = ${userId}`);
}
