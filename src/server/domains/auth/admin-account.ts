import { randomUUID } from "node:crypto";
import { and, asc, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { orgs, userRoles, users } from "../rostering/schema";
import { hashPassword } from "./password";
import { assertPasswordAllowed } from "./password-policy";
import { userCredentials } from "./schema";

export interface NewAdministrator {
  email: string;
  password: string;
  givenName: string;
  familyName: string;
  /** Name of the top organisation to create when the roster has none yet. */
  organisationName: string;
}

/**
 * Creates an administrator of the top organisation (the first org without a parent), creating
 * that organisation when the roster is empty. Used to set up a school without demo data.
 */
export async function createAdministrator(db: Database, input: NewAdministrator) {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new AppError("validation_failed", message("auth:admin.notAnEmail", { email: input.email }));
  assertPasswordAllowed(
    input.password,
    { email, username: email, givenName: input.givenName, familyName: input.familyName },
    "password",
  );
  const passwordHash = await hashPassword(input.password);

  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.sourcedId })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    if (existing) throw new AppError("conflict", message("auth:admin.emailTaken", { email }));

    let [top] = await tx
      .select({ sourcedId: orgs.sourcedId, name: orgs.name })
      .from(orgs)
      .where(and(isNull(orgs.parentSourcedId), sql`${orgs.status} = 'active'`))
      .orderBy(asc(orgs.name))
      .limit(1);
    if (!top) {
      top = { sourcedId: randomUUID(), name: input.organisationName };
      await tx.insert(orgs).values({ ...top, type: "district" });
    }

    const sourcedId = randomUUID();
    await tx.insert(users).values({
      sourcedId,
      email,
      username: email,
      givenName: input.givenName,
      familyName: input.familyName,
      primaryOrgSourcedId: top.sourcedId,
    });
    await tx.insert(userRoles).values({
      userSourcedId: sourcedId,
      role: "administrator",
      roleType: "primary",
      orgSourcedId: top.sourcedId,
    });
    await tx.insert(userCredentials).values({ userSourcedId: sourcedId, passwordHash });
    return { sourcedId, email, organisation: top };
  });
}
