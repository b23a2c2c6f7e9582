import yauzl from "yauzl";

/** The files of a .zip answer (an export), by name, as text. */
export async function zipFilesOf(response: Response): Promise<Record<string, string>> {
  const buffer = Buffer.from(await response.arrayBuffer());
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("error", reject);
        stream.on("end", () => {
          files[entry.fileName] = Buffer.concat(chunks).toString("utf8");
          zip.readEntry();
        });
      }),
    );
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return files;
}
