import { DEFAULT_LANGUAGE, type Language } from "../../../shared/languages";
import { AppError } from "../../lib/errors";
import { type Message, message, translate } from "../../lib/i18n";

/**
 * The kinds of file Dash stores. Each use of the storage names the kinds it accepts; everything
 * else, HTML above all (it can carry scripts that would run on Dash's origin), is refused. SVG
 * can carry scripts too: only a use that names it takes it (the QTI bank's package media), and it
 * is only ever served as a download under the sandboxing policy of platform/storage/http.ts, so
 * it runs nothing when opened on its own and is only drawn as a picture (<img>).
 */
export const FILE_KINDS = [
  "png",
  "jpeg",
  "gif",
  "webp",
  "pdf",
  "text",
  "csv",
  "svg",
  "css",
  "mp3",
  "ogg",
  "wav",
  "mp4",
  "m4a",
  "webm",
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

interface KindInfo {
  /** The content type files of this kind are stored and served with. */
  contentType: string;
  /** Other names uploads declare this kind under (browsers and operating systems differ). */
  aliases: string[];
  extension: string;
  isImage: boolean;
  /** The bytes a file of this kind starts with; text has none and is checked as UTF-8 instead. */
  signature: ((head: Uint8Array) => boolean) | null;
  /** Text that must be markup (SVG); any other text kind must not be. */
  isMarkup?: boolean;
}

const startsWith = (head: Uint8Array, bytes: readonly number[], offset = 0) =>
  bytes.every((byte, index) => head[offset + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

export const KINDS: Record<FileKind, KindInfo> = {
  png: {
    contentType: "image/png",
    aliases: [],
    extension: "png",
    isImage: true,
    signature: (head) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  jpeg: {
    contentType: "image/jpeg",
    aliases: ["image/jpg", "image/pjpeg"],
    extension: "jpg",
    isImage: true,
    signature: (head) => startsWith(head, [0xff, 0xd8, 0xff]),
  },
  gif: {
    contentType: "image/gif",
    aliases: [],
    extension: "gif",
    isImage: true,
    signature: (head) => startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a")),
  },
  webp: {
    contentType: "image/webp",
    aliases: [],
    extension: "webp",
    isImage: true,
    signature: (head) => startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8),
  },
  pdf: {
    contentType: "application/pdf",
    aliases: [],
    extension: "pdf",
    isImage: false,
    signature: (head) => startsWith(head, ascii("%PDF-")),
  },
  text: {
    contentType: "text/plain; charset=utf-8",
    aliases: [],
    extension: "txt",
    isImage: false,
    signature: null,
  },
  csv: {
    contentType: "text/csv; charset=utf-8",
    // What Windows browsers declare for a .csv when a spreadsheet program is installed.
    aliases: ["application/csv", "application/vnd.ms-excel"],
    extension: "csv",
    isImage: false,
    signature: null,
  },
  svg: {
    contentType: "image/svg+xml",
    aliases: [],
    extension: "svg",
    // Never inline: opened on its own it downloads (and the policy forbids scripts anyway).
    isImage: false,
    signature: null,
    isMarkup: true,
  },
  css: {
    contentType: "text/css; charset=utf-8",
    aliases: [],
    extension: "css",
    isImage: false,
    signature: null,
  },
  mp3: {
    contentType: "audio/mpeg",
    aliases: ["audio/mp3"],
    extension: "mp3",
    isImage: false,
    // An ID3 tag, or straight into an MPEG audio frame (11 bits of sync).
    signature: (head) =>
      startsWith(head, ascii("ID3")) || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0),
  },
  ogg: {
    contentType: "audio/ogg",
    aliases: ["application/ogg", "video/ogg"],
    extension: "ogg",
    isImage: false,
    signature: (head) => startsWith(head, ascii("OggS")),
  },
  wav: {
    contentType: "audio/wav",
    aliases: ["audio/x-wav", "audio/wave", "audio/vnd.wave"],
    extension: "wav",
    isImage: false,
    signature: (head) => startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WAVE"), 8),
  },
  mp4: {
    contentType: "video/mp4",
    aliases: [],
    extension: "mp4",
    isImage: false,
    signature: (head) => startsWith(head, ascii("ftyp"), 4),
  },
  m4a: {
    contentType: "audio/mp4",
    aliases: ["audio/x-m4a", "audio/m4a"],
    extension: "m4a",
    isImage: false,
    signature: (head) => startsWith(head, ascii("ftyp"), 4),
  },
  webm: {
    contentType: "video/webm",
    aliases: ["audio/webm"],
    extension: "webm",
    isImage: false,
    signature: (head) => startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]),
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

/** Each kind's name ("PNG image") and the same with its article ("a PNG image"), in a message. */
const KIND_NAMES: Record<FileKind, Message> = {
  png: message("common:storage.kinds.png"),
  jpeg: message("common:storage.kinds.jpeg"),
  gif: message("common:storage.kinds.gif"),
  webp: message("common:storage.kinds.webp"),
  pdf: message("common:storage.kinds.pdf"),
  text: message("common:storage.kinds.text"),
  csv: message("common:storage.kinds.csv"),
  svg: message("common:storage.kinds.svg"),
  css: message("common:storage.kinds.css"),
  mp3: message("common:storage.kinds.mp3"),
  ogg: message("common:storage.kinds.ogg"),
  wav: message("common:storage.kinds.wav"),
  mp4: message("common:storage.kinds.mp4"),
  m4a: message("common:storage.kinds.m4a"),
  webm: message("common:storage.kinds.webm"),
};
const A_KIND: Record<FileKind, Message> = {
  png: message("common:storage.aKind.png"),
  jpeg: message("common:storage.aKind.jpeg"),
  gif: message("common:storage.aKind.gif"),
  webp: message("common:storage.aKind.webp"),
  pdf: message("common:storage.aKind.pdf"),
  text: message("common:storage.aKind.text"),
  csv: message("common:storage.aKind.csv"),
  svg: message("common:storage.aKind.svg"),
  css: message("common:storage.aKind.css"),
  mp3: message("common:storage.aKind.mp3"),
  ogg: message("common:storage.aKind.ogg"),
  wav: message("common:storage.aKind.wav"),
  mp4: message("common:storage.aKind.mp4"),
  m4a: message("common:storage.aKind.m4a"),
  webm: message("common:storage.aKind.webm"),
};

/** The words that name kinds of file in a refusal, in one language. */
interface KindWords {
  /** "a PNG image" */
  aKind: (kind: FileKind) => string;
  /** "PNG image, JPEG image" */
  list: (kinds: readonly FileKind[]) => string;
}

const kindWordsIn = (language: Language): KindWords => ({
  aKind: (kind) => translate(A_KIND[kind], language),
  list: (kinds) => kinds.map((kind) => translate(KIND_NAMES[kind], language)).join(", "),
});

/** A 415 whose message names kinds of file: the names are said in the reader's language too. */
class UnsupportedFile extends AppError {
  constructor(private readonly say: (words: KindWords) => Message) {
    super("unsupported_media_type", say(kindWordsIn(DEFAULT_LANGUAGE)));
  }

  override toBody(language: Language = DEFAULT_LANGUAGE) {
    return { ...super.toBody(language), message: translate(this.say(kindWordsIn(language)), language) };
  }
}

const unsupported = (say: (words: KindWords) => Message) => new UnsupportedFile(say);

/** The kind a declared content type names, when it is one the use accepts; else a 415. */
export function declaredKind(contentType: string | undefined, accept: readonly FileKind[]): FileKind {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const isAcceptedSvg = type === KINDS.svg.contentType && accept.includes("svg");
  if (SCRIPTABLE_TYPES.has(type) && !isAcceptedSvg)
    throw unsupported(() => message("common:storage.scriptable"));
  const kind = FILE_KINDS.find((candidate) => {
    const info = KINDS[candidate];
    return info.contentType.split(";")[0] === type || info.aliases.includes(type);
  });
  if (!type)
    throw unsupported(({ list }) => message("common:storage.typeMissing", { accepted: list(accept) }));
  if (!kind || !accept.includes(kind))
    throw unsupported(({ list }) =>
      message("common:storage.typeNotAccepted", { type, accepted: list(accept) }),
    );
  return kind;
}

/** Checks a file's first bytes against its declared kind: a 415 when they say something else. */
export function checkSignature(kind: FileKind, head: Uint8Array): void {
  const signature = KINDS[kind].signature;
  if (signature) {
    if (signature(head)) return;
    const actual = BINARY_KINDS.find((other) => KINDS[other].signature?.(head));
    throw unsupported(({ aKind }) =>
      actual
        ? message("common:storage.otherKind", { actual: aKind(actual), declared: aKind(kind) })
        : message("common:storage.notDeclaredKind", { kind: aKind(kind) }),
    );
  }
  const actual = BINARY_KINDS.find((other) => KINDS[other].signature?.(head));
  if (actual)
    throw unsupported(({ aKind }) =>
      message("common:storage.otherKind", { actual: aKind(actual), declared: aKind(kind) }),
    );
  const isMarkup = looksLikeMarkup(head);
  if (isMarkup && !KINDS[kind].isMarkup) throw unsupported(() => message("common:storage.markup"));
  if (!isMarkup && KINDS[kind].isMarkup)
    throw unsupported(({ aKind }) => message("common:storage.notDeclaredKind", { kind: aKind(kind) }));
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
  return (chunk) => {
    if (chunk?.includes(0))
      throw unsupported(({ aKind }) => message("common:storage.binary", { kind: aKind(kind) }));
    try {
      decoder.decode(chunk, { stream: chunk !== undefined });
    } catch {
      throw unsupported(({ aKind }) => message("common:storage.notUtf8", { kind: aKind(kind) }));
    }
  };
}

export const isTextKind = (kind: FileKind) => KINDS[kind].signature === null;

/** The kind a stored key's extension names, or null for a key that no put could have made. */
export function kindOfExtension(extension: string): FileKind | null {
  return FILE_KINDS.find((kind) => KINDS[kind].extension === extension) ?? null;
}
