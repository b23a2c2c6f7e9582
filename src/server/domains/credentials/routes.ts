import { Hono } from "hono";
import { z } from "zod";
import {
  appCredentialInputSchema,
  appCredentialListQuerySchema,
  credentialChangesQuerySchema,
  credentialDecryptsQuerySchema,
} from "../../../shared/contracts/credentials";
import { invalid } from "../../../shared/validation-messages";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { withUploadedFile } from "../../lib/multipart-upload";
import { createRateLimiter } from "../../lib/rate-limit";
import { formatBytes } from "../../lib/uploads";
import { parseWith, readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import {
  decryptCredential,
  deleteCredential,
  listChanges,
  listCredentials,
  listDecrypts,
  myCredentials,
  saveCredential,
} from "./credentials";
import { importCredentials } from "./import";

/** The CSV import takes a multipart upload: app.ts leaves its body type and size to the route. */
export const CREDENTIAL_IMPORT_PATH = "/api/admin/app-credentials/import";

const ADMIN = ["administrator"] as const;
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
const FORM_OVERHEAD_BYTES = 64 * 1024;
// Reveals per person: a class's worth in a lesson, far fewer than a harvest of the district's.
const REVEALS_PER_WINDOW = 60;
const REVEAL_WINDOW_MS = 15 * 60_000;

const credentialParam = z.object({ id: z.uuid({ message: invalid("notACredentialId") }) });
const importForm = z.object({ classId: z.string().trim().max(200).optional() });

/**
 * `/api/admin/app-credentials`: administrators keep students' logins and read their history and the
 * decrypt audit. Saves and removals are recorded in the history (who, which login, when), so only
 * the import, whose rejected files leave no history, is logged.
 */
export function credentialAdminRoutes({ db, secretBox, auth, logger }: AppDeps) {
  const manage = message("credentials:actions.manage");
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      requireActiveRole(c, ADMIN, manage);
      return c.json(await listCredentials(db, readQuery(c, appCredentialListQuerySchema)));
    })
    .post("/", async (c) => {
      const actor = requireActiveRole(c, ADMIN, manage);
      const input = await readJsonBody(c, appCredentialInputSchema);
      const saved = await saveCredential(db, secretBox, actor, input, auth.now());
      return c.json(saved, saved.created ? 201 : 200);
    })
    .get("/decrypts", async (c) => {
      requireActiveRole(c, ADMIN, message("credentials:actions.audit"));
      return c.json(await listDecrypts(db, readQuery(c, credentialDecryptsQuerySchema)));
    })
    .get("/changes", async (c) => {
      requireActiveRole(c, ADMIN, message("credentials:actions.history"));
      return c.json(await listChanges(db, readQuery(c, credentialChangesQuerySchema)));
    })
    .post("/import", async (c) => {
      const actor = requireActiveRole(c, ADMIN, manage);
      if (Number(c.req.header("content-length") ?? 0) > MAX_IMPORT_BYTES + FORM_OVERHEAD_BYTES)
        throw new AppError(
          "payload_too_large",
          message("common:upload.tooLarge", { limit: formatBytes(MAX_IMPORT_BYTES) }),
        );
      const language = requestLanguage(c);
      const report = await withUploadedFile(
        c.req.raw,
        { fileField: "file", maxBytes: MAX_IMPORT_BYTES },
        async (files, upload) => {
          const { classId } = parseWith(importForm, upload.fields, language);
          const [file] = files.entries;
          if (!file || files.entries.length > 1)
            throw new AppError("bad_request", message("credentials:import.oneCsv"));
          return importCredentials(db, secretBox, file, {
            byId: actor.realUser.sourcedId,
            classId: classId || null,
            language,
            now: auth.now(),
          });
        },
      );
      logger.info("app credentials import", {
        by: actor.realUser.sourcedId,
        applied: report.applied,
        rows: report.rows,
        created: report.created,
        updated: report.updated,
        errors: report.errors.length,
      });
      return c.json(report);
    })
    .delete("/:id", async (c) => {
      const actor = requireActiveRole(c, ADMIN, manage);
      const { id } = readParams(c, credentialParam);
      await deleteCredential(db, actor, id, auth.now());
      return c.body(null, 204);
    });
}

/** `/api/app-credentials`: a student's own logins, and revealing one password (audited, limited). */
export function credentialRoutes({ db, secretBox, auth }: AppDeps) {
  const reveals = createRateLimiter(db, {
    name: "credential-decrypt",
    limit: REVEALS_PER_WINDOW,
    windowMs: REVEAL_WINDOW_MS,
  });
  return new Hono<AppEnv>()
    .get("/mine", async (c) => c.json(await myCredentials(db, currentActor(c))))
    .post("/:id/decrypt", async (c) => {
      const actor = currentActor(c);
      const { id } = readParams(c, credentialParam);
      const verdict = await reveals.hit(actor.realUser.sourcedId, auth.now());
      if (!verdict.allowed)
        throw new AppError(
          "too_many_requests",
          message("credentials:tooManyReveals", { minutes: Math.ceil(verdict.retryAfterSeconds / 60) }),
          { retryAfterSeconds: verdict.retryAfterSeconds },
        );
      const decrypted = await decryptCredential(db, secretBox, actor, id, auth.now());
      c.header("Cache-Control", "no-store");
      return c.json(decrypted);
    });
}
