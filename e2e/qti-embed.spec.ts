import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type FrameLocator,
  type Page,
  request,
  test,
} from "@playwright/test";
import { axeViolations, DEMO_PASSWORD, DESKTOP, loadAxe } from "./helpers";

/**
 * The public QTI embeds as another site uses them: a page of another origin frames
 * /qti-embed/{id} and /qti-stimulus-embed/{id}, the learner answers in the frame, and the page
 * hears each answer (QTI_RESPONSE_CHANGE) and the frame's height (QTI_RESIZE). The items come from
 * the public QTI 3 examples beside the project (../shared/fixtures/qti/v3, read in place and
 * skipped with a notice when absent) and from the project's own (e2e/fixtures/qti), which cover
 * the interactions the examples lack, MathML and feedback. The administrator imports them through
 * the API and shares the items for embedding; the browser stays anonymous.
 */

// Paths from the project's folder, where Playwright runs.
const SHARED = path.resolve("../shared/fixtures/qti/v3");
const OWN = path.resolve("e2e/fixtures/qti");
const SCREENS = "test-results/screens";
/** The narrowest phone the embeds are made for. */
const SMALL_PHONE = { width: 360, height: 740 };
const MATHML = "http://www.w3.org/1998/Math/MathML";

const sharedFiles = (folder: string) =>
  existsSync(path.join(SHARED, folder))
    ? readdirSync(path.join(SHARED, folder), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".xml"))
        .map((file) => path.join(SHARED, folder, file))
    : [];
const SHARED_DOCUMENTS = [...sharedFiles("items"), ...sharedFiles("sharedStimulus")];
if (SHARED_DOCUMENTS.length === 0)
  console.warn(`QTI conformance skipped: no public QTI 3 examples in ${SHARED}`);

/** The examples whose embeds are kept as pictures, answered (one of each kind of layout). */
const SCREENSHOT_EXAMPLES = new Set(["choiceMultiple", "match", "order", "inlineChoice", "stat2", "Item2"]);

interface Imported {
  file: string;
  kind: "item" | "stimulus";
  identifier: string;
  interactions: string[];
}

let admin: APIRequestContext;
let context: BrowserContext;
let page: Page;
let host: Server;
let hostOrigin: string;
let dashOrigin: string;
const imported = new Map<string, Imported>();

const isStimulusXml = (xml: string) => /<qti-assessment-stimulus[\s>]/.test(xml);

/** Imports an XML document as the administrator; items are shared for embedding unless asked not to. */
async function importDocument(file: string, options: { xml?: string; share?: boolean } = {}) {
  const xml = options.xml ?? readFileSync(file, "utf8");
  const kind = isStimulusXml(xml) ? "stimulus" : "item";
  const collection = kind === "item" ? "items" : "stimuli";
  const answer = await admin.post(`/api/qti/${collection}`, {
    data: xml,
    headers: { "content-type": "application/xml" },
  });
  expect(answer.ok(), `${file}: ${await answer.text()}`).toBe(true);
  const { identifier, interactions } = await answer.json();
  if (options.share !== false) {
    const shared = await admin.patch(`/api/qti/${collection}/${encodeURIComponent(identifier)}`, {
      data: { public: true },
    });
    expect(shared.ok(), `${file}: ${await shared.text()}`).toBe(true);
  }
  const document: Imported = { file, kind, identifier, interactions };
  imported.set(file, document);
  return document;
}

