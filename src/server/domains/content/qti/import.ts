import { createHash } from "node:crypto";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import type { Element } from "@xmldom/xmldom";
import { sql } from "drizzle-orm";
import type { QtiDocumentImport, QtiKind, QtiPackageImport } from "../../../../shared/contracts/content";
import { DEFAULT_LANGUAGE, type Language } from "../../../../shared/languages";
import { type Database, queryRows } from "../../../db/client";
import { AppError, type FieldIssue } from "../../../lib/errors";
import type { FileSet, FileSetEntry } from "../../../lib/file-set";
import { type Message, message, translate } from "../../../lib/i18n";
import { formatBytes, UPLOAD_LIMITS, type UploadLimits } from "../../../lib/uploads";
import type { FileKind, FileStorage } from "../../../platform/storage";
import { KINDS } from "../../../platform/storage/content";
import { saveQtiDocuments } from "./bank";
import { UnsupportedProcessing } from "./processing";
import { type ParsedQti, parseQti, type QtiDocumentRecord, recordOf } from "./qti-document";
import { instantiateTemplate } from "./scoring";
import {
  childElements,
  decodeXmlBytes,
  descendants,
  MAX_QTI_DOCUMENT_BYTES,
  nameOf,
  parseXml,
  QtiXmlError,
} from "./xml";

/**
 * Importing into the bank: one XML document, or an IMS content package (a .zip with
 * imsmanifest.xml) whose items, stimuli and tests are imported together with their media. A
 * package is all or nothing: every document is read and checked first, and a package with
 * problems is refused with one entry per file; its media are stored once by their SHA-256 and the
 * documents' references to them rewritten to /api/qti/assets/<sha256>/<name>.
 */

export interface ImportContext {
  db: Database;
  storage: FileStorage;
  actorId: string;
  now: Date;
  /** The uploaded file's name, for the bank's history. */
  source?: string;
  /** The language of the per-file problems of a refused package. */
  language?: Language;
}

/** Packages are trees of many small files: more entries and deeper folders than a roster .zip. */
export const QTI_PACKAGE_LIMITS: UploadLimits = {
  ...UPLOAD_LIMITS,
  maxArchiveEntries: 20_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxFolderDepth: 8,
};
const MAX_ASSET_BYTES = QTI_PACKAGE_LIMITS.maxEntryBytes;
const ASSET_FOLDER = "qti/assets";
const assetUrl = (sha256: string, fileName: string) =>
  `/api/qti/assets/${sha256}/${encodeURIComponent(fileName)}`;

/** The media a package may hold, by file extension. */
const MEDIA_KINDS: Record<string, FileKind> = {
  png: "png",
  jpg: "jpeg",
  jpeg: "jpeg",
  gif: "gif",
  webp: "webp",
  svg: "svg",
  css: "css",
  mp3: "mp3",
  ogg: "ogg",
  oga: "ogg",
  wav: "wav",
  mp4: "mp4",
  m4v: "mp4",
  m4a: "m4a",
  webm: "webm",
  pdf: "pdf",
};
const QTI_ASSET_KINDS: readonly FileKind[] = [...new Set(Object.values(MEDIA_KINDS))];

/** The attributes of a document that point at a file of the package, by element. */
const FILE_REFERENCES: Record<string, string[]> = {
  img: ["src"],
  audio: ["src"],
  video: ["src", "poster"],
  source: ["src"],
  track: ["src"],
  object: ["data"],
  embed: ["src"],
  "qti-stylesheet": ["href"],
  // A link to a handout in the package is rewritten; a link elsewhere is left alone.
  a: ["href"],
};

/** The manifest resource types of QTI documents (IMS QTI 3.0 and 2.2 content packaging). */
const QTI_RESOURCE_TYPE = /^imsqti_(item|test|stimulus)_xmlv(3p0|2p2|2p1)$/;

/**
 * Reads and checks one XML document for the bank: well-formed, QTI 3 (2.2 converted), and, for a
 * template item, template processing Dash can run (lessons instantiate it for every learner).
 */
function checkedRecord(parsed: ParsedQti, options: Parameters<typeof recordOf>[1]): QtiDocumentRecord {
  const record = recordOf(parsed, options);
  if (record.kind === "item" && record.rawXml.includes("template-processing")) {
    try {
      instantiateTemplate(record.rawXml, "import-check");
    } catch (error) {
      if (!(error instanceof UnsupportedProcessing)) throw error;
      throw new QtiXmlError(message("content:qti.xml.templateUnsupported", { element: error.element }));
    }
  }
  return record;
}

