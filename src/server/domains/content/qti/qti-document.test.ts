import { describe, expect, it } from "vitest";
import type { AppError } from "../../../lib/errors";
import { readQtiDocument } from "./qti-document";
import { readTestItem } from "./test-items";
import { MAX_QTI_DEPTH, MAX_QTI_DOCUMENT_BYTES, parseXml, QtiXmlError } from "./xml";

const NS = 'xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"';

/** The refusal reading a document throws, as the API would answer it. */
function refusal(read: () => unknown, language: "en" | "es" = "en") {
  try {
    read();
  } catch (error) {
    return {
      status: (error as AppError).status,
      body: (error as AppError).toBody(language) as Record<string, unknown>,
    };
  }
  throw new Error("expected a refusal");
}

describe("reading QTI documents", () => {
  it("reads an item's title, interactions, response declarations and stimulus references", () => {
    const record = readQtiDocument(readTestItem("river-question.xml"));
    expect(record).toMatchObject({
      kind: "item",
      identifier: "dash-river-question",
      title: "Where the river starts",
      interactions: ["choice"],
      references: ["dash-river-stimulus"],
      sourceVersion: "3.0",
    });
    expect(record.responseDeclarations).toEqual([
      {
        identifier: "RESPONSE",
        cardinality: "single",
        baseType: "identifier",
        correctResponse: ["hills"],
        mapping: null,
        areaMapping: null,
      },
    ]);
  });

  it("keeps the XML exactly as it came", () => {
    const xml = readTestItem("mammals-multiple.xml");
    expect(readQtiDocument(xml).rawXml).toBe(xml);
  });

  it("reads mappings and area mappings", () => {
    const [multiple] = readQtiDocument(readTestItem("mammals-multiple.xml")).responseDeclarations;
    expect(multiple?.mapping).toEqual({
      defaultValue: 0,
      lowerBound: 0,
      upperBound: null,
      entries: [
        { mapKey: "whale", mappedValue: 1, caseSensitive: true },
        { mapKey: "bat", mappedValue: 1, caseSensitive: true },
        { mapKey: "shark", mappedValue: -1, caseSensitive: true },
      ],
    });
    const [point] = readQtiDocument(readTestItem("pond-select-point.xml")).responseDeclarations;
    expect(point?.areaMapping?.entries).toEqual([
      { shape: "circle", coords: "100,50,20", mappedValue: 2 },
      { shape: "rect", coords: "0,0,40,40", mappedValue: 1 },
    ]);
  });

  it("names interaction types without their prefix and suffix, each once in order", () => {
    const interactions = (name: string) => readQtiDocument(readTestItem(name)).interactions;
    expect(interactions("colours-gap-match.xml")).toEqual(["gap-match"]);
    expect(interactions("pond-select-point.xml")).toEqual(["select-point"]);
    expect(interactions("fruit-custom.xml")).toEqual(["choice", "text-entry"]);
  });

  it("reads a stimulus and a test with the items it holds; the title falls back to the identifier", () => {
    expect(readQtiDocument(readTestItem("river-stimulus.xml"))).toMatchObject({
      kind: "stimulus",
      identifier: "dash-river-stimulus",
      interactions: [],
      references: [],
    });
    expect(readQtiDocument(readTestItem("nature-test.xml"))).toMatchObject({
      kind: "test",
      title: "Nature quiz",
      references: ["dash-planets-choice", "dash-river-question"],
    });
    const untitled = `<qti-assessment-stimulus ${NS} identifier="untitled"><qti-stimulus-body><p>Hi</p></qti-stimulus-body></qti-assessment-stimulus>`;
    expect(readQtiDocument(untitled).title).toBe("untitled");
  });
});

