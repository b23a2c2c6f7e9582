import { readFileSync } from "node:fs";
import {
  checkPassword,
  comparableForm,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordContext,
  type PasswordProblemCode,
} from "../../../shared/password-policy";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";

// The 10,000 passwords found most often in breaches (SecLists, MIT: see common-passwords.LICENSE.txt).
const COMMON_PASSWORDS_FILE = new URL("./common-passwords.txt", import.meta.url);

let commonPasswords: Set<string> | undefined;

/** Whether a password (in its comparable form) is on the list; the list is read once, on first use. */
export function isCommonPassword(comparable: string): boolean {
  commonPasswords ??= new Set(
    readFileSync(COMMON_PASSWORDS_FILE, "utf8")
      .split("\n")
      .map((line) => comparableForm(line.trim()))
      .filter(Boolean),
  );
  return commonPasswords.has(comparable);
}

/** The rules a new password breaks, the common-password list included; empty when it may be used. */
export function passwordProblems(password: string, context: PasswordContext) {
  return checkPassword(password, { context, isCommon: isCommonPassword });
}

/** What each broken rule tells the person, with the policy's own limits as the numbers. */
export const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblemCode, Message> = {
  too_short: message("auth:password.tooShort", { min: PASSWORD_MIN_LENGTH }),
  too_long: message("auth:password.tooLong", { max: PASSWORD_MAX_LENGTH }),
  unprintable: message("auth:password.unprintable"),
  common: message("auth:password.common"),
  personal: message("auth:password.personal"),
};

/**
 * Refuses a new password that breaks the policy with a 400 naming the field, its first problem as
 * the message so the person reads one clear sentence.
 */
export function assertPasswordAllowed(password: string, context: PasswordContext, field = "newPassword") {
  const problems = passwordProblems(password, context);
  const [first] = problems;
  if (!first) return;
  throw new AppError("validation_failed", PASSWORD_PROBLEM_MESSAGES[first.code], {
    issues: problems.map((problem) => ({ path: field, message: PASSWORD_PROBLEM_MESSAGES[problem.code] })),
  });
}
