import { createHash, randomBytes } from "node:crypto";

/**
 * Secrets handed to other systems (learning-app keys, OAuth client secrets and access tokens).
 * They are long random strings, so one SHA-256 is enough to store them: only the hash is kept,
 * and a lookup by hash finds the owner in one indexed read.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A new random secret, `<prefix>_` then `bytes` random bytes in base64url. */
export function newSecret(prefix: string, bytes = 24): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}
