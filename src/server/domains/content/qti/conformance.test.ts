import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import type { QtiDocument, QtiPackageImport } from "../../../../shared/contracts/content";
import { createTestApp, type TestApp } from "../../../test/harness";
import { correctResponsesOf } from "./answers";
import { readQtiDocument } from "./qti-document";
import { instantiateTemplate, scoreItem } from "./scoring";

/**
 * The IMS QTI examples in ../shared/fixtures/qti (not part of the project: their licence does not
 * allow copying them in). Every v3 item imports with the right interactions and is scored right
 * from its correct answer, every QTI 2.2 item converts to its v3 twin, and the shared stimulus
 * imports in a package with its stylesheet. Without the folder the tests are skipped, with a notice.
 */

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../../../../..");
const FIXTURES = path.resolve(PROJECT_ROOT, "../shared/fixtures/qti");
const hasFixtures = existsSync(FIXTURES);
if (!hasFixtures) console.warn(`QTI conformance tests skipped: ${FIXTURES} is absent`);

const fixture = (...parts: string[]) => readFileSync(path.join(FIXTURES, ...parts), "utf8");
const xmlFiles = (folder: string) =>
  hasFixtures
    ? readdirSync(path.join(FIXTURES, folder))
        .filter((name) => name.endsWith(".xml"))
        .sort()
    : [];

/** The interactions each v3 item holds. */
const INTERACTIONS: Record<string, string[]> = {
  "Example01-modalFeedback.xml": ["choice"],
  "choice.xml": ["choice"],
  "choice_multiple.xml": ["choice"],
  "essay.xml": ["extended-text"],
  "extended_text.xml": ["extended-text"],
  "hotspot.xml": ["hotspot"],
  "inline_choice.xml": ["inline-choice"],
  "match.xml": ["match"],
  "mc_stat2.xml": ["text-entry"],
  "order.xml": ["order"],
  "template.xml": ["text-entry"],
  "text_entry.xml": ["text-entry"],
  "upload.xml": ["upload"],
};

/** What a learner who gives the correct answer of each item earns (null: only a person can mark it). */
const FULL_MARKS: Record<string, number | null> = {
  "Example01-modalFeedback.xml": 10,
  "choice.xml": 1,
  "choice_multiple.xml": 2,
  "essay.xml": null,
  "extended_text.xml": null,
  "hotspot.xml": 1,
  "inline_choice.xml": 1,
  "match.xml": 3,
  "mc_stat2.xml": 8,
  "order.xml": 1,
  "template.xml": 1,
  "text_entry.xml": 1,
  "upload.xml": null,
};