test.beforeAll(async ({ browser, baseURL }) => {
  dashOrigin = new URL(baseURL ?? "").origin;
  admin = await request.newContext({ baseURL: dashOrigin });
  const signIn = await admin.post("/api/auth/login", {
    data: { email: "admin@dash.demo", password: DEMO_PASSWORD },
  });
  expect(signIn.ok()).toBe(true);
  // Stimuli first: an item that refers to one shows it.
  const files = [...readdirSync(OWN).map((file) => path.join(OWN, file)), ...SHARED_DOCUMENTS];
  const isStimulus = (file: string) => isStimulusXml(readFileSync(file, "utf8"));
  for (const file of [...files.filter(isStimulus), ...files.filter((file) => !isStimulus(file))])
    await importDocument(file);

  // Another site: a page of its own origin that frames the embed and keeps every message it hears.
  host = createServer((incoming, outgoing) => {
    const src = new URL(incoming.url ?? "/", "http://host.invalid").searchParams.get("src") ?? "";
    outgoing.setHeader("content-type", "text/html; charset=utf-8");
    outgoing.end(`<!doctype html><html lang="en"><title>A school's site</title>
<script>
window.heard = [];
addEventListener("message", (event) => {
  heard.push({ origin: event.origin, data: event.data });
  if (event.data.type === "QTI_RESIZE") document.querySelector("iframe").style.height = event.data.height + "px";
});
</script>
<iframe title="Question" src="${src.replaceAll('"', "&quot;")}" style="width: 100%; height: 400px; border: 0"></iframe>`);
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  const address = host.address();
  // "localhost" and 127.0.0.1 are different sites to the browser: the frame is cross-site.
  hostOrigin = `http://localhost:${typeof address === "object" && address ? address.port : 0}`;
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  await admin?.dispose();
  await new Promise((resolve) => host?.close(resolve));
});

/** Opens the other site's page framing `embedPath`, and waits for the embed's page. */
async function frameEmbed(embedPath: string): Promise<FrameLocator> {
  await page.goto(`${hostOrigin}/?src=${encodeURIComponent(`${dashOrigin}${embedPath}`)}`);
  const frame = page.frameLocator("iframe");
  await expect(frame.locator("main")).toBeVisible();
  return frame;
}

async function drawn(frame: FrameLocator) {
  await expect(frame.locator("[data-qti-state=ready]")).toBeVisible();
}

interface Heard {
  origin: string;
  data: { type: string; responseIdentifier?: string; response?: unknown; height?: number };
}
const heard = () => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard);

/** Waits for the host page to hear an answer to `responseIdentifier`, and returns the latest. */
async function answerHeard(responseIdentifier: string) {
  let latest: Heard | undefined;
  await expect
    .poll(async () => {
      latest = (await heard())
        .filter(
          ({ data }) => data.type === "QTI_RESPONSE_CHANGE" && data.responseIdentifier === responseIdentifier,
        )
        .at(-1);
      return latest !== undefined;
    })
    .toBe(true);
  expect(latest?.origin).toBe(dashOrigin);
  return latest?.data.response;
}

/** Answers the first interaction of `type` in the frame, as a learner would, mostly by keyboard. */
async function answer(frame: FrameLocator, type: string) {
  const interaction = frame.locator(`qti-${type}-interaction`).first();
  const keys = async (...presses: string[]) => {
    for (const key of presses) await page.keyboard.press(key);
  };
  switch (type) {
    case "choice":
      await interaction.locator("qti-simple-choice").first().click();
      break;
    case "text-entry":
      await interaction.locator("input").pressSequentially("12");
      break;
    case "extended-text":
      await interaction.locator("textarea").pressSequentially("Dear Sam, my town is small.");
      break;
    case "inline-choice":
      await interaction.locator("button[part=trigger]").click();
      await interaction.locator("qti-inline-choice").last().click();
      break;
    case "upload":
      await interaction
        .locator("input[type=file]")
        .setInputFiles({ name: "cartons.csv", mimeType: "text/csv", buffer: Buffer.from("1,0,0\n0,1,0\n") });
      break;
    case "hottext":
      await interaction.locator("qti-hottext").nth(1).click();
      break;
    case "hotspot":
      // The keyboard, not a click: a hotspot sits on its picture, which a bare XML import lacks.
      await interaction.locator("qti-hotspot-choice").first().focus();
      await keys("Space");
      break;
    case "slider":
      await interaction.focus();
      await keys("ArrowRight", "ArrowRight");
      break;
    case "match":
    case "order":
    case "gap-match":
    case "associate": {
      // Drag and drop by keyboard: Space picks a choice up, Space drops it on the first place.
      const draggable = {
        match: "qti-simple-associable-choice",
        order: "qti-simple-choice",
        "gap-match": "qti-gap-text",
        associate: "qti-simple-associable-choice",
      }[type];
      const second = (await interaction.locator(draggable).nth(1).textContent()) ?? "";
      await interaction.locator(draggable).first().focus();
      await keys("Space", "Space");
      if (type === "associate") {
        // A pair needs a second choice, dropped beside the first.
        await interaction.locator(draggable, { hasText: second.trim() }).first().focus();
        await keys("Space", "ArrowRight", "Space");
      }
      break;
    }
    default:
      throw new Error(`no way to answer a ${type} interaction`);
  }
  return (await interaction.getAttribute("response-identifier")) ?? "";
}

/** The item's modal feedback that is open; its text is the feedback's own (slotted into the dialog). */
const openFeedback = (frame: FrameLocator) =>
  frame.locator("qti-modal-feedback").filter({ has: frame.locator("dialog[open]") });

/** Whether MathML in the frame is laid out: a `math` element of the MathML namespace, with a size. */
async function expectMathLaidOut(frame: FrameLocator) {
  const math = frame.locator("math >> visible=true").first();
  await expect(math).toBeVisible();
  const layout = await math.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const fraction = element.querySelector("mfrac");
    const numerator = fraction?.firstElementChild?.getBoundingClientRect();
    return {
      namespace: element.namespaceURI,
      width: box.width,
      // A fraction laid out stacks its numerator over its denominator.
      stacked:
        fraction && numerator ? fraction.getBoundingClientRect().height > numerator.height * 1.5 : null,
    };
  });
  expect(layout.namespace).toBe(MATHML);
  expect(layout.width).toBeGreaterThan(0);
  if (layout.stacked !== null) expect(layout.stacked).toBe(true);
}

