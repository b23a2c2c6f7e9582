import { AppError } from "../../lib/errors";

/**
 * The kinds of file Dash stores. Each use of the storage names the kinds it accepts; everything
 * else, SVG and HTML above all (they can carry scripts that would run on Dash's origin), is refused.
 */
export const FILE_KINDS = ["png", "jpeg", "gif", "webp", "pdf", "text", "csv"] as const;
export type FileKind = (typeof FILE_KINDS)[number];

interface KindInfo {
  /** The content type files of this kind are stored and served with. */
  contentType: string;
  /** Other names uploads declare this kind under (browsers and operating systems differ). */
  aliases: string[];
  extension: string;
  label: string;
  isImage: boolean;
  /** The bytes a file of this kind starts with; text has none and is checked as UTF-8 instead. */
  signature: ((head: Uint8Array) => boolean) | null;
}

const startsWith = (head: Uint8Array, bytes: readonly number[], offset = 0) =>
  bytes.every((byte, index) => head[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

export const KINDS: Record<FileKind, KindInfo> = {
  png: {
    contentType: "image/png",
    aliases: [],
    extension: "png",
    label: "PNG image",
    isImage: true,
    signature: (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  jpeg: {
    contentType: "image/jpeg",
    aliases: ["image/jpg", "image/pjpeg"],
    extension: "jpg",
    label: "JPEG image",
    isImage: true,
    signature: (head) => startsWith(head, [0xff, 0xd8, 0xff]),
  },
  gif: {
    contentType: "image/gif",
    aliases: [],
    extension: "gif",
    label: "GIF image",
    isImage: true,
    signature: (head) => startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a")),
  },
  webp: {
    contentType: "image/webp",
    aliases: [],
    extension: "webp",
    label: "WebP image",
    isImage: true,
    signature: (head) => startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8),
  },
  pdf: {
    contentType: "application/pdf",
    aliases: [],
    extension: "pdf",
    label: "PDF document",
    isImage: false,
    signature: (head) => startsWith(head, ascii("%PDF-")),
  },
  text: {
    contentType: "text/plain; charset=utf-8",
    aliases: [],
    extension: "txt",
    label: "plain text file",
    isImage: false,
    signature: null,
  },
  csv: {
    contentType: "text/csv; charset=utf-8",
    // What Windows browsers declare for a .csv when a spreadsheet program is installed.
    aliases: ["application/csv", "application/vnd.ms-excel"],
    extension: "csv",
    label: "CSV file",
    isImage: false,
    signature: null,
  },
};

/** Enough bytes to tell every signature apart (WebP's is the longest, at 12). */
export const SNIFF_BYTES = 16;

const SCRIPTABLE_TYPES = new Set([
  "image/svg+xml",
  "text/html",
  "application/xhtml+xml",
  "text/xml",
  "application/xml",
]);
const BINARY_KINDS = FILE_KINDS.filter((kind) => KINDS[kind].signature);

const unsupported = (message: string) => new AppError("unsupported_media_type", message);

const acceptedList = (accept: readonly FileKind[]) => accept.map((kind) => KINDS[kind].label).join(", ");

/** The kind a declared content type names, when it is one the use accepts; else a 415. */
export function declaredKind(contentType: string | undefined, accept: readonly FileKind[]): FileKind {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (SCRIPTABLE_TYPES.has(type))
    throw unsupported("SVG images, HTML and XML files are not accepted: they can carry scripts");
  const kind = FILE_KINDS.find((candidate) => {
    const info = KINDS[candidate];
    return info.contentType.split(";")[0] === type || info.aliases.includes(type);
  });
  if (!type) throw unsupported(`The file's type is missing: send one of ${acceptedList(accept)}`);
  if (!kind || !accept.includes(kind))
    throw unsupported(`Files of type ${type} are not accepted here: send one of ${acceptedList(accept)}`);
  return kind;
}

/** Checks a file's first bytes against its declared kind: a 415 when they say something else. */
export function checkSignature(kind: FileKind, head: Uint8Array): void {
  const signature = KINDS[kind].signature;
  if (signature) {
    if (signature(head)) return;
    const actual = BINARY_KINDS.find((other) => KINDS[other].signature?.(head));
    throw unsupported(
      actual
        ? `The file is a ${KINDS[actual].label}, not a ${KINDS[kind].label} as declared`
        : `The file is not a ${KINDS[kind].label}: its content does not match its declared type`,
    );
  }
  const actual = BINARY_KINDS.find((other) => KINDS[other].signature?.(head));
  if (actual)
    throw unsupported(`The file is a ${KINDS[actual].label}, not a ${KINDS[kind].label} as declared`);
  if (looksLikeMarkup(head))
    throw unsupported("HTML, SVG and XML files are not accepted: they can carry scripts");
}

/**
 * Text that opens with a tag (after a byte order mark and blanks): HTML, SVG or XML under a text
 * type. Served with `nosniff` and as an attachment it would not run, but nothing stores it either.
 */
function looksLikeMarkup(head: Uint8Array): boolean {
  let start = startsWith(head, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (start < head.length && [0x09, 0x0a, 0x0d, 0x20].includes(head[start] as number)) start++;
  const next = head[start + 1];
  return (
    head[start] === 0x3c &&
    next !== undefined &&
    (next === 0x21 || next === 0x3f || ((next | 0x20) >= 0x61 && (next | 0x20) <= 0x7a))
  );
}

/**
 * Checks text as it streams: valid UTF-8 throughout and no NUL byte (which no text file holds and
 * which marks a binary file declared as text). Answers a function to call with each chunk and
 * once with none at the end.
 */
export function textChecker(kind: FileKind): (chunk?: Uint8Array) => void {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const label = KINDS[kind].label;
  return (chunk) => {
    if (chunk?.includes(0)) throw unsupported(`The file is not a ${label}: it holds binary data`);
    try {
      decoder.decode(chunk, { stream: chunk !== undefined });
    } catch {
      throw unsupported(`The file is not a ${label}: it is not valid UTF-8 text`);
    }
  };
}

export const isTextKind = (kind: FileKind) => KINDS[kind].signature === null;

/** The kind a stored key's extension names, or null for a key that no put could have made. */
export function kindOfExtension(extension: string): FileKind | null {
  return FILE_KINDS.find((kind) => KINDS[kind].extension === extension) ?? null;
}
