import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  NewAccount,
  OnboardingClass,
  OnboardingResult,
  onboardingRequestSchema,
} from "../../../shared/contracts/onboarding";
import type { PersonSummary } from "../../../shared/contracts/rostering";
import { type Database, isUniqueViolation, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { generateReadablePassword, hashPassword } from "../auth/password";
import { userCredentials } from "../auth/schema";
import { orgIdsOfGuide } from "./orgs";
import { personSearch, personSummaryColumns, toPersonSummary } from "./people";
import { grantsRole } from "./queries";
import { recordRosterChange } from "./roster-changes";
import { demographics, enrollments, guardianLinkRequests, userAgents, userRoles, users } from "./schema";
import { peopleIdsOfGuide } from "./scope";

/**
 * Onboarding a new student: their account, school, parents or guardians (new accounts or
 * existing ones) and classes, created together in one transaction. Administrators onboard into
 * any school; Guides only into their own schools and classes.
 */

type OnboardingInput = z.output<typeof onboardingRequestSchema>;

const isAdministrator = (actor: Actor) => actor.activeRole === "administrator";

/** The schools the caller may onboard into. */
export async function onboardingSchools(db: Database, actor: Actor) {
  const scope = isAdministrator(actor)
    ? sql`true`
    : sql`o.sourced_id in (${orgIdsOfGuide(actor.user.sourcedId)})`;
  return queryRows<{ sourcedId: string; name: string; identifier: string | null }>(
    db,
    sql`select o.sourced_id as "sourcedId", o.name, o.identifier from orgs o
        where o.status = 'active' and lower(o.type) = 'school' and ${scope}
        order by lower(o.name), o.sourced_id`,
  );
}

/** The school, when it is one the caller may onboard into; else 400 or 403. */
async function onboardingSchool(db: Database, actor: Actor, schoolId: string) {
  const [school] = await queryRows<{ sourcedId: string; name: string; isAllowed: boolean }>(
    db,
    sql`select o.sourced_id as "sourcedId", o.name,
          ${isAdministrator(actor) ? sql`true` : sql`o.sourced_id in (${orgIdsOfGuide(actor.user.sourcedId)})`} as "isAllowed"
        from orgs o where o.sourced_id = ${schoolId} and o.status = 'active' and lower(o.type) = 'school'`,
  );
  if (!school)
    throw new AppError("bad_request", message("rostering:onboarding.noActiveSchool", { schoolId }));
  if (!school.isAllowed)
    throw new AppError(
      "forbidden",
      message("rostering:onboarding.guideOtherSchool", { school: school.name }),
    );
  return school;
}

/** A school's classes open to a grade (or to every grade), the caller's own classes first. */
export async function onboardingClasses(
  db: Database,
  actor: Actor,
  query: { schoolSourcedId: string; grade: string },
): Promise<OnboardingClass[]> {
  await onboardingSchool(db, actor, query.schoolSourcedId);
  const rows = await queryRows<Omit<OnboardingClass, "canEnroll">>(
    db,
    sql`select k.sourced_id as "sourcedId", k.title, k.class_code as "classCode", k.subjects, k.grades,
          coalesce((select array_agg(g.given_name || ' ' || g.family_name order by g.family_name, g.given_name)
            from enrollments e join users g on g.sourced_id = e.user_sourced_id
            where e.class_sourced_id = k.sourced_id and e.role = 'teacher' and e.status = 'active'), '{}') as guides,
          (select count(*)::int from enrollments e where e.class_sourced_id = k.sourced_id and e.role = 'student'
            and e.status = 'active') as students,
          exists (select 1 from enrollments e where e.class_sourced_id = k.sourced_id and e.role = 'teacher'
            and e.status = 'active' and e.user_sourced_id = ${actor.user.sourcedId}) as "isMine"
        from classes k
        where k.status = 'active' and k.school_sourced_id = ${query.schoolSourcedId}
          and (cardinality(k.grades) = 0 or ${query.grade} = any(k.grades))
        order by "isMine" desc, lower(k.title), k.sourced_id`,
  );
  return rows.map((row) => ({ ...row, canEnroll: isAdministrator(actor) || row.isMine }));
}

/**
 * Parents and guardians the caller may link a new student to: anyone for an administrator; for a
 * Guide, those of their schools and the families of their students.
 */
function guardianScope(actor: Actor): SQL {
  if (isAdministrator(actor)) return sql`true`;
  const guideId = actor.user.sourcedId;
  return sql`(u.sourced_id in (${peopleIdsOfGuide(guideId)}) or exists (select 1 from user_roles sr
    where sr.user_sourced_id = u.sourced_id and sr.org_sourced_id in (${orgIdsOfGuide(guideId)})))`;
}

const holdsGuardianRole = sql`exists (select 1 from user_roles gr where gr.user_sourced_id = u.sourced_id
  and (${grantsRole(sql`gr.role`, "parent")} or ${grantsRole(sql`gr.role`, "guardian")}))`;

export async function findGuardians(
  db: Database,
  actor: Actor,
  query: { search: string; limit: number },
): Promise<{ data: PersonSummary[]; total: number }> {
  const rows = await queryRows<Parameters<typeof toPersonSummary>[0] & { total: number | string }>(
    db,
    sql`select ${personSummaryColumns()}, count(*) over () as total from users u
        where u.status = 'active' and ${holdsGuardianRole} and ${guardianScope(actor)} and ${personSearch(query.search)}
        order by lower(u.family_name), lower(u.given_name), u.sourced_id
        limit ${query.limit}`,
  );
  return { total: Number(rows[0]?.total ?? 0), data: rows.map(toPersonSummary) };
}

/** Checks everything the request names before anything is written. */
async function checkRequest(db: Database, actor: Actor, input: OnboardingInput) {
  const school = await onboardingSchool(db, actor, input.schoolSourcedId);

  const classes = await onboardingClasses(db, actor, {
    schoolSourcedId: school.sourcedId,
    grade: input.student.grade,
  });
  const chosenClasses = input.classSourcedIds.map((classId) => {
    const found = classes.find((entry) => entry.sourcedId === classId);
    if (!found)
      throw new AppError(
        "bad_request",
        message("rostering:onboarding.classNotOpen", {
          classId,
          school: school.name,
          ...gradeValues(input.student.grade),
        }),
      );
    if (!found.canEnroll)
      throw new AppError(
        "forbidden",
        message("rostering:onboarding.guideOtherClass", { class: found.title }),
      );
    return found;
  });

  const existingIds = input.guardians.flatMap((guardian) =>
    guardian.kind === "existing" ? [guardian.sourcedId] : [],
  );
  const existing = existingIds.length
    ? await queryRows<{
        sourcedId: string;
        name: string;
        isAllowed: boolean;
        kind: "parent" | "guardian";
        hasSchoolRole: boolean;
      }>(
        db,
        sql`select u.sourced_id as "sourcedId", u.given_name || ' ' || u.family_name as name,
              ${guardianScope(actor)} as "isAllowed",
              case when exists (select 1 from user_roles pr where pr.user_sourced_id = u.sourced_id
                and ${grantsRole(sql`pr.role`, "parent")}) then 'parent' else 'guardian' end as kind,
              exists (select 1 from user_roles sr where sr.user_sourced_id = u.sourced_id
                and sr.org_sourced_id = ${school.sourcedId}
                and (${grantsRole(sql`sr.role`, "parent")} or ${grantsRole(sql`sr.role`, "guardian")})) as "hasSchoolRole"
            from users u where u.sourced_id in ${existingIds} and u.status = 'active' and ${holdsGuardianRole}`,
      )
    : [];
  for (const guardianId of existingIds) {
    const found = existing.find((entry) => entry.sourcedId === guardianId);
    if (!found)
      throw new AppError("bad_request", message("rostering:onboarding.noActiveGuardian", { guardianId }));
    if (!found.isAllowed)
      throw new AppError(
        "forbidden",
        message("rostering:onboarding.guideOtherGuardian", { name: found.name }),
      );
  }

  const emails = [
    input.student.email,
    ...input.guardians.map((guardian) => (guardian.kind === "new" ? guardian.email : null)),
  ].filter((email): email is string => Boolean(email));
  if (emails.length) {
    const [taken] = await queryRows<{ email: string }>(
      db,
      sql`select lower(email) as email from users where lower(email) in ${emails} limit 1`,
    );
    if (taken) throw duplicateEmail(taken.email);
  }
  if (input.student.username) {
    const [taken] = await queryRows(
      db,
      sql`select 1 from users where lower(username) = ${input.student.username}`,
    );
    if (taken)
      throw new AppError(
        "conflict",
        message("rostering:onboarding.usernameTaken", { username: input.student.username }),
      );
  }
  return { school, classes: chosenClasses, existing };
}

const duplicateEmail = (email: string) =>
  new AppError("conflict", message("rostering:onboarding.emailTaken", { email }));

/** A grade as messages name it: "grade 3", "kindergarten" (see gradeName). */
function gradeValues(grade: string) {
  return { grade, gradeNumber: /^\d+$/.test(grade) ? String(Number(grade)) : grade };
}

export async function onboardStudent(
  db: Database,
  actor: Actor,
  input: OnboardingInput,
  now: Date,
): Promise<OnboardingResult> {
  const { school, classes, existing } = await checkRequest(db, actor, input);
  // A link opens a family's data to whoever holds it: an administrator links existing parents at
  // once; a Guide's links wait for an administrator's approval.
  const linked = isAdministrator(actor) ? existing : [];
  const pending = isAdministrator(actor) ? [] : existing;
  const today = now.toISOString().slice(0, 10);

  const newAccount = async (account: Omit<NewAccount, "password">) => {
    // The full name's parts and the sign-in name are the person's words the password must leave out.
    const password = generateReadablePassword({ givenName: account.name, username: account.signIn });
    return { account: { ...account, password }, passwordHash: await hashPassword(password) };
  };
  const { student } = input;
  const studentAccount = await newAccount({
    sourcedId: randomUUID(),
    name: `${student.givenName} ${student.familyName}`,
    role: "student",
    signIn: student.email ?? (student.username as string),
  });
  const newGuardians = await Promise.all(
    input.guardians.flatMap((guardian) =>
      guardian.kind === "new"
        ? [
            newAccount({
              sourcedId: randomUUID(),
              name: `${guardian.givenName} ${guardian.familyName}`,
              role: guardian.role,
              signIn: guardian.email,
            }).then((created) => ({ ...created, input: guardian })),
          ]
        : [],
    ),
  );

  try {
    await db.transaction(async (tx) => {
      await tx.insert(users).values({
        sourcedId: studentAccount.account.sourcedId,
        dateLastModified: now,
        givenName: student.givenName,
        familyName: student.familyName,
        preferredFirstName: student.preferredFirstName,
        email: student.email,
        username: student.username,
        grades: [student.grade],
        primaryOrgSourcedId: school.sourcedId,
      });
      await tx.insert(userRoles).values({
        userSourcedId: studentAccount.account.sourcedId,
        role: "student",
        roleType: "primary",
        orgSourcedId: school.sourcedId,
        beginDate: today,
      });
      if (student.birthDate)
        await tx.insert(demographics).values({
          sourcedId: studentAccount.account.sourcedId,
          dateLastModified: now,
          birthDate: student.birthDate,
        });

      for (const guardian of newGuardians) {
        await tx.insert(users).values({
          sourcedId: guardian.account.sourcedId,
          dateLastModified: now,
          givenName: guardian.input.givenName,
          familyName: guardian.input.familyName,
          email: guardian.input.email,
          primaryOrgSourcedId: school.sourcedId,
        });
        await tx.insert(userRoles).values({
          userSourcedId: guardian.account.sourcedId,
          role: guardian.input.role,
          roleType: "primary",
          orgSourcedId: school.sourcedId,
          beginDate: today,
        });
      }
      // Existing parents and guardians get a role at the school if they have none there yet.
      for (const guardian of linked.filter((entry) => !entry.hasSchoolRole)) {
        await tx.insert(userRoles).values({
          userSourcedId: guardian.sourcedId,
          role: guardian.kind,
          roleType: "secondary",
          orgSourcedId: school.sourcedId,
          beginDate: today,
        });
      }
      const agentIds = [
        ...newGuardians.map((guardian) => guardian.account.sourcedId),
        ...linked.map((e) => e.sourcedId),
      ];
      if (agentIds.length)
        await tx.insert(userAgents).values(
          agentIds.map((agentSourcedId) => ({
            userSourcedId: studentAccount.account.sourcedId,
            agentSourcedId,
          })),
        );
      if (linked.length)
        await tx.execute(
          sql`update users set date_last_modified = ${now} where sourced_id in ${linked.map((e) => e.sourcedId)}`,
        );
      if (pending.length)
        await tx.insert(guardianLinkRequests).values(
          pending.map((entry) => ({
            studentSourcedId: studentAccount.account.sourcedId,
            agentSourcedId: entry.sourcedId,
            requestedBy: actor.realUser.sourcedId,
            requestedAt: now,
          })),
        );

      await tx.insert(userCredentials).values(
        [studentAccount, ...newGuardians].map(({ account, passwordHash }) => ({
          userSourcedId: account.sourcedId,
          passwordHash,
          updatedAt: now,
        })),
      );
      if (classes.length)
        await tx.insert(enrollments).values(
          classes.map((entry) => ({
            sourcedId: randomUUID(),
            dateLastModified: now,
            userSourcedId: studentAccount.account.sourcedId,
            classSourcedId: entry.sourcedId,
            schoolSourcedId: school.sourcedId,
            role: "student",
            beginDate: today,
          })),
        );

      const families = newGuardians.length + linked.length;
      await recordRosterChange(tx, {
        actorSourcedId: actor.realUser.sourcedId,
        action: "onboarding",
        targetUserSourcedId: studentAccount.account.sourcedId,
        orgSourcedId: school.sourcedId,
        summary: message("rostering:changes.onboarded", {
          student: studentAccount.account.name,
          ...gradeValues(student.grade),
          school: school.name,
          families,
          classes: classes.length,
          pendingCount: pending.length,
          pending: pending.map((entry) => entry.name),
        }),
        details: {
          newGuardianIds: newGuardians.map((guardian) => guardian.account.sourcedId),
          linkedGuardianIds: linked.map((entry) => entry.sourcedId),
          pendingGuardianIds: pending.map((entry) => entry.sourcedId),
          classIds: classes.map((entry) => entry.sourcedId),
        },
        createdAt: now,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("conflict", message("rostering:onboarding.takenMeanwhile"));
    throw error;
  }

  return {
    student: studentAccount.account,
    newGuardians: newGuardians.map((guardian) => guardian.account),
    linkedGuardians: linked.map(({ sourcedId, name }) => ({ sourcedId, name })),
    pendingGuardians: pending.map(({ sourcedId, name }) => ({ sourcedId, name })),
    school: { sourcedId: school.sourcedId, name: school.name },
    classes: classes.map(({ sourcedId, title }) => ({ sourcedId, title })),
  };
}
