import { sql } from "drizzle-orm";
import { addDays } from "../../shared/time-zone";
import { type Database, queryRows } from "../db/client";
import { applyEarningRules } from "../domains/rewards/earning";
import { moveAlphas } from "../domains/rewards/ledger";
import { getRedemption, placeRedemption, takeStep } from "../domains/rewards/redemptions";
import { demoId } from "./demo-accounts";

/**
 * The demo school's emporium and Alphas: a store across categories (some items with stock, one
 * parent's reward for Ava), every student's Alphas earned from their demo activity, and a few
 * requests in each state with a parent's bonus and a Guide's award.
 */

const DEMO_ITEMS = [
  {
    key: "stickers",
    name: "Sticker pack",
    category: "Treats",
    price: 40,
    stock: 50,
    sortOrder: 1,
    description: "Ten shiny stickers for your notebook.",
  },
  {
    key: "snack",
    name: "Snack of your choice",
    category: "Treats",
    price: 60,
    stock: null,
    sortOrder: 2,
    description: "Pick a snack from the school's snack shelf.",
  },
  {
    key: "pencils",
    name: "Gel pen set",
    category: "School supplies",
    price: 120,
    stock: 20,
    sortOrder: null,
    description: "Six colourful gel pens.",
  },
  {
    key: "notebook",
    name: "Dash notebook",
    category: "School supplies",
    price: 150,
    stock: 2,
    sortOrder: null,
    description: "A hardback notebook with the Dash logo.",
  },
  {
    key: "recess",
    name: "Extra 10 minutes of recess",
    category: "Privileges",
    price: 200,
    stock: null,
    sortOrder: 3,
    description: "Ten more minutes outside, with a friend.",
  },
  {
    key: "music",
    name: "Choose the class music",
    category: "Privileges",
    price: 250,
    stock: null,
    sortOrder: null,
    description: "Pick the music for a work session.",
  },
  {
    key: "lunch",
    name: "Lunch with your Guide",
    category: "Experiences",
    price: 600,
    stock: 4,
    sortOrder: null,
    description: "Have lunch with your Guide and a friend.",
  },
  {
    key: "field-day",
    name: "Field trip pass",
    category: "Experiences",
    price: 1500,
    stock: 10,
    sortOrder: null,
    description: "A place on the next field trip.",
  },
  {
    key: "book",
    name: "A book for the class library",
    category: "Giving",
    price: 300,
    stock: null,
    sortOrder: null,
    description: "Choose a book the whole class can read.",
  },
  {
    key: "retired",
    name: "Old hoodie",
    category: "Clothing",
    price: 900,
    stock: 0,
    sortOrder: null,
    description: "No longer sold.",
    isActive: false,
  },
] as const;

/** The demo activity covers about 60 school days: about three months. */
const EARNING_DAYS = 95;

const itemId = (key: string) => demoId(`reward-item-${key}`);

