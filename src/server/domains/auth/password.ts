import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { normalizePassword, type PasswordContext } from "../../../shared/password-policy";
import { passwordProblems } from "./password-policy";

/**
 * scrypt password hashes, stored as `scrypt$N$r$p$salt$hash` (base64url) so the cost can be
 * raised later without invalidating existing hashes.
 */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
const COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 128 * COST.N * COST.r * 2;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(normalizePassword(password), salt, KEY_LENGTH, { ...cost, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `cost` is lowered only for the demo accounts, whose password is public (see the demo seed). */
export async function hashPassword(password: string, cost: ScryptCost = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Checked against when the email is unknown, so a wrong email costs as long as a wrong password.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return decoyHash;
}

/** Draws passwords until one satisfies the policy (a random draw rarely spells "dash" or a name). */
function drawAllowed(draw: () => string, context: PasswordContext): string {
  for (;;) {
    const password = draw();
    if (passwordProblems(password, context).length === 0) return password;
  }
}

/** A random password for accounts created from the command line (120 bits). */
export function generatePassword(context: PasswordContext = {}): string {
  return drawAllowed(() => randomBytes(15).toString("base64url"), context);
}

// No 0/o, 1/l/i: letters and digits that read and type without doubt, on a screen or on paper.
const READABLE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

/**
 * A random password a child can copy from a printout: four groups of four characters from a
 * 31-sign alphabet (about 79 bits), e.g. `k7mp-3xq9-tr4w-ha2c`.
 */
export function generateReadablePassword(context: PasswordContext = {}): string {
  return drawAllowed(drawReadable, context);
}

function drawReadable(): string {
  // 256 is not a multiple of 31: bytes from 248 up are drawn again, so every sign is equally likely.
  const limit = 256 - (256 % READABLE_ALPHABET.length);
  const signs: string[] = [];
  while (signs.length < 16) {
    for (const byte of randomBytes(32)) {
      if (byte < limit && signs.length < 16)
        signs.push(READABLE_ALPHABET[byte % READABLE_ALPHABET.length] as string);
    }
  }
  return [0, 4, 8, 12].map((start) => signs.slice(start, start + 4).join("")).join("-");
}
