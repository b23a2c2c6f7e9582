import {
  QtiPrintedVariable,
  QtiResponseCondition,
  QtiResponseElse,
  QtiResponseElseIf,
  QtiResponseIf,
} from "@citolab/qti-components/qti-processing";
import { printedText } from "./qti-values";

/**
 * What @citolab/qti-components 7.27 lacks for the QTI 3 templates Dash's items use, added the way
 * the library is meant to be extended (custom elements of its own base classes): conditions in
 * template processing, content shown by a template value, and printed variables as QTI prints them.
 */

// A template condition is a response condition whose branches set template values: the library's
// classes already take each branch's first child as its condition and the rest as its rules.
customElements.define("qti-template-condition", class extends QtiResponseCondition {});
customElements.define("qti-template-if", class extends QtiResponseIf {});
customElements.define("qti-template-else-if", class extends QtiResponseElseIf {});
customElements.define("qti-template-else", class extends QtiResponseElse {});

interface TemplatedItem extends Element {
  variables: readonly { identifier: string; value: unknown }[];
}

/** `qti-template-block` and `qti-template-inline`: shown or hidden by the value of a template variable. */
class QtiTemplateContent extends HTMLElement {
  #item: TemplatedItem | null = null;
  readonly #update = () => {
    const identifier = this.getAttribute("template-identifier");
    const value = this.#item?.variables.find((variable) => variable.identifier === identifier)?.value;
    const matches = (Array.isArray(value) ? value : [value]).includes(this.getAttribute("identifier"));
    this.hidden = matches === (this.getAttribute("show-hide") === "hide");
  };

  connectedCallback() {
    this.#item = this.closest<TemplatedItem>("qti-assessment-item");
    this.#item?.addEventListener("qti-template-processing-complete", this.#update);
    this.#update();
  }

  disconnectedCallback() {
    this.#item?.removeEventListener("qti-template-processing-complete", this.#update);
  }
}
customElements.define("qti-template-block", QtiTemplateContent);
customElements.define("qti-template-inline", class extends QtiTemplateContent {});

/** The name the printed variables of an item are renamed to, so they render as below. */
export const FORMATTED_PRINTED_VARIABLE = "formatted";

/**
 * A printed variable as QTI prints it: `format` (printf), `base`, `index` and `delimiter`. The
 * library's prints the value as JSON, quotes and brackets included.
 */
class QtiFormattedPrintedVariable extends QtiPrintedVariable {
  override render() {
    const value = this.context?.variables?.find((variable) => variable.identifier === this.identifier)?.value;
    // A string is a valid lit result: it renders as text.
    return printedText(this, value) as unknown as ReturnType<QtiPrintedVariable["render"]>;
  }
}
customElements.define(`qti-printed-variable-${FORMATTED_PRINTED_VARIABLE}`, QtiFormattedPrintedVariable);
