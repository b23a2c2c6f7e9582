import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A mail as it arrived at the test SMTP server, its parts decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Map<string, string>;
  subject: string;
  text: string | null;
  html: string | null;
  /** The files sent with it, their bytes decoded. */
  attachments: { fileName: string; contentType: string; content: Buffer }[];
  raw: string;
}

/**
 * A real SMTP server in this process, on a free port, for tests that check what Dash sends:
 * `SMTP_URL` is `receiver.url`; every mail delivered is in `receiver.mails`.
 */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        mails.push({
          ...readMime(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Headers (unfolded, names in lower case) and the body of a MIME entity. */
function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? "" : raw.slice(end).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBytes(body: string, encoding: string | undefined): Buffer {
  return encoding?.toLowerCase() === "base64"
    ? Buffer.from(body.replace(/\s+/g, ""), "base64")
    : Buffer.from(decodeBody(body, encoding), "utf8");
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return Buffer.from(
        body
          .replace(/=\r?\n/g, "")
          .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) =>
            String.fromCharCode(Number.parseInt(hex, 16)),
          ),
        "latin1",
      ).toString("utf8");
    default:
      return body;
  }
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_match, _charset, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeBody(text.replace(/_/g, " "), "quoted-printable"),
    );
}

function readMime(raw: string): Pick<ReceivedMail, "headers" | "subject" | "text" | "html" | "attachments"> {
  const { headers, body } = splitEntity(raw);
  const parts: { type: string; content: string }[] = [];
  const attachments: ReceivedMail["attachments"] = [];
  const collect = (entityHeaders: Map<string, string>, entityBody: string) => {
    const type = entityHeaders.get("content-type") ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.toLowerCase().startsWith("multipart/") && boundary) {
      for (const section of entityBody.split(`--${boundary}`).slice(1)) {
        if (section.startsWith("--")) break;
        const entity = splitEntity(section.replace(/^\r?\n/, ""));
        collect(entity.headers, entity.body);
      }
      return;
    }
    const disposition = entityHeaders.get("content-disposition") ?? "";
    if (disposition.toLowerCase().startsWith("attachment")) {
      const name = /filename\*?=(?:utf-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? "";
      attachments.push({
        fileName: decodeWords(decodeURIComponent(name)),
        contentType: type.split(";")[0]?.trim().toLowerCase() ?? "",
        content: decodeBytes(entityBody, entityHeaders.get("content-transfer-encoding")),
      });
      return;
    }
    parts.push({
      type: type.split(";")[0]?.trim().toLowerCase() ?? "",
      content: decodeBody(entityBody, entityHeaders.get("content-transfer-encoding")),
    });
  };
  collect(headers, body);
  return {
    headers,
    subject: decodeWords(headers.get("subject") ?? ""),
    text: parts.find((part) => part.type === "text/plain")?.content ?? null,
    html: parts.find((part) => part.type === "text/html")?.content ?? null,
    attachments,
  };
}
