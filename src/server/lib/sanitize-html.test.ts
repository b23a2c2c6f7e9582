import { describe, expect, it } from "vitest";
import { cleanStyleAttribute, cleanStyleSheet, withPlainSpaces } from "../../shared/rich-text";
import { sanitizeHtml } from "./sanitize-html";

describe("the rich-text helper", () => {
  it("turns non-breaking space entities into plain spaces", () => {
    expect(withPlainSpaces("a&nbsp;b&#160;c&#xA0;d\u00a0e&NBSP;f")).toBe("a b c d e f");
    expect(sanitizeHtml("<p>two&nbsp;words</p>")).toBe("<p>two words</p>");
  });

  it("reads well-formed markup as XML, so a self-closed element stays empty", () => {
    expect(sanitizeHtml('<p>a<span class="x"/>b</p>')).toBe('<p>a<span class="x"></span>b</p>');
    expect(sanitizeHtml("line<br/>next")).toBe("line<br>next");
  });

  it("falls back to HTML when the markup is not XML", () => {
    expect(sanitizeHtml("<p>open<br>html &copy; 2026")).toBe("<p>open<br>html © 2026</p>");
  });

  it("keeps MathML", () => {
    const math =
      '<math xmlns="http://www.w3.org/1998/Math/MathML"><mfrac><mn>1</mn><mn>2</mn></mfrac></math>';
    expect(sanitizeHtml(`<p>${math}</p>`)).toContain("<mfrac><mn>1</mn><mn>2</mn></mfrac>");
  });

  it("leaves plain text alone", () => {
    expect(sanitizeHtml("Just words.")).toBe("Just words.");
  });
});

describe("the HTML sanitiser", () => {
  it.each([
    ["a script element", "<p>hi</p><script>alert(1)</script>", "<p>hi</p>"],
    ["an event handler", '<img src="x.png" onerror="alert(1)">', '<img src="x.png">'],
    ["a javascript: link", '<a href="javascript:alert(1)">x</a>', "<a>x</a>"],
    ["an entity-encoded javascript: link", '<a href="jav&#x09;ascript:alert(1)">x</a>', "<a>x</a>"],
    ["an iframe", '<iframe src="https://evil.example"></iframe><p>ok</p>', "<p>ok</p>"],
    ["a form", '<form action="https://evil.example"><input name="password"></form>', ""],
    ["an object", '<object data="evil.swf"></object>', ""],
    ["an svg script", "<svg><script>alert(1)</script></svg>", "<svg></svg>"],
    ["a data attribute", '<p data-bind="x">a</p>', "<p>a</p>"],
  ])("removes %s", (_name, input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
  });

  it("opens new-window links without a handle on this page", () => {
    expect(sanitizeHtml('<a href="https://example.org" target="_blank">x</a>')).toBe(
      '<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<a href="https://example.org" target="opener">x</a>')).toBe(
      '<a href="https://example.org">x</a>',
    );
  });
});

describe("style attributes", () => {
  it("keeps each allowed property", () => {
    const allowed =
      "color: red; background-color: #fff; font-size: 12px; font-family: serif; font-weight: bold; " +
      "text-align: center; margin: 1px; padding: 2px; border: 1px solid black; width: 10px; height: 10px; " +
      "display: block; position: relative; top: 0; left: 0; right: 0; bottom: 0; transform: rotate(1deg); " +
      "opacity: 0.5; z-index: 2; vertical-align: middle";
    expect(cleanStyleAttribute(allowed)).toBe(allowed);
  });

  it("drops properties outside the list", () => {
    expect(cleanStyleAttribute("color: red; background-image: none; cursor: pointer; float: left")).toBe(
      "color: red",
    );
  });

  it.each([
    ["a script URL", "color: red; background-color: javascript:alert(1)"],
    ["a vbscript URL", "color: red; width: vbscript:msgbox(1)"],
    ["an expression", "color: red; width: expression(alert(1))"],
    ["an expression with spaces and case", "color: red; width: EXPRESSION (alert(1))"],
    ["a url()", "color: red; border: url(https://evil.example/track.png)"],
    ["a CSS escape", "color: red; width: \\65 xpression(alert(1))"],
    ["markup", "color: red; font-family: </style><script>"],
  ])("drops a value with %s", (_name, style) => {
    expect(cleanStyleAttribute(style)).toBe("color: red");
  });

  it("removes a style attribute with nothing left, and cleans one in HTML", () => {
    expect(sanitizeHtml('<p style="behavior: url(x.htc)">a</p>')).toBe("<p>a</p>");
    expect(sanitizeHtml('<p style="color: blue; position: fixed; cursor: wait">a</p>')).toBe(
      '<p style="color: blue; position: fixed">a</p>',
    );
  });
});

describe("style elements", () => {
  it.each([
    ["@import", "@import url(https://evil.example/x.css); p { color: red }", " p { color: red }"],
    ["expression()", "p { width: expression(alert(1)); color: red }", "p {  color: red }"],
    ["url()", "p { background: url(javascript:alert(1)) }", "p { }"],
    ["javascript:", "a { color: javascript:red }", "a { }"],
    [
      "behaviours and bindings",
      "p { behavior: url(a.htc); -moz-binding: url(b.xml); color: red }",
      "p {   color: red }",
    ],
    ["a CSS escape", "p { width: \\65 xpression(1); color: red }", "p {  color: red }"],
  ])("have %s removed", (_name, css, cleaned) => {
    expect(cleanStyleSheet(css)).toBe(cleaned);
  });

  it("are cleaned inside sanitised HTML", () => {
    const html = sanitizeHtml(
      "<style>@import url(x.css); p { color: red; width: expression(1) }</style><p>a</p>",
    );
    expect(html).not.toMatch(/@import|expression/);
  });
});
