import { describe, expect, it } from "vitest";
import { ORG_TYPES, recordStatus, SEXES, userRoleName, vocabularyValue } from "./vocabulary";

describe("OneRoster 1.2 vocabularies", () => {
  it("spells known values the standard's way, whatever their case", () => {
    expect(vocabularyValue("School", ORG_TYPES)).toBe("school");
    expect(vocabularyValue(" DISTRICT ", ORG_TYPES)).toBe("district");
    expect(vocabularyValue("Female", SEXES)).toBe("female");
  });

  it("turns other values into ext: values with only the allowed characters", () => {
    expect(vocabularyValue("campus", ORG_TYPES)).toBe("ext:campus");
    expect(vocabularyValue("ext:Region", ORG_TYPES)).toBe("ext:Region");
    expect(vocabularyValue("Other gender", SEXES)).toBe("ext:Other_gender");
    expect(vocabularyValue("", SEXES)).toBe("ext:unknown");
  });

  it("names 1.1 administrators by where they hold the role", () => {
    expect(userRoleName("administrator", "district")).toBe("districtAdministrator");
    expect(userRoleName("Administrator", "school")).toBe("siteAdministrator");
    expect(userRoleName("administrator", null)).toBe("siteAdministrator");
    expect(userRoleName("SiteAdministrator", "school")).toBe("siteAdministrator");
    expect(userRoleName("TEACHER", "school")).toBe("teacher");
    expect(userRoleName("ext:coach", "school")).toBe("ext:coach");
    expect(userRoleName("coach", "school")).toBe("ext:coach");
  });

  it("keeps only the two 1.2 statuses", () => {
    expect(recordStatus("active")).toBe("active");
    expect(recordStatus("Active")).toBe("active");
    expect(recordStatus("tobedeleted")).toBe("tobedeleted");
    expect(recordStatus("inactive")).toBe("tobedeleted");
  });
});
