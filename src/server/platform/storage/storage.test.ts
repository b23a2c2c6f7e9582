import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../../env";
import type { AppError } from "../../lib/errors";
import { securityHeaders } from "../../lib/security-headers";
import { startS3Server } from "../../test/s3-server";
import { type FileKind, type FileStorage, fileResponse, fileStorageFromEnv } from "./index";

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("IHDR and the rest of a small image"),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("JFIF body of a photo")]);
const GIF = Buffer.from("GIF89a and a picture");
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x20, 0, 0, 0]), Buffer.from("WEBPVP8 body")]);
const PDF = Buffer.from("%PDF-1.7\n1 0 obj\n<< >>\nendobj\n");
const IMAGES: FileKind[] = ["png", "jpeg", "gif", "webp"];
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const put = (
  storage: FileStorage,
  bytes: Buffer | Readable,
  contentType: string,
  accept = IMAGES,
  maxBytes = 1024,
) => storage.put(bytes, { folder: "evidence/screens", contentType, accept, maxBytes });

let dataDir: string;
let s3: Awaited<ReturnType<typeof startS3Server>>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "dash-storage-"));
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const stagedFiles = () => readdir(path.join(dataDir, "files", ".incoming")).catch(() => []);

describe.each([
  ["disk", () => fileStorageFromEnv(readEnv({ DATA_DIR: dataDir }))],
  ["s3", () => fileStorageFromEnv(readEnv({ DATA_DIR: dataDir, ...s3.env }))],
])("file storage on the %s driver", (driver, makeStorage) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = makeStorage();
    expect(storage.driver).toBe(driver);
  });

  it("stores a file and answers its key, size, SHA-256 and content type; gets, finds and deletes it", async () => {
    const stored = await put(storage, PNG, "image/png");
    expect(stored).toEqual({
      key: expect.stringMatching(/^evidence\/screens\/[0-9a-f-]{36}\.png$/),
      size: PNG.length,
      sha256: sha256(PNG),
      contentType: "image/png",
    });
    expect(await storage.exists(stored.key)).toBe(true);
    const file = await storage.get(stored.key);
    expect(file).toMatchObject({ key: stored.key, size: PNG.length, contentType: "image/png", kind: "png" });
    if (!file) throw new Error("the stored file is missing");
    expect(Buffer.concat(await file.body.toArray())).toEqual(PNG);

    await storage.delete(stored.key);
    expect(await storage.exists(stored.key)).toBe(false);
    expect(await storage.get(stored.key)).toBeNull();
    await expect(storage.delete(stored.key)).resolves.toBeUndefined();
    expect(await stagedFiles()).toEqual([]);
  });

  it("takes a Node stream and a web stream in chunks, and stores each accepted kind", async () => {
    const csv = "name,xp\nAda,120\nLéo,95\n";
    const fromNode = await put(
      storage,
      Readable.from([Buffer.from("name,xp\nAda,"), Buffer.from("120\nLéo,95\n")]),
      "text/csv; charset=utf-8",
      ["csv"],
    );
    expect(fromNode).toMatchObject({ size: Buffer.byteLength(csv), contentType: "text/csv; charset=utf-8" });
    expect(await text((await storage.get(fromNode.key))?.body as Readable)).toBe(csv);

    const fromWeb = await storage.put(new Blob([PDF]).stream(), {
      folder: "attachments",
      contentType: "application/pdf",
      accept: ["pdf"],
      maxBytes: 1024,
    });
    expect(fromWeb).toMatchObject({
      key: expect.stringMatching(/\.pdf$/),
      size: PDF.length,
      sha256: sha256(PDF),
    });

    for (const [bytes, type, extension] of [
      [JPEG, "image/jpeg", "jpg"],
      [GIF, "image/gif", "gif"],
      [WEBP, "image/webp", "webp"],
    ] as const) {
      const stored = await put(storage, bytes, type);
      expect(stored.key.endsWith(`.${extension}`)).toBe(true);
      expect(stored.contentType).toBe(type);
    }
    const note = await put(storage, Buffer.from("Read chapter 3\n"), "text/plain", ["text"]);
    expect(note.contentType).toBe("text/plain; charset=utf-8");
  });

  it("refuses a file over the limit with a 413 and keeps nothing of it", async () => {
    const big = Readable.from([PNG, Buffer.alloc(600), Buffer.alloc(600)]);
    await expect(put(storage, big, "image/png")).rejects.toMatchObject({
      status: 413,
      code: "payload_too_large",
      message: "The file is larger than the limit of 1024 bytes",
    });
    expect(await stagedFiles()).toEqual([]);
  });

  it("refuses bytes that are not the declared type with a 415", async () => {
    await expect(put(storage, JPEG, "image/png")).rejects.toMatchObject({
      status: 415,
      message: "The file is a JPEG image, not a PNG image as declared",
    });
    await expect(put(storage, Buffer.from("just some text here"), "image/gif")).rejects.toMatchObject({
      status: 415,
      message: "The file is not a GIF image: its content does not match its declared type",
    });
    await expect(put(storage, PDF, "text/plain", ["text"])).rejects.toMatchObject({
      status: 415,
      message: "The file is a PDF document, not a plain text file as declared",
    });
    await expect(
      put(storage, Buffer.from([0x61, 0xff, 0xfe, 0x62]), "text/csv", ["csv"]),
    ).rejects.toMatchObject({
      status: 415,
      message: "The file is not a CSV file: it is not valid UTF-8 text",
    });
    await expect(put(storage, Buffer.from("a,b\n1,\u0000\n"), "text/csv", ["csv"])).rejects.toMatchObject({
      status: 415,
      message: "The file is not a CSV file: it holds binary data",
    });
    expect(await stagedFiles()).toEqual([]);
  });

  it("refuses SVG, HTML and markup under a text type, and kinds the use does not accept", async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expect(put(storage, svg, "image/svg+xml")).rejects.toMatchObject({
      status: 415,
      message: "SVG images, HTML and XML files are not accepted: they can carry scripts",
    });
    await expect(put(storage, Buffer.from("<html></html>"), "text/html", ["text"])).rejects.toMatchObject({
      status: 415,
    });
    await expect(
      put(storage, Buffer.from("\uFEFF\n  <!DOCTYPE html><p>"), "text/plain", ["text"]),
    ).rejects.toMatchObject({
      status: 415,
      message: "HTML, SVG and XML files are not accepted: they can carry scripts",
    });
    await expect(put(storage, PDF, "application/pdf")).rejects.toMatchObject({
      status: 415,
      message:
        "Files of type application/pdf are not accepted here: send one of PNG image, JPEG image, GIF image, WebP image",
    });
    await expect(put(storage, PNG, undefined as unknown as string)).rejects.toMatchObject({ status: 415 });
    // The kinds are named in the reader's language too.
    const refusal = (await put(storage, PDF, "application/pdf").catch((error) => error)) as AppError;
    expect(refusal.toBody("es").message).toBe(
      "Aquí no se aceptan archivos de tipo application/pdf: envíe uno de estos tipos: imagen PNG, imagen JPEG, imagen GIF, imagen WebP",
    );
    const mislabelled = (await put(storage, PDF, "text/plain", ["text"]).catch((error) => error)) as AppError;
    expect(mislabelled.toBody("es").message).toBe(
      "El archivo es un documento PDF, no un archivo de texto sin formato como se declaró",
    );
    expect(mislabelled.toBody("en").message).toBe(
      "The file is a PDF document, not a plain text file as declared",
    );
    await expect(put(storage, Buffer.alloc(0), "image/png")).rejects.toMatchObject({
      status: 400,
      message: "The file is empty",
    });
  });

  it("takes SVG only where a use names it, as markup, and checks media by their first bytes", async () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>');
    const media = ["svg", "css", "mp3", "ogg", "wav", "mp4", "m4a", "webm"] as FileKind[];
    const stored = await put(storage, svg, "image/svg+xml", media);
    expect(stored.contentType).toBe("image/svg+xml");
    expect(stored.key).toMatch(/\.svg$/);
    await expect(put(storage, svg, "image/svg+xml", ["png", "css"])).rejects.toMatchObject({ status: 415 });
    await expect(
      put(storage, Buffer.from("not markup at all"), "image/svg+xml", media),
    ).rejects.toMatchObject({
      status: 415,
      message: "The file is not an SVG image: its content does not match its declared type",
    });
    expect((await put(storage, Buffer.from("p { color: red }"), "text/css", media)).contentType).toBe(
      "text/css; charset=utf-8",
    );
    await expect(put(storage, Buffer.from("<style>p{}</style>"), "text/css", media)).rejects.toMatchObject({
      status: 415,
    });
    const sounds: [string, Buffer][] = [
      ["audio/mpeg", Buffer.from("ID3\u0004\u0000 an mp3 file")],
      ["audio/ogg", Buffer.from("OggS an ogg stream")],
      ["audio/wav", Buffer.concat([Buffer.from("RIFF"), Buffer.from([0, 0, 0, 0]), Buffer.from("WAVEfmt ")])],
      ["video/mp4", Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42 a video")])],
      ["video/webm", Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from(" a webm video")])],
    ];
    for (const [contentType, bytes] of sounds)
      expect((await put(storage, bytes, contentType, media)).contentType, contentType).toBe(contentType);
    await expect(put(storage, PNG, "audio/mpeg", media)).rejects.toMatchObject({ status: 415 });
  });

  it("refuses keys that could reach outside the storage", async () => {
    await writeFile(path.join(dataDir, "secret.png"), PNG);
    for (const key of [
      "../secret.png",
      "evidence/../../secret.png",
      "/etc/passwd.txt",
      "evidence\\..\\secret.png",
      "secret.png",
      "evidence/.incoming.png",
      "evidence/file.html",
      "Evidence/file.PNG",
    ]) {
      await expect(storage.get(key), key).rejects.toMatchObject({ status: 400 });
      await expect(storage.exists(key), key).rejects.toMatchObject({ status: 400 });
      await expect(storage.delete(key), key).rejects.toMatchObject({ status: 400 });
    }
    await expect(
      put(storage, PNG, "image/png").then(() =>
        storage.put(PNG, {
          folder: "../outside",
          contentType: "image/png",
          accept: IMAGES,
          maxBytes: 1024,
        }),
      ),
    ).rejects.toThrow(/Invalid storage folder/);
  });
});

