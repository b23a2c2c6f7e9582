import { describe, expect, it } from "vitest";
import { csvField, csvLine, csvText } from "./csv";

describe("csvField quoting", () => {
  it("writes plain values as they are, and nothing for null and undefined", () => {
    expect(csvField("Maple Grove")).toBe("Maple Grove");
    expect(csvField(42)).toBe("42");
    expect(csvField(true)).toBe("true");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
  });

  it("quotes commas, quotes, line breaks and spaces at the edges, doubling the quotes", () => {
    expect(csvField("Smith, Jo")).toBe('"Smith, Jo"');
    expect(csvField('Jo "JJ" Smith')).toBe('"Jo ""JJ"" Smith"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("a\r\nb")).toBe('"a\r\nb"');
    expect(csvField(" padded ")).toBe('" padded "');
  });

  it("writes objects as JSON", () => {
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe("formula neutralisation", () => {
  it("leaves numbers written as text alone: a negative decimal is not a formula", () => {
    expect(csvField("-12.50")).toBe("-12.50");
    expect(csvField("-3")).toBe("-3");
  });

  it.each([
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ["+1+1", "'+1+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", '"\'\r=1"'],
  ])("prefixes an apostrophe to %j by default", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it("leaves numbers, and text with such characters further in, as they are", () => {
    expect(csvField(-5)).toBe("-5");
    expect(csvField("a=b")).toBe("a=b");
    expect(csvField("jo@school.org")).toBe("jo@school.org");
  });

  it("writes everything as it is in the exact mode", () => {
    expect(csvField("=1+1", { mode: "exact" })).toBe("=1+1");
    expect(csvField("-x", { mode: "exact" })).toBe("-x");
    expect(csvField("@a, b", { mode: "exact" })).toBe('"@a, b"');
  });
});

describe("lines and files", () => {
  it("ends every record with CRLF", () => {
    expect(csvLine(["a", 1, null])).toBe("a,1,\r\n");
    expect(csvText([["name"], ["=1"], ["Jo"]])).toBe("name\r\n'=1\r\nJo\r\n");
    expect(csvText([["=1"]], { mode: "exact" })).toBe("=1\r\n");
  });
});
