import { buffer } from "node:stream/consumers";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import type {
  QtiDocument,
  QtiDocumentImport,
  QtiListResponse,
  QtiPackageImport,
  QtiTest,
} from "../../../../shared/contracts/content";
import { queryRows } from "../../../db/client";
import { createTestApp, type TestApp } from "../../../test/harness";
import { readTestItem } from "./test-items";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

const NS = 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("IHDR a tiny picture"),
]);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle r="4"/></svg>',
);

interface Answer<Body> {
  status: number;
  body: Body;
  headers: Headers;
}

async function call<Body = Record<string, unknown>>(
  who: string | null,
  path: string,
  init: { method?: string; json?: unknown; body?: string | FormData; headers?: Record<string, string> } = {},
): Promise<Answer<Body>> {
  const response = await t.request(`/api/qti${path}`, { ...init, cookie: who ? cookies[who] : undefined });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

const postXml = (who: string | null, path: string, xml: string, type = "application/xml") =>
  call<QtiDocumentImport & Record<string, unknown>>(who, path, {
    body: xml,
    headers: { "content-type": type },
  });

function form(fileName: string, content: Buffer | string): FormData {
  const data = new FormData();
  data.append("file", new Blob([typeof content === "string" ? content : new Uint8Array(content)]), fileName);
  return data;
}

async function zipOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  return buffer(zip.outputStream);
}

const manifest = (resources: { type: string; href: string }[]) => `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="package-1">
  <resources>
    ${resources
      .map(
        (resource, index) =>
          `<resource identifier="r${index}" type="${resource.type}" href="${resource.href}"><file href="${resource.href}"/></resource>`,
      )
      .join("\n    ")}
  </resources>
</manifest>`;

