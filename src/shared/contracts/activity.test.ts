import { describe, expect, it } from "vitest";
import english from "../locales/en.json";
import { invalid } from "../validation-messages";
import { manualXpRequestSchema } from "./activity";

describe("manual XP amounts", () => {
  const request = (amount: number) => ({
    studentId: "student",
    amount,
    subject: "Math",
    reason: "Extra reading",
    idempotencyKey: "key-12345678",
  });

  it.each([
    [0.29, true],
    [1.15, true],
    [-0.5, true],
    [0.01, true],
    [4.35, true],
    [-1.15, true],
    [500, true],
    [2.675, false],
    [0.001, false],
    [1.234, false],
    [0, false],
    [500.01, false],
  ])("%s is %s", (amount, isValid) => {
    const parsed = manualXpRequestSchema.safeParse(request(amount));
    expect(parsed.success).toBe(isValid);
    if (!isValid && amount !== 0 && Math.abs(amount) <= 500)
      expect(parsed.error?.issues[0]?.message).toBe(invalid("amountDecimals"));
  });

  it("says a third decimal is one too many", () => {
    expect(english.amountDecimals).toBe("At most two decimals");
  });
});
