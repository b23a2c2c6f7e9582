import { z } from "zod";
import { isIsoDate } from "../search";
import { invalid, type ValidationMessage } from "../validation-messages";
import { personSummarySchema } from "./rostering";

/** Onboarding: one new student, their school, parents or guardians and classes, in one step. */

/** The grades a new student may start in (CEDS codes, as OneRoster writes them). */
export const ONBOARDING_GRADES = [
  "PK",
  "KG",
  "01",
  "02",
  "03",
  "04",
  "05",
  "06",
  "07",
  "08",
  "09",
  "10",
  "11",
  "12",
] as const;

export const MAX_GUARDIANS = 6;
export const MAX_CLASSES = 20;

const name = (required: ValidationMessage, tooLong: ValidationMessage) =>
  z.string().trim().min(1, required).max(100, tooLong);
const givenName = name(invalid("givenNameRequired"), invalid("givenNameTooLong"));
const familyName = name(invalid("familyNameRequired"), invalid("familyNameTooLong"));
const email = z
  .string()
  .trim()
  .max(320, invalid("theEmailTooLong"))
  .pipe(z.email(invalid("validEmail")))
  .transform((value) => value.toLowerCase());
const optionalText = (max: number, tooLong: ValidationMessage) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .optional()
    .transform((value) => value || null);

export const newStudentSchema = z
  .object({
    givenName,
    familyName,
    preferredFirstName: optionalText(100, invalid("preferredNameTooLong")),
    email: z
      .union([z.literal(""), email])
      .optional()
      .transform((value) => value || null),
    username: z
      .string()
      .trim()
      .max(64, invalid("usernameTooLong"))
      .regex(/^([a-zA-Z0-9._-]{3,64})?$/, invalid("usernameCharacters"))
      .optional()
      .transform((value) => (value ? value.toLowerCase() : null)),
    grade: z.enum(ONBOARDING_GRADES, { message: invalid("chooseGrade") }),
    birthDate: z
      .union([z.literal(""), z.string().refine(isIsoDate, invalid("birthDateFormat"))])
      .optional()
      .transform((value) => value || null)
      .refine((value) => !value || value <= new Date().toISOString().slice(0, 10), {
        message: invalid("birthDateInFuture"),
      }),
  })
  .refine((student) => student.email || student.username, {
    message: invalid("emailOrUsername"),
    path: ["email"],
  });
export type NewStudent = z.input<typeof newStudentSchema>;

export const GUARDIAN_ROLES = ["parent", "guardian"] as const;

export const newGuardianSchema = z.object({
  kind: z.literal("new"),
  role: z.enum(GUARDIAN_ROLES, { message: invalid("chooseGuardianRole") }),
  givenName,
  familyName,
  email,
});
export const existingGuardianSchema = z.object({
  kind: z.literal("existing"),
  sourcedId: z.string().trim().min(1, invalid("chooseGuardian")).max(200),
});
export const guardianInputSchema = z.discriminatedUnion("kind", [newGuardianSchema, existingGuardianSchema], {
  message: invalid("guardianKind"),
});
export type GuardianInput = z.input<typeof guardianInputSchema>;

export const onboardingRequestSchema = z
  .object({
    student: newStudentSchema,
    schoolSourcedId: z.string().trim().min(1, invalid("chooseSchool")).max(200),
    guardians: z.array(guardianInputSchema).max(MAX_GUARDIANS, invalid("tooManyGuardians")).default([]),
    classSourcedIds: z
      .array(z.string().trim().min(1).max(200))
      .max(MAX_CLASSES, invalid("tooManyClasses"))
      .default([]),
  })
  .superRefine((request, context) => {
    const emails = [
      request.student.email,
      ...request.guardians.map((g) => (g.kind === "new" ? g.email : null)),
    ];
    const seen = new Set<string>();
    emails.forEach((value, index) => {
      if (!value) return;
      if (seen.has(value))
        context.addIssue({
          code: "custom",
          message: invalid("emailTwice"),
          path: index === 0 ? ["student", "email"] : ["guardians", index - 1, "email"],
        });
      seen.add(value);
    });
    const existing = request.guardians.flatMap((g) => (g.kind === "existing" ? [g.sourcedId] : []));
    if (new Set(existing).size !== existing.length)
      context.addIssue({
        code: "custom",
        message: invalid("guardianTwice"),
        path: ["guardians"],
      });
    if (new Set(request.classSourcedIds).size !== request.classSourcedIds.length)
      context.addIssue({ code: "custom", message: invalid("classTwice"), path: ["classSourcedIds"] });
  });
export type OnboardingRequest = z.input<typeof onboardingRequestSchema>;

/** A new account's sign-in details: shown once, never stored in the clear. */
export const newAccountSchema = z.object({
  sourcedId: z.string(),
  name: z.string(),
  role: z.enum(["student", ...GUARDIAN_ROLES]),
  /** What they type to sign in: their email, or their username. */
  signIn: z.string(),
  password: z.string(),
});
export type NewAccount = z.infer<typeof newAccountSchema>;

export const onboardingResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    student: newAccountSchema,
    /** New parents and guardians with their sign-in details. */
    newGuardians: z.array(newAccountSchema),
    /** Existing parents and guardians linked to the student. */
    linkedGuardians: z.array(z.object({ sourcedId: z.string(), name: z.string() })),
    /** Existing parents and guardians a Guide asked to link: an administrator decides. */
    pendingGuardians: z.array(z.object({ sourcedId: z.string(), name: z.string() })),
    school: z.object({ sourcedId: z.string(), name: z.string() }),
    classes: z.array(z.object({ sourcedId: z.string(), title: z.string() })),
  }),
});
export type OnboardingResult = z.infer<typeof onboardingResponseSchema>["data"];

export const onboardingSchoolsResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(z.object({ sourcedId: z.string(), name: z.string(), identifier: z.string().nullable() })),
});

export const onboardingClassesQuerySchema = z.object({
  schoolSourcedId: z.string().trim().min(1, invalid("schoolSourcedIdRequired")).max(200),
  grade: z.enum(ONBOARDING_GRADES, { message: invalid("chooseGrade") }),
});
export const onboardingClassSchema = z.object({
  sourcedId: z.string(),
  title: z.string(),
  classCode: z.string().nullable(),
  subjects: z.array(z.string()),
  grades: z.array(z.string()),
  guides: z.array(z.string()),
  students: z.number(),
  /** The caller teaches it. */
  isMine: z.boolean(),
  /** The caller may enroll a student in it: administrators any, Guides their own classes. */
  canEnroll: z.boolean(),
});
export type OnboardingClass = z.infer<typeof onboardingClassSchema>;
export const onboardingClassesResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(onboardingClassSchema),
});

export const guardianSearchQuerySchema = z.object({
  search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const guardianSearchResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(personSummarySchema),
  total: z.number(),
});

/** "grade 3", "kindergarten", "pre-kindergarten": a CEDS grade in words. */
export function gradeName(grade: string): string {
  if (grade === "PK") return "pre-kindergarten";
  if (grade === "KG") return "kindergarten";
  return /^\d+$/.test(grade) ? `grade ${Number(grade)}` : `grade ${grade}`;
}