test.describe("the public QTI 3 examples", () => {
  test.skip(SHARED_DOCUMENTS.length === 0, `no public QTI 3 examples in ${SHARED}`);

  for (const file of SHARED_DOCUMENTS) {
    test(`${path.relative(SHARED, file)} renders and reports an answer`, async () => {
      const document = imported.get(file);
      if (!document) throw new Error(`${file} was not imported`);
      if (document.kind === "stimulus") {
        const frame = await frameEmbed(`/qti-stimulus-embed/${encodeURIComponent(document.identifier)}`);
        await drawn(frame);
        await expect(frame.locator("qti-stimulus-body p").first()).toBeVisible();
        const firstWords = /<p[^>]*>([^<]{20,})/.exec(readFileSync(file, "utf8"))?.[1] ?? "";
        await expect(frame.locator("qti-stimulus-body")).toContainText(
          firstWords.replace(/\s+/g, " ").trim().slice(0, 40),
        );
        return;
      }
      const frame = await frameEmbed(`/qti-embed/${encodeURIComponent(document.identifier)}`);
      await drawn(frame);
      const [type] = document.interactions;
      if (!type) throw new Error(`${file} has no interaction`);
      const responseIdentifier = await answer(frame, type);
      expect(await answerHeard(responseIdentifier)).not.toBeNull();
      const xml = readFileSync(file, "utf8");
      if (xml.includes("qti-assessment-stimulus-ref")) {
        // The passage it refers to shows above the question.
        await expect(frame.locator(".qti-shared-stimulus qti-stimulus-body")).toBeVisible();
      }
      const keepPicture = async () => {
        if (SCREENSHOT_EXAMPLES.has(document.identifier)) await screenshots(`example-${document.identifier}`);
      };
      if (xml.includes("qti-modal-feedback")) {
        // Checking the answer runs the item's response processing, which opens its feedback.
        await frame.getByRole("button", { name: "Check my answer" }).click();
        await expect(frame.locator("qti-modal-feedback dialog[open]")).toBeVisible();
        if (xml.includes("Math/MathML")) await expectMathLaidOut(frame);
        await keepPicture();
        await frame.getByRole("button", { name: "Close" }).click();
        await expect(frame.locator("qti-modal-feedback dialog[open]")).toHaveCount(0);
      } else await keepPicture();
    });
  }

  test("template items print their values, not code", async () => {
    const template = [...imported.values()].find((document) => document.identifier === "template");
    test.skip(!template, "the template example is not among the public examples");
    const frame = await frameEmbed("/qti-embed/template");
    await drawn(frame);
    // The values are drawn in the printed variables' own shadow roots, which toHaveText reads.
    await expect(frame.locator("qti-item-body p").first()).toHaveText(
      /^If it takes\s+[234]\s+(men|women|children)\s+\d+\s+minutes to dig a hole, how long would it take\s+\d+\s+\1\s+to dig a similar hole\?$/,
    );
  });
});

