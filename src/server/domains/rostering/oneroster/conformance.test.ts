import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import addFormatsPlugin from "ajv-formats";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONEROSTER_BASE_PATH } from "../../../../shared/contracts/api-clients";
import { queryRows } from "../../../db/client";
import { demoId } from "../../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../../test/harness";
import { demoSisToken } from "../../oauth/testing";

/**
 * Conformance with the 1EdTech OneRoster 1.2 rostering OpenAPI file: every GET endpoint it lists
 * is called on the demo school, and each answer is validated against the schema the file gives
 * for it. The file is public reference material outside this repository (../shared/fixtures);
 * without it these tests are skipped with a notice.
 */

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const OPENAPI_FILE = path.join(
  repositoryRoot,
  "../shared/fixtures/oneroster/openapi_1edtech_v1p2/onerosterv1p2rostersservice_openapi3_v1p0.json",
);
const hasOpenApi = existsSync(OPENAPI_FILE);
if (!hasOpenApi) {
  console.warn(`OneRoster conformance tests skipped: ${OPENAPI_FILE} is not there.`);
}

interface Operation {
  responses: Record<string, { content?: { "application/json"?: { schema?: { $ref?: string } } } }>;
}
interface OpenApi {
  paths: Record<string, { get?: Operation }>;
}

const DOCUMENT_ID = "oneroster-rostering-v1p2";
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

describe.skipIf(!hasOpenApi)("OneRoster 1.2 conformance", () => {
  let t: TestApp;
  let token: string;
  let ajv: Ajv;
  let openApi: OpenApi;
  const ids: Record<string, string> = {};

  /** A real sourcedId for each path parameter of the file, by the collection it follows. */
  function fill(template: string): string {
    return template.replace(/\/(\w+)\/\{(\w+)\}/g, (_, collection: string, parameter: string) => {
      const key = parameter === "sourcedId" ? collection : parameter;
      const id = ids[key];
      if (!id) throw new Error(`no demo id for {${parameter}} after /${collection}`);
      return `/${collection}/${id}`;
    });
  }

  function validate(schemaRef: string, body: unknown) {
    const check = ajv.getSchema(`${DOCUMENT_ID}${schemaRef}`);
    if (!check) throw new Error(`no schema ${schemaRef}`);
    const valid = check(body);
    return valid ? [] : (check.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message}`);
  }

  beforeAll(async () => {
    openApi = JSON.parse(readFileSync(OPENAPI_FILE, "utf8")) as OpenApi;
    // OpenAPI 3.0 schemas are JSON Schema with extra keywords: not strict, and int32 as a known format.
    ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addFormat("int32", true);
    ajv.addSchema(openApi, DOCUMENT_ID);

    t = await createTestApp();
    token = await demoSisToken(t);
    // Demographics are not part of the demo seed; two records, one with every field, one sparse.
    await t.db.execute(sql`insert into demographics (sourced_id, birth_date, sex, american_indian_or_alaska_native,
        asian, black_or_african_american, native_hawaiian_or_other_pacific_islander, white,
        demographic_race_two_or_more_races, hispanic_or_latino_ethnicity, country_of_birth_code,
        state_of_birth_abbreviation, city_of_birth, public_school_residence_status, metadata)
      values (${demoId("student-ava")}, '2017-04-02', 'female', false, false, false, false, true, false, true, 'US', 'MA',
        'Springfield', '01652', '{"dash.source": "conformance test"}'),
        (${demoId("student-leo")}, null, 'Other gender', null, null, null, null, null, null, null, null, null, null, null, null)`);
    const [enrollment] = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from enrollments limit 1`,
    );
    const [quarter] = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from academic_sessions where type = 'gradingPeriod' limit 1`,
    );
    const [term] = await queryRows<{ id: string }>(
      t.db,
      sql`select sourced_id as id from academic_sessions where type = 'term' order by start_date limit 1`,
    );
    const patelMath = demoId("class-maple-grove-guide-patel-Math");
    Object.assign(ids, {
      orgs: demoId("district"),
      schools: demoId("maple-grove"),
      schoolSourcedId: demoId("maple-grove"),
      users: demoId("parent-sam"),
      userSourcedId: demoId("multi"),
      students: demoId("student-ava"),
      studentSourcedId: demoId("student-ava"),
      teachers: demoId("guide-patel"),
      teacherSourcedId: demoId("guide-patel"),
      classes: patelMath,
      classSourcedId: patelMath,
      courses: demoId("course-maple-grove-Math"),
      courseSourcedId: demoId("course-maple-grove-Math"),
      enrollments: enrollment?.id,
      academicSessions: term?.id,
      terms: term?.id,
      termSourcedId: term?.id,
      gradingPeriods: quarter?.id,
      demographics: demoId("student-ava"),
    });
  });
  afterAll(() => t?.close());

  it("serves every GET endpoint of the rostering service", () => {
    const endpoints = Object.entries(openApi.paths).filter(([, item]) => item.get);
    expect(endpoints.length).toBeGreaterThanOrEqual(40);
  });

  it("checks for real: the schemas refuse what the standard does not allow", () => {
    const user = {
      sourcedId: "u1",
      status: "active",
      dateLastModified: "2026-01-01T00:00:00.000Z",
      givenName: "A",
      familyName: "B",
    };
    expect(
      validate("#/components/schemas/SingleUserDType", { user: { ...user, enabledUser: true, roles: [] } }),
    ).not.toEqual([]);
    expect(
      validate("#/components/schemas/SingleUserDType", {
        user: { ...user, enabledUser: "true", timezone: "UTC" },
      }),
    ).not.toEqual([]);
  });

  it("answers every endpoint with a body its schema accepts", async () => {
    const failures: string[] = [];
    for (const [template, item] of Object.entries(openApi.paths)) {
      const schemaRef = item.get?.responses["200"]?.content?.["application/json"]?.schema?.$ref;
      if (!schemaRef) continue;
      const isCollection = schemaRef.endsWith("SetDType");
      const url = `${ONEROSTER_BASE_PATH}${fill(template)}${isCollection ? "?limit=3000" : ""}`;
      const response = await t.request(url, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as Record<string, unknown[]>;
      if (response.status !== 200) {
        failures.push(`${template}: ${response.status} ${JSON.stringify(body)}`);
        continue;
      }
      if (isCollection) {
        const records = Object.values(body)[0] ?? [];
        if (records.length === 0) failures.push(`${template}: no records to check`);
        if (response.headers.get("x-total-count") === null) failures.push(`${template}: no X-Total-Count`);
      }
      const problems = validate(schemaRef, body);
      if (problems.length > 0) failures.push(`${template} (${schemaRef}): ${problems.join("; ")}`);
    }
    expect(failures).toEqual([]);
  });

  it("answers errors in the imsx status envelope", async () => {
    const schemaRef = "#/components/schemas/imsx_StatusInfoDType";
    const core = await demoSisToken(t, "https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly");
    const cases: [string, string | null, number][] = [
      ["/users", null, 401],
      ["/demographics", core, 403],
      ["/users/nobody", token, 404],
      ["/users?filter=nonsense", token, 400],
      ["/users?fields=nonsense", token, 400],
    ];
    for (const [requestPath, bearer, status] of cases) {
      const response = await t.request(`${ONEROSTER_BASE_PATH}${requestPath}`, {
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
      expect(response.status).toBe(status);
      expect(validate(schemaRef, await response.json())).toEqual([]);
    }
  });
});