/** Imports one XML document of the kind the endpoint takes (an item at /items…). */
export async function importQtiXml(
  context: ImportContext,
  source: string,
  expected: QtiKind,
): Promise<QtiDocumentImport> {
  const record = checkedRecord(parseQti(source), { source });
  if (record.kind !== expected)
    throw new QtiXmlError(message("content:qti.xml.wrongKind", { kind: record.kind }));
  const created = await context.db.transaction((tx) =>
    saveQtiDocuments(tx as unknown as Database, [record], context.actorId, context.now, context.source),
  );
  return {
    kind: record.kind,
    identifier: record.identifier,
    title: record.title,
    interactions: record.interactions,
    sourceVersion: record.sourceVersion,
    created: created.get(`${record.kind}:${record.identifier}`) ?? true,
  };
}

/**
 * An uploaded file: a content package (a set holding imsmanifest.xml, taken at /items only), or
 * one XML document of the endpoint's kind.
 */
export async function importQtiUpload(
  context: ImportContext,
  files: FileSet,
  kind: QtiKind,
): Promise<QtiDocumentImport | QtiPackageImport> {
  const isPackage = files.entries.some((entry) => path.posix.basename(entry.name) === "imsmanifest.xml");
  const [single] = files.entries;
  if (!isPackage && files.entries.length === 1 && single && /\.xml$/i.test(single.name))
    return importQtiXml(context, decodeXmlBytes(await readEntry(single, MAX_QTI_DOCUMENT_BYTES)), kind);
  if (kind !== "item") throw new AppError("bad_request", message("content:qti.package.onlyAtItems"));
  return importQtiPackage(context, files);
}

/** The problems found in a package, by file; the package is refused when there is any. */
class PackageProblems {
  readonly issues: FieldIssue[] = [];
  readonly warnings: { path: string; message: Message }[] = [];

  constructor(private readonly language: Language) {}

  add(file: string, said: Message): void {
    this.issues.push({ path: file, message: said });
  }

  /** A refusal caught while reading a file: a QTI problem with its place, or any other 4xx. */
  addError(file: string, error: unknown): void {
    if (error instanceof QtiXmlError) this.add(file, this.withPlace(error));
    else if (error instanceof AppError && error.status < 500)
      this.issues.push({ path: file, message: error.toBody(this.language).message });
    else throw error;
  }

  warn(file: string, said: Message): void {
    this.warnings.push({ path: file, message: said });
  }

  private withPlace(error: QtiXmlError): Message {
    return error.position && !("line" in (error.reason.values ?? {}))
      ? message("content:qti.package.atPosition", { ...error.position, reason: error.reason })
      : error.reason;
  }

  throwIfAny(): void {
    if (this.issues.length === 0) return;
    throw new AppError("bad_request", message("content:qti.package.refused", { count: this.issues.length }), {
      issues: this.issues,
    });
  }
}

async function readEntry(entry: FileSetEntry, maxBytes: number): Promise<Buffer> {
  if (entry.bytes > maxBytes)
    throw new AppError(
      "payload_too_large",
      message("content:qti.xml.tooLarge", { size: formatBytes(entry.bytes), limit: formatBytes(maxBytes) }),
    );
  return buffer(await entry.open());
}

/** A path inside the package, or null when it leaves it. */
function packagePath(from: string, reference: string): string | null {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), reference));
  return joined === ".." || joined.startsWith("../") || path.posix.isAbsolute(joined) ? null : joined;
}

