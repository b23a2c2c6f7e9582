import type { QtiResponseValue } from "../../../shared/contracts/content";

/** Values between the QTI player library and Dash: answers as Dash keeps them, variables as QTI prints them. */

interface Attributes {
  getAttribute(name: string): string | null;
}

/**
 * A response as the library reports it, in the shape Dash stores and posts: text, a list of
 * identifiers (pairs as "A B"), or null. QTI has no empty values, so "" and [] are null.
 */
export function toResponseValue(value: unknown): QtiResponseValue {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    const values = value.filter((entry) => entry !== null && entry !== undefined && entry !== "").map(String);
    return values.length > 0 ? values : null;
  }
  const text = String(value);
  return text === "" ? null : text;
}

/** Whether two responses are the same answer (a list's order counts: order interactions). */
export function sameResponse(a: QtiResponseValue, b: QtiResponseValue): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((value, i) => value === b[i]);
  return a === b;
}

/** A printed variable's text: its `index`, then `format` (printf) or `base`, values joined by `delimiter`. */
export function printedText(element: Attributes, value: unknown): string {
  if (value === null || value === undefined) return "";
  let values = (Array.isArray(value) ? value : [value]).map(String);
  const index = Number(element.getAttribute("index"));
  if (Number.isInteger(index) && index !== 0) {
    const picked = index > 0 ? values[index - 1] : values[values.length + index];
    values = picked === undefined ? [] : [picked];
  }
  const format = element.getAttribute("format");
  const base = Number(element.getAttribute("base") ?? 10);
  return values
    .map((entry) => {
      if (format) return printf(format, entry);
      const number = Number(entry);
      return base !== 10 && Number.isInteger(number) && base >= 2 && base <= 36
        ? number.toString(base)
        : entry;
    })
    .join(element.getAttribute("delimiter") ?? ";");
}

/** The conversions of C's printf that QTI's `format` uses: d i f e E g G s x X o and %%. */
export function printf(format: string, value: string): string {
  return format.replace(
    /%([-+ 0#]*)(\d+)?(?:\.(\d+))?([difeEgGsxXo%])/g,
    (_whole, flags: string, width?: string, precision?: string, conversion?: string) => {
      if (conversion === "%") return "%";
      const number = Number(value);
      const digits = precision === undefined ? undefined : Number(precision);
      let text: string;
      switch (conversion) {
        case "d":
        case "i":
          text = Math.trunc(number).toString();
          break;
        case "f":
          text = number.toFixed(digits ?? 6);
          break;
        case "e":
        case "E":
          text = number.toExponential(digits ?? 6);
          if (conversion === "E") text = text.toUpperCase();
          break;
        case "g":
        case "G":
          text = number.toPrecision(digits || 6);
          if (conversion === "G") text = text.toUpperCase();
          break;
        case "x":
        case "X":
        case "o":
          text = Math.trunc(number).toString(conversion === "o" ? 8 : 16);
          if (conversion === "X") text = text.toUpperCase();
          break;
        default:
          text = digits === undefined ? value : value.slice(0, digits);
      }
      if (conversion !== "s" && flags.includes("+") && number >= 0) text = `+${text}`;
      const size = Number(width ?? 0);
      if (text.length >= size) return text;
      if (flags.includes("-")) return text.padEnd(size);
      if (flags.includes("0") && conversion !== "s") {
        const sign = /^[+-]/.exec(text)?.[0] ?? "";
        return sign + text.slice(sign.length).padStart(size - sign.length, "0");
      }
      return text.padStart(size);
    },
  );
}
