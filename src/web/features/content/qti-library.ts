/**
 * The QTI 3 player, @citolab/qti-components, and how Dash feeds it (decision 022). Only
 * `qti-runtime.ts` imports this module, dynamically, so a page that shows no question never
 * downloads it; importing it registers the library's custom elements, once per page. The test
 * runner (`qti-test`) and the package loader are not imported: Dash shows one item at a time.
 */
import "@citolab/qti-components/qti-elements";
import "@citolab/qti-components/qti-interactions";
import "@citolab/qti-components/qti-processing";
import "@citolab/qti-components/qti-item";
import { qtiTransformItem } from "@citolab/qti-components/qti-transformers";
import { FORMATTED_PRINTED_VARIABLE } from "./qti-extensions";

const MATHML_NS = "http://www.w3.org/1998/Math/MathML";
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Dash's touches to the library's theme, inside each container's shadow root: colours and a focus
 * ring with enough contrast (the theme's focus colour is a pale, half-transparent blue), pictures
 * that fit a phone, formulas (fractions included) at the size of the text around them, an order
 * interaction that stacks its places in a narrow column instead of squeezing them side by side,
 * read-only sliders and uploads that a pointer cannot change (the library checks only the keyboard),
 * and read-only choices drawn as answerable ones, the chosen ones marked (not greyed out as disabled).
 */
const DASH_THEME = `
:host {
  display: block;
  container-type: inline-size;
  --qti-bg-active: #eff6ff;
  --qti-border-active: #2563eb;
  --qti-focus-color: #1d4ed8;
  --qti-focus-border-width: 3px;
  color: #0f172a;
  line-height: 1.5;
}
img, video { max-width: 100%; height: auto; }
math { font-size: 1.1em; math-style: normal; }
[tabindex]:focus-visible, qti-slider-interaction:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
qti-slider-interaction[readonly]::part(rail), qti-upload-interaction[readonly] { pointer-events: none; }
[data-read-only] { cursor: default; color: inherit; background-color: var(--qti-bg); outline: 0; }
[data-read-only]:is(:state(--checked), [aria-checked="true"]) { background-color: var(--qti-bg-active); border-color: var(--qti-border-active); }
qti-modal-feedback::part(feedback) { max-height: calc(100vh - 2rem); overflow: auto; }
@container (max-width: 32rem) {
  qti-order-interaction::part(container) { flex-direction: column; }
  qti-order-interaction::part(drops) { grid-auto-flow: row; }
}
`;
let dashTheme: CSSStyleSheet | null = null;

/**
 * Draws a document into `host` in the library's `<item-container>` (inside `wrapper`, a
 * `<qti-item>`, for an item), whose shadow root holds the library's theme and Dash's.
 */
export function mount(host: HTMLElement, fragment: DocumentFragment, wrapper?: HTMLElement) {
  const container = document.createElement("item-container");
  container.itemDoc = fragment;
  wrapper?.append(container);
  host.replaceChildren(wrapper ?? container);
  // The container adopts the library's theme as it connects; Dash's comes after it, so it wins.
  const shadow = container.shadowRoot;
  if (!shadow) return;
  if (!dashTheme) {
    dashTheme = new CSSStyleSheet();
    dashTheme.replaceSync(DASH_THEME);
  }
  shadow.adoptedStyleSheets = [...shadow.adoptedStyleSheets, dashTheme];
}

/** Words the library leaves to its host, in the page's language. */
export interface HostText {
  /** The name of an answer field that has no label of its own: the `number`th of `count`. */
  answerField: (number: number, count: number) => string;
  /** The button that closes a feedback dialog. */
  closeFeedback: string;
}

type LitElementLike = HTMLElement & { updateComplete: Promise<unknown> };

/**
 * What the library leaves to its host once an item is drawn: formulas kept in MathML, names for
 * answer fields without a label, no empty ARIA states, the feedback dialog's button in the page's
 * language, and keys for sliders.
 */
export async function finishItem(item: HTMLElement, text: HostText) {
  keepMathInItsNamespace(item);
  withAllowedChoiceStates(item);
  const fields = Array.from(
    item.querySelectorAll<LitElementLike>(
      "qti-text-entry-interaction, qti-extended-text-interaction, qti-upload-interaction, qti-slider-interaction",
    ),
  );
  const dialogs = Array.from(item.querySelectorAll<LitElementLike>("qti-modal-feedback"));
  await Promise.all([...fields, ...dialogs].map((element) => element.updateComplete));
  fields.forEach((field, index) => {
    const prompt = field.querySelector("qti-prompt")?.textContent?.replace(/\s+/g, " ").trim();
    const control = field.shadowRoot?.querySelector("input, textarea") ?? field;
    if (!control.hasAttribute("aria-label"))
      control.setAttribute("aria-label", prompt || text.answerField(index + 1, fields.length));
  });
  for (const slider of item.querySelectorAll<SliderElement>("qti-slider-interaction")) withSliderKeys(slider);
  for (const dialog of dialogs) {
    const close = dialog.shadowRoot?.querySelector("button.close-button");
    if (close) close.textContent = text.closeFeedback;
  }
}

/**
 * The library writes template values into formulas (`<mi>n</mi>` becomes `<mn>7</mn>`) as HTML
 * elements, which a formula does not draw: each one is made again as MathML as it arrives.
 */
function keepMathInItsNamespace(item: HTMLElement) {
  const mend = () => {
    for (const element of Array.from(item.querySelectorAll("math *")))
      if (element.namespaceURI !== MATHML_NS && element.closest("math")?.namespaceURI === MATHML_NS)
        element.replaceWith(inNamespace(element, MATHML_NS));
  };
  mend();
  new MutationObserver(mend).observe(item, { childList: true, subtree: true });
}

/** The library's choices: they reflect their `readonly` and `disabled` as ARIA states. */
const CHOICES =
  "qti-simple-choice, qti-simple-associable-choice, qti-hottext, qti-hotspot-choice, qti-gap-text, qti-inline-choice";
/** Marks a choice that states its read-only state as `aria-disabled` (Dash's theme draws it). */
const READ_ONLY_CHOICE = "data-read-only";

type ChoiceElement = HTMLElement & { disabled: boolean };

/**
 * Choices reflect `aria-readonly` and `aria-disabled`, but the role that would allow them lives in
 * ElementInternals, where checkers cannot see it: to them a choice is an element without a role,
 * which may take `aria-disabled` (a global state) and not `aria-readonly`. So "false" states,
 * which say nothing, go, and a read-only choice says `aria-disabled="true"` instead: it cannot be
 * changed either way, and it leaves the tab order as the library's disabled choices do. Its
 * interaction (which reflects `readonly` as an attribute) brings it back once answerable again.
 */
function withAllowedChoiceStates(item: HTMLElement) {
  const mend = () => {
    for (const choice of Array.from(item.querySelectorAll<ChoiceElement>(CHOICES))) {
      const interaction = choice.parentElement?.closest("[response-identifier]");
      if (choice.getAttribute("aria-readonly") === "true") {
        choice.setAttribute(READ_ONLY_CHOICE, "");
        choice.disabled = true;
      } else if (choice.hasAttribute(READ_ONLY_CHOICE) && !interaction?.hasAttribute("readonly")) {
        choice.removeAttribute(READ_ONLY_CHOICE);
        choice.disabled = interaction?.hasAttribute("disabled") ?? false;
      }
      // Taking the attribute away sets the choice's `readonly` to false: being disabled keeps it still.
      choice.removeAttribute("aria-readonly");
      if (choice.getAttribute("aria-disabled") === "false") choice.removeAttribute("aria-disabled");
    }
  };
  mend();
  new MutationObserver(mend).observe(item, {
    subtree: true,
    attributes: true,
    attributeFilter: ["aria-readonly", "aria-disabled", "readonly"],
  });
}

type SliderElement = HTMLElement & {
  min: number;
  max: number;
  step: number;
  response: string;
  readonly: boolean;
  disabled: boolean;
};

/**
 * The library's slider is a `role="slider"` that only a pointer can move: it gets the keys of the
 * ARIA slider pattern and states its value to assistive technology.
 */
function withSliderKeys(slider: SliderElement) {
  const step = slider.step > 0 ? slider.step : 1;
  const describe = () => {
    slider.setAttribute("aria-valuemin", String(slider.min));
    slider.setAttribute("aria-valuemax", String(slider.max));
    slider.setAttribute("aria-valuenow", slider.response);
  };
  describe();
  slider.addEventListener("qti-interaction-response", describe);
  slider.addEventListener("keydown", (event) => {
    if (slider.readonly || slider.disabled) return;
    const value = Number(slider.response);
    const bigStep = Math.max(step, Math.round((slider.max - slider.min) / 10 / step) * step);
    const next = {
      ArrowRight: value + step,
      ArrowUp: value + step,
      ArrowLeft: value - step,
      ArrowDown: value - step,
      PageUp: value + bigStep,
      PageDown: value - bigStep,
      Home: slider.min,
      End: slider.max,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    slider.response = String(Math.min(slider.max, Math.max(slider.min, next)));
  });
}

/** The XML is not a QTI 3 document of the expected kind (or not XML at all). */
export class QtiDocumentError extends Error {
  override name = "QtiDocumentError";
}

/** An item's body as the browser shows it: the library's elements, ready for `<item-container>`. */
export function itemFragment(rawXml: string): DocumentFragment {
  return documentFragment(rawXml, "qti-assessment-item");
}

/** A shared stimulus (passage) as the browser shows it. */
export function stimulusFragment(rawXml: string): DocumentFragment {
  return documentFragment(rawXml, "qti-assessment-stimulus");
}

function documentFragment(rawXml: string, rootName: string): DocumentFragment {
  const transform = qtiTransformItem().parse(rawXml);
  const xml = transform.xmlDoc();
  if (xml.getElementsByTagName("parsererror").length > 0 || xml.documentElement?.localName !== rootName)
    throw new QtiDocumentError(`not a ${rootName}`);
  withoutActiveContent(xml);
  withImagesForImageObjects(xml);
  // Braille and spoken-word cards for assistive tools Dash does not offer; shown, they repeat the text.
  for (const catalog of Array.from(xml.getElementsByTagName("qti-catalog-info"))) catalog.remove();
  transform.extendElementName("qti-printed-variable", FORMATTED_PRINTED_VARIABLE);
  // Loading from a URL shuffles the choices of `shuffle="true"` interactions; parsing a string
  // does not, so it is asked for here (fixed choices keep their places).
  transform.shuffleInteractions();
  const fragment = transform.htmlDoc();
  withForeignNamespaces(fragment);
  return fragment;
}

/**
 * Removes what could run code or frame other pages. The Content-Security-Policy already refuses
 * inline scripts, handlers and other origins' frames, but a script element whose source is a file
 * of this origin (a package's media) would run: an item has no business running code, and Dash
 * does not run portable custom interactions.
 */
function withoutActiveContent(xml: XMLDocument) {
  for (const element of Array.from(xml.getElementsByTagName("*"))) {
    if (["script", "iframe", "frame", "frameset", "embed", "applet"].includes(element.localName)) {
      element.remove();
      continue;
    }
    for (const attribute of Array.from(element.attributes)) {
      const isHandler = attribute.localName.toLowerCase().startsWith("on");
      const isScriptUrl = /^\s*(java|vb)script:/i.test(attribute.value);
      if (isHandler || isScriptUrl) element.removeAttributeNode(attribute);
    }
  }
}

/**
 * QTI 2 habits put pictures in `<object type="image/…" data="…">`, which the policy's
 * `object-src 'none'` refuses and the hotspot interactions cannot measure: they become `<img>`,
 * the object's fallback text their `alt`.
 */
function withImagesForImageObjects(xml: XMLDocument) {
  for (const object of Array.from(xml.getElementsByTagName("object"))) {
    const data = object.getAttribute("data");
    if (!data || !object.getAttribute("type")?.startsWith("image/")) continue;
    const image = xml.createElementNS(object.namespaceURI, "img");
    image.setAttribute("src", data);
    image.setAttribute("alt", (object.textContent ?? "").replace(/\s+/g, " ").trim());
    for (const name of ["width", "height", "class", "id"]) {
      const value = object.getAttribute(name);
      if (value) image.setAttribute(name, value);
    }
    object.replaceWith(image);
  }
}

/**
 * The library makes every element an HTML one, so `<math>` would be an unknown element without
 * layout: MathML and SVG subtrees are made again in their own namespaces.
 */
function withForeignNamespaces(fragment: DocumentFragment) {
  for (const [name, namespace] of [
    ["math", MATHML_NS],
    ["svg", SVG_NS],
  ] as const) {
    for (const root of Array.from(fragment.querySelectorAll(name))) {
      if (root.namespaceURI === namespace) continue;
      root.replaceWith(inNamespace(root, namespace));
    }
  }
}

function inNamespace(element: Element, namespace: string): Element {
  const copy = document.createElementNS(namespace, element.localName);
  for (const attribute of Array.from(element.attributes)) copy.setAttribute(attribute.name, attribute.value);
  for (const child of Array.from(element.childNodes))
    copy.append(child instanceof Element ? inNamespace(child, namespace) : child.cloneNode());
  return copy;
}
