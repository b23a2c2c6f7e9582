import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { createTestApp, type TestApp } from "../../../test/harness";
import { rosterSnapshot, zipOf } from "./test-support";

/**
 * Hostile and broken archives sent to the roster import: each is refused with a status and a
 * message an administrator can act on, nothing changes, and the server keeps answering.
 * The archives are made here, never stored.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn("admin@dash.demo");
});
afterAll(() => t.close());

const MANIFEST = "propertyName,value\r\noneroster.version,1.2\r\nfile.users,delta\r\n";
const MB = 1024 ** 2;

async function postZip(body: Uint8Array) {
  return t.app.request("/api/admin/roster/import?dryRun=true", {
    method: "POST",
    headers: { cookie: admin, "content-type": "application/zip" },
    body: new Blob([new Uint8Array(body)]),
  });
}

async function expectRefused(body: Uint8Array, status: number, message: RegExp) {
  const before = await rosterSnapshot(t.db);
  const response = await postZip(body);
  const answer = await response.json();
  expect({ status: response.status, message: answer.message }).toEqual({
    status,
    message: expect.stringMatching(message),
  });
  expect(await rosterSnapshot(t.db)).toEqual(before);
  const health = await t.request("/api/health");
  expect(health.status).toBe(200);
  expect(await health.json()).toMatchObject({ ok: true });
}

/** A zip whose one entry is streamed in (deflated as it goes), so a large entry never sits in memory. */
function zipStreamed(name: string, chunk: Buffer, times: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(MANIFEST), "manifest.csv");
  zip.addReadStream(
    Readable.from(
      (function* () {
        for (let index = 0; index < times; index++) yield chunk;
      })(),
    ),
    name,
  );
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (data: Buffer) => chunks.push(data));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const CENTRAL_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/** Rewrites a 32-bit field of every (here: the one) local header (at localOffset) and central directory header (at centralOffset). */
function patchHeaders(zip: Buffer, localOffset: number, centralOffset: number, value: number): Buffer {
  const patched = Buffer.from(zip);
  for (const [signature, offset] of [
    [LOCAL_HEADER, localOffset],
    [CENTRAL_HEADER, centralOffset],
  ] as const) {
    for (let at = patched.indexOf(signature); at !== -1; at = patched.indexOf(signature, at + 4)) {
      patched.writeUInt32LE(value, at + offset);
    }
  }
  return patched;
}

describe("hostile and broken roster zips", () => {
  it("refuses a zip bomb from its central directory: 200 MB packed into a few hundred KB", async () => {
    const bomb = await zipStreamed("users.csv", Buffer.alloc(MB, "a"), 200);
    expect(bomb.length).toBeLessThan(MB);
    await expectRefused(
      bomb,
      400,
      /^users\.csv in the \.zip unpacks to \d+ times its packed size \(200 MB\).*zip bomb/,
    );
  });

  it("refuses while inflating when the headers lie about an entry's size", async () => {
    const honest = await zipOf({ "manifest.csv": Buffer.alloc(20 * MB, "a") });
    // The local header and the central directory both say 2,000 bytes; the data is 20 MB.
    const lying = patchHeaders(honest, 22, 24, 2000);
    await expectRefused(
      lying,
      400,
      /^manifest\.csv in the \.zip unpacks to more than the 2000 bytes the archive gives for it: the \.zip is damaged or forged/,
    );
  });

  it("refuses a CSV field larger than 1 MB, naming the file, line and field", async () => {
    const field = randomBytes(1.5 * MB).toString("base64");
    const zip = await zipOf({
      "manifest.csv": MANIFEST,
      "users.csv": `sourcedId,status,dateLastModified,enabledUser,givenName,familyName\r\nu-1,active,2025-08-01T08:00:00Z,true,${field},Smith\r\n`,
    });
    await expectRefused(
      zip,
      400,
      /^users\.csv, line 2, field 5: the value is longer than 1 MB, the most accepted for one value$/,
    );
  });

  it("refuses a zip of more than 64 files", async () => {
    const files = Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`extra-${index}.txt`, "x"]));
    await expectRefused(
      await zipOf({ "manifest.csv": MANIFEST, ...files }),
      413,
      /^The \.zip holds 66 files and folders; at most 64 are accepted$/,
    );
  });

  it("refuses an entry whose path climbs out of the archive", async () => {
    const zip = await zipOf({ "manifest.csv": MANIFEST, "aa/evil.csv": "sourcedId\r\n" });
    const name = Buffer.from("aa/evil.csv");
    const climbing = Buffer.from(zip);
    for (let at = climbing.indexOf(name); at !== -1; at = climbing.indexOf(name, at + 1)) {
      climbing.write("../", at);
    }
    await expectRefused(climbing, 400, /^The \.zip holds a file with an unsafe path \(\.\.\/evil\.csv\)/);
  });

  it("refuses a zip nested in folders too deep", async () => {
    const zip = await zipOf({ "manifest.csv": MANIFEST, "a/b/c/users.csv": "sourcedId\r\n" });
    await expectRefused(
      zip,
      400,
      /^a\/b\/c\/users\.csv in the \.zip sits 3 folders deep; at most 2 are accepted/,
    );
  });

  it("refuses a truncated zip", async () => {
    const zip = await zipOf({
      "manifest.csv": MANIFEST,
      "users.csv": randomBytes(64 * 1024).toString("hex"),
    });
    await expectRefused(
      zip.subarray(0, Math.floor(zip.length / 2)),
      400,
      /^The \.zip archive cannot be read, it may be incomplete or damaged/,
    );
  });

  it("refuses random bytes named .zip", async () => {
    const noise = randomBytes(4096);
    noise[0] = 0;
    await expectRefused(noise, 400, /^The file is not a \.zip archive$/);
  });

  it("refuses an entry whose checksum does not match its data", async () => {
    const zip = await zipOf({ "manifest.csv": MANIFEST });
    await expectRefused(
      patchHeaders(zip, 14, 16, 0x12345678),
      400,
      /^manifest\.csv in the \.zip is damaged \(its checksum does not match\)/,
    );
  });

  it("says why in the streamed answer the page reads", async () => {
    const zip = await zipOf({ "manifest.csv": MANIFEST });
    const response = await t.app.request("/api/admin/roster/import?dryRun=true", {
      method: "POST",
      headers: { cookie: admin, "content-type": "application/zip", accept: "application/x-ndjson" },
      body: new Blob([new Uint8Array(patchHeaders(zip, 14, 16, 0x12345678))]),
    });
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)).toEqual({
      type: "error",
      message: expect.stringMatching(
        /^manifest\.csv in the \.zip is damaged \(its checksum does not match\)/,
      ),
    });
  });
});
