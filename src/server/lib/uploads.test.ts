import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import type { AppError } from "./errors";
import { openZipUpload, readCsvRecords, UPLOAD_LIMITS, type UploadLimits } from "./uploads";

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), "dash-uploads-"));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const small = (changes: Partial<UploadLimits>): UploadLimits => ({ ...UPLOAD_LIMITS, ...changes });

async function zipFile(files: Record<string, string>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const file = path.join(folder, `${Object.keys(files).length}-${Math.random()}.zip`);
  await writeFile(file, Buffer.concat(chunks));
  return file;
}

async function readAll(text: string, limits: UploadLimits) {
  const records: string[][] = [];
  for await (const record of readCsvRecords(Readable.from([text]), { file: "users.csv", limits })) {
    records.push(record.fields);
  }
  return records;
}

const refusal = (status: number, message: RegExp) =>
  expect.objectContaining({ name: "AppError", status, message: expect.stringMatching(message) });

describe("zip limits", () => {
  it("refuses an entry larger than the limit for one file, and a total larger than the limit (413)", async () => {
    const file = await zipFile({ "a.csv": "x".repeat(600), "b.csv": "y".repeat(600) });
    await expect(openZipUpload(file, small({ maxEntryBytes: 500 }))).rejects.toEqual(
      refusal(
        413,
        /^a\.csv in the \.zip is 600 bytes once unpacked; the most accepted for one file is 500 bytes$/,
      ),
    );
    await expect(openZipUpload(file, small({ maxTotalBytes: 1000 }))).rejects.toEqual(
      refusal(413, /^The files of the \.zip come to more than 1000 bytes once unpacked/),
    );
    const error = (await openZipUpload(file, small({ maxEntryBytes: 500 })).catch((e) => e)) as AppError;
    expect(error.toBody("es").message).toBe(
      "a.csv ocupa 600 bytes al descomprimirlo del .zip; el máximo aceptado para un archivo es 500 bytes",
    );
  });

  it("checks the ratio only above its threshold", async () => {
    const file = await zipFile({ "a.csv": "x".repeat(100_000) });
    const archive = await openZipUpload(file, small({ maxCompressionRatio: 10 }));
    expect(archive.files.map((entry) => [entry.path, entry.bytes])).toEqual([["a.csv", 100_000]]);
    archive.close();
    await expect(
      openZipUpload(file, small({ maxCompressionRatio: 10, ratioCheckAboveBytes: 1000 })),
    ).rejects.toEqual(refusal(400, /zip bomb/));
  });

  it("reads an entry whole when it matches its headers", async () => {
    const file = await zipFile({ "set/users.csv": "sourcedId\r\nu-1\r\n" });
    const archive = await openZipUpload(file);
    let text = "";
    for await (const chunk of await (archive.files[0]?.open() ?? Promise.reject())) text += chunk;
    archive.close();
    expect(text).toBe("sourcedId\r\nu-1\r\n");
  });
});

describe("CSV limits", () => {
  it("refuses a file with more lines than the limit (413), counting the header", async () => {
    await expect(readAll("a\r\n1\r\n2\r\n", small({ maxCsvRows: 2 }))).rejects.toEqual(
      refusal(413, /^users\.csv has more than 2 lines, the most accepted for one file$/),
    );
    expect(await readAll("a\r\n1\r\n", small({ maxCsvRows: 2 }))).toEqual([["a"], ["1"]]);
  });

  it("refuses a record longer than the limit where it starts, without reading it whole", async () => {
    const text = `a,b\r\n1,2\r\n"${"z".repeat(5000)}`;
    await expect(readAll(text, small({ maxRecordBytes: 1000 }))).rejects.toEqual(
      refusal(400, /^users\.csv, line 3: the line is longer than 1000 bytes, the most accepted/),
    );
  });

  it("refuses a field longer than the limit, counting UTF-8 bytes", async () => {
    await expect(readAll(`a,b\r\n1,${"é".repeat(300)}\r\n`, small({ maxFieldBytes: 500 }))).rejects.toEqual(
      refusal(400, /^users\.csv, line 2, field 2: the value is longer than 500 bytes/),
    );
    expect(await readAll(`a\r\n${"e".repeat(500)}\r\n`, small({ maxFieldBytes: 500 }))).toHaveLength(2);
  });
});
