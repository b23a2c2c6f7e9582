import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  bountyRunSchema,
  createItemSchema,
  grantSchema,
  itemListQuerySchema,
  ledgerQuerySchema,
  payoutSchema,
  REDEMPTION_ACTIONS,
  redemptionDecisionSchema,
  redemptionListQuerySchema,
  redemptionRequestSchema,
  reverseEntrySchema,
  rewardSettingsSchema,
  rewardStudentParamsSchema,
  studentBalanceQuerySchema,
  studentLedgerQuerySchema,
  transferSchema,
  updateItemSchema,
} from "../../../shared/contracts/rewards";
import { currentActor, requireActiveRole } from "../../lib/auth";
import type { AppDeps, AppEnv } from "../../lib/context";
import { csvDownload } from "../../lib/csv-download";
import { AppError } from "../../lib/errors";
import { type Message, message } from "../../lib/i18n";
import { readJsonBody, readParams, readQuery, requestLanguage } from "../../lib/validation";
import { fileResponse } from "../../platform/storage";
import { tellRedemptionDecided, tellRedemptionRequested } from "../notifications/tell";
import { runBounty } from "./earning";
import {
  assertSeesStudent,
  bonusAllowance,
  grantAlphas,
  guideBudget,
  recordPayout,
  transferAlphas,
} from "./grants";
import { ledgerCsv, reconcile, reverseEntry, studentLedger, wholeLedger } from "./history";
import { createItem, ITEM_IMAGE_MAX_BYTES, itemImageKey, listItems, setItemImage, updateItem } from "./items";
import { readAccount } from "./ledger";
import { rewardsMonitor, studentBalances } from "./overview";
import { decideRedemption, listRedemptions, requestRedemption } from "./redemptions";
import { rewardSettingsOf, saveRewardSettings } from "./settings";

const ADMIN = ["administrator"] as const;
const STAFF = ["administrator", "teacher"] as const;

const actionParam = z.object({ action: z.enum(REDEMPTION_ACTIONS) });

/** Ids that cannot name anything (not a UUID, not a whole number) are a 404, as unknown ones are. */
function idOf(c: Context, notFound: Message): string {
  const id = c.req.param("id") ?? "";
  if (!z.uuid().safeParse(id).success) throw new AppError("not_found", notFound);
  return id;
}
function entryIdOf(c: Context): number {
  const id = Number(c.req.param("id"));
  if (!Number.isSafeInteger(id) || id < 1)
    throw new AppError("not_found", message("rewards:ledger.entryNotFound"));
  return id;
}
const ITEM_NOT_FOUND = message("rewards:items.notFound");
const REDEMPTION_NOT_FOUND = message("rewards:redemptions.notFound");

const imageBodySchema = z.object({
  contentType: z.enum(["image/png", "image/jpeg", "image/webp"]),
  /** The picture's bytes in base64. */
  data: z.base64().max(Math.ceil((ITEM_IMAGE_MAX_BYTES * 4) / 3) + 4),
});

const list = <Item>(page: { data: Item[]; total: number }) => ({
  success: true as const,
  ...page,
  error: null,
});

