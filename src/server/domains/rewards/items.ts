import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  Audience,
  createItemSchema,
  RewardItem,
  updateItemSchema,
} from "../../../shared/contracts/rewards";
import { type Database, queryJsonRows, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import type { FileStorage } from "../../platform/storage";
import { childIdsOfAgent, schoolIdsOf } from "../rostering/scope";
import { assertSeesStudent, isFamily } from "./grants";

type CreateItem = z.output<typeof createItemSchema>;
type UpdateItem = z.output<typeof updateItemSchema>;

/** Item pictures: PNG, JPEG or WebP, small enough to send in a JSON body. */
export const ITEM_IMAGE_MAX_BYTES = 700 * 1024;

/** Where an uploaded picture is served; the key's tail changes with each upload, so browsers fetch a new one. */
export const itemImagePath = (itemId: string, imageKey: string) =>
  `/api/rewards/items/${itemId}/image?v=${encodeURIComponent(imageKey.slice(-12))}`;

export interface ItemRow {
  id: string;
  name: string;
  description: string;
  price: number;
  stock: number | null;
  reserved: number;
  category: string;
  sort_order: number | null;
  is_active: boolean;
  audience_kind: Audience["kind"];
  audience_org_id: string | null;
  audience_student_id: string | null;
  image_key: string | null;
  image_url: string | null;
  created_by: string | null;
}

export const ITEM_COLUMNS = sql`i.id, i.name, i.description, i.price, i.stock, i.reserved, i.category, i.sort_order,
  i.is_active, i.audience_kind, i.audience_org_id, i.audience_student_id, i.image_key, i.image_url, i.created_by`;

/** Items with a sort order first, in that order; then by category and name. */
const ITEM_ORDER = sql`i.sort_order asc nulls last, i.category, i.name, i.id`;

export function toItem(row: ItemRow): RewardItem {
  const audience: Audience =
    row.audience_kind === "school"
      ? { kind: "school", orgId: row.audience_org_id ?? "" }
      : row.audience_kind === "child"
        ? { kind: "child", studentId: row.audience_student_id ?? "" }
        : { kind: "district" };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    stock: row.stock,
    remaining: row.stock === null ? null : row.stock - row.reserved,
    category: row.category,
    sortOrder: row.sort_order,
    isActive: row.is_active,
    audience,
    imageUrl: row.image_key ? itemImagePath(row.id, row.image_key) : row.image_url,
    createdBy: row.created_by,
  };
}

/** Items some students may buy: the district's, their schools', and rewards made for one of them. */
export function itemsForStudents(students: SQL): SQL {
  return sql`(i.audience_kind = 'district'
    or (i.audience_kind = 'school' and i.audience_org_id in (${schoolIdsOf(students)}))
    or (i.audience_kind = 'child' and i.audience_student_id in (${students})))`;
}

/**
 * What the caller may see in the store: a student what they may buy; a parent or guardian what
 * their children may buy (one child's with `childId`); staff everything but families' own
 * rewards, administrators everything. Retired items only to those who ask and may bring them back:
 * administrators, and a family for the rewards made for their children.
 */
export async function listItems(
  db: Database,
  actor: Actor,
  query: { childId?: string; includeInactive?: boolean },
): Promise<RewardItem[]> {
  const visible = await visibleItems(db, actor, query.childId);
  const rows = await queryJsonRows<ItemRow>(
    db,
    sql`select ${ITEM_COLUMNS} from reward_items i
        where ${visible} and (i.is_active or ${query.includeInactive === true ? retiredShown(actor) : sql`false`})
        order by ${ITEM_ORDER}`,
  );
  return rows.map(toItem);
}

/** Which retired items the caller sees when they ask for them (see listItems). */
function retiredShown(actor: Actor): SQL {
  if (actor.activeRole === "administrator") return sql`true`;
  return isFamily(actor) ? sql`i.audience_kind = 'child'` : sql`false`;
}

