import { describe, expect, it } from "vitest";
import { readQtiDocument } from "./qti-document";
import { instantiateTemplate, scoreItem, seededRandom } from "./scoring";
import { readTestItem } from "./test-items";

const item = (name: string) => readTestItem(`${name}.xml`);
const full = (maxScore: number) => ({ score: maxScore, maxScore, scored: true });
const none = (maxScore: number) => ({ score: 0, maxScore, scored: true });

describe("scoring with match_correct", () => {
  it("scores an identifier choice", () => {
    const xml = item("planets-choice");
    expect(scoreItem(xml, { RESPONSE: "mars" })).toEqual(full(1));
    expect(scoreItem(xml, { RESPONSE: "venus" })).toEqual(none(1));
    expect(scoreItem(xml, { RESPONSE: null })).toEqual(none(1));
    expect(scoreItem(xml, {})).toEqual(none(1));
    // Identifiers are exact: no case folding, but surrounding blanks do not count.
    expect(scoreItem(xml, { RESPONSE: "Mars" })).toEqual(none(1));
    expect(scoreItem(xml, { RESPONSE: " mars " })).toEqual(full(1));
  });

  it("compares floats as numbers", () => {
    const xml = item("half-float");
    for (const answer of ["3.5", "3.50", " 3.5", "+3.5", "35e-1"])
      expect(scoreItem(xml, { RESPONSE: answer })).toEqual(full(1));
    for (const answer of ["3,5", "3.4", "three and a half", ""])
      expect(scoreItem(xml, { RESPONSE: answer })).toEqual(none(1));
  });

  it("compares integers as numbers: 8 is 8.0 too", () => {
    const xml = item("legs-slider");
    expect(scoreItem(xml, { RESPONSE: "8" })).toEqual(full(1));
    expect(scoreItem(xml, { RESPONSE: "8.0" })).toEqual(full(1));
    expect(scoreItem(xml, { RESPONSE: "8.5" })).toEqual(none(1));
    expect(scoreItem(xml, { RESPONSE: "6" })).toEqual(none(1));
  });

  it("compares strings case-sensitively, trimmed", () => {
    const xml = item("capital-string");
    expect(scoreItem(xml, { RESPONSE: "Paris" })).toEqual(full(1));
    expect(scoreItem(xml, { RESPONSE: "  Paris\n" })).toEqual(full(1));
    expect(scoreItem(xml, { RESPONSE: "paris" })).toEqual(none(1));
  });

  it("needs an ordered response in its order", () => {
    const xml = item("seasons-order");
    expect(scoreItem(xml, { RESPONSE: ["spring", "summer", "autumn", "winter"] })).toEqual(full(1));
    expect(scoreItem(xml, { RESPONSE: ["summer", "spring", "autumn", "winter"] })).toEqual(none(1));
    expect(scoreItem(xml, { RESPONSE: ["spring", "summer", "autumn"] })).toEqual(none(1));
  });

  it("keeps a directed pair's order, in any order of the pairs", () => {
    const xml = item("colours-gap-match");
    expect(scoreItem(xml, { RESPONSE: ["blue G2", "green G1"] })).toEqual(full(1));
    expect(scoreItem(xml, { RESPONSE: ["G1 green", "G2 blue"] })).toEqual(none(1));
    expect(scoreItem(xml, { RESPONSE: ["green G2", "blue G1"] })).toEqual(none(1));
  });
});

describe("scoring with map_response", () => {
  it("sums the mapped choices within the bounds; the maximum is the positive entries", () => {
    const xml = item("mammals-multiple");
    expect(scoreItem(xml, { RESPONSE: ["whale", "bat"] })).toEqual(full(2));
    expect(scoreItem(xml, { RESPONSE: ["bat"] })).toEqual({ score: 1, maxScore: 2, scored: true });
    expect(scoreItem(xml, { RESPONSE: ["bat", "shark"] })).toEqual(none(2));
    // Below the lower bound of 0 it stays 0; a choice counted once however often it comes.
    expect(scoreItem(xml, { RESPONSE: ["shark"] })).toEqual(none(2));
    expect(scoreItem(xml, { RESPONSE: ["bat", "bat"] })).toEqual({ score: 1, maxScore: 2, scored: true });
    expect(scoreItem(xml, { RESPONSE: [] })).toEqual(none(2));
  });

  it("takes an unordered pair either way round", () => {
    const xml = item("animals-associate");
    expect(scoreItem(xml, { RESPONSE: ["kitten cat", "dog puppy"] })).toEqual(full(2));
    expect(scoreItem(xml, { RESPONSE: ["cat puppy", "kitten cat"] })).toEqual({
      score: 1,
      maxScore: 2,
      scored: true,
    });
  });

  it("scores points by area (map_response_point), a single point given as a list too", () => {
    const xml = item("pond-select-point");
    expect(scoreItem(xml, { RESPONSE: "105 55" })).toEqual(full(2));
    expect(scoreItem(xml, { RESPONSE: ["95 45"] })).toEqual(full(2));
    expect(scoreItem(xml, { RESPONSE: "10 10" })).toEqual({ score: 1, maxScore: 2, scored: true });
    expect(scoreItem(xml, { RESPONSE: "150 90" })).toEqual(none(2));
    expect(scoreItem(xml, { RESPONSE: "not a point" })).toEqual(none(2));
  });
});