const simpleItem = (identifier: string, title: string, body = "<p>Pick one.</p>") =>
  `<qti-assessment-item ${NS} identifier="${identifier}" title="${title}">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>a</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>${body}
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-simple-choice identifier="a">A</qti-simple-choice><qti-simple-choice identifier="b">B</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;

describe("importing documents and reading them back", () => {
  it("imports an item and answers it as it came (fetchQti)", async () => {
    const xml = readTestItem("planets-choice.xml");
    const imported = await postXml("admin", "/items", xml);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({
      kind: "item",
      identifier: "dash-planets-choice",
      title: "The red planet",
      interactions: ["choice"],
      sourceVersion: "3.0",
      created: true,
    });
    const read = await call<QtiDocument>("guide", "/items/dash-planets-choice");
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      identifier: "dash-planets-choice",
      title: "The red planet",
      rawXml: xml,
      interactions: ["choice"],
      references: [],
      isPublic: false,
    });
  });

  it("imports a stimulus (text/xml) and a test, and answers each as it came", async () => {
    const stimulus = readTestItem("river-stimulus.xml");
    expect((await postXml("guide", "/stimuli", stimulus, "text/xml")).body).toMatchObject({
      kind: "stimulus",
      identifier: "dash-river-stimulus",
    });
    expect((await call<QtiDocument>("guide", "/stimuli/dash-river-stimulus")).body.rawXml).toBe(stimulus);
    await postXml("admin", "/items", readTestItem("river-question.xml"));

    const test = readTestItem("nature-test.xml");
    expect((await postXml("admin", "/tests", test)).body).toMatchObject({
      kind: "test",
      identifier: "dash-nature-test",
    });
    const read = await call<QtiTest>("parent", "/tests/dash-nature-test");
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      identifier: "dash-nature-test",
      title: "Nature quiz",
      rawXml: test,
      items: [
        { identifier: "dash-planets-choice", title: "The red planet", interactions: ["choice"] },
        { identifier: "dash-river-question", title: "Where the river starts", interactions: ["choice"] },
      ],
    });
  });

  it("takes an XML file in a form too, at the endpoint of its kind only", async () => {
    const xml = readTestItem("seasons-order.xml");
    const wrong = await call("admin", "/stimuli", { body: form("seasons.xml", xml) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("The file is an item: send it to /api/qti/items.");
    const imported = await call<QtiDocumentImport>("admin", "/items", { body: form("seasons.xml", xml) });
    expect(imported.status).toBe(200);
    expect(imported.body.interactions).toEqual(["order"]);
  });

  it("converts a QTI 2.2 item on import", async () => {
    const imported = await postXml("admin", "/items", readTestItem("bread-v2p2.xml"));
    expect(imported.body).toMatchObject({ identifier: "dash-bread-v2p2", sourceVersion: "2.2" });
    const read = await call<QtiDocument>("admin", "/items/dash-bread-v2p2");
    expect(read.body.rawXml).toContain("<qti-inline-choice-interaction");
  });

  it("replaces an item imported again, with who and when, and keeps it public", async () => {
    await postXml("admin", "/items", simpleItem("dash-replaced", "First version"));
    expect(
      (await call("admin", "/items/dash-replaced", { method: "PATCH", json: { public: true } })).status,
    ).toBe(200);
    t.clock.advance(60_000);
    const again = await postXml("guide", "/items", simpleItem("dash-replaced", "Second version"));
    expect(again.body.created).toBe(false);
    const [row] = await queryRows<{
      title: string;
      isPublic: boolean;
      createdBy: string;
      updatedBy: string;
      later: boolean;
    }>(
      t.db,
      sql`select title, is_public as "isPublic", created_by as "createdBy", updated_by as "updatedBy",
            updated_at > created_at as later
          from qti_documents where kind = 'item' and identifier = 'dash-replaced'`,
    );
    expect(row).toMatchObject({ title: "Second version", isPublic: true, later: true });
    expect(row?.createdBy).not.toBe(row?.updatedBy);
  });
});

describe("refusing documents", () => {
  it("answers malformed XML with its line and column", async () => {
    const answer = await postXml(
      "admin",
      "/items",
      `<qti-assessment-item ${NS} identifier="x">\n  <p a=1/>\n</qti-assessment-item>`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual({ line: 2, column: 3 });
    expect(answer.body.message).toMatch(/line 2, column 3/);
    const spanish = await call("admin", "/items", {
      body: "<qti-assessment-item",
      headers: { "content-type": "application/xml", "accept-language": "es" },
    });
    expect(spanish.status).toBe(400);
    expect(spanish.body.message).toMatch(/^El XML no está bien formado en la línea 1/);
  });

  it("names an unknown root, refuses a DOCTYPE and a body past 2 MB", async () => {
    const root = await postXml("admin", "/items", "<svg><script>alert(1)</script></svg>");
    expect(root.status).toBe(400);
    expect(root.body.message).toContain("<svg> (line 1, column 1)");
    const doctype = await postXml(
      "admin",
      "/items",
      `<!DOCTYPE x [<!ENTITY a "b">]><qti-assessment-item ${NS} identifier="d"/>`,
    );
    expect(doctype.status).toBe(400);
    expect(doctype.body.details).toEqual({ line: 1, column: 1 });
    const large = await postXml("admin", "/items", `<!-- ${"x".repeat(2 * 1024 * 1024)} -->`);
    expect(large.status).toBe(413);
    expect((await postXml("admin", "/items", "<a/>", "text/plain")).status).toBe(415);
  });

  it("refuses bytes that are not UTF-8", async () => {
    const latin1 = new Uint8Array([
      ...Buffer.from(`<qti-assessment-item ${NS} identifier="l" title="Caf`),
      0xe9,
      ...Buffer.from('"/>'),
    ]);
    const response = await t.app.request("/api/qti/items", {
      method: "POST",
      body: latin1,
      headers: { cookie: cookies.admin as string, "content-type": "application/xml" },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain("UTF-8");
  });
});