describe.skipIf(!hasFixtures)("the IMS QTI examples", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signIn("admin@dash.demo");
  });
  afterAll(() => t?.close());

  const post = (path: string, body: string | FormData, contentType?: string) =>
    t.request(`/api/qti${path}`, {
      body,
      cookie: admin,
      headers: contentType ? { "content-type": contentType } : undefined,
    });

  it("has every v3 item this test knows", () => {
    expect(xmlFiles("v3/items")).toEqual(Object.keys(INTERACTIONS).sort());
  });

  it.each(xmlFiles("v3/items"))(
    "imports v3 %s with its interactions, and answers it as it came",
    async (file) => {
      const xml = fixture("v3/items", file);
      const response = await post("/items", xml, "application/xml");
      expect(response.status).toBe(200);
      const imported = await response.json();
      expect(imported.interactions).toEqual(INTERACTIONS[file]);
      const read = await t.request(`/api/qti/items/${imported.identifier}`, { cookie: admin });
      expect(((await read.json()) as QtiDocument).rawXml).toBe(xml);
    },
  );

  it.each(xmlFiles("v3/items"))("scores v3 %s from its correct answer", (file) => {
    const xml = instantiateTemplate(fixture("v3/items", file), `conformance:${file}`);
    const full = FULL_MARKS[file];
    const answered = scoreItem(xml, correctResponsesOf(xml));
    const blank = scoreItem(xml, {});
    if (full === null) {
      expect(answered).toEqual({ score: 0, maxScore: 0, scored: false });
    } else {
      expect(answered).toEqual({ score: full, maxScore: full, scored: true });
      expect(blank).toEqual({ score: 0, maxScore: full, scored: true });
    }
  });

  it.each(xmlFiles("v2p2"))("converts QTI 2.2 %s to its v3 twin", async (file) => {
    const converted = readQtiDocument(fixture("v2p2", file));
    const twin = readQtiDocument(fixture("v3/items", file));
    expect(converted.sourceVersion).toBe("2.2");
    expect(converted.rawXml).not.toMatch(/<(assessmentItem|responseDeclaration|itemBody|value)\b/);
    expect({ ...converted, rawXml: "", sourceVersion: "3.0" }).toEqual({ ...twin, rawXml: "" });
    expect(scoreItem(converted.rawXml, correctResponsesOf(twin.rawXml))).toEqual(
      scoreItem(twin.rawXml, correctResponsesOf(twin.rawXml)),
    );
    const response = await post("/items", fixture("v2p2", file), "text/xml");
    expect(response.status).toBe(200);
    expect((await response.json()).sourceVersion).toBe("2.2");
  });

  it("gives each seed of template.xml its own consistent numbers", () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const xml = instantiateTemplate(fixture("v3/items/template.xml"), `seed-${seed}`);
      const value = (identifier: string) =>
        new RegExp(`identifier="${identifier}"[^>]*><qti-default-value><qti-value>([^<]*)<`).exec(xml)?.[1];
      const a = Number(value("A"));
      const b = Number(value("B"));
      expect([2, 3, 4]).toContain(a);
      expect(a === 2 ? [4, 6, 8, 10, 12] : a === 3 ? [6, 12] : [8, 12]).toContain(b);
      expect(["men", "women", "children"]).toContain(value("PEOPLE"));
      expect(Number(value("MIN"))).toBe(Math.floor(120 / a));
      expect(readQtiDocument(xml).responseDeclarations[0]?.correctResponse).toEqual([
        String(Math.floor(120 / b)),
      ]);
      expect(scoreItem(xml, { RESPONSE: String(Math.floor(120 / b)) }).score).toBe(1);
      expect(scoreItem(xml, { RESPONSE: String(Math.floor(120 / b) + 1) }).score).toBe(0);
      seen.add(`${a}/${b}/${value("PEOPLE")}`);
    }
    expect(seen.size).toBeGreaterThan(5);
  });

  it("computes mc_stat2's statistics for its random set", () => {
    const xml = instantiateTemplate(fixture("v3/items/mc_stat2.xml"), "stats");
    const set = /identifier="t"[^>]*><qti-default-value>(.*?)<\/qti-default-value>/
      .exec(xml)?.[1]
      ?.match(/-?\d+/g)
      ?.map(Number) as number[];
    expect(set.length).toBeGreaterThanOrEqual(2);
    const mean = set.reduce((total, x) => total + x, 0) / set.length;
    const sd = Math.sqrt(set.reduce((total, x) => total + (x - mean) ** 2, 0) / set.length);
    const answers = {
      RESPONSE0: String(Math.min(...set)),
      RESPONSE1: String(Math.max(...set)),
      RESPONSE2: (Math.round(mean * 100) / 100).toString(),
      RESPONSE3: (Math.round(sd * 100) / 100).toString(),
    };
    expect(scoreItem(xml, answers)).toEqual({ score: 8, maxScore: 8, scored: true });
    expect(scoreItem(xml, { ...answers, RESPONSE3: "-1" })).toEqual({ score: 4, maxScore: 8, scored: true });
  });

  it("imports the shared stimulus example as a package with its stylesheet", async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="stimulus-example">
  <resources>
    <resource identifier="item" type="imsqti_item_xmlv3p0" href="exemplar04.xml"><file href="exemplar04.xml"/></resource>
    <resource identifier="stimulus" type="imsqti_stimulus_xmlv3p0" href="passages/unbelievableNight.xml"/>
  </resources>
</manifest>`),
      "imsmanifest.xml",
    );
    for (const file of [
      "exemplar04.xml",
      "passages/unbelievableNight.xml",
      "passages/stylesheets/unbelievable_night.css",
    ])
      zip.addBuffer(readFileSync(path.join(FIXTURES, "v3/sharedStimulus", file)), file);
    zip.end();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await buffer(zip.outputStream))]), "stimulus.zip");
    const response = await post("/items", form);
    expect(response.status).toBe(200);
    const imported = (await response.json()) as QtiPackageImport;
    expect(imported).toMatchObject({
      items: 1,
      stimuli: 1,
      assets: 1,
      identifiers: { items: ["Item2"], stimuli: ["Stimulus1"], tests: [] },
    });
    // The passage's pictures are not among the examples: they are reported, not stored.
    expect(imported.warnings.map((warning) => warning.path)).toEqual([
      "passages/unbelievableNight.xml",
      "passages/unbelievableNight.xml",
      "passages/unbelievableNight.xml",
    ]);
    const item = (await (await t.request("/api/qti/items/Item2", { cookie: admin })).json()) as QtiDocument;
    expect(item.references).toEqual(["Stimulus1"]);
    const stimulus = (await (
      await t.request("/api/qti/stimuli/Stimulus1", { cookie: admin })
    ).json()) as QtiDocument;
    const css = /<qti-stylesheet href="(\/api\/qti\/assets\/[0-9a-f]{64}\/unbelievable_night\.css)"/.exec(
      stimulus.rawXml,
    );
    expect(css).not.toBeNull();
    const stylesheet = await t.app.request(css?.[1] as string);
    expect(await stylesheet.text()).toBe(
      fixture("v3/sharedStimulus/passages/stylesheets/unbelievable_night.css"),
    );
  });
});
