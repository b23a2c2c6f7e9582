import { describe, expect, it } from "vitest";
import { OneRosterError } from "./errors";
import { pageLinks, readCollectionQuery, readFields, selectFields } from "./query";

const links = (header: string) =>
  Object.fromEntries(
    header.split(", ").map((part) => {
      const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part) ?? [];
      return [rel, new URL(url as string).searchParams.get("offset")];
    }),
  );

describe("readCollectionQuery", () => {
  it("has the standard's defaults", () => {
    expect(readCollectionQuery({}, [])).toEqual({
      limit: 100,
      offset: 0,
      orderBy: "asc",
      search: "",
      fields: null,
    });
  });

  it.each([
    [{ limit: "0" }, "limit is at least 1"],
    [{ limit: "3001" }, "limit is at most 3000"],
    [{ limit: "-5" }, "limit is a whole number"],
    [{ offset: "x" }, "offset is a whole number"],
    [{ orderBy: "sideways" }, "orderBy is asc or desc"],
  ])("refuses %o with a readable invaliddata error", (params, message) => {
    expect(() => readCollectionQuery(params, [])).toThrow(message);
    try {
      readCollectionQuery(params, []);
    } catch (error) {
      expect(error).toBeInstanceOf(OneRosterError);
      expect((error as OneRosterError).codeMinor).toBe("invaliddata");
    }
  });
});

describe("fields", () => {
  it("reads a comma list of known fields, once each", () => {
    expect(readFields("sourcedId, name,,name", ["sourcedId", "name"])).toEqual(["sourcedId", "name"]);
    expect(readFields(undefined, ["sourcedId"])).toBeNull();
    expect(readFields(" , ", ["sourcedId"])).toBeNull();
  });

  it("refuses unknown fields with invalid_selection_field", () => {
    expect(() => readFields("sourcedId,colour", ["sourcedId"])).toThrow("colour");
    try {
      readFields("colour", ["sourcedId"]);
    } catch (error) {
      expect((error as OneRosterError).codeMinor).toBe("invalid_selection_field");
      expect((error as OneRosterError).status).toBe(400);
    }
  });

  it("keeps only the selected fields that the record has", () => {
    expect(selectFields({ a: 1, b: 2, c: 3 }, ["c", "a", "z"])).toEqual({ c: 3, a: 1 });
    expect(selectFields({ a: 1 }, null)).toEqual({ a: 1 });
  });
});

describe("pageLinks", () => {
  const url = "https://dash.example/ims/oneroster/rostering/v1p2/users?filter=x&limit=10&offset=20";

  it("links the first, previous, next and last pages, keeping the other parameters", () => {
    const header = pageLinks(url, { offset: 20, limit: 10, total: 95 });
    expect(links(header)).toEqual({ first: "0", prev: "10", next: "30", last: "90" });
    expect(header).toContain("filter=x");
  });

  it("has no next link on the last page and no prev link on the first", () => {
    expect(Object.keys(links(pageLinks(url, { offset: 90, limit: 10, total: 95 }))).sort()).toEqual([
      "first",
      "last",
      "prev",
    ]);
    expect(Object.keys(links(pageLinks(url, { offset: 0, limit: 10, total: 5 }))).sort()).toEqual([
      "first",
      "last",
    ]);
  });

  it("ends exactly on a full last page, and at 0 when there is nothing", () => {
    expect(links(pageLinks(url, { offset: 0, limit: 10, total: 100 })).last).toBe("90");
    expect(links(pageLinks(url, { offset: 0, limit: 10, total: 0 })).last).toBe("0");
  });

  it("never links a prev page before the start", () => {
    expect(links(pageLinks(url, { offset: 5, limit: 10, total: 50 })).prev).toBe("0");
  });
});