/** A reference that names a file of the package: relative, without a scheme. */
function relativeReference(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) || /^[/#?]/.test(trimmed)) return null;
  const withoutQuery = trimmed.replace(/[?#].*$/, "");
  try {
    return decodeURIComponent(withoutQuery);
  } catch {
    return withoutQuery;
  }
}

interface ReadDocument {
  path: string;
  parsed: ParsedQti;
  /** The attributes that point at media of the package, with the media's path. */
  references: { element: Element; attribute: string; target: string }[];
}

interface StoredAsset {
  sha256: string;
  fileName: string;
  kind: FileKind;
  bytes: number;
  /** Set when this import put the file into storage (it is removed again if the import fails). */
  newKey: string | null;
}

/** The package's manifest: found at its top, or in its one top folder. */
function findManifest(files: FileSet): { root: string; entry: FileSetEntry } {
  const candidates = files.entries
    .filter((entry) => path.posix.basename(entry.name) === "imsmanifest.xml")
    .sort((a, b) => a.name.split("/").length - b.name.split("/").length);
  const entry = candidates[0];
  if (!entry) throw new AppError("bad_request", message("content:qti.package.noManifest"));
  const root = path.posix.dirname(entry.name);
  return { root: root === "." ? "" : `${root}/`, entry };
}

/** The QTI documents the manifest lists, as paths inside the package. */
function manifestDocuments(manifest: Element, problems: PackageProblems, present: Map<string, FileSetEntry>) {
  const paths: string[] = [];
  const seen = new Set<string>();
  const base = (element: Element) => element.getAttribute("xml:base")?.trim() ?? "";
  for (const resources of descendants(manifest).filter((element) => nameOf(element) === "resources")) {
    for (const resource of childElements(resources).filter((element) => nameOf(element) === "resource")) {
      const type = resource.getAttribute("type")?.trim() ?? "";
      if (!QTI_RESOURCE_TYPE.test(type)) continue;
      const href = resource.getAttribute("href")?.trim() ?? "";
      const identifier = resource.getAttribute("identifier")?.trim() ?? "";
      if (!href) {
        problems.add("imsmanifest.xml", message("content:qti.package.resourceWithoutHref", { identifier }));
        continue;
      }
      const file = packagePath("imsmanifest.xml", path.posix.join(base(resources), base(resource), href));
      if (file === null) {
        problems.add("imsmanifest.xml", message("content:qti.package.unsafeReference", { reference: href }));
        continue;
      }
      if (!present.has(file)) {
        problems.add("imsmanifest.xml", message("content:qti.package.missingDocument", { file }));
        continue;
      }
      if (!seen.has(file)) {
        seen.add(file);
        paths.push(file);
      }
    }
  }
  return paths;
}

/** Reads every document the manifest lists, noting the media each refers to. */
async function readDocuments(
  files: Map<string, FileSetEntry>,
  documentPaths: string[],
  problems: PackageProblems,
): Promise<ReadDocument[]> {
  const documents: ReadDocument[] = [];
  for (const file of documentPaths) {
    try {
      const source = decodeXmlBytes(await readEntry(files.get(file) as FileSetEntry, MAX_QTI_DOCUMENT_BYTES));
      const parsed = parseQti(source);
      const references: ReadDocument["references"] = [];
      for (const element of descendants(parsed.root)) {
        for (const attribute of FILE_REFERENCES[nameOf(element)] ?? []) {
          const reference = relativeReference(element.getAttribute(attribute) ?? "");
          if (reference === null) continue;
          const target = packagePath(file, reference);
          if (target === null) {
            problems.add(file, message("content:qti.package.unsafeReference", { reference }));
          } else if (!files.has(target)) {
            if (nameOf(element) !== "a")
              problems.warn(file, message("content:qti.package.missingMedia", { reference }));
          } else if (!MEDIA_KINDS[path.posix.extname(target).slice(1).toLowerCase()]) {
            problems.warn(file, message("content:qti.package.unsupportedMedia", { reference }));
          } else {
            references.push({ element, attribute, target });
          }
        }
      }
      documents.push({ path: file, parsed, references });
    } catch (error) {
      problems.addError(file, error);
    }
  }
  return documents;
}

const CSS_URL = /url\(\s*(['"]?)([^'")]+)\1\s*\)/g;
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

function stylesheetText(bytes: Buffer): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new AppError(
      "unsupported_media_type",
      message("common:storage.notUtf8", { kind: message("common:storage.aKind.css") }),
    );
  }
}

/** The media of the package a stylesheet's url(…) points at (pictures, fonts it may hold are left alone). */
function stylesheetReferences(file: string, css: string, files: Map<string, FileSetEntry>): string[] {
  const found: string[] = [];
  for (const match of css.matchAll(CSS_URL)) {
    const reference = relativeReference(match[2] ?? "");
    const target = reference === null ? null : packagePath(file, reference);
    const kind = target && MEDIA_KINDS[path.posix.extname(target).slice(1).toLowerCase()];
    if (target && files.has(target) && kind && kind !== "css") found.push(target);
  }
  return found;
}

function rewriteStylesheet(file: string, css: string, stored: Map<string, StoredAsset>): string {
  return css.replace(CSS_URL, (whole, quote: string, value: string) => {
    const reference = relativeReference(value);
    const target = reference === null ? null : packagePath(file, reference);
    const asset = target ? stored.get(target) : undefined;
    return asset ? `url(${quote}${assetUrl(asset.sha256, asset.fileName)}${quote})` : whole;
  });
}

/**
 * Stores the media the documents refer to, each once by its SHA-256 (a file the bank holds already
 * is not stored again). Stylesheets go last, their url(…) references rewritten to the stored files.
 */
async function storeAssets(
  context: ImportContext,
  files: Map<string, FileSetEntry>,
  documents: ReadDocument[],
  problems: PackageProblems,
): Promise<Map<string, StoredAsset>> {
  const stored = new Map<string, StoredAsset>();
  const wanted = new Set(
    documents.flatMap((document) => document.references.map((reference) => reference.target)),
  );
  const stylesheets = [...wanted].filter(
    (file) => MEDIA_KINDS[path.posix.extname(file).slice(1).toLowerCase()] === "css",
  );
  const stylesheetTexts = new Map<string, string>();
  for (const file of stylesheets) {
    try {
      const css = stylesheetText(await readEntry(files.get(file) as FileSetEntry, MAX_ASSET_BYTES));
      stylesheetTexts.set(file, css);
      for (const target of stylesheetReferences(file, css, files)) wanted.add(target);
    } catch (error) {
      problems.addError(file, error);
    }
  }
  const order = [...wanted].sort((a, b) => Number(stylesheetTexts.has(a)) - Number(stylesheetTexts.has(b)));
  // Two files of the package with the same content are stored once.
  const storedHere = new Set<string>();
  for (const file of order) {
    try {
      const kind = MEDIA_KINDS[path.posix.extname(file).slice(1).toLowerCase()] as FileKind;
      const css = stylesheetTexts.get(file);
      const bytes =
        css === undefined
          ? await readEntry(files.get(file) as FileSetEntry, MAX_ASSET_BYTES)
          : Buffer.from(rewriteStylesheet(file, css, stored));
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const [known] = storedHere.has(sha256)
        ? [{ sha256 }]
        : await queryRows<{ sha256: string }>(
            context.db,
            sql`select sha256 from qti_assets where sha256 = ${sha256}`,
          );
      let newKey: string | null = null;
      if (!known) {
        storedHere.add(sha256);
        const put = await context.storage.put(bytes, {
          folder: ASSET_FOLDER,
          contentType: KINDS[kind].contentType,
          accept: QTI_ASSET_KINDS,
          maxBytes: MAX_ASSET_BYTES,
        });
        newKey = put.key;
      }
      stored.set(file, { sha256, fileName: path.posix.basename(file), kind, bytes: bytes.length, newKey });
    } catch (error) {
      problems.addError(file, error);
    }
  }
  return stored;
}

/** Removes files this import stored, when it did not keep them. */
async function removeStored(storage: FileStorage, keys: (string | null)[]): Promise<void> {
  await Promise.all(keys.map((key) => (key ? storage.delete(key).catch(() => {}) : undefined)));
}

/**
 * Imports a content package in one transaction: its manifest's items, stimuli and tests (QTI 2.2
 * converted) and the media they refer to. A package with any problem is refused with a list of
 * its files' problems; missing or unsupported media are reported as warnings and their
 * references left as they were.
 */
export async function importQtiPackage(context: ImportContext, set: FileSet): Promise<QtiPackageImport> {
  const language = context.language ?? DEFAULT_LANGUAGE;
  const problems = new PackageProblems(language);
  const { root, entry: manifestEntry } = findManifest(set);
  const files = new Map(
    set.entries
      .filter((entry) => entry.name.startsWith(root))
      .map((entry) => [entry.name.slice(root.length), entry] as const),
  );
  let manifest: Element;
  try {
    manifest = parseXml(decodeXmlBytes(await readEntry(manifestEntry, MAX_QTI_DOCUMENT_BYTES)))
      .documentElement as Element;
  } catch (error) {
    problems.addError("imsmanifest.xml", error);
    problems.throwIfAny();
    throw error;
  }
  const documents = await readDocuments(files, manifestDocuments(manifest, problems, files), problems);
  if (documents.length === 0 && problems.issues.length === 0)
    problems.add("imsmanifest.xml", message("content:qti.package.noDocuments"));
  checkIdentifiers(documents, problems);
  problems.throwIfAny();

  const stored = await storeAssets(context, files, documents, problems);
  const newKeys = [...stored.values()].map((asset) => asset.newKey);
  try {
    for (const document of documents)
      for (const { element, attribute, target } of document.references) {
        const asset = stored.get(target);
        if (asset) element.setAttribute(attribute, assetUrl(asset.sha256, asset.fileName));
      }
    const records = recordsOf(documents, problems);
    problems.throwIfAny();
    const saved = await context.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const kept = await saveAssets(tx, [...stored.values()]);
      await saveQtiDocuments(tx, records, context.actorId, context.now, context.source);
      return kept;
    });
    // Another import stored the same new file meanwhile: its copy is the one the table names.
    await removeStored(
      context.storage,
      [...stored.values()]
        .filter((asset) => asset.newKey && !saved.has(asset.sha256))
        .map((asset) => asset.newKey),
    );
    const identifiers = (kind: QtiKind) =>
      records.filter((record) => record.kind === kind).map((record) => record.identifier);
    const result: QtiPackageImport = {
      kind: "package",
      items: identifiers("item").length,
      stimuli: identifiers("stimulus").length,
      tests: identifiers("test").length,
      assets: new Set([...stored.values()].map((asset) => asset.sha256)).size,
      identifiers: {
        items: identifiers("item"),
        stimuli: identifiers("stimulus"),
        tests: identifiers("test"),
      },
      warnings: problems.warnings.map((warning) => ({
        path: warning.path,
        message: translate(warning.message, language),
      })),
    };
    return result;
  } catch (error) {
    await removeStored(context.storage, newKeys);
    throw error;
  }
}

/** Two documents of a kind with one identifier: the bank could keep only one of them. */
function checkIdentifiers(documents: ReadDocument[], problems: PackageProblems): void {
  const firstFile = new Map<string, string>();
  for (const document of documents) {
    const identifier = document.parsed.root.getAttribute("identifier")?.trim() ?? "";
    const key = `${document.parsed.kind}:${identifier}`;
    const other = firstFile.get(key);
    if (other)
      problems.add(document.path, message("content:qti.package.duplicateIdentifier", { identifier, other }));
    else firstFile.set(key, document.path);
  }
}

/** The documents as the bank keeps them, tests' item references resolved to the items' identifiers. */
function recordsOf(documents: ReadDocument[], problems: PackageProblems): QtiDocumentRecord[] {
  const itemsByPath = new Map<string, string>();
  for (const document of documents)
    if (document.parsed.kind === "item")
      itemsByPath.set(document.path, document.parsed.root.getAttribute("identifier")?.trim() ?? "");
  const records: QtiDocumentRecord[] = [];
  for (const document of documents) {
    try {
      const record = checkedRecord(document.parsed, {
        changed: true,
        resolveItemRef: ({ identifier, href }) => {
          const target = href ? relativeReference(href) : null;
          const file = target === null ? null : packagePath(document.path, target);
          return (file && itemsByPath.get(file)) || identifier;
        },
      });
      records.push(record);
    } catch (error) {
      problems.addError(document.path, error);
    }
  }
  return records;
}

/** Adds the assets' rows (a row that exists stays); answers the SHA-256 of the rows this import added. */
async function saveAssets(tx: Database, assets: StoredAsset[]): Promise<Set<string>> {
  const added = new Set<string>();
  const fresh = new Map(assets.filter((asset) => asset.newKey).map((asset) => [asset.sha256, asset]));
  for (const asset of fresh.values()) {
    const rows = await queryRows<{ sha256: string }>(
      tx,
      sql`insert into qti_assets (sha256, storage_key, file_name, content_type, bytes)
          values (${asset.sha256}, ${asset.newKey}, ${asset.fileName}, ${KINDS[asset.kind].contentType}, ${asset.bytes})
          on conflict (sha256) do nothing returning sha256`,
    );
    if (rows[0]) added.add(asset.sha256);
  }
  return added;
}