export async function seedDemoRewards(db: Database, today: Date): Promise<void> {
  const ava = demoId("student-ava");
  const leo = demoId("student-leo");
  // Jordan Lee (multi@dash.demo) has no family linked: their Guide, Daniel Okoro, decides their requests.
  const jordan = demoId("multi");
  const sam = demoId("parent-sam");
  const guide = demoId("guide-patel");
  const admin = demoId("admin");

  const items = [
    ...DEMO_ITEMS.map((item) => ({
      ...item,
      id: itemId(item.key),
      audienceKind: "district",
      audienceOrgId: null,
      audienceStudentId: null,
      createdBy: admin,
    })),
    {
      key: "riverside-hoodie",
      id: itemId("riverside-hoodie"),
      name: "Riverside hoodie",
      category: "Clothing",
      price: 800,
      stock: 15,
      sortOrder: null,
      description: "The Riverside school hoodie.",
      audienceKind: "school",
      audienceOrgId: demoId("riverside"),
      audienceStudentId: null,
      createdBy: admin,
    },
    {
      key: "zoo",
      id: itemId("zoo"),
      name: "A trip to the zoo with Dad",
      category: "Family rewards",
      price: 500,
      stock: 1,
      sortOrder: 0,
      description: "A Saturday at the zoo, just the two of us.",
      audienceKind: "child",
      audienceOrgId: null,
      audienceStudentId: ava,
      createdBy: sam,
    },
  ];
  for (const item of items)
    await queryRows(
      db,
      sql`insert into reward_items (id, name, description, price, stock, category, sort_order, is_active,
            audience_kind, audience_org_id, audience_student_id, created_by, created_at, updated_at)
          values (${item.id}::uuid, ${item.name}, ${item.description}, ${item.price}, ${item.stock}, ${item.category},
            ${item.sortOrder}, ${"isActive" in item ? item.isActive : true}, ${item.audienceKind}, ${item.audienceOrgId},
            ${item.audienceStudentId}, ${item.createdBy}, ${today.toISOString()}::timestamptz, ${today.toISOString()}::timestamptz)
          on conflict (id) do nothing`,
    );

  // What every student earned from the demo activity, each award dated on the day it was earned.
  const todayDate = today.toISOString().slice(0, 10);
  await applyEarningRules(db, { from: addDays(todayDate, -EARNING_DAYS), to: todayDate }, today, {
    backdate: true,
  });

  const daysAgo = (days: number) => new Date(today.getTime() - days * 24 * 60 * 60 * 1000);
  const move = (
    studentId: string,
    actorId: string,
    key: string,
    kind: "award" | "parent_bonus",
    amount: number,
    reason: string,
    at: Date,
  ) =>
    moveAlphas(db, {
      studentId,
      actorId,
      idempotencyKey: `demo:${key}`,
      at,
      plan: async () => [{ account: "spending", amount, kind, reason }],
    });
  await move(ava, guide, "award-ava", "award", 50, "Helped a classmate with fractions all week", daysAgo(6));
  await move(ava, sam, "bonus-ava", "parent_bonus", 30, "Great week of reading at home", daysAgo(3));
  await move(leo, sam, "bonus-leo", "parent_bonus", 30, "Finished his science project", daysAgo(3));
  await move(
    jordan,
    demoId("guide-okoro"),
    "award-jordan",
    "award",
    120,
    "Ran the science fair set-up for the younger groups",
    daysAgo(5),
  );
  // Generous enough that the demo requests below are always affordable.
  await move(ava, guide, "award-ava-project", "award", 400, "Outstanding end-of-unit project", daysAgo(10));
  await move(
    leo,
    admin,
    "award-leo-competition",
    "award",
    800,
    "Won the school maths competition",
    daysAgo(12),
  );
  await moveAlphas(db, {
    studentId: ava,
    actorId: ava,
    idempotencyKey: "demo:ava-savings",
    at: daysAgo(8),
    plan: async () => [
      { account: "spending", amount: -100, kind: "transfer", reason: null },
      { account: "savings", amount: 100, kind: "transfer", reason: null },
    ],
  });

  const request = async (studentId: string, key: string, days: number) =>
    (
      await placeRedemption(
        db,
        studentId,
        { itemId: itemId(key), idempotencyKey: `demo:${studentId}:${key}` },
        daysAgo(days),
      )
    ).redemption;
  const step = async (
    id: string,
    action: "approve" | "reject" | "fulfil",
    actorId: string,
    days: number,
    note?: string,
  ) => takeStep(db, await getRedemption(db, id), action, actorId, note, daysAgo(days));

  // Ava: a sticker pack waiting for her parents, extra recess approved and waiting for hand-out.
  await request(ava, "stickers", 1);
  const recess = await request(ava, "recess", 4);
  await step(recess.id, "approve", sam, 3);
  // Leo: a gel pen set handed out, a lunch with his Guide his father said no to (for now).
  const pens = await request(leo, "pencils", 9);
  await step(pens.id, "approve", sam, 8);
  await step(pens.id, "fulfil", demoId("guide-fischer"), 7);
  const pass = await request(leo, "lunch", 5);
  await step(pass.id, "reject", sam, 4, "Let us save for the field trip first.");
  // Jordan: a snack voucher waiting for their Guide, since no parent or guardian is linked.
  await request(jordan, "snack", 2);
}
