import { z } from "zod";
import { isIsoDate } from "../search";
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

const name = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(100, `Keep the ${label.toLowerCase()} under 100 characters`);
const email = z
  .string()
  .trim()
  .max(320, "The email is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((value) => value.toLowerCase());
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `Keep the ${label} under ${max} characters`)
    .optional()
    .transform((value) => value || null);

export const newStudentSchema = z
  .object({
    givenName: name("Given name"),
    familyName: name("Family name"),
    preferredFirstName: optionalText(100, "preferred name"),
    email: z
      .union([z.literal(""), email])
      .optional()
      .transform((value) => value || null),
    username: z
      .string()
      .trim()
      .max(64, "Keep the username under 64 characters")
      .regex(
        /^([a-zA-Z0-9._-]{3,64})?$/,
        "A username has 3 to 64 letters, digits, dots, dashes or underscores",
      )
      .optional()
      .transform((value) => (value ? value.toLowerCase() : null)),
    grade: z.enum(ONBOARDING_GRADES, { message: "Choose a grade" }),
    birthDate: z
      .union([z.literal(""), z.string().refine(isIsoDate, "Enter the date of birth as yyyy-mm-dd")])
      .optional()
      .transform((value) => value || null)
      .refine((value) => !value || value <= new Date().toISOString().slice(0, 10), {
        message: "The date of birth cannot be in the future",
      }),
  })
  .refine((student) => student.email || student.username, {
    message: "Give an email or a username: the student signs in with it",
    path: ["email"],
  });
export type NewStudent = z.input<typeof newStudentSchema>;

export const GUARDIAN_ROLES = ["parent", "guardian"] as const;

export const newGuardianSchema = z.object({
  kind: z.literal("new"),
  role: z.enum(GUARDIAN_ROLES, { message: "Choose parent or guardian" }),
  givenName: name("Given name"),
  familyName: name("Family name"),
  email,
});
export const existingGuardianSchema = z.object({
  kind: z.literal("existing"),
  sourcedId: z.string().trim().min(1, "Choose a parent or guardian").max(200),
});
export const guardianInputSchema = z.discriminatedUnion("kind", [newGuardianSchema, existingGuardianSchema], {
  message: "A parent or guardian is new (with name and email) or existing (with their id)",
});
export type GuardianInput = z.input<typeof guardianInputSchema>;

export const onboardingRequestSchema = z
  .object({
    student: newStudentSchema,
    schoolSourcedId: z.string().trim().min(1, "Choose a school").max(200),
    guardians: z
      .array(guardianInputSchema)
      .max(MAX_GUARDIANS, `Add at most ${MAX_GUARDIANS} parents or guardians`)
      .default([]),
    classSourcedIds: z
      .array(z.string().trim().min(1).max(200))
      .max(MAX_CLASSES, `Choose at most ${MAX_CLASSES} classes`)
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
          message: `${value} is given twice: each account needs its own email`,
          path: index === 0 ? ["student", "email"] : ["guardians", index - 1, "email"],
        });
      seen.add(value);
    });
    const existing = request.guardians.flatMap((g) => (g.kind === "existing" ? [g.sourcedId] : []));
    if (new Set(existing).size !== existing.length)
      context.addIssue({
        code: "custom",
        message: "The same parent or guardian is linked twice",
        path: ["guardians"],
      });
    if (new Set(request.classSourcedIds).size !== request.classSourcedIds.length)
      context.addIssue({ code: "custom", message: "A class is chosen twice", path: ["classSourcedIds"] });
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
  schoolSourcedId: z.string().trim().min(1, "schoolSourcedId is required").max(200),
  grade: z.enum(ONBOARDING_GRADES, { message: "Choose a grade" }),
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
  search: z.string().trim().max(200, "Keep the search under 200 characters").default(""),
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