describe("serving a stored file", () => {
  const app = new Hono();
  const storage = () => fileStorageFromEnv(readEnv({ DATA_DIR: dataDir }));
  app.use("*", securityHeaders({ trustProxy: false, uncacheablePrefixes: [] }));
  app.get("/api/files/*", async (c) => {
    const file = await storage().get(c.req.path.slice("/api/files/".length));
    if (!file) return c.json({ code: "not_found", message: "No such file" }, 404);
    return fileResponse(file, { fileName: c.req.query("name"), download: c.req.query("download") === "1" });
  });

  it("sends an image inline with its type, nosniff, a sandbox and a private cache", async () => {
    const stored = await put(storage(), PNG, "image/png");
    const response = await app.request(`/api/files/${stored.key}`);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": String(PNG.length),
      "content-disposition": expect.stringMatching(/^inline; filename="[0-9a-f-]{36}\.png"/),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'; sandbox",
      "cache-control": "private, max-age=300",
    });
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);

    const download = await app.request(
      `/api/files/${stored.key}?download=1&name=${encodeURIComponent('Léo "pic".png')}`,
    );
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="L_o _pic_.png"; filename*=UTF-8''L%C3%A9o%20%22pic%22.png`,
    );
    await download.body?.cancel();
  });

  it("sends other files as attachments", async () => {
    const stored = await put(storage(), Buffer.from("a,b\n"), "text/csv", ["csv"]);
    const response = await app.request(`/api/files/${stored.key}?name=marks.csv`);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="marks.csv"; filename*=UTF-8''marks.csv`,
    );
    expect(await response.text()).toBe("a,b\n");
  });
});
