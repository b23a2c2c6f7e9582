import { beforeAll, describe, expect, it } from "vitest";
import { searchSchemas } from "../../../shared/routes";
import { ApiRequestError } from "../../lib/http";
import { loadCatalogues, startI18n } from "../../lib/i18n";
import { enrollmentFilter, errorText, managedCoursesParams } from "./api";

describe("the manage-courses query", () => {
  it("asks for offset = page × perPage with the address's sort and search", () => {
    const search = searchSchemas.manageCourses.parse({
      page: 3,
      perPage: 25,
      sort: "courseCode",
      search: " math ",
    });
    expect(managedCoursesParams(search)).toEqual({
      offset: "75",
      limit: "25",
      sort: "courseCode",
      orderBy: "asc",
      search: "math",
    });
  });

  it("starts at offset 0 with 100 a page, by title", () => {
    expect(managedCoursesParams(searchSchemas.manageCourses.parse({}))).toEqual({
      offset: "0",
      limit: "100",
      sort: "title",
      orderBy: "asc",
      search: "",
    });
  });
});

describe("enrollmentFilter", () => {
  it("is active students by default, and leaves out what is set to all", () => {
    expect(enrollmentFilter("student", "active")).toBe("status='active' AND role='student'");
    expect(enrollmentFilter("all", "tobedeleted")).toBe("status='tobedeleted'");
    expect(enrollmentFilter("teacher", "all")).toBe("role='teacher'");
    expect(enrollmentFilter("all", "all")).toBe("");
  });
});

describe("errorText", () => {
  beforeAll(async () => {
    await startI18n("en");
    await loadCatalogues(["courses"]);
  });

  it("shows the error's own text, or Unknown error when it has none", () => {
    expect(
      errorText(new ApiRequestError("Your role does not allow you to list courses", 403, "forbidden")),
    ).toBe("Your role does not allow you to list courses");
    expect(errorText(new Error(""))).toBe("Unknown error");
    expect(errorText("nothing useful")).toBe("Unknown error");
  });
});