describe("scoring with an item's own rules", () => {
  it("runs conditions with and, or, not, member, contains, is-null, equal, gte, lt, sum and container size", () => {
    const xml = item("fruit-custom");
    expect(scoreItem(xml, { FRUIT: ["pear", "apple"], COUNT: "2" })).toEqual(full(3));
    expect(scoreItem(xml, { FRUIT: ["apple"], COUNT: "1" })).toEqual({ score: 1, maxScore: 3, scored: true });
    expect(scoreItem(xml, { FRUIT: ["apple", "pear"], COUNT: "3" })).toEqual({
      score: 1,
      maxScore: 3,
      scored: true,
    });
    expect(scoreItem(xml, { FRUIT: ["apple", "carrot"], COUNT: "2" })).toEqual(none(3));
    expect(scoreItem(xml, { FRUIT: null, COUNT: "2" })).toEqual(none(3));
  });

  it("scores a converted QTI 2.2 item with its mapping's case-insensitive entry", () => {
    const xml = readQtiDocument(item("bread-v2p2")).rawXml;
    expect(scoreItem(xml, { RESPONSE: "yeast", WORD: "Oven" })).toEqual(full(2));
    expect(scoreItem(xml, { RESPONSE: "salt", WORD: "oven" })).toEqual({
      score: 1,
      maxScore: 2,
      scored: true,
    });
  });

  it("leaves items no machine can mark unscored: 0 of 0", () => {
    expect(scoreItem(item("diary-extended-text"), { RESPONSE: "We went to the sea." })).toEqual({
      score: 0,
      maxScore: 0,
      scored: false,
    });
  });
});

describe("templates", () => {
  it("fix the same values for the same seed, and other values for other seeds", () => {
    const xml = item("apples-template");
    const first = instantiateTemplate(xml, "attempt-1:dash-apples-template");
    expect(instantiateTemplate(xml, "attempt-1:dash-apples-template")).toBe(first);
    const seen = new Set(Array.from({ length: 20 }, (_, at) => instantiateTemplate(xml, `seed-${at}`)));
    expect(seen.size).toBeGreaterThan(3);
  });

  it("write each template value as its default, the computed correct response and default, and drop the processing", () => {
    for (let at = 0; at < 30; at++) {
      const xml = instantiateTemplate(item("apples-template"), `seed-${at}`);
      expect(xml).not.toContain("qti-template-processing");
      const values = Object.fromEntries(
        [...xml.matchAll(/identifier="([A-Z]+)"[^>]*><qti-default-value><qti-value>([^<]*)</g)].map((m) => [
          m[1],
          m[2],
        ]),
      );
      const children = Number(values.CHILDREN);
      const each = Number(values.EACH);
      expect([2, 4, 6, 8, 10]).toContain(children);
      expect([3, 4, 5]).toContain(each);
      expect(Number(values.APPLES)).toBe(children * each);
      expect(values.NAME).toBe(children * each >= 30 ? "Ana" : values.NAME);
      if (children * each < 30) expect(["Ben", "Chloe"]).toContain(values.NAME);
      expect(values.RESPONSE).toBe("0");
      const [declaration] = readQtiDocument(xml).responseDeclarations;
      expect(declaration?.correctResponse).toEqual([String(each)]);
      expect(scoreItem(xml, { RESPONSE: String(each) })).toEqual(full(1));
      expect(scoreItem(xml, { RESPONSE: String(each + 1) })).toEqual(none(1));
    }
  });

  it("draw again until a template constraint holds, and divide as floats", () => {
    const xml = `<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="even" title="Even">
      <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="float"/>
      <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
      <qti-template-declaration identifier="N" cardinality="single" base-type="integer"/>
      <qti-template-processing>
        <qti-set-template-value identifier="N"><qti-random-integer min="1" max="9"/></qti-set-template-value>
        <qti-template-constraint>
          <qti-equal tolerance-mode="exact">
            <qti-integer-modulus><qti-variable identifier="N"/><qti-base-value base-type="integer">2</qti-base-value></qti-integer-modulus>
            <qti-base-value base-type="integer">0</qti-base-value>
          </qti-equal>
        </qti-template-constraint>
        <qti-set-correct-response identifier="RESPONSE"><qti-divide><qti-variable identifier="N"/><qti-base-value base-type="integer">4</qti-base-value></qti-divide></qti-set-correct-response>
      </qti-template-processing>
      <qti-item-body><p>What is <qti-printed-variable identifier="N"/> divided by 4? <qti-text-entry-interaction response-identifier="RESPONSE"/></p></qti-item-body>
      <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
    </qti-assessment-item>`;
    for (let seed = 0; seed < 25; seed++) {
      const fixed = instantiateTemplate(xml, `even-${seed}`);
      const n = Number(/<qti-value>(\d+)<\/qti-value><\/qti-default-value>/.exec(fixed)?.[1]);
      expect([2, 4, 6, 8]).toContain(n);
      expect(scoreItem(fixed, { RESPONSE: String(n / 4) })).toEqual(full(1));
    }
  });

  it("leave an item without templates as it is", () => {
    const xml = item("planets-choice");
    expect(instantiateTemplate(xml, "any")).toBe(xml);
  });

  it("draw from a seeded generator that is uniform enough", () => {
    const random = seededRandom("uniform");
    const buckets = [0, 0, 0, 0];
    for (let at = 0; at < 4000; at++) {
      const bucket = Math.floor(random() * 4);
      buckets[bucket] = (buckets[bucket] ?? 0) + 1;
    }
    for (const count of buckets) expect(count).toBeGreaterThan(850);
  });
});
