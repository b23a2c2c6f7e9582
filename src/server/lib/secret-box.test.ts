import { describe, expect, it } from "vitest";
import { createSecretBox } from "./secret-box";

const KEY = "k".repeat(32);
const box = createSecretBox(KEY);

/** Flips one character of a base64url part of the envelope. */
function alter(envelope: string, part: number): string {
  const parts = envelope.split(".");
  const text = parts[part] as string;
  parts[part] = `${text[0] === "A" ? "B" : "A"}${text.slice(1)}`;
  return parts.join(".");
}

describe("the secret box", () => {
  it("gives back what it encrypted, in a versioned envelope that never shows the secret", () => {
    const envelope = box.encryptSecret("smtp-pässword ✓", "smtp-password");
    expect(envelope).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(envelope).not.toContain("smtp");
    expect(box.decryptSecret(envelope, "smtp-password")).toBe("smtp-pässword ✓");
    expect(createSecretBox(KEY).decryptSecret(envelope, "smtp-password")).toBe("smtp-pässword ✓");
    expect(box.decryptSecret(box.encryptSecret(""))).toBe("");
  });

  it("encrypts the same secret differently each time", () => {
    expect(box.encryptSecret("same")).not.toBe(box.encryptSecret("same"));
  });

  it("detects an altered iv, ciphertext or tag", () => {
    const envelope = box.encryptSecret("a webhook secret");
    const refusal =
      "The stored secret cannot be decrypted: it was altered, or DASH_SECRET_KEY is not the key it was stored with";
    for (const part of [1, 2, 3]) expect(() => box.decryptSecret(alter(envelope, part))).toThrow(refusal);
    expect(() => box.decryptSecret(envelope.replace(/\.[\w-]+$/, ".AAAA"))).toThrow(
      "The stored secret is damaged",
    );
  });

  it("refuses another key and another context", () => {
    const envelope = box.encryptSecret("a webhook secret", "webhook");
    expect(() => createSecretBox("x".repeat(32)).decryptSecret(envelope, "webhook")).toThrow(
      /DASH_SECRET_KEY is not the key it was stored with/,
    );
    expect(() => box.decryptSecret(envelope, "smtp-password")).toThrow(/cannot be decrypted/);
  });

  it("refuses envelopes of an unknown version or shape", () => {
    const envelope = box.encryptSecret("secret");
    for (const bad of [envelope.replace(/^v1/, "v2"), "plain text", `${envelope}.extra`])
      expect(() => box.decryptSecret(bad)).toThrow(
        "The stored secret is not in a format this version of Dash reads",
      );
  });

  it("signs a value for a context, and tells an altered value, another context or another key", () => {
    const signature = box.sign("person and category", "email-unsubscribe");
    expect(box.verify("person and category", signature, "email-unsubscribe")).toBe(true);
    expect(box.verify("person and categorz", signature, "email-unsubscribe")).toBe(false);
    expect(box.verify("person and category", signature, "webhook")).toBe(false);
    expect(box.verify("person and category", signature.slice(1), "email-unsubscribe")).toBe(false);
    expect(
      createSecretBox("x".repeat(32)).verify("person and category", signature, "email-unsubscribe"),
    ).toBe(false);
    // The signature carries nothing of the value.
    expect(signature).not.toContain("person");
  });
});
