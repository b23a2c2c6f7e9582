import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

/**
 * Secrets Dash must read back later (a mail server's password, a webhook's signing secret) are
 * stored encrypted with AES-256-GCM under a key derived from DASH_SECRET_KEY. Secrets Dash only
 * has to recognise are hashed instead (`secrets.ts`).
 *
 * Envelope: `v1.<iv>.<ciphertext>.<tag>`, each part base64url. The version names the algorithm
 * and the key derivation, so either can change later while older values stay readable.
 */

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed salt and info: the derived key depends only on DASH_SECRET_KEY, and a key derived for
// another purpose from the same secret would differ.
const HKDF_SALT = "dash-secret-box";
const HKDF_INFO = "dash secret-box v1 aes-256-gcm";
const HKDF_SIGNING_INFO = "dash secret-box v1 hmac-sha256";

export interface SecretBox {
  /** Encrypts `plaintext`; `context` (such as "smtp-password") must be given again to decrypt. */
  encryptSecret(plaintext: string, context?: string): string;
  /** Throws when the envelope was altered, belongs to another context or to another key. */
  decryptSecret(envelope: string, context?: string): string;
  /** A signature of `value` for `context` (HMAC-SHA256, base64url): proves Dash wrote the value, as in a link's token. */
  sign(value: string, context: string): string;
  /** Whether `signature` is this key's signature of `value` for `context` (compared in constant time). */
  verify(value: string, signature: string, context: string): boolean;
}

export function createSecretBox(secretKey: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", secretKey, HKDF_SALT, HKDF_INFO, 32));
  const signingKey = Buffer.from(hkdfSync("sha256", secretKey, HKDF_SALT, HKDF_SIGNING_INFO, 32));
  const sign = (value: string, context: string) =>
    createHmac("sha256", signingKey).update(`${context}\u0000${value}`, "utf8").digest("base64url");
  return {
    sign,
    verify(value, signature, context) {
      const expected = Buffer.from(sign(value, context), "utf8");
      const given = Buffer.from(signature, "utf8");
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    encryptSecret(plaintext, context = "") {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    decryptSecret(envelope, context = "") {
      const [version, iv, ciphertext, tag, ...rest] = envelope.split(".");
      if (
        version !== VERSION ||
        iv === undefined ||
        ciphertext === undefined ||
        tag === undefined ||
        rest.length
      )
        throw new Error("The stored secret is not in a format this version of Dash reads");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, "utf8"));
      const tagBytes = Buffer.from(tag, "base64url");
      if (tagBytes.length !== TAG_BYTES) throw new Error("The stored secret is damaged");
      decipher.setAuthTag(tagBytes);
      try {
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new Error(
          "The stored secret cannot be decrypted: it was altered, or DASH_SECRET_KEY is not the key it was stored with",
        );
      }
    },
  };
}