/** The condition on `i` of the items the caller may see (see listItems). */
async function visibleItems(db: Database, actor: Actor, childId?: string): Promise<SQL> {
  const self = actor.user.sourcedId;
  if (childId) {
    await assertSeesStudent(db, actor, childId);
    return itemsForStudents(sql`select ${childId}::text`);
  }
  switch (actor.activeRole) {
    case "student":
      return itemsForStudents(sql`select ${self}::text`);
    case "parent":
    case "guardian":
      return itemsForStudents(childIdsOfAgent(self));
    case "administrator":
      return sql`true`;
    case "teacher":
      return sql`i.audience_kind <> 'child'`;
    default:
      throw new AppError(
        "forbidden",
        message("common:roleForbids", { action: message("rewards:actions.browse") }),
      );
  }
}

async function getItemRow(db: Database, itemId: string): Promise<ItemRow | null> {
  const [row] = await queryJsonRows<ItemRow>(
    db,
    sql`select ${ITEM_COLUMNS} from reward_items i where ${uuidEquals(sql`i.id`, itemId)}`,
  );
  return row ?? null;
}

/** An audience an administrator names must exist: a school, or a student. */
async function assertAudienceExists(db: Database, audience: Audience): Promise<void> {
  if (audience.kind === "district") return;
  const [row] = await queryRows<{ found: boolean }>(
    db,
    audience.kind === "school"
      ? sql`select exists (select 1 from orgs where sourced_id = ${audience.orgId} and status = 'active') as found`
      : sql`select exists (select 1 from user_roles where user_sourced_id = ${audience.studentId} and lower(role) = 'student') as found`,
  );
  if (!row?.found)
    throw new AppError("validation_failed", message(`rewards:items.unknownAudience.${audience.kind}`));
}

