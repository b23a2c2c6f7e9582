import { Hono } from "hono";
import { courseProgressQuerySchema } from "../../../shared/contracts/content";
import { currentActor } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { csvDownload } from "../../lib/csv-download";
import { readQuery, requestLanguage } from "../../lib/validation";
import { courseProgress, courseProgressCsv } from "./progress";

/** A course's progress report, as JSON for the page and as the same rows in a spreadsheet. */
export function progressRoutes({ db }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/progress", async (c) =>
      c.json(await courseProgress(db, currentActor(c), readQuery(c, courseProgressQuerySchema))),
    )
    .get("/progress.csv", async (c) => {
      const report = await courseProgress(db, currentActor(c), readQuery(c, courseProgressQuerySchema));
      return csvDownload(c, "course-progress.csv", courseProgressCsv(report, requestLanguage(c)));
    });
}
