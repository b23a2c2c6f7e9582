import { Hono } from "hono";
import { pulseNoteInputSchema, pulseQuerySchema } from "../../../shared/contracts/families";
import { requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { message } from "../../lib/i18n";
import { readJsonBody, readQuery } from "../../lib/validation";
import { PULSE_NOTE_WRITERS, PULSE_READERS, readPulse, savePulseNote } from "./pulse";

/** The weekly pulse (mounted at /api/families/pulse): a child's week, and the Guide's note on it. */
export function pulseRoutes({ db, auth, logger }: Pick<AppDeps, "db" | "auth" | "logger">) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const actor = requireActiveRole(c, PULSE_READERS, message("families:pulse.actions.read"));
      const query = readQuery(c, pulseQuerySchema);
      return c.json(await readPulse(db, actor, query, auth.now()));
    })
    .put("/note", async (c) => {
      const actor = requireActiveRole(c, PULSE_NOTE_WRITERS, message("families:pulse.actions.writeNote"));
      const input = await readJsonBody(c, pulseNoteInputSchema);
      return c.json(await savePulseNote(db, actor, input, auth.now(), logger));
    });
}
