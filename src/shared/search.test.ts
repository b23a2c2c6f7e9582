import { describe, expect, it } from "vitest";
import { searchSchemas } from "./routes";
import { isIsoDate } from "./search";

const parse = <K extends keyof typeof searchSchemas>(key: K, input: Record<string, unknown>) =>
  searchSchemas[key].parse(input) as Record<string, unknown>;

describe("dates", () => {
  it.each(["2026-11-22", "2024-02-29"])("accepts %s", (value) => expect(isIsoDate(value)).toBe(true));
  it.each([
    "2026-13-01",
    "2026-02-30",
    "2023-02-29",
    "26-11-22",
    "2026-11",
    "2026-11-22T00:00",
    "yyyy-MM-dd",
    "2026/11/22",
  ])("refuses %s", (value) => expect(isIsoDate(value)).toBe(false));
});

describe("learning-metrics", () => {
  it("keeps valid values, in string or parsed form", () => {
    expect(
      parse("learningMetrics", {
        view: "weekly",
        startDate: "2026-11-01",
        endDate: "2026-11-22",
        studentId: "s1",
        studentIds: "s1, s2,,s3",
        allStudents: 1,
        classId: "c1",
        groupByApp: "true",
        showDailyGoal: 0,
        showAllMetrics: true,
      }),
    ).toEqual({
      view: "weekly",
      startDate: "2026-11-01",
      endDate: "2026-11-22",
      studentId: "s1",
      studentIds: ["s1", "s2", "s3"],
      allStudents: "1",
      classId: "c1",
      groupByApp: true,
      showDailyGoal: false,
      showAllMetrics: true,
    });
  });

  it("drops every bad value to its default", () => {
    const parsed = parse("learningMetrics", {
      view: "yearly",
      startDate: "2026-02-30",
      endDate: "22-11-2026",
      studentIds: ",,",
      allStudents: "yes",
      groupByApp: "maybe",
      showDailyGoal: 2,
      showAllMetrics: 0,
    });
    expect(Object.values(parsed).every((value) => value === undefined)).toBe(true);
  });
});

describe("leaderboards", () => {
  it("keeps valid values", () => {
    expect(
      parse("leaderboards", { scope: "league", tf: "streak", p: 3, subj: "Math", startDate: "2026-01-05" }),
    ).toMatchObject({
      scope: "league",
      tf: "streak",
      p: 3,
      subj: "Math",
      startDate: "2026-01-05",
    });
  });

  it.each([0, -1, 1.5, "two", ""])("drops p=%j", (p) => {
    expect(parse("leaderboards", { p }).p).toBeUndefined();
  });

  it("drops unknown scope and time frame", () => {
    expect(parse("leaderboards", { scope: "planet", tf: "decade" })).toMatchObject({
      scope: undefined,
      tf: undefined,
    });
  });

  it("allows only global or school on the admin leaderboard", () => {
    expect(parse("adminLeaderboards", { scope: "school" }).scope).toBe("school");
    expect(parse("adminLeaderboards", { scope: "class" }).scope).toBeUndefined();
    expect(parse("adminLeaderboards", { scope: "league", teacher: "t1" })).toMatchObject({
      scope: undefined,
      teacher: "t1",
    });
  });
});

describe("admin lists", () => {
  it("defaults the roles tab to users", () => {
    expect(parse("adminRoles", {}).tab).toBe("users");
    expect(parse("adminRoles", { tab: "relationships" }).tab).toBe("relationships");
    expect(parse("adminRoles", { tab: "groups" }).tab).toBe("users");
  });

  it("defaults the credentials tab to the OneRoster clients", () => {
    expect(parse("adminCredentials", {}).tab).toBe("oneroster");
    expect(parse("adminCredentials", { tab: "apps" }).tab).toBe("apps");
    expect(parse("adminCredentials", { tab: "secrets" }).tab).toBe("oneroster");
  });

  it("defaults manage-courses to title ascending, 100 a page from page 0", () => {
    expect(parse("manageCourses", {})).toEqual({
      search: "",
      page: 0,
      perPage: 100,
      sort: "title",
      orderBy: "asc",
    });
    expect(parse("manageCourses", { page: -2, perPage: "lots", orderBy: "up", search: "math" })).toEqual({
      search: "math",
      page: 0,
      perPage: 100,
      sort: "title",
      orderBy: "asc",
    });
  });

  it("falls back from an unknown sort and a page size over 500", () => {
    expect(parse("manageCourses", { sort: "colour", perPage: 5000 })).toMatchObject({
      sort: "title",
      perPage: 100,
    });
    expect(parse("manageCourses", { sort: "courseCode", perPage: 500 })).toMatchObject({
      sort: "courseCode",
      perPage: 500,
    });
  });

  it("defaults manage-enrollments to active students, beginDate descending", () => {
    expect(parse("manageEnrollments", {})).toEqual({
      search: "",
      page: 0,
      perPage: 100,
      sort: "beginDate",
      orderBy: "desc",
      role: "student",
      status: "active",
    });
    expect(parse("manageEnrollments", { role: "janitor", status: "gone", courseId: "" })).toMatchObject({
      role: "student",
      status: "active",
      courseId: undefined,
    });
    expect(parse("manageEnrollments", { role: "all", status: "tobedeleted", classId: "k1" })).toMatchObject({
      role: "all",
      status: "tobedeleted",
      classId: "k1",
    });
    expect(parse("manageEnrollments", { page: 2, perPage: 25, orderBy: "asc" })).toMatchObject({
      page: 2,
      perPage: 25,
      orderBy: "asc",
    });
  });
});

describe("other pages", () => {
  it("validates check-chart views", () => {
    expect(parse("checkChart", { view: "progress", chartId: "c1" })).toEqual({
      view: "progress",
      chartId: "c1",
    });
    expect(parse("checkChart", { view: "delete" }).view).toBeUndefined();
  });

  it("validates flow dates and times", () => {
    expect(parse("flowStudent", { date: "2026-11-20", time: "09:30" })).toEqual({
      date: "2026-11-20",
      time: "09:30",
    });
    expect(parse("flowStudent", { date: "2026-11-31", time: "25:00" })).toEqual({
      date: undefined,
      time: undefined,
    });
    expect(parse("oneDate", { date: "2026-11-20" }).date).toBe("2026-11-20");
  });

  it("keeps only known roles on the login and home pages", () => {
    expect(parse("login", { role: "teacher", schoolId: "s1", error: "access_denied" })).toMatchObject({
      role: "teacher",
      schoolId: "s1",
      error: "access_denied",
    });
    expect(parse("login", { role: "parent" }).role).toBeUndefined();
    expect(parse("home", { role: "superuser", courseId: "c1" })).toMatchObject({
      role: undefined,
      courseId: "c1",
    });
  });

  it("keeps the goals page's student and class, dropping empty ones", () => {
    expect(parse("goals", { studentId: "s1", classId: "k1" })).toEqual({ studentId: "s1", classId: "k1" });
    expect(parse("goals", { studentId: "", classId: 42 })).toEqual({ studentId: undefined, classId: "42" });
    expect(parse("goals", { studentId: ["s1"] }).studentId).toBeUndefined();
  });

  it("keeps childId", () => {
    expect(parse("childrenProgress", { childId: "k1" }).childId).toBe("k1");
    expect(parse("childrenProgress", { childId: "" }).childId).toBeUndefined();
  });
});