/** Administrators stock the store; a parent or guardian adds a reward of their own for one child. */
export async function createItem(db: Database, actor: Actor, input: CreateItem): Promise<RewardItem> {
  let audience = input.audience;
  if (isFamily(actor)) {
    const childId = input.childId ?? (audience.kind === "child" ? audience.studentId : undefined);
    if (!childId) throw new AppError("validation_failed", message("rewards:items.chooseChild"));
    await assertSeesStudent(db, actor, childId);
    audience = { kind: "child", studentId: childId };
  } else if (actor.activeRole === "administrator") {
    if (input.childId) audience = { kind: "child", studentId: input.childId };
    await assertAudienceExists(db, audience);
  } else {
    throw new AppError(
      "forbidden",
      message("common:roleForbids", { action: message("rewards:actions.stock") }),
    );
  }
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into reward_items (name, description, price, stock, category, sort_order, is_active,
          audience_kind, audience_org_id, audience_student_id, image_url, created_by)
        values (${input.name}, ${input.description}, ${input.price}, ${input.stock}, ${input.category},
          ${input.sortOrder}, ${input.isActive}, ${audience.kind},
          ${audience.kind === "school" ? audience.orgId : null},
          ${audience.kind === "child" ? audience.studentId : null}, ${input.imageUrl}, ${actor.user.sourcedId})
        returning id`,
  );
  return toItem((await getItemRow(db, String(row?.id))) as ItemRow);
}

/**
 * The item, if the caller may change it: administrators any, a parent or guardian the rewards
 * they made for their own children.
 */
async function itemToChange(db: Database, actor: Actor, itemId: string): Promise<ItemRow> {
  const row = await getItemRow(db, itemId);
  if (!row) throw new AppError("not_found", message("rewards:items.notFound"));
  if (actor.activeRole === "administrator") return row;
  if (isFamily(actor) && row.audience_kind === "child" && row.created_by === actor.user.sourcedId) {
    await assertSeesStudent(db, actor, row.audience_student_id ?? "");
    return row;
  }
  throw new AppError("forbidden", message("rewards:items.notYours"));
}

export async function updateItem(
  db: Database,
  storage: FileStorage,
  actor: Actor,
  itemId: string,
  changes: UpdateItem,
): Promise<RewardItem> {
  const row = await itemToChange(db, actor, itemId);
  if (changes.audience) {
    if (actor.activeRole !== "administrator")
      throw new AppError("forbidden", message("rewards:items.audienceAdminOnly"));
    await assertAudienceExists(db, changes.audience);
  }
  const audience = changes.audience;
  const sets: SQL[] = [];
  const set = (column: string, value: unknown) => sets.push(sql`${sql.identifier(column)} = ${value}`);
  if (changes.name !== undefined) set("name", changes.name);
  if (changes.description !== undefined) set("description", changes.description);
  if (changes.price !== undefined) set("price", changes.price);
  if (changes.stock !== undefined) set("stock", changes.stock);
  if (changes.category !== undefined) set("category", changes.category);
  if (changes.sortOrder !== undefined) set("sort_order", changes.sortOrder);
  if (changes.isActive !== undefined) set("is_active", changes.isActive);
  if (changes.imageUrl !== undefined) {
    set("image_url", changes.imageUrl);
    if (changes.imageUrl !== null) set("image_key", null);
  }
  if (audience) {
    set("audience_kind", audience.kind);
    set("audience_org_id", audience.kind === "school" ? audience.orgId : null);
    set("audience_student_id", audience.kind === "child" ? audience.studentId : null);
  }
  // `reserved` counts the open requests of an item with stock (requests for an item without stock
  // set nothing aside). Stock given to an item that had none counts its open requests, once the
  // item is locked: a request in flight (holding the item shared) is then committed and counted.
  const outcome = await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [locked] = await queryRows<{ stock: number | null; reserved: number }>(
      tx,
      sql`select stock, reserved from reward_items where id = ${row.id}::uuid for update`,
    );
    let reserved = locked?.reserved ?? 0;
    if (changes.stock === null) reserved = 0;
    else if (changes.stock !== undefined && locked?.stock === null) {
      const [open] = await queryRows<{ count: number }>(
        tx,
        sql`select count(*)::int as count from reward_redemptions
            where item_id = ${row.id}::uuid and status in ('pending', 'approved')`,
      );
      reserved = open?.count ?? 0;
    }
    // Stock may not drop below the units open requests have set aside: they were promised.
    if (changes.stock != null && reserved > changes.stock) return { refused: reserved };
    await queryRows(
      tx,
      sql`update reward_items set ${sql.join(sets, sql`, `)}, reserved = ${reserved}, updated_at = now()
          where id = ${row.id}::uuid`,
    );
    return { refused: null };
  });
  if (outcome.refused !== null)
    throw new AppError(
      "conflict",
      message("rewards:items.stockBelowReserved", { reserved: outcome.refused }),
    );
  // A picture served from elsewhere replaces the uploaded one, which is no longer needed.
  if (changes.imageUrl && row.image_key) await storage.delete(row.image_key);
  return toItem((await getItemRow(db, row.id)) as ItemRow);
}

/** Uploads an item's picture (PNG, JPEG or WebP), replacing the one it had. */
export async function setItemImage(
  db: Database,
  storage: FileStorage,
  actor: Actor,
  itemId: string,
  image: { contentType: string; data: Uint8Array },
): Promise<RewardItem> {
  const row = await itemToChange(db, actor, itemId);
  const stored = await storage.put(image.data, {
    folder: "rewards/items",
    contentType: image.contentType,
    accept: ["png", "jpeg", "webp"],
    maxBytes: ITEM_IMAGE_MAX_BYTES,
  });
  await queryRows(
    db,
    sql`update reward_items set image_key = ${stored.key}, image_url = null, updated_at = now() where id = ${row.id}::uuid`,
  );
  if (row.image_key) await storage.delete(row.image_key);
  return toItem((await getItemRow(db, row.id)) as ItemRow);
}

/** The key of an uploaded picture of an item the caller may see, or null. */
export async function itemImageKey(db: Database, actor: Actor, itemId: string): Promise<string | null> {
  const visible = await visibleItems(db, actor);
  const [row] = await queryRows<{ image_key: string | null }>(
    db,
    sql`select i.image_key from reward_items i where ${uuidEquals(sql`i.id`, itemId)} and ${visible}`,
  );
  return row?.image_key ?? null;
}
