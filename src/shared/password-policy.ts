/**
 * The password policy of Dash, after NIST SP 800-63B (section 3.1.1.2): a minimum length, a
 * generous maximum, every printable character and space allowed, no composition rules, and no
 * password found in a list of common ones or made of words that belong to the person or to Dash.
 * See docs/decisions/008-password-policy.md.
 *
 * Pure, so the browser shows the same rules live and the server enforces them. The list of common
 * passwords stays on the server and comes in as `isCommon`.
 */

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export type PasswordProblemCode = "too_short" | "too_long" | "unprintable" | "common" | "personal";

/**
 * The rules in plain words, shown beside every field that chooses a password, with the problems
 * each rules out. `id` names the rule: the web app shows its words from its catalogue
 * (`password.rules.<id>`); `text` is the English of the command-line scripts (scripts/create-admin.ts).
 */
export const PASSWORD_RULES: readonly {
  id: PasswordProblemCode;
  text: string;
  codes: readonly PasswordProblemCode[];
}[] = [
  {
    id: "too_short",
    text: `At least ${PASSWORD_MIN_LENGTH} characters. Longer is stronger: a few words you will remember work well.`,
    codes: ["too_short", "too_long"],
  },
  {
    id: "unprintable",
    text: "Any letters, numbers, spaces and symbols. No special mix is needed.",
    codes: ["unprintable"],
  },
  { id: "common", text: "Not a common password that others use.", codes: ["common"] },
  { id: "personal", text: "Not your name, email or username, and not “Dash”.", codes: ["personal"] },
];

/**
 * A rule the password breaks. Its words come from a catalogue, with the limits above as their
 * arguments: the web app's (`auth:password.problems.<code>`) and the server's, which answers its
 * refusals in the reader's language (domains/auth/password-policy.ts).
 */
export interface PasswordProblem {
  code: PasswordProblemCode;
}

/** What is known about the person whose password this is: their words may not be in it. */
export interface PasswordContext {
  email?: string | null;
  username?: string | null;
  givenName?: string | null;
  familyName?: string | null;
}

// The name of the service is the first word someone guessing a Dash password tries.
const SERVICE_WORDS = ["dash"];
// Shorter pieces of a name (Al, Jo) turn up inside too many good passwords to refuse them.
const MIN_WORD_LENGTH = 3;
// Control characters (C0, DEL, C1) and unpaired surrogates cannot be typed and do not survive
// copying; format characters such as the zero-width joiner of emoji sequences stay allowed.
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/**
 * The form in which a password is hashed and checked: NFKC, so the same password typed on
 * another keyboard (composed or decomposed accents, full-width forms) is the same password.
 */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC");
}

/** Length in characters as a person counts them (Unicode code points), after normalisation. */
export function passwordLength(password: string): number {
  return [...normalizePassword(password)].length;
}

/** The form compared with the list of common passwords and with the person's words. */
export function comparableForm(text: string): string {
  return normalizePassword(text).toLowerCase();
}

function personalWords(context: PasswordContext): string[] {
  const words = new Set(SERVICE_WORDS);
  const add = (value: string | null | undefined, { withParts }: { withParts: boolean }) => {
    if (!value) return;
    const whole = comparableForm(value.trim());
    if ([...whole].length >= MIN_WORD_LENGTH) words.add(whole);
    if (!withParts) return;
    // The parts of "ada.lovelace" or "Mary-Jane" are words of the person too.
    for (const part of whole.split(/[^\p{L}\p{N}]+/u)) {
      if ([...part].length >= MIN_WORD_LENGTH) words.add(part);
    }
  };
  // The email's domain (school.org) is not the person's own: only the whole address and its local part count.
  add(context.email, { withParts: false });
  add(context.email?.split("@")[0], { withParts: true });
  add(context.username, { withParts: true });
  add(context.givenName, { withParts: true });
  add(context.familyName, { withParts: true });
  return [...words];
}

/**
 * Every rule the password breaks, in the order of PASSWORD_RULES; empty when it may be used.
 * `isCommon` answers for the comparable form; without it the common-password rule is not checked
 * (the browser's live check).
 */
export function checkPassword(
  password: string,
  options: { context?: PasswordContext; isCommon?: (comparable: string) => boolean } = {},
): PasswordProblem[] {
  const problems: PasswordProblemCode[] = [];
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) problems.push("too_short");
  if (length > PASSWORD_MAX_LENGTH) problems.push("too_long");
  if (UNPRINTABLE.test(password)) problems.push("unprintable");
  const comparable = comparableForm(password);
  if (options.isCommon?.(comparable)) problems.push("common");
  if (personalWords(options.context ?? {}).some((word) => comparable.includes(word)))
    problems.push("personal");
  return problems.map((code) => ({ code }));
}