describe("refusing XML", () => {
  it("names the line and column of malformed XML, in English and Spanish", () => {
    const read = () =>
      readQtiDocument(
        `<qti-assessment-item ${NS} identifier="a">\n  <qti-item-body>\n    <p class=big>Open</p>\n  </qti-item-body>\n</qti-assessment-item>`,
      );
    expect(read).toThrow(QtiXmlError);
    const { status, body } = refusal(read);
    expect(status).toBe(400);
    expect(body.code).toBe("bad_request");
    expect(body.details).toEqual({ line: 3, column: 5 });
    expect(body.message).toMatch(/^The XML is not well-formed at line 3, column 5: /);
    expect(refusal(read, "es").body.message).toMatch(/línea 3, columna 5/);
  });

  it("refuses a bare & and an unknown entity, which browsers' parsers refuse too", () => {
    const ampersand = refusal(() =>
      readQtiDocument(
        `<qti-assessment-stimulus ${NS} identifier="s">\n<p>Fish & chips</p></qti-assessment-stimulus>`,
      ),
    );
    expect(ampersand.body.details).toEqual({ line: 2, column: 9 });
    expect(
      refusal(() =>
        readQtiDocument(
          `<qti-assessment-stimulus ${NS} identifier="s"><p>a&nbsp;b</p></qti-assessment-stimulus>`,
        ),
      ).body.message,
    ).toContain("&nbsp;");
    // Inside a comment or CDATA it is text.
    const literal = `<qti-assessment-stimulus ${NS} identifier="s"><!-- Q & A --><p><![CDATA[a & b]]> &amp; &#38; &#x26;</p></qti-assessment-stimulus>`;
    expect(readQtiDocument(literal).identifier).toBe("s");
  });

  it("names an unknown root and its line", () => {
    const { status, body } = refusal(() => readQtiDocument("<html><body/></html>"));
    expect(status).toBe(400);
    expect(body.details).toEqual({ line: 1, column: 1 });
    expect(body.message).toContain("<html> (line 1, column 1) is not a QTI document");
  });

  it("refuses a DOCTYPE, so no entity can expand", () => {
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n<qti-assessment-item ${NS} identifier="x">&lol2;</qti-assessment-item>`;
    const { status, body } = refusal(() => readQtiDocument(bomb));
    expect(status).toBe(400);
    expect(body.details).toEqual({ line: 2, column: 1 });
    expect(body.message).toContain("DOCTYPE");
  });

  it("refuses a document past the size limit with a 413, and nesting past the depth limit", () => {
    const large = `<qti-assessment-stimulus ${NS} identifier="big"><qti-stimulus-body><p>${"a".repeat(MAX_QTI_DOCUMENT_BYTES)}</p></qti-stimulus-body></qti-assessment-stimulus>`;
    expect(refusal(() => readQtiDocument(large)).status).toBe(413);
    const deep = `<qti-assessment-stimulus ${NS} identifier="deep">${"<div>".repeat(MAX_QTI_DEPTH + 5)}${"</div>".repeat(MAX_QTI_DEPTH + 5)}</qti-assessment-stimulus>`;
    const { status, body } = refusal(() => readQtiDocument(deep));
    expect(status).toBe(400);
    expect(body.message).toContain(`more than ${MAX_QTI_DEPTH} levels`);
  });

  it("refuses a root without an identifier, or with one that cannot be an address", () => {
    expect(refusal(() => readQtiDocument(`<qti-assessment-item ${NS}/>`)).body.message).toContain(
      "no identifier",
    );
    expect(
      refusal(() => readQtiDocument(`<qti-assessment-item ${NS} identifier="a/b"/>`)).body.message,
    ).toContain('identifier "a/b"');
  });

  it("parses deep hostile nesting without overflowing the stack", () => {
    expect(() => parseXml(`${"<a>".repeat(50_000)}${"</a>".repeat(50_000)}`)).toThrow(QtiXmlError);
  });
});

describe("converting QTI 2.2 to QTI 3", () => {
  it("renames elements and attributes to their QTI 3 names and keeps the XHTML", () => {
    const record = readQtiDocument(readTestItem("bread-v2p2.xml"));
    expect(record).toMatchObject({
      kind: "item",
      identifier: "dash-bread-v2p2",
      sourceVersion: "2.2",
      interactions: ["inline-choice", "text-entry"],
    });
    const xml = record.rawXml;
    expect(xml).toContain('xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"');
    expect(xml).toContain('<qti-inline-choice-interaction response-identifier="RESPONSE" shuffle="false">');
    expect(xml).toContain('<qti-text-entry-interaction response-identifier="WORD" expected-length="10"/>');
    expect(xml).toContain('<qti-map-entry map-key="oven" mapped-value="1" case-sensitive="false"/>');
    expect(xml).toContain('time-dependent="false"');
    expect(xml).toContain("<p>Bread rises because of");
    // Feedback content sits in a qti-content-body in QTI 3.
    expect(xml).toMatch(/<qti-feedback-block [^>]*><qti-content-body><p>Well done!<\/p><\/qti-content-body>/);
    expect(xml).toMatch(/<qti-modal-feedback [^>]*><qti-content-body>Well done, baker!<\/qti-content-body>/);
    expect(xml).not.toMatch(/<(responseDeclaration|itemBody|value)\b/);
    expect(record.responseDeclarations[1]?.mapping?.entries).toEqual([
      { mapKey: "oven", mappedValue: 1, caseSensitive: false },
    ]);
  });

  it("maps the response processing templates to their QTI 3 addresses", () => {
    const v2 = (template: string) =>
      `<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p2" identifier="t" title="T"><responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"/><outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/><itemBody><p>x</p></itemBody><responseProcessing template="${template}"/></assessmentItem>`;
    expect(
      readQtiDocument(v2("http://www.imsglobal.org/question/qti_v2p2/rptemplates/map_response")).rawXml,
    ).toContain('template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml"');
    const { body } = refusal(() => readQtiDocument(v2("http://example.com/my_template.xml")));
    expect(body.message).toContain("response processing template http://example.com/my_template.xml");
  });

  it("refuses an element with no QTI 3 equivalent, naming it and its line", () => {
    const xml = `<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p2" identifier="t">\n<itemBody>\n<blink>old</blink>\n</itemBody>\n</assessmentItem>`;
    const { status, body } = refusal(() => readQtiDocument(xml));
    expect(status).toBe(400);
    expect(body.details).toEqual({ line: 3, column: 1 });
    expect(body.message).toContain("the element <blink> at line 3, column 1 has no QTI 3 equivalent");
    const apip = `<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p2" xmlns:apip="http://www.imsglobal.org/xsd/apip/apipv1p0/imsapip_qtiv1p0" identifier="t"><apip:apipAccessibility/></assessmentItem>`;
    expect(refusal(() => readQtiDocument(apip)).body.message).toContain("of another vocabulary");
  });

  it("names the version of an older QTI 2", () => {
    const { body } = refusal(() =>
      readQtiDocument('<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="old"/>'),
    );
    expect(body.message).toContain("http://www.imsglobal.org/xsd/imsqti_v2p1");
  });
});
