import { describe, expect, it } from "vitest";
import { printedText, printf, sameResponse, toResponseValue } from "./qti-values";

const attributes = (values: Record<string, string> = {}) => ({
  getAttribute: (name: string) => values[name] ?? null,
});

describe("responses as Dash keeps them", () => {
  it("keeps text and lists, as text", () => {
    expect(toResponseValue("ChoiceA")).toBe("ChoiceA");
    expect(toResponseValue(["C R", "D M"])).toEqual(["C R", "D M"]);
    expect(toResponseValue(42)).toBe("42");
    expect(toResponseValue([1, "2"])).toEqual(["1", "2"]);
  });

  it("makes empty answers null, as QTI has no empty values", () => {
    expect(toResponseValue("")).toBeNull();
    expect(toResponseValue(undefined)).toBeNull();
    expect(toResponseValue(null)).toBeNull();
    expect(toResponseValue([])).toBeNull();
    expect(toResponseValue(["", null])).toBeNull();
    expect(toResponseValue(["A", ""])).toEqual(["A"]);
  });

  it("compares answers, a list's order included", () => {
    expect(sameResponse("A", "A")).toBe(true);
    expect(sameResponse(["A", "B"], ["A", "B"])).toBe(true);
    expect(sameResponse(["A", "B"], ["B", "A"])).toBe(false);
    expect(sameResponse(["A"], "A")).toBe(false);
    expect(sameResponse(null, null)).toBe(true);
    expect(sameResponse(null, "A")).toBe(false);
  });
});

describe("printed variables", () => {
  it("print a value as it is, and a container's values joined by the delimiter", () => {
    expect(printedText(attributes(), "men")).toBe("men");
    expect(printedText(attributes(), ["-71", "66", "74"])).toBe("-71;66;74");
    expect(printedText(attributes({ delimiter: ", " }), ["1", "2"])).toBe("1, 2");
    expect(printedText(attributes(), null)).toBe("");
  });

  it("pick one value of a container by its index, from the end when negative", () => {
    expect(printedText(attributes({ index: "2" }), ["a", "b", "c"])).toBe("b");
    expect(printedText(attributes({ index: "-1" }), ["a", "b", "c"])).toBe("c");
    expect(printedText(attributes({ index: "9" }), ["a", "b", "c"])).toBe("");
  });

  it("follow the format, or the base of an integer", () => {
    expect(printedText(attributes({ format: "%.2f" }), "3.14159")).toBe("3.14");
    expect(printedText(attributes({ format: "%d cm" }), "12.7")).toBe("12 cm");
    expect(printedText(attributes({ base: "2" }), "5")).toBe("101");
    expect(printedText(attributes({ base: "16" }), "255")).toBe("ff");
  });
});

describe("printf", () => {
  it("formats the conversions QTI uses", () => {
    expect(printf("%i", "-7.9")).toBe("-7");
    expect(printf("%f", "1.5")).toBe("1.500000");
    expect(printf("%.1e", "12345")).toBe("1.2e+4");
    expect(printf("%.3E", "0.00123")).toBe("1.230E-3");
    expect(printf("%.3g", "3.14159")).toBe("3.14");
    expect(printf("%x and %X and %o", "255")).toBe("ff and FF and 377");
    expect(printf("%s!", "hello")).toBe("hello!");
    expect(printf("%.3s", "hello")).toBe("hel");
    expect(printf("100%%", "1")).toBe("100%");
  });

  it("pads to a width, left or right, with zeros after the sign, and shows a plus when asked", () => {
    expect(printf("%5d", "42")).toBe("   42");
    expect(printf("%-5d|", "42")).toBe("42   |");
    expect(printf("%05d", "-42")).toBe("-0042");
    expect(printf("%+d", "42")).toBe("+42");
    expect(printf("%+.1f", "-0.25")).toBe("-0.3");
  });
});