test.describe("Dash's own items", () => {
  const own = (name: string) => {
    const document = imported.get(path.join(OWN, `${name}.xml`));
    if (!document) throw new Error(`${name}.xml was not imported`);
    return document;
  };

  for (const [name, type, expected] of [
    ["gap-match", "gap-match", ["EARTH G1"]],
    ["hottext", "hottext", "RUNS"],
    ["associate", "associate", ["FISH CAMEL"]],
    ["slider", "slider", "20"],
  ] as const) {
    test(`an answer to the ${type} interaction is heard`, async () => {
      const frame = await frameEmbed(`/qti-embed/${own(name).identifier}`);
      await drawn(frame);
      expect(await answerHeard(await answer(frame, type))).toEqual(expected);
    });
  }

  test("MathML is laid out, and checking an answer shows inline and modal feedback", async () => {
    const frame = await frameEmbed(`/qti-embed/${own("fractions").identifier}`);
    await drawn(frame);
    await expectMathLaidOut(frame);
    const feedback = frame.locator("qti-feedback-inline", { hasText: "Not quite" });
    await expect(feedback).toBeHidden();

    await frame.locator("qti-simple-choice").nth(2).click();
    expect(await answerHeard("RESPONSE")).toBe("ONE");
    await frame.getByRole("button", { name: "Check my answer" }).click();
    const dialog = openFeedback(frame);
    await expect(dialog).toContainText("Try again: picture a pizza cut into four slices.");
    await expect(feedback).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();

    await frame.locator("qti-simple-choice").nth(1).click();
    expect(await answerHeard("RESPONSE")).toBe("HALF");
    await frame.getByRole("button", { name: "Check my answer" }).click();
    await expect(dialog).toContainText("Well done!");
    await expect(
      frame.locator("qti-feedback-inline", { hasText: "Yes: two quarters make one half." }),
    ).toBeVisible();
    await expect(feedback).toBeHidden();
    await dialog.getByRole("button", { name: "Close" }).click();

    // The page around it hears the frame's height, to fit it.
    const heights = (await heard())
      .filter(({ data }) => data.type === "QTI_RESIZE")
      .map(({ data }) => data.height);
    expect(heights.at(-1)).toBeGreaterThan(100);
    await screenshots("item-fractions");
  });

  test("a passage embeds alone, and beside the question that refers to it", async () => {
    const passage = await frameEmbed(`/qti-stimulus-embed/${own("passage").identifier}`);
    await drawn(passage);
    await expect(passage.getByRole("heading", { name: "The lighthouse keeper", level: 2 })).toBeVisible();
    await expect(passage.getByText("One stormy night the lamp went out.")).toBeVisible();
    await screenshots("stimulus");

    const item = await frameEmbed(`/qti-embed/${own("passage-question").identifier}`);
    await drawn(item);
    await expect(item.getByText("One stormy night the lamp went out.")).toBeVisible();
    await item.locator("qti-simple-choice", { hasText: "She lit candles in the windows." }).click();
    expect(await answerHeard("RESPONSE")).toBe("CANDLES");
    await screenshots("item-with-passage");
  });
});

test("a question or passage that is not shared is not available to an anonymous embed", async () => {
  const identifier = `dash-private-${Math.random().toString(36).slice(2, 8)}`;
  const xml = readFileSync(path.join(OWN, "hottext.xml"), "utf8").replace(
    'identifier="dash-hottext"',
    `identifier="${identifier}"`,
  );
  await importDocument(`${identifier}.xml`, { xml, share: false });
  const frame = await frameEmbed(`/qti-embed/${identifier}`);
  await expect(frame.getByText(/^This question is not available\./)).toBeVisible();
  await expect(frame.locator("qti-assessment-item")).toHaveCount(0);
  await screenshots("item-unavailable");

  const passage = readFileSync(path.join(OWN, "passage.xml"), "utf8").replace(
    'identifier="dash-passage"',
    `identifier="${identifier}"`,
  );
  await importDocument(`${identifier}-passage.xml`, { xml: passage, share: false });
  const stimulus = await frameEmbed(`/qti-stimulus-embed/${identifier}`);
  await expect(stimulus.getByText(/^This passage is not available\./)).toBeVisible();

  const missing = await frameEmbed("/qti-embed/no-such-question");
  await expect(missing.getByText(/^This question is not available\./)).toBeVisible();
});