/** Alphas: accounts, the ledger, the emporium, awards, savings, payouts and the school's rules. */
export function rewardsRoutes({ db, auth, storage, live, logger }: AppDeps) {
  return new Hono<AppEnv>()
    .get("/students", async (c) => {
      const query = readQuery(c, studentBalanceQuerySchema);
      return c.json(list(await studentBalances(db, currentActor(c), query)));
    })
    .get("/students/:studentId/account", async (c) => {
      const { studentId } = readParams(c, rewardStudentParamsSchema);
      await assertSeesStudent(db, currentActor(c), studentId);
      return c.json(await readAccount(db, studentId));
    })
    .get("/students/:studentId/ledger", async (c) => {
      const { studentId } = readParams(c, rewardStudentParamsSchema);
      const page = readQuery(c, studentLedgerQuerySchema);
      return c.json(list(await studentLedger(db, currentActor(c), studentId, page, requestLanguage(c))));
    })
    .get("/students/:studentId/bonuses", async (c) => {
      const { studentId } = readParams(c, rewardStudentParamsSchema);
      return c.json(await bonusAllowance(db, currentActor(c), studentId, auth.now()));
    })
    .post("/students/:studentId/transfers", async (c) => {
      const { studentId } = readParams(c, rewardStudentParamsSchema);
      const transfer = await readJsonBody(c, transferSchema);
      return c.json(await transferAlphas(db, currentActor(c), studentId, transfer, auth.now()), 201);
    })
    .post("/students/:studentId/payouts", async (c) => {
      const { studentId } = readParams(c, rewardStudentParamsSchema);
      const payout = await readJsonBody(c, payoutSchema);
      return c.json(await recordPayout(db, currentActor(c), studentId, payout, auth.now()), 201);
    })
    .get("/students/:studentId/reconciliation", async (c) => {
      requireActiveRole(c, ADMIN, message("rewards:actions.reconcile"));
      const { studentId } = readParams(c, rewardStudentParamsSchema);
      return c.json(await reconcile(db, studentId));
    })
    .get("/items", async (c) => {
      const query = readQuery(c, itemListQuerySchema);
      const items = await listItems(db, currentActor(c), query);
      return c.json(list({ data: items, total: items.length }));
    })
    .post("/items", async (c) => {
      const input = await readJsonBody(c, createItemSchema);
      return c.json(await createItem(db, currentActor(c), input), 201);
    })
    .patch("/items/:id", async (c) => {
      // The body first: a PATCH with nothing to change is a 400 whatever it names.
      const changes = await readJsonBody(c, updateItemSchema);
      const id = idOf(c, ITEM_NOT_FOUND);
      return c.json(await updateItem(db, storage, currentActor(c), id, changes));
    })
    .put("/items/:id/image", async (c) => {
      const id = idOf(c, ITEM_NOT_FOUND);
      const image = await readJsonBody(c, imageBodySchema);
      const data = Uint8Array.from(Buffer.from(image.data, "base64"));
      return c.json(
        await setItemImage(db, storage, currentActor(c), id, { contentType: image.contentType, data }),
      );
    })
    .get("/items/:id/image", async (c) => {
      const id = idOf(c, ITEM_NOT_FOUND);
      const key = await itemImageKey(db, currentActor(c), id);
      const file = key ? await storage.get(key) : null;
      if (!file) throw new AppError("not_found", message("rewards:items.noImage"));
      return fileResponse(file);
    })
    .post("/redemptions", async (c) => {
      const input = await readJsonBody(c, redemptionRequestSchema);
      const { redemption, isReplay } = await requestRedemption(db, currentActor(c), input, auth.now());
      if (!isReplay) await tellRedemptionRequested({ db, live, logger }, redemption);
      return c.json(redemption, isReplay ? 200 : 201);
    })
    .get("/redemptions", async (c) => {
      const query = readQuery(c, redemptionListQuerySchema);
      return c.json(list(await listRedemptions(db, currentActor(c), query)));
    })
    .post("/redemptions/:id/:action", async (c) => {
      const id = idOf(c, REDEMPTION_NOT_FOUND);
      const { action } = readParams(c, actionParam);
      const { note } = await readJsonBody(c, redemptionDecisionSchema, { mayBeEmpty: true });
      const redemption = await decideRedemption(db, currentActor(c), id, action, note, auth.now());
      await tellRedemptionDecided({ db, live, logger }, redemption);
      return c.json(redemption);
    })
    .post("/grants", async (c) => {
      const grant = await readJsonBody(c, grantSchema);
      return c.json(await grantAlphas(db, currentActor(c), grant, auth.now()), 201);
    })
    .get("/budget", async (c) => {
      const actor = requireActiveRole(c, STAFF, message("rewards:actions.award"));
      return c.json(await guideBudget(db, actor, auth.now()));
    })
    .get("/settings", async (c) => c.json(await rewardSettingsOf(db)))
    .put("/settings", async (c) => {
      requireActiveRole(c, ADMIN, message("rewards:actions.changeSettings"));
      return c.json(await saveRewardSettings(db, await readJsonBody(c, rewardSettingsSchema)));
    })
    .get("/ledger", async (c) => {
      requireActiveRole(c, ADMIN, message("rewards:actions.audit"));
      return c.json(list(await wholeLedger(db, readQuery(c, ledgerQuerySchema), requestLanguage(c))));
    })
    .get("/ledger.csv", async (c) => {
      requireActiveRole(c, ADMIN, message("rewards:actions.audit"));
      const query = readQuery(c, ledgerQuerySchema);
      const language = requestLanguage(c);
      return csvDownload(c, "alphas-ledger.csv", ledgerCsv(db, query, language));
    })
    .post("/ledger/:id/reverse", async (c) => {
      const actor = requireActiveRole(c, ADMIN, message("rewards:actions.reverse"));
      const id = entryIdOf(c);
      const { reason } = await readJsonBody(c, reverseEntrySchema);
      return c.json(await reverseEntry(db, actor, id, reason, auth.now()), 201);
    })
    .post("/bounty-runs", async (c) => {
      requireActiveRole(c, ADMIN, message("rewards:actions.bounty"));
      const run = await readJsonBody(c, bountyRunSchema);
      return c.json(await runBounty(db, run, auth.now(), requestLanguage(c)));
    })
    .get("/monitor", async (c) => {
      const actor = requireActiveRole(c, STAFF, message("rewards:actions.monitor"));
      return c.json(await rewardsMonitor(db, actor, auth.now()));
    });
}
