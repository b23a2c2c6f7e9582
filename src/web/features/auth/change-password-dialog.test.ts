import { describe, expect, it } from "vitest";
import { ApiRequestError } from "../../lib/http";
import { problemsOf } from "./change-password-dialog";

const refusal = (message: string, issues: { path: string; message: string }[]) =>
  new ApiRequestError(message, 400, "validation_failed", undefined, issues);

describe("where the change-password form shows the server's refusal", () => {
  it("marks the current password when an issue names it, in whatever language it is said", () => {
    for (const words of ["That is not your current password", "Esa no es su contraseña actual"])
      expect(problemsOf(refusal(words, [{ path: "currentPassword", message: words }]), "")).toEqual({
        current: words,
      });
  });

  it("marks the new password for the policy's refusals, and the form for other answers", () => {
    const policy = "Elija una contraseña más larga: de al menos 8 caracteres";
    expect(problemsOf(refusal(policy, [{ path: "newPassword", message: policy }]), "")).toEqual({
      next: policy,
    });
    expect(problemsOf(new ApiRequestError("Sign in to continue", 401, "unauthenticated"), "")).toEqual({
      form: "Sign in to continue",
    });
  });
});