test("the bare embed addresses say what they are for, with the code and the messages", async () => {
  await page.goto(`${dashOrigin}/qti-embed`);
  // An anonymous visitor stays: the embeds never send anyone to sign in.
  await expect(page).toHaveURL(`${dashOrigin}/qti-embed`);
  await expect(page.getByRole("heading", { name: "Embed a question", level: 1 })).toBeVisible();
  await expect(page.getByText(/shows one question from the Dash question bank on its own/)).toBeVisible();
  await expect(page.getByRole("region", { name: "The code to paste" })).toContainText(
    `src="${dashOrigin}/qti-embed/ITEM_ID"`,
  );
  const example = (message: object) => JSON.stringify(message, null, 2);
  await expect(page.getByRole("region", { name: "QTI_RESPONSE_CHANGE" })).toHaveText(
    example({ type: "QTI_RESPONSE_CHANGE", responseIdentifier: "RESPONSE", response: "ChoiceA" }),
  );
  await expect(page.getByRole("region", { name: "QTI_RESIZE" })).toHaveText(
    example({ type: "QTI_RESIZE", height: 420 }),
  );
  await screenshots("about-item-embed", { dark: true });

  await page.goto(`${dashOrigin}/qti-stimulus-embed`);
  await expect(page).toHaveURL(`${dashOrigin}/qti-stimulus-embed`);
  await expect(page.getByRole("heading", { name: "Embed a reading passage", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "The code to paste" })).toContainText(
    `src="${dashOrigin}/qti-stimulus-embed/STIMULUS_ID"`,
  );
  await expect(page.getByText("QTI_RESPONSE_CHANGE")).toHaveCount(0);
  await screenshots("about-stimulus-embed");
});

test("every item embed passes axe's WCAG 2.2 AA checks, on a laptop and a phone", async () => {
  await loadAxe(page);
  const findings: string[] = [];
  for (const { identifier, kind } of imported.values()) {
    if (kind !== "item" || identifier.startsWith("dash-private-")) continue;
    await page.goto(`${dashOrigin}/qti-embed/${encodeURIComponent(identifier)}`);
    await expect(page.locator("[data-qti-state=ready]")).toBeVisible();
    for (const viewport of [DESKTOP, SMALL_PHONE]) {
      await page.setViewportSize(viewport);
      findings.push(
        ...(await axeViolations(page)).map((problem) => `${identifier} (${viewport.width}): ${problem}`),
      );
    }
  }
  await page.setViewportSize(DESKTOP);
  expect(findings).toEqual([]);
});

/** Waits until a framed embed's iframe has the height of its content, as QTI_RESIZE asks. */
async function fitted() {
  const iframe = page.locator("iframe");
  if ((await iframe.count()) === 0) return;
  const content = page.frameLocator("iframe").locator("main");
  await expect
    .poll(async () => {
      const outer = await iframe.evaluate((element) => element.getBoundingClientRect().height);
      const inner = await content.evaluate((element) => element.getBoundingClientRect().height);
      return Math.abs(outer - Math.ceil(inner));
    })
    .toBeLessThanOrEqual(1);
}

/** The page as it is, on a phone and a laptop (and in the dark theme, for a page that has one). */
async function screenshots(name: string, options: { dark?: boolean } = {}) {
  for (const [width, viewport] of [
    [360, SMALL_PHONE],
    [1280, DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await fitted();
    await page.screenshot({ path: `${SCREENS}/qti-embed-${name}-${width}.png`, fullPage: true });
  }
  if (options.dark) {
    // The theme is read as a page loads.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(page.locator("main h1")).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/qti-embed-${name}-dark-1280.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
  }
}
