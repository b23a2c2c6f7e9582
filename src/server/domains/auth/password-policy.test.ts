import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PasswordContext,
  passwordLength,
} from "../../../shared/password-policy";
import type { AppError } from "../../lib/errors";
import { translate } from "../../lib/i18n";
import { generatePassword, generateReadablePassword } from "./password";
import {
  assertPasswordAllowed,
  isCommonPassword,
  PASSWORD_PROBLEM_MESSAGES,
  passwordProblems,
} from "./password-policy";

const ada = {
  email: "ada.lovelace@school.example",
  username: "alovelace",
  givenName: "Ada",
  familyName: "Lovelace",
};
const codesOf = (password: string, context: PasswordContext = ada) =>
  passwordProblems(password, context).map((p) => p.code);

describe("the password policy", () => {
  it.each([
    ["", ["too_short"]],
    ["seven77", ["too_short"]],
    ["eight888", []],
    ["12345678", ["common"]],
    ["quiet river lamp", []],
    ["x".repeat(128), []],
    ["x".repeat(129), ["too_long"]],
    // No composition rules: lower case only, digits only, spaces only all pass when long and rare.
    ["correcthorsebatterystaple", []],
    ["80417529361", []],
    ["tab\there inside", ["unprintable"]],
    ["bell\u0007ringing", ["unprintable"]],
    ["password", ["common"]],
    ["Password1", ["common"]],
    ["PASSWORD1", ["common"]],
    ["iloveyou", ["common"]],
    ["qwertyuiop", ["common"]],
    ["ada.lovelace@school.example", ["personal"]],
    ["my name is lovelace", ["personal"]],
    ["LOVELACE-rules-2026", ["personal"]],
    ["alovelace42", ["personal"]],
    ["i like dash a lot", ["personal"]],
    ["DashBoard-4-school", ["personal"]],
    // The domain of the email is the school's, not the person's.
    ["my school example", []],
  ])("%j breaks %j", (password, codes) => {
    expect(codesOf(password)).toEqual(codes);
  });

  it("counts characters as people do: emoji and accented letters are one each, after NFKC", () => {
    expect(passwordLength("🦊🦊🦊🦊🦊🦊🦊")).toBe(7);
    expect(codesOf("🦊🦊🦊🦊🦊🦊🦊")).toEqual(["too_short"]);
    expect(codesOf("🦊🦊🦊🦊🦊🦊🦊🦊")).toEqual([]);
    // "é" typed as e + combining accent is one character, the same as the composed "é".
    expect(passwordLength("cafe\u0301")).toBe(4);
    expect(passwordLength("caf\u00e9")).toBe(4);
    // A family emoji joined with zero-width joiners is allowed: format characters are not controls.
    expect(codesOf("👨‍👩‍👧 our family 👨‍👩‍👧")).toEqual([]);
    // 128 emoji are 256 UTF-16 units but 128 characters: still allowed.
    expect(codesOf("🦊".repeat(128))).toEqual([]);
    expect(codesOf("🦊".repeat(129))).toEqual(["too_long"]);
  });

  it("compares in NFKC lower case, so full-width and accented forms of a word are the same word", () => {
    // Full-width letters normalise to "password".
    expect(codesOf("ｐａｓｓｗｏｒｄ")).toEqual(["common"]);
    expect(codesOf("Zoë Ödegaard rides", { ...ada, givenName: "Zoe\u0308" })).toEqual(["personal"]);
  });

  it("ignores name parts shorter than three characters and people without names", () => {
    expect(codesOf("jolly green giant", { ...ada, givenName: "Jo" })).toEqual([]);
    expect(codesOf("quiet river lamp", {})).toEqual([]);
  });

  it("loads the list of common passwords: ten thousand of them", () => {
    expect(isCommonPassword("123456")).toBe(true);
    expect(isCommonPassword("quiet river lamp")).toBe(false);
  });

  it("says what is wrong in plain words, as a 400 naming the field, in the reader's language", () => {
    let refusal: AppError | undefined;
    try {
      assertPasswordAllowed("zq9!", ada);
    } catch (error) {
      refusal = error as AppError;
    }
    expect(refusal).toMatchObject({
      status: 400,
      message: "Choose a longer password: at least 8 characters",
    });
    expect(refusal?.toBody("en")).toEqual({
      code: "validation_failed",
      message: "Choose a longer password: at least 8 characters",
      issues: [{ path: "newPassword", message: "Choose a longer password: at least 8 characters" }],
    });
    expect(refusal?.toBody("es")).toEqual({
      code: "validation_failed",
      message: "Elija una contraseña más larga: de al menos 8 caracteres",
      issues: [{ path: "newPassword", message: "Elija una contraseña más larga: de al menos 8 caracteres" }],
    });
    expect(() => assertPasswordAllowed("quiet river lamp", ada)).not.toThrow();
  });

  it("tells every broken rule, each in the words the web app shows for it", () => {
    const web = {
      en: JSON.parse(readFileSync("src/web/features/auth/locales/en.json", "utf8")).password.problems,
      es: JSON.parse(readFileSync("src/web/features/auth/locales/es.json", "utf8")).password.problems,
    };
    for (const language of ["en", "es"] as const) {
      for (const [code, message] of Object.entries(PASSWORD_PROBLEM_MESSAGES)) {
        const shown = web[language][code]
          .replace("{min}", String(PASSWORD_MIN_LENGTH))
          .replace("{max}", String(PASSWORD_MAX_LENGTH));
        expect(translate(message, language)).toBe(shown);
      }
    }
  });

  it("checks without the list in the browser: everything but commonness", () => {
    expect(checkPassword("password", { context: ada })).toEqual([]);
    expect(checkPassword("short", { context: ada }).map((p) => p.code)).toEqual(["too_short"]);
  });

  it("generates passwords that satisfy the policy", () => {
    for (let i = 0; i < 200; i++) {
      expect(passwordProblems(generateReadablePassword(ada), ada)).toEqual([]);
      expect(passwordProblems(generatePassword(ada), ada)).toEqual([]);
    }
  });
});
