import { message } from "../../../lib/i18n";
import type {
  academicSessions,
  classes,
  courses,
  demographics,
  enrollments,
  orgs,
  userRoles,
  users,
} from "../schema";
import type { RowReader } from "./fields";
import type { StoredFile } from "./spec";

/**
 * One data row of a stored file, read into the values of its table. The same readers serve the
 * check (which keeps only ids and problems) and the apply pass (which writes the values).
 */

export interface Reference {
  file: StoredFile;
  id: string;
  column: string;
  /**
   * What a real SIS export may carry, read with a warning instead of refused:
   * "keep" stores a reference to a record that is not there (ids are plain text, without a
   * foreign key), so it links up when that record is imported; "drop" leaves out the row when
   * the set removes the record it names.
   */
  lenience?: "keep" | "drop";
}

export type OrgValues = typeof orgs.$inferInsert;
export type SessionValues = typeof academicSessions.$inferInsert;
export type CourseValues = typeof courses.$inferInsert;
export type ClassValues = typeof classes.$inferInsert;
export type UserValues = typeof users.$inferInsert;
export type RoleValues = typeof userRoles.$inferInsert;
export type DemographicValues = typeof demographics.$inferInsert;
export type EnrollmentValues = typeof enrollments.$inferInsert;

interface RowBase {
  sourcedId: string;
  /** status=tobedeleted: the row names a record to remove. */
  isRemoval: boolean;
  /** dateLastModified as written (ISO 8601); null when the row leaves it empty. */
  modifiedAt: string | null;
  references: Reference[];
}

/** A role is identified by its user, role and org (the table's key); the row's sourcedId is kept too. */
export interface RoleKey {
  userSourcedId: string;
  role: string;
  orgSourcedId: string;
}
export const roleKeyOf = (key: RoleKey) => `${key.userSourcedId}\u0000${key.role}\u0000${key.orgSourcedId}`;

export type ParsedRow =
  | (RowBase & { file: "orgs"; values: OrgValues })
  | (RowBase & { file: "academicSessions"; values: SessionValues })
  | (RowBase & { file: "courses"; values: CourseValues })
  | (RowBase & { file: "classes"; values: ClassValues })
  | (RowBase & {
      file: "users";
      values: UserValues;
      agentSourcedIds: string[];
      /** Roles from a OneRoster 1.1 users.csv (`role` × `orgSourcedIds`); null in the 1.2 shape. */
      rolesFromUsersFile: RoleValues[] | null;
    })
  | (RowBase & { file: "roles"; values: RoleValues; key: RoleKey | null })
  | (RowBase & { file: "demographics"; values: DemographicValues })
  | (RowBase & { file: "enrollments"; values: EnrollmentValues });

export type RowOf<File extends StoredFile> = Extract<ParsedRow, { file: File }>;

/**
 * OneRoster 1.0's third status. 1.1 and 1.2 have only active and tobedeleted: an inactive user
 * is an active user with enabledUser false, any other inactive record is a removed one.
 */
const V1P0_INACTIVE = "inactive";

/** The status and dateLastModified every file has; `isDelta` makes them required, as the standard does. */
function readBase(row: RowReader, isDelta: boolean, file: StoredFile) {
  const sourcedId = row.text("sourcedId", { required: true });
  const isInactive = row.raw("status").toLowerCase() === V1P0_INACTIVE;
  if (isInactive) {
    row.warning(
      "status",
      file === "users" ? message("rostering:bulk.inactiveUser") : message("rostering:bulk.inactiveRecord"),
    );
  }
  const status = isInactive
    ? file === "users"
      ? "active"
      : "tobedeleted"
    : (row.enumeration("status", "status", { required: isDelta }) ?? "active");
  const modifiedAt = row.dateTime("dateLastModified", { required: isDelta });
  const metadata = row.metadata();
  return {
    sourcedId,
    isInactive,
    isRemoval: status === "tobedeleted",
    modifiedAt,
    base: {
      status,
      metadata: Object.keys(metadata).length > 0 ? (metadata as Record<string, unknown>) : null,
    },
  };
}

const ref = (
  file: StoredFile,
  id: string | null,
  column: string,
  lenience?: Reference["lenience"],
): Reference[] => (id === null ? [] : [{ file, id, column, ...(lenience && { lenience }) }]);

/** `{type:identifier}` pairs, as OneRoster writes users' other ids. */
const USER_ID = /\{([^:{}]+):([^{}]*)\}/g;