describe("who may do what", () => {
  it("lets only administrators and Guides import, list and publish", async () => {
    const xml = simpleItem("dash-denied", "Denied");
    expect((await postXml(null, "/items", xml)).status).toBe(401);
    for (const who of ["student", "parent"]) {
      expect((await postXml(who, "/items", xml)).status).toBe(403);
      expect((await call(who, "/items")).status).toBe(403);
      expect(
        (await call(who, "/items/dash-planets-choice", { method: "PATCH", json: { public: true } })).status,
      ).toBe(403);
    }
    expect((await call(null, "/items")).status).toBe(401);
    const [row] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from qti_documents where identifier = 'dash-denied'`,
    );
    expect(row?.count).toBe(0);
  });

  it("shows anonymous callers public items only, and private ones as if they did not exist", async () => {
    await postXml("admin", "/items", simpleItem("dash-private", "Private"));
    const hidden = await call(null, "/items/dash-private");
    const unknown = await call(null, "/items/dash-no-such-item");
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(unknown.body);
    const learner = await call<QtiDocument>("student", "/items/dash-private");
    expect(learner.status).toBe(200);

    const published = await call("guide", "/items/dash-private", { method: "PATCH", json: { public: true } });
    expect(published.body).toEqual({ identifier: "dash-private", isPublic: true });
    const shown = await call<QtiDocument>(null, "/items/dash-private");
    expect(shown.status).toBe(200);
    expect(shown.body.isPublic).toBe(true);
    await call("guide", "/items/dash-private", { method: "PATCH", json: { public: false } });
    expect((await call(null, "/items/dash-private")).status).toBe(404);
  });

  it("shows a stimulus anonymously when it is public or a public item refers to it", async () => {
    expect((await call(null, "/stimuli/dash-river-stimulus")).status).toBe(404);
    await call("admin", "/items/dash-river-question", { method: "PATCH", json: { public: true } });
    expect((await call(null, "/stimuli/dash-river-stimulus")).status).toBe(200);
    await call("admin", "/items/dash-river-question", { method: "PATCH", json: { public: false } });
    expect((await call(null, "/stimuli/dash-river-stimulus")).status).toBe(404);
    await call("admin", "/stimuli/dash-river-stimulus", { method: "PATCH", json: { public: true } });
    expect((await call<QtiDocument>(null, "/stimuli/dash-river-stimulus")).body.isPublic).toBe(true);
  });

  it("keeps tests for signed-in callers and answers 404 for unknown documents", async () => {
    expect((await call(null, "/tests/dash-nature-test")).status).toBe(401);
    expect((await call("admin", "/tests/dash-no-such-test")).status).toBe(404);
    expect(
      (await call("admin", "/items/dash-no-such-item", { method: "PATCH", json: { public: true } })).status,
    ).toBe(404);
    expect(
      (await call("admin", "/items/dash-planets-choice", { method: "PATCH", json: { public: "yes" } }))
        .status,
    ).toBe(400);
  });
});

describe("listing and searching", () => {
  // The demo school's own course has items of its own: these look at this file's (dash-…) only.
  it("pages items with their interactions, public flag and version, searched on title and identifier", async () => {
    const all = await call<QtiListResponse>("guide", "/items?limit=200&search=dash-");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.data.length);
    expect(all.body.data.length).toBeGreaterThan(5);
    expect(all.body.data.every((row) => row.identifier.startsWith("dash-"))).toBe(true);
    expect(all.body.data.find((row) => row.identifier === "dash-bread-v2p2")).toMatchObject({
      title: "Baking bread",
      interactions: ["inline-choice", "text-entry"],
      sourceVersion: "2.2",
      isPublic: false,
    });
    const byTitle = await call<QtiListResponse>("guide", "/items?search=The%20red%20PLANET");
    expect(byTitle.body.data.map((row) => row.identifier)).toContain("dash-planets-choice");
    expect(byTitle.body.data.every((row) => /the red planet/i.test(row.title))).toBe(true);
    const byIdentifier = await call<QtiListResponse>("guide", "/items?search=dash-river-q");
    expect(byIdentifier.body.data.map((row) => row.identifier)).toEqual(["dash-river-question"]);
    // % and _ are searched as themselves.
    expect((await call<QtiListResponse>("guide", "/items?search=dash%25")).body.total).toBe(0);
    expect((await call<QtiListResponse>("guide", "/items?search=dash_planets")).body.total).toBe(0);
    const orders = await call<QtiListResponse>("guide", "/items?interaction=order&search=dash-");
    expect(orders.body.data.map((row) => row.identifier)).toEqual(["dash-seasons-order"]);
    const page = await call<QtiListResponse>("guide", "/items?limit=2&offset=1&search=dash-");
    expect(page.body).toMatchObject({ total: all.body.total, offset: 1, limit: 2 });
    expect(page.body.data).toEqual(all.body.data.slice(1, 3));
    const stimuli = await call<QtiListResponse>("guide", "/stimuli?search=dash-");
    expect(stimuli.body.data.map((row) => row.identifier)).toEqual(["dash-river-stimulus"]);
    expect((await call<QtiListResponse>("admin", "/tests?search=dash-nature")).body.total).toBe(1);
    expect((await call("guide", "/items?limit=1000")).status).toBe(400);
  });
});

describe("content packages", () => {
  const css = ".passage { background: url('../../images/river.png'); }";
  const packageFiles = (): Record<string, string | Buffer> => ({
    "imsmanifest.xml": manifest([
      { type: "imsqti_item_xmlv3p0", href: "items/planets.xml" },
      { type: "imsqti_item_xmlv2p2", href: "items/bread.xml" },
      { type: "imsqti_item_xmlv3p0", href: "items/pictures.xml" },
      { type: "imsqti_stimulus_xmlv3p0", href: "stimuli/river-stimulus.xml" },
      { type: "imsqti_test_xmlv3p0", href: "tests/test.xml" },
    ]),
    "items/planets.xml": simpleItem(
      "pkg-planets",
      "Planets",
      '<p><img src="../images/river.png" alt="River"/></p>',
    ),
    "items/bread.xml": readTestItem("bread-v2p2.xml").replace("dash-bread-v2p2", "pkg-bread"),
    "items/pictures.xml": simpleItem(
      "pkg-pictures",
      "Pictures",
      '<p><img src="../images/same-river.png" alt="Same river"/><img src="../images/shape.svg" alt="Shape"/><img src="../images/gone.png" alt="Gone"/><img src="https://example.org/x.png" alt="Elsewhere"/></p>',
    ),
    "stimuli/river-stimulus.xml": readTestItem("river-stimulus.xml")
      .replace("dash-river-stimulus", "pkg-river")
      .replace("images/river.png", "../images/river.png"),
    "stimuli/styles/passage.css": css,
    "tests/test.xml": `<qti-assessment-test ${NS} identifier="pkg-test" title="Package test"><qti-test-part identifier="p" navigation-mode="linear" submission-mode="individual"><qti-assessment-section identifier="s" title="S" visible="true"><qti-assessment-item-ref identifier="ref-1" href="../items/planets.xml"/><qti-assessment-item-ref identifier="ref-2" href="../items/bread.xml"/></qti-assessment-section></qti-test-part></qti-assessment-test>`,
    "images/river.png": PNG,
    "images/same-river.png": PNG,
    "images/shape.svg": SVG,
  });

  it("imports items, stimuli, tests and media, rewriting the media references", async () => {
    const zip = await zipOf(packageFiles());
    const imported = await call<QtiPackageImport>("guide", "/items", { body: form("package.zip", zip) });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({
      kind: "package",
      items: 3,
      stimuli: 1,
      tests: 1,
      assets: 3,
      identifiers: {
        items: ["pkg-planets", "pkg-bread", "pkg-pictures"],
        stimuli: ["pkg-river"],
        tests: ["pkg-test"],
      },
    });
    expect(imported.body.warnings).toEqual([
      {
        path: "items/pictures.xml",
        message: "../images/gone.png is not in the package: the reference was left as it was.",
      },
    ]);
    const planets = await call<QtiDocument>("admin", "/items/pkg-planets");
    const pictureUrl = /src="(\/api\/qti\/assets\/([0-9a-f]{64})\/river\.png)"/.exec(planets.body.rawXml);
    expect(pictureUrl).not.toBeNull();
    const pictures = (await call<QtiDocument>("admin", "/items/pkg-pictures")).body.rawXml;
    // The same picture under another name is the same stored file.
    expect(pictures).toContain(`/api/qti/assets/${pictureUrl?.[2]}/same-river.png`);
    expect(pictures).toContain('src="../images/gone.png"');
    expect(pictures).toContain('src="https://example.org/x.png"');
    const test = await call<QtiTest>("admin", "/tests/pkg-test");
    expect(test.body.items.map((item) => item.identifier)).toEqual(["pkg-planets", "pkg-bread"]);
    expect((await call<QtiDocument>("admin", "/items/pkg-bread")).body.rawXml).toContain(
      "qti-inline-choice-interaction",
    );

    // Media are served without a session, by their content, with their own type and a strict policy.
    const picture = await t.app.request(pictureUrl?.[1] as string);
    expect(picture.status).toBe(200);
    expect(Buffer.from(await picture.arrayBuffer())).toEqual(PNG);
    expect(picture.headers.get("content-type")).toBe("image/png");
    expect(picture.headers.get("x-content-type-options")).toBe("nosniff");
    expect(picture.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(picture.headers.get("content-security-policy")).toContain("sandbox");

    const stimulus = (await call<QtiDocument>("admin", "/stimuli/pkg-river")).body.rawXml;
    const cssUrl = /href="(\/api\/qti\/assets\/[0-9a-f]{64}\/passage\.css)"/.exec(stimulus)?.[1] as string;
    const stylesheet = await t.app.request(cssUrl);
    expect(stylesheet.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await stylesheet.text()).toBe(css.replace("../../images/river.png", pictureUrl?.[1] as string));

    const svgUrl = /src="(\/api\/qti\/assets\/[0-9a-f]{64}\/shape\.svg)"/.exec(pictures)?.[1] as string;
    const svg = await t.app.request(svgUrl);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    // Never active content: a download under a policy without scripts.
    expect(svg.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(svg.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );

    expect((await t.app.request(`/api/qti/assets/${"0".repeat(64)}/x.png`)).status).toBe(404);
    expect((await t.app.request("/api/qti/assets/not-a-hash/x.png")).status).toBe(400);
  });

  it("stores each media file once however often it is imported", async () => {
    const count = async () =>
      (await queryRows<{ count: number }>(t.db, sql`select count(*)::int as count from qti_assets`))[0]
        ?.count;
    const before = await count();
    const again = await call<QtiPackageImport>("admin", "/items", {
      body: form("package.zip", await zipOf(packageFiles())),
    });
    expect(again.status).toBe(200);
    expect(await count()).toBe(before);
  });

  it("refuses a package with a broken document with a list of its files' problems, and changes nothing", async () => {
    const files = packageFiles();
    files["items/planets.xml"] = simpleItem("pkg-planets-changed", "Changed");
    files["items/pictures.xml"] =
      `<qti-assessment-item ${NS} identifier="broken">\n<qti-item-body><p>Oops</qti-item-body>`;
    files["tests/test.xml"] = "<html/>";
    const refused = await call<{ message: string; issues: { path: string; message: string }[] }>(
      "admin",
      "/items",
      {
        body: form("package.zip", await zipOf(files)),
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      "The package was not imported: 2 files have problems. Nothing was changed.",
    );
    expect(refused.body.issues.map((issue) => issue.path)).toEqual(["items/pictures.xml", "tests/test.xml"]);
    expect(refused.body.issues[0]?.message).toMatch(/line 2, column/);
    expect((await call("admin", "/items/pkg-planets-changed")).status).toBe(404);
  });

  it("refuses identifiers used twice, references leaving the package, a manifest without documents and a zip without a manifest", async () => {
    const twice = await call<{ issues: { path: string; message: string }[] }>("admin", "/items", {
      body: form(
        "twice.zip",
        await zipOf({
          "imsmanifest.xml": manifest([
            { type: "imsqti_item_xmlv3p0", href: "a.xml" },
            { type: "imsqti_item_xmlv3p0", href: "b.xml" },
          ]),
          "a.xml": simpleItem("pkg-same", "A"),
          "b.xml": simpleItem("pkg-same", "B", '<p><img src="../../../etc/passwd" alt=""/></p>'),
        }),
      ),
    });
    expect(twice.status).toBe(400);
    expect(twice.body.issues).toEqual([
      {
        path: "b.xml",
        message: "The reference ../../../etc/passwd points outside the package, which is not allowed.",
      },
      {
        path: "b.xml",
        message: "The identifier pkg-same is used by a.xml too: each item, stimulus and test needs its own.",
      },
    ]);
    const outside = await call<{ issues: { message: string }[] }>("admin", "/items", {
      body: form(
        "outside.zip",
        await zipOf({ "imsmanifest.xml": manifest([{ type: "imsqti_item_xmlv3p0", href: "../x.xml" }]) }),
      ),
    });
    expect(outside.body.issues[0]?.message).toContain("points outside the package");
    const empty = await call<{ issues: { message: string }[] }>("admin", "/items", {
      body: form("empty.zip", await zipOf({ "imsmanifest.xml": manifest([]) })),
    });
    expect(empty.body.issues[0]?.message).toBe("The manifest lists no QTI items, stimuli or tests.");
    const noManifest = await call("admin", "/items", {
      body: form("loose.zip", await zipOf({ "a.xml": "<a/>", "b.xml": "<b/>" })),
    });
    expect(noManifest.status).toBe(400);
    expect(noManifest.body.message).toMatch(/^This is not a QTI content package/);
    expect(
      (await call("admin", "/stimuli", { body: form("p.zip", await zipOf(packageFiles())) })).status,
    ).toBe(400);
  });

  it("refuses a zip whose entries leave the archive (zip slip)", async () => {
    const safe = await zipOf({ "imsmanifest.xml": manifest([]), "zz/evil.xml": "<a/>" });
    // yazl refuses to write such a path: the name is changed in the finished archive instead.
    const slipped = Buffer.from(safe.toString("latin1").replaceAll("zz/evil.xml", "../evil.xml"), "latin1");
    const refused = await call("admin", "/items", { body: form("slip.zip", slipped) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("../evil.xml");
  });

  it("refuses media whose content is not what its name says", async () => {
    const refused = await call<{ issues: { path: string; message: string }[] }>("admin", "/items", {
      body: form(
        "fake.zip",
        await zipOf({
          "imsmanifest.xml": manifest([{ type: "imsqti_item_xmlv3p0", href: "item.xml" }]),
          "item.xml": simpleItem("pkg-fake", "Fake", '<p><img src="fake.png" alt=""/></p>'),
          "fake.png": "<html><script>alert(1)</script></html>",
        }),
      ),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      {
        path: "fake.png",
        message: "The file is not a PNG image: its content does not match its declared type",
      },
    ]);
    const [row] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from qti_documents where identifier = 'pkg-fake'`,
    );
    expect(row?.count).toBe(0);
  });
});

