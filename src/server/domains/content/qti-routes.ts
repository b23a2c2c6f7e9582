import { type Context, Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  MAX_QTI_PACKAGE_BYTES,
  type QtiImportResponse,
  type QtiKind,
  qtiListQuerySchema,
  qtiPublicChangeSchema,
} from "../../../shared/contracts/content";
import { requireActiveRole } from "../../lib/auth";
import { limitBody } from "../../lib/body-limit";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { withUploadedFile } from "../../lib/multipart-upload";
import { formatBytes } from "../../lib/uploads";
import { readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import { fileResponse } from "../../platform/storage";
import { refuseLockedStudents } from "../integrity/lockout";
import { withoutAnswers } from "./qti/answers";
import { readQtiAsset } from "./qti/assets";
import { fetchQtiDocument, listQtiDocuments, readQtiTest, setQtiPublic } from "./qti/bank";
import { type ImportContext, importQtiUpload, importQtiXml, QTI_PACKAGE_LIMITS } from "./qti/import";
import { decodeXmlBytes, MAX_QTI_DOCUMENT_BYTES } from "./qti/xml";

/** Where documents are imported: an XML body, or a form with an XML file or a content package. */
export const QTI_IMPORT_PATHS = ["/api/qti/items", "/api/qti/stimuli", "/api/qti/tests"];
/** The body types those paths take (app.ts lets them through the JSON-only guard). */
export const QTI_IMPORT_BODY_TYPES = ["application/xml", "text/xml", "multipart/form-data"];

const STAFF = ["administrator", "teacher"] as const;
/** A form's boundaries and other fields around the file, which the file's own limit leaves out. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Package media are named by their content and never change: browsers may keep them long. */
const ASSET_CACHE_CONTROL = "private, max-age=31536000, immutable";

const identifierParam = z.object({ identifier: z.string().trim().min(1).max(200) });
const assetParams = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  fileName: z.string().min(1).max(300),
});

const mediaTypeOf = (c: Context) => c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();

/** An XML body is one document: at most MAX_QTI_DOCUMENT_BYTES. A form (a package) is measured by its own limit. */
const limitXmlBody: MiddlewareHandler<AppEnv> = (c, next) => {
  if (mediaTypeOf(c) === "multipart/form-data") return next();
  return limitBody({
    maxSize: MAX_QTI_DOCUMENT_BYTES,
    onError: () => {
      throw new AppError(
        "payload_too_large",
        message("content:qti.xml.tooLarge", {
          size: formatBytes(Number(c.req.header("content-length") ?? 0)),
          limit: formatBytes(MAX_QTI_DOCUMENT_BYTES),
        }),
      );
    },
  })(c, next);
};

/**
 * /api/qti: the QTI bank for staff. Administrators and Guides import items, stimuli, tests and
 * content packages, list and search them and decide which anonymous embeds may show; reading one
 * document is in qtiPublicRoutes.
 */
export function qtiRoutes({ db, auth, storage }: AppDeps) {
  const importInto = (kind: QtiKind) => async (c: Context<AppEnv>) => {
    const actor = requireActiveRole(c, STAFF, message("content:qti.actions.import"));
    const context: ImportContext = {
      db,
      storage,
      actorId: actor.realUser.sourcedId,
      now: auth.now(),
      language: requestLanguage(c),
    };
    let result: QtiImportResponse;
    if (mediaTypeOf(c) === "multipart/form-data") {
      if (Number(c.req.header("content-length") ?? 0) > MAX_QTI_PACKAGE_BYTES + FORM_OVERHEAD_BYTES)
        throw new AppError(
          "payload_too_large",
          message("common:upload.tooLarge", { limit: formatBytes(MAX_QTI_PACKAGE_BYTES) }),
        );
      result = await withUploadedFile(
        c.req.raw,
        {
          fileField: "file",
          maxBytes: MAX_QTI_PACKAGE_BYTES,
          fileSet: { keepFolders: true, limits: QTI_PACKAGE_LIMITS },
        },
        (files, upload) => importQtiUpload({ ...context, source: upload.fileName }, files, kind),
      );
    } else {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      result = await importQtiXml(context, decodeXmlBytes(bytes), kind);
    }
    return c.json(result);
  };
  const list = (kind: QtiKind) => async (c: Context<AppEnv>) => {
    requireActiveRole(c, STAFF, message("content:qti.actions.list"));
    return c.json(await listQtiDocuments(db, kind, readQuery(c, qtiListQuerySchema)));
  };
  const publish = (kind: "item" | "stimulus") => async (c: Context<AppEnv>) => {
    const actor = requireActiveRole(c, STAFF, message("content:qti.actions.publish"));
    const { identifier } = readParams(c, identifierParam);
    // The schema holds one field and refuses a body without it: it is there.
    const isPublic = (await readJsonBody(c, qtiPublicChangeSchema)).public === true;
    const changed = await setQtiPublic(db, kind, identifier, isPublic, actor.realUser.sourcedId, auth.now());
    return c.json(changed);
  };
  return new Hono<AppEnv>()
    .post("/items", limitXmlBody, importInto("item"))
    .post("/stimuli", limitXmlBody, importInto("stimulus"))
    .post("/tests", limitXmlBody, importInto("test"))
    .get("/items", list("item"))
    .get("/stimuli", list("stimulus"))
    .get("/tests", list("test"))
    .patch("/items/:identifier", publish("item"))
    .patch("/stimuli/:identifier", publish("stimulus"))
    .get("/tests/:identifier", async (c) => {
      const { identifier } = readParams(c, identifierParam);
      return c.json(await readQtiTest(db, identifier));
    });
}

/**
 * The part of /api/qti that embeds reach without a session, mounted before the API asks for one:
 * an item or stimulus (anyone when it is public, any signed-in user otherwise — without its
 * answers unless they are its authors; a private one answers 404 to an anonymous caller) and
 * package media, which are named by their SHA-256.
 */
export function qtiPublicRoutes({ db, storage }: AppDeps) {
  const readOne = (kind: "item" | "stimulus") => async (c: Context<AppEnv>) => {
    const { identifier } = readParams(c, identifierParam);
    const actor = c.get("actor");
    const document = await fetchQtiDocument(db, kind, identifier, { signedIn: actor !== null });
    // A private item's answers are for its authors: a learner signed in sees the question only.
    const isAuthor = actor?.activeRole === "administrator" || actor?.activeRole === "teacher";
    if (kind === "item" && !document.isPublic && !isAuthor)
      return c.json({ ...document, rawXml: withoutAnswers(document.rawXml) });
    return c.json(document);
  };
  return new Hono<AppEnv>()
    .use("*", refuseLockedStudents)
    .get("/items/:identifier", readOne("item"))
    .get("/stimuli/:identifier", readOne("stimulus"))
    .get("/assets/:sha256/:fileName", async (c) => {
      const { sha256 } = readParams(c, assetParams);
      const { file, fileName } = await readQtiAsset(db, storage, sha256);
      return fileResponse(file, { fileName, cacheControl: ASSET_CACHE_CONTROL });
    });
}
