import { readFileSync } from "node:fs";
import { checkPassword, comparableForm, type PasswordContext } from "../../../shared/password-policy";
import { AppError } from "../../lib/errors";

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

/**
 * Refuses a new password that breaks the policy with a 400 naming the field, its first problem as
 * the message so the person reads one clear sentence.
 */
export function assertPasswordAllowed(password: string, context: PasswordContext, field = "newPassword") {
  const problems = passwordProblems(password, context);
  const [first] = problems;
  if (!first) return;
  throw new AppError("validation_failed", first.message, {
    issues: problems.map((problem) => ({ path: field, message: problem.message })),
  });
}