describe("the bank's history", () => {
  const item = (title: string) =>
    `<qti-assessment-item ${NS} identifier="history-item" title="${title}"><qti-item-body><p>Hello</p></qti-item-body></qti-assessment-item>`;

  it("records who created, replaced, published and unpublished a document, with the XML a replacement overwrote", async () => {
    expect((await postXml("guide", "/items", item("First"))).status).toBe(200);
    expect((await call("admin", "/items", { body: form("second.xml", item("Second")) })).status).toBe(200);
    expect(
      (await call("guide", "/items/history-item", { method: "PATCH", json: { public: true } })).status,
    ).toBe(200);
    expect(
      (await call("admin", "/items/history-item", { method: "PATCH", json: { public: false } })).status,
    ).toBe(200);

    const changes = await queryRows<{
      action: string;
      actor: string;
      source: string | null;
      previous: string | null;
    }>(
      t.db,
      sql`select c.action, u.email as actor, c.source, c.previous_raw_xml as previous
        from qti_document_changes c join users u on u.sourced_id = c.actor_sourced_id
        where c.kind = 'item' and c.identifier = 'history-item'
        order by c.at, array_position(array['created', 'replaced', 'published', 'unpublished'], c.action)`,
    );
    expect(changes).toEqual([
      { action: "created", actor: "guide@dash.demo", source: null, previous: null },
      { action: "replaced", actor: "admin@dash.demo", source: "second.xml", previous: item("First") },
      { action: "published", actor: "guide@dash.demo", source: null, previous: null },
      { action: "unpublished", actor: "admin@dash.demo", source: null, previous: null },
    ]);
  });
});

describe("answers", () => {
  it("shows a private item's answers to its authors only: a signed-in learner sees the question", async () => {
    const xml = readTestItem("planets-choice.xml");
    expect(xml).toContain("qti-correct-response");
    await postXml("admin", "/items", xml);
    for (const who of ["admin", "guide"])
      expect((await call<QtiDocument>(who, "/items/dash-planets-choice")).body.rawXml).toBe(xml);
    for (const who of ["student", "parent"]) {
      const shown = (await call<QtiDocument>(who, "/items/dash-planets-choice")).body.rawXml;
      expect(shown).toContain("qti-choice-interaction");
      expect(shown).not.toMatch(/qti-correct-response|qti-response-processing/);
    }
    await call("guide", "/items/dash-planets-choice", { method: "PATCH", json: { public: true } });
    expect((await call<QtiDocument>("student", "/items/dash-planets-choice")).body.rawXml).toBe(xml);
    await call("guide", "/items/dash-planets-choice", { method: "PATCH", json: { public: false } });
  });
});