function readUserIds(row: RowReader): { type: string; identifier: string }[] | null {
  const value = row.raw("userIds");
  if (value === "") return null;
  const pairs = [...value.matchAll(USER_ID)].map((match) => ({
    type: (match[1] as string).trim(),
    identifier: (match[2] as string).trim(),
  }));
  if (value.replace(USER_ID, "").replace(/[\s,]/g, "") !== "") {
    row.error("userIds", message("rostering:bulk.notUserIds", { value }));
  }
  return pairs;
}

type Reader = (row: RowReader, options: { isDelta: boolean }) => ParsedRow | null;

export const ROW_READERS: { [File in StoredFile]: Reader } = {
  orgs(row, { isDelta }) {
    const { sourcedId, isRemoval, modifiedAt, base } = readBase(row, isDelta, "orgs");
    if (sourcedId === null) return null;
    if (isRemoval) return removal("orgs", sourcedId);
    const parentSourcedId = row.text("parentSourcedId");
    if (parentSourcedId === sourcedId) row.error("parentSourcedId", message("rostering:bulk.ownParentOrg"));
    return {
      file: "orgs",
      sourcedId,
      isRemoval,
      modifiedAt,
      references: ref("orgs", parentSourcedId, "parentSourcedId", "keep"),
      values: {
        sourcedId,
        ...base,
        name: row.text("name", { required: true }) ?? "",
        type: row.enumeration("type", "orgType", { required: true, allowExtension: true }) ?? "",
        identifier: row.text("identifier"),
        parentSourcedId,
      },
    };
  },

  academicSessions(row, { isDelta }) {
    const { sourcedId, isRemoval, modifiedAt, base } = readBase(row, isDelta, "academicSessions");
    if (sourcedId === null) return null;
    if (isRemoval) return removal("academicSessions", sourcedId);
    const startDate = row.date("startDate", { required: true });
    const endDate = row.date("endDate", { required: true });
    if (startDate && endDate && endDate < startDate)
      row.error("endDate", message("rostering:bulk.sessionEndsBeforeStart", { endDate, startDate }));
    const schoolYear = row.text("schoolYear", { required: true });
    if (schoolYear !== null && !/^\d{4}$/.test(schoolYear))
      row.error("schoolYear", message("rostering:bulk.notYear", { value: schoolYear }));
    const parentSourcedId = row.text("parentSourcedId");
    if (parentSourcedId === sourcedId)
      row.error("parentSourcedId", message("rostering:bulk.ownParentSession"));
    return {
      file: "academicSessions",
      sourcedId,
      isRemoval,
      modifiedAt,
      references: ref("academicSessions", parentSourcedId, "parentSourcedId", "keep"),
      values: {
        sourcedId,
        ...base,
        title: row.text("title", { required: true }) ?? "",
        type: row.enumeration("type", "sessionType", { required: true, allowExtension: true }) ?? "",
        startDate: startDate ?? "",
        endDate: endDate ?? "",
        parentSourcedId,
        schoolYear: schoolYear ?? "",
      },
    };
  },

  courses(row, { isDelta }) {
    const { sourcedId, isRemoval, modifiedAt, base } = readBase(row, isDelta, "courses");
    if (sourcedId === null) return null;
    if (isRemoval) return removal("courses", sourcedId);
    const schoolYearSourcedId = row.text("schoolYearSourcedId");
    const orgSourcedId = row.text("orgSourcedId", { required: true });
    return {
      file: "courses",
      sourcedId,
      isRemoval,
      modifiedAt,
      references: [
        ...ref("academicSessions", schoolYearSourcedId, "schoolYearSourcedId"),
        ...ref("orgs", orgSourcedId, "orgSourcedId"),
      ],
      values: {
        sourcedId,
        ...base,
        title: row.text("title", { required: true }) ?? "",
        schoolYearSourcedId,
        courseCode: row.text("courseCode"),
        grades: row.grades("grades"),
        subjects: row.list("subjects"),
        subjectCodes: row.list("subjectCodes"),
        orgSourcedId: orgSourcedId ?? "",
      },
    };
  },

  classes(row, { isDelta }) {
    const { sourcedId, isRemoval, modifiedAt, base } = readBase(row, isDelta, "classes");
    if (sourcedId === null) return null;
    if (isRemoval) return removal("classes", sourcedId);
    const courseSourcedId = row.text("courseSourcedId", { required: true });
    const schoolSourcedId = row.text("schoolSourcedId", { required: true });
    const termSourcedIds = row.list("termSourcedIds", { required: true });
    return {
      file: "classes",
      sourcedId,
      isRemoval,
      modifiedAt,
      references: [
        ...ref("courses", courseSourcedId, "courseSourcedId", "keep"),
        ...ref("orgs", schoolSourcedId, "schoolSourcedId"),
        ...termSourcedIds.map((id) => ({ file: "academicSessions" as const, id, column: "termSourcedIds" })),
      ],
      values: {
        sourcedId,
        ...base,
        title: row.text("title", { required: true }) ?? "",
        classCode: row.text("classCode"),
        classType: row.enumeration("classType", "classType", { required: true, allowExtension: true }) ?? "",
        location: row.text("location"),
        grades: row.grades("grades"),
        subjects: row.list("subjects"),
        subjectCodes: row.list("subjectCodes"),
        periods: row.list("periods"),
        courseSourcedId: courseSourcedId ?? "",
        schoolSourcedId: schoolSourcedId ?? "",
        termSourcedIds,
      },
    };
  },

  users(row, { isDelta }) {
    const { sourcedId, isInactive, isRemoval, modifiedAt, base } = readBase(row, isDelta, "users");
    if (sourcedId === null) return null;
    if (isRemoval) return { ...removal("users", sourcedId), agentSourcedIds: [], rolesFromUsersFile: null };
    const isV1p1Shape = row.has("role");
    const orgSourcedIds = isV1p1Shape ? row.list("orgSourcedIds", { required: true }) : [];
    const role = isV1p1Shape
      ? row.enumeration("role", "userRole", { required: true, openEnded: true })
      : null;
    const primaryOrgSourcedId = row.text("primaryOrgSourcedId") ?? orgSourcedIds[0] ?? null;
    const agentSourcedIds = [...new Set(row.list("agentSourcedIds"))];
    if (agentSourcedIds.includes(sourcedId)) row.error("agentSourcedIds", message("rostering:bulk.ownAgent"));
    const email = row.text("email");
    if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email))
      row.error("email", message("rostering:bulk.notEmail", { value: email }));
    if (row.raw("password") !== "") {
      row.warning("password", message("rostering:bulk.passwordNotImported"));
    }
    const userIds = readUserIds(row);
    const userMasterIdentifier = row.text("userMasterIdentifier");
    const metadata = {
      ...base.metadata,
      ...(userIds && { userIds }),
      ...(userMasterIdentifier !== null && { userMasterIdentifier }),
    };
    return {
      file: "users",
      sourcedId,
      isRemoval,
      modifiedAt,
      references: [
        ...ref("orgs", primaryOrgSourcedId, "primaryOrgSourcedId"),
        ...orgSourcedIds.map((id) => ({ file: "orgs" as const, id, column: "orgSourcedIds" })),
        ...agentSourcedIds.map((id) => ({ file: "users" as const, id, column: "agentSourcedIds" })),
      ],
      agentSourcedIds,
      rolesFromUsersFile:
        isV1p1Shape && role !== null
          ? orgSourcedIds.map((orgSourcedId, index) => ({
              userSourcedId: sourcedId,
              role,
              roleType: index === 0 ? "primary" : "secondary",
              orgSourcedId,
              beginDate: null,
              endDate: null,
              sourcedId: null,
            }))
          : null,
      values: {
        sourcedId,
        ...base,
        metadata: Object.keys(metadata).length > 0 ? metadata : null,
        enabledUser: isInactive ? false : (row.boolean("enabledUser", { required: true }) ?? true),
        username: row.text("username"),
        givenName: row.text("givenName", { required: true }) ?? "",
        familyName: row.text("familyName", { required: true }) ?? "",
        middleName: row.text("middleName"),
        preferredFirstName: row.text("preferredGivenName"),
        preferredMiddleName: row.text("preferredMiddleName"),
        preferredLastName: row.text("preferredFamilyName"),
        pronouns: row.text("pronouns"),
        identifier: row.text("identifier"),
        email,
        sms: row.text("sms"),
        phone: row.text("phone"),
        grades: row.grades("grades"),
        primaryOrgSourcedId,
      },
    };
  },

  roles(row, { isDelta }) {
    // A role's status and date are checked but not stored: a role is there or it is not.
    const { sourcedId, isRemoval, modifiedAt } = readBase(row, isDelta, "roles");
    if (sourcedId === null) return null;
    const userSourcedId = row.text("userSourcedId", { required: !isRemoval });
    const role = row.enumeration("role", "userRole", { required: !isRemoval, openEnded: true });
    const orgSourcedId = row.text("orgSourcedId", { required: !isRemoval });
    const key = userSourcedId && role && orgSourcedId ? { userSourcedId, role, orgSourcedId } : null;
    if (isRemoval) return { ...removal("roles", sourcedId), key };
    const beginDate = row.date("beginDate");
    const endDate = row.date("endDate");
    if (beginDate && endDate && endDate < beginDate)
      row.error("endDate", message("rostering:bulk.roleEndsBeforeBegin", { endDate, beginDate }));
    return {
      file: "roles",
      sourcedId,
      isRemoval,
      modifiedAt,
      key,
      references: [
        ...ref("users", userSourcedId, "userSourcedId"),
        ...ref("orgs", orgSourcedId, "orgSourcedId"),
      ],
      values: {
        sourcedId,
        userSourcedId: userSourcedId ?? "",
        role: role ?? "",
        roleType: row.enumeration("roleType", "roleType", { required: true }) ?? "",
        orgSourcedId: orgSourcedId ?? "",
        beginDate,
        endDate,
      },
    };
  },

  demographics(row, { isDelta }) {
    const { sourcedId, isRemoval, modifiedAt, base } = readBase(row, isDelta, "demographics");
    if (sourcedId === null) return null;
    if (isRemoval) return removal("demographics", sourcedId);
    return {
      file: "demographics",
      sourcedId,
      isRemoval,
      modifiedAt,
      // A user's demographics share the user's sourcedId.
      references: ref("users", sourcedId, "sourcedId"),
      values: {
        sourcedId,
        ...base,
        birthDate: row.date("birthDate"),
        sex: row.enumeration("sex", "sex", { allowExtension: true }),
        americanIndianOrAlaskaNative: row.boolean("americanIndianOrAlaskaNative"),
        asian: row.boolean("asian"),
        blackOrAfricanAmerican: row.boolean("blackOrAfricanAmerican"),
        nativeHawaiianOrOtherPacificIslander: row.boolean("nativeHawaiianOrOtherPacificIslander"),
        white: row.boolean("white"),
        demographicRaceTwoOrMoreRaces: row.boolean("demographicRaceTwoOrMoreRaces"),
        hispanicOrLatinoEthnicity: row.boolean("hispanicOrLatinoEthnicity"),
        countryOfBirthCode: row.text("countryOfBirthCode"),
        stateOfBirthAbbreviation: row.text("stateOfBirthAbbreviation"),
        cityOfBirth: row.text("cityOfBirth"),
        publicSchoolResidenceStatus: row.text("publicSchoolResidenceStatus"),
      },
    };
  },

  enrollments(row, { isDelta }) {
    const { sourcedId, isRemoval, modifiedAt, base } = readBase(row, isDelta, "enrollments");
    if (sourcedId === null) return null;
    if (isRemoval) return removal("enrollments", sourcedId);
    const classSourcedId = row.text("classSourcedId", { required: true });
    const schoolSourcedId = row.text("schoolSourcedId", { required: true });
    const userSourcedId = row.text("userSourcedId", { required: true });
    const beginDate = row.date("beginDate");
    const endDate = row.date("endDate");
    if (beginDate && endDate && endDate < beginDate)
      row.error("endDate", message("rostering:bulk.enrollmentEndsBeforeBegin", { endDate, beginDate }));
    return {
      file: "enrollments",
      sourcedId,
      isRemoval,
      modifiedAt,
      references: [
        ...ref("classes", classSourcedId, "classSourcedId", "drop"),
        ...ref("orgs", schoolSourcedId, "schoolSourcedId"),
        ...ref("users", userSourcedId, "userSourcedId"),
      ],
      values: {
        sourcedId,
        ...base,
        classSourcedId: classSourcedId ?? "",
        schoolSourcedId: schoolSourcedId ?? "",
        userSourcedId: userSourcedId ?? "",
        role: row.enumeration("role", "enrollmentRole", { required: true, allowExtension: true }) ?? "",
        primary: row.boolean("primary") ?? false,
        beginDate,
        endDate,
      },
    };
  },
};

/** A tobedeleted row: only its id matters. */
function removal<File extends StoredFile>(file: File, sourcedId: string) {
  return {
    file,
    sourcedId,
    isRemoval: true,
    modifiedAt: null,
    references: [],
    values: { sourcedId },
  } as unknown as RowOf<File> & RowBase;
}
