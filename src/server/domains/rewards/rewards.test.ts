import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_APP_KEY, demoId } from "../../seed/demo-accounts";
import { createTestApp, type TestApp } from "../../test/harness";
import { applyEarningRules } from "./earning";
import { expireStaleRequests } from "./redemptions";

let t: TestApp;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const who of ["admin", "guide", "student", "parent", "guardian"])
    cookies[who] = await t.signIn(`${who}@dash.demo`);
});
afterAll(() => t.close());

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");
const key = () => randomUUID();

async function call(who: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await t.request(`/api/rewards${path}`, { ...init, cookie: cookies[who] });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, text };
}

const account = async (studentId = AVA) => (await call("admin", `/students/${studentId}/account`)).body;

async function createItem(fields: Record<string, unknown> = {}) {
  const created = await call("admin", "/items", {
    json: { name: `Test item ${randomUUID().slice(0, 6)}`, price: 10, category: "Tests", ...fields },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; price: number };
}

/** Tops Ava's spendable Alphas up by an administrator's award. */
async function award(amount: number, studentId = AVA) {
  const granted = await call("admin", "/grants", {
    json: { studentId, kind: "award", amount, reason: "Test top-up", idempotencyKey: key() },
  });
  expect(granted.status).toBe(201);
  return granted.body;
}

describe("accounts and the ledger", () => {
  it("answer integers that reconcile with the ledger, for the student, their family and Guide", async () => {
    const own = await call("student", `/students/${AVA}/account`);
    expect(own.status).toBe(200);
    expect(Object.keys(own.body).sort()).toEqual(["available", "balance", "held", "savings", "studentId"]);
    expect(own.body.available).toBe(own.body.balance - own.body.held);
    for (const who of ["parent", "guardian", "guide"])
      expect((await call(who, `/students/${AVA}/account`)).body).toEqual(own.body);
    const check = await call("admin", `/students/${AVA}/reconciliation`);
    expect(check.body.isBalanced).toBe(true);
    expect(check.body.fromLedger.balance).toBe(own.body.balance);
    expect(check.body.openRequests.held).toBe(own.body.held);
  });

  it("refuse another family's child and another Guide's student", async () => {
    expect((await call("guardian", `/students/${LEO}/account`)).status).toBe(403);
    expect((await call("guide", `/students/${LEO}/account`)).status).toBe(403);
    expect((await call("student", `/students/${LEO}/ledger`)).status).toBe(403);
    expect((await call("guide", `/students/${LEO}/reconciliation`)).status).toBe(403);
  });

  it("lists a student's entries newest first, with reasons in the reader's language", async () => {
    const ledger = await call("parent", `/students/${AVA}/ledger?limit=5`);
    expect(ledger.body.success).toBe(true);
    expect(ledger.body.data).toHaveLength(5);
    expect(ledger.body.total).toBeGreaterThan(5);
    const times = ledger.body.data.map((entry: { createdAt: string }) => entry.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const spanish = await t.request(`/api/rewards/students/${AVA}/ledger?limit=500`, {
      cookie: cookies.parent,
      headers: { "accept-language": "es" },
    });
    const reasons = (await spanish.json()).data.map((entry: { reason: string }) => entry.reason);
    expect(reasons.some((reason: string) => reason.startsWith("Reservado para"))).toBe(true);
  });
});

describe("the emporium", () => {
  it("takes a request, a parent's approval and a Guide's hand-out, moving the hold into a spend", async () => {
    const item = await createItem({ price: 25, stock: 3 });
    await award(100);
    const before = await account();
    const requested = await call("student", "/redemptions", {
      json: { itemId: item.id, idempotencyKey: key() },
    });
    expect(requested.status).toBe(201);
    expect(requested.body).toMatchObject({ status: "pending", price: 25 });
    const held = await account();
    expect(held).toMatchObject({
      balance: before.balance,
      held: before.held + 25,
      available: before.available - 25,
    });

    // The student cannot approve their own request, a Guide cannot while Ava has a family.
    expect(
      (await call("student", `/redemptions/${requested.body.id}/approve`, { method: "POST" })).status,
    ).toBe(403);
    expect(
      (await call("guide", `/redemptions/${requested.body.id}/approve`, { method: "POST" })).status,
    ).toBe(403);
    // Handing out waits for the approval.
    expect((await call("guide", `/redemptions/${requested.body.id}/fulfil`, { method: "POST" })).status).toBe(
      409,
    );

    const approved = await call("parent", `/redemptions/${requested.body.id}/approve`, {
      json: { note: "Well done" },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", note: "Well done" });
    const queue = await call("guide", "/redemptions?status=approved");
    expect(queue.body.data.map((entry: { id: string }) => entry.id)).toContain(requested.body.id);

    const fulfilled = await call("guide", `/redemptions/${requested.body.id}/fulfil`, { method: "POST" });
    expect(fulfilled.body.status).toBe("fulfilled");
    expect(await account()).toMatchObject({ balance: before.balance - 25, held: before.held });
    const items = (await call("admin", "/items")).body.data;
    expect(items.find((entry: { id: string }) => entry.id === item.id)).toMatchObject({
      stock: 2,
      remaining: 2,
    });
    expect((await call("admin", `/students/${AVA}/reconciliation`)).body.isBalanced).toBe(true);
  });

  it("answers a replayed request once, and releases the hold on reject and cancel", async () => {
    const item = await createItem({ price: 15 });
    await award(100);
    const before = await account();
    const idempotencyKey = key();
    const first = await call("student", "/redemptions", { json: { itemId: item.id, idempotencyKey } });
    const again = await call("student", "/redemptions", { json: { itemId: item.id, idempotencyKey } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await account()).held).toBe(before.held + 15);

    const rejected = await call("guardian", `/redemptions/${first.body.id}/reject`, { method: "POST" });
    expect(rejected.body.status).toBe("rejected");
    expect((await account()).held).toBe(before.held);
    // Another step on a settled request is a conflict; the same one again answers it as it is.
    expect((await call("parent", `/redemptions/${first.body.id}/approve`, { method: "POST" })).status).toBe(
      409,
    );
    expect((await call("parent", `/redemptions/${first.body.id}/reject`, { method: "POST" })).status).toBe(
      200,
    );

    const second = await call("student", "/redemptions", {
      json: { itemId: item.id, idempotencyKey: key() },
    });
    expect((await call("parent", `/redemptions/${second.body.id}/cancel`, { method: "POST" })).status).toBe(
      403,
    );
    const cancelled = await call("student", `/redemptions/${second.body.id}/cancel`, { method: "POST" });
    expect(cancelled.body.status).toBe("cancelled");
    expect(await account()).toEqual(before);
  });

  it("refuses what the student cannot afford, what is sold out and what is not theirs", async () => {
    const { available } = await account();
    const dear = await createItem({ price: available + 1 });
    const tooDear = await call("student", "/redemptions", {
      json: { itemId: dear.id, idempotencyKey: key() },
    });
    expect(tooDear.status).toBe(409);
    expect(tooDear.body.code).toBe("insufficient_balance");

    const soldOut = await createItem({ price: 1, stock: 0 });
    const none = await call("student", "/redemptions", {
      json: { itemId: soldOut.id, idempotencyKey: key() },
    });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe("out_of_stock");

    const leosReward = await createItem({ price: 1, childId: LEO });
    const notHers = await call("student", "/redemptions", {
      json: { itemId: leosReward.id, idempotencyKey: key() },
    });
    expect(notHers.status).toBe(400);
    const unknown = await call("student", "/redemptions", {
      json: { itemId: randomUUID(), idempotencyKey: key() },
    });
    expect(unknown.status).toBe(400);
    expect(
      (await call("parent", "/redemptions", { json: { itemId: soldOut.id, idempotencyKey: key() } })).status,
    ).toBe(403);
    const noKey = await call("student", "/redemptions", { json: { itemId: soldOut.id } });
    expect(noKey.status).toBe(400);
  });

  it("accepts exactly as many of 50 concurrent requests as the balance affords", async () => {
    const wanted = 7;
    const { available } = await account();
    if (available < 7000) await award(Math.min(10_000, 7000 - available));
    const funded = await account();
    const item = await createItem({ price: Math.floor(funded.available / wanted) });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call("student", "/redemptions", { json: { itemId: item.id, idempotencyKey: key() } }),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 201);
    expect(accepted).toHaveLength(wanted);
    expect(
      answers
        .filter((answer) => answer.status === 409)
        .every((answer) => answer.body.code === "insufficient_balance"),
    ).toBe(true);
    const after = await account();
    expect(after.available).toBeGreaterThanOrEqual(0);
    expect(after.held).toBe(funded.held + wanted * item.price);
    expect((await call("admin", `/students/${AVA}/reconciliation`)).body.isBalanced).toBe(true);
    for (const answer of accepted)
      await call("student", `/redemptions/${answer.body.id}/cancel`, { method: "POST" });
  });

  it("never sells more than the stock under concurrent requests", async () => {
    await award(500);
    const item = await createItem({ price: 1, stock: 3 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call("student", "/redemptions", { json: { itemId: item.id, idempotencyKey: key() } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.body.code === "out_of_stock")).toHaveLength(17);
    const listed = (await call("admin", "/items")).body.data.find(
      (entry: { id: string }) => entry.id === item.id,
    );
    expect(listed).toMatchObject({ stock: 3, remaining: 0 });
    for (const answer of answers.filter((one) => one.status === 201))
      await call("student", `/redemptions/${answer.body.id}/cancel`, { method: "POST" });
  });

  it("lets go of requests no one decided within the school's days", async () => {
    const item = await createItem({ price: 5 });
    await award(10);
    const before = await account();
    const requested = await call("student", "/redemptions", {
      json: { itemId: item.id, idempotencyKey: key() },
    });
    expect(requested.body.expiresAt).not.toBeNull();
    const later = new Date(t.clock.now().getTime() + 15 * 24 * 60 * 60 * 1000);
    expect(await expireStaleRequests(t.db, later)).toBeGreaterThanOrEqual(1);
    expect(await expireStaleRequests(t.db, later)).toBe(0);
    const listed = await call("student", "/redemptions?status=expired");
    expect(listed.body.data.map((entry: { id: string }) => entry.id)).toContain(requested.body.id);
    const entries = (await call("student", `/students/${AVA}/ledger?limit=50`)).body.data;
    expect(
      entries.find(
        (entry: { redemptionId: string; kind: string }) =>
          entry.redemptionId === requested.body.id && entry.kind === "release",
      ),
    ).toMatchObject({ amount: 5, reason: `Released: the request for ${requested.body.itemName} expired` });
    // Older pending requests expired with it; whatever they held is released too.
    expect((await account()).held).toBeLessThanOrEqual(before.held);
    expect((await call("admin", `/students/${AVA}/reconciliation`)).body.isBalanced).toBe(true);
  });
});

describe("items", () => {
  it("are stocked by administrators; a parent adds a reward only for their own child", async () => {
    expect((await call("guide", "/items", { json: { name: "Nope", price: 5, category: "X" } })).status).toBe(
      403,
    );
    const custom = await call("parent", "/items", {
      json: { name: "Pizza night", price: 80, category: "Family", childId: AVA },
    });
    expect(custom.status).toBe(201);
    expect(custom.body.audience).toEqual({ kind: "child", studentId: AVA });
    expect(
      (await call("guardian", "/items", { json: { name: "X", price: 5, category: "X", childId: LEO } }))
        .status,
    ).toBe(403);
    const studentSees = (await call("student", "/items")).body.data.map((item: { id: string }) => item.id);
    expect(studentSees).toContain(custom.body.id);
    const leosView = (await call("parent", `/items?childId=${LEO}`)).body.data.map(
      (item: { id: string }) => item.id,
    );
    expect(leosView).not.toContain(custom.body.id);
    expect(
      (await call("guide", "/items")).body.data.some((item: { id: string }) => item.id === custom.body.id),
    ).toBe(false);
    // Items with a sort order come first.
    const orders = (await call("student", "/items")).body.data.map(
      (item: { sortOrder: number | null }) => item.sortOrder,
    );
    expect(orders.indexOf(null)).toBeGreaterThan(0);
    expect(orders.slice(orders.indexOf(null)).every((order: number | null) => order === null)).toBe(true);

    // Retired, it leaves the store; the family still finds it among their rewards to bring back.
    expect(
      (await call("parent", `/items/${custom.body.id}`, { method: "PATCH", json: { isActive: false } }))
        .status,
    ).toBe(200);
    const ids = async (who: string, query: string) =>
      (await call(who, `/items${query}`)).body.data.map((item: { id: string }) => item.id);
    expect(await ids("student", "")).not.toContain(custom.body.id);
    expect(await ids("parent", `?childId=${AVA}`)).not.toContain(custom.body.id);
    expect(await ids("parent", `?childId=${AVA}&includeInactive=true`)).toContain(custom.body.id);
    expect(await ids("student", "?includeInactive=true")).not.toContain(custom.body.id);
    expect(await ids("guide", "?includeInactive=true")).not.toContain(custom.body.id);
  });

  it("count every request once when an item without stock is given stock while students ask", async () => {
    await award(100);
    const item = await createItem({ price: 1 });
    const [answers, patched] = await Promise.all([
      Promise.all(
        Array.from({ length: 20 }, () =>
          call("student", "/redemptions", { json: { itemId: item.id, idempotencyKey: key() } }),
        ),
      ),
      call("admin", `/items/${item.id}`, { method: "PATCH", json: { stock: 10 } }),
    ]);
    const accepted = answers.filter((answer) => answer.status === 201);
    expect(answers.every((answer) => answer.status === 201 || answer.body.code === "out_of_stock")).toBe(
      true,
    );
    const listed = (await call("admin", "/items")).body.data.find(
      (entry: { id: string }) => entry.id === item.id,
    );
    if (patched.status === 200) {
      // Given stock, the item set aside a unit for each request open then and each one after.
      expect(accepted.length).toBeLessThanOrEqual(10);
      expect(listed.remaining).toBe(10 - accepted.length);
    } else {
      // Refused: more requests were open than the stock asked for, and all of them stand.
      expect(patched.status).toBe(409);
      expect(accepted).toHaveLength(20);
      expect(listed.remaining).toBeNull();
    }
    expect((await call("admin", `/students/${AVA}/reconciliation`)).body.isBalanced).toBe(true);
    for (const answer of accepted)
      await call("student", `/redemptions/${answer.body.id}/cancel`, { method: "POST" });
  });

  it("refuse bad prices and stock, and keep stock above what requests set aside", async () => {
    for (const price of [0, -5, 2.5, "ten"]) {
      const refused = await call("admin", "/items", { json: { name: "Bad", price, category: "X" } });
      expect(refused.status).toBe(400);
      expect(refused.body.issues[0].path).toBe("price");
    }
    const item = await createItem({ price: 1, stock: 2 });
    await award(10);
    await call("student", "/redemptions", { json: { itemId: item.id, idempotencyKey: key() } });
    expect((await call("admin", `/items/${item.id}`, { method: "PATCH", json: { stock: 0 } })).status).toBe(
      409,
    );
    expect(
      (await call("admin", `/items/${item.id}`, { method: "PATCH", json: { stock: 5 } })).body.remaining,
    ).toBe(4);
    expect((await call("admin", `/items/not-an-id`, { method: "PATCH", json: { stock: 5 } })).status).toBe(
      404,
    );

    // An item without stock sets nothing aside; given stock, it counts the requests still open.
    const unlimited = await createItem({ price: 1 });
    for (let request = 0; request < 2; request++)
      await call("student", "/redemptions", { json: { itemId: unlimited.id, idempotencyKey: key() } });
    const patch = (stock: number | null) =>
      call("admin", `/items/${unlimited.id}`, { method: "PATCH", json: { stock } });
    expect((await patch(1)).status).toBe(409);
    expect((await patch(3)).body.remaining).toBe(1);
    expect((await patch(null)).body.remaining).toBeNull();
    expect((await call("admin", `/students/${AVA}/reconciliation`)).body.isBalanced).toBe(true);
  });

  it("take an uploaded picture, served only through Dash", async () => {
    const item = await createItem();
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const uploaded = await call("admin", `/items/${item.id}/image`, {
      method: "PUT",
      json: { contentType: "image/png", data: png.toString("base64") },
    });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.imageUrl).toMatch(new RegExp(`^/api/rewards/items/${item.id}/image\\?v=`));
    const image = await t.request(uploaded.body.imageUrl, { cookie: cookies.student });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const forged = await call("admin", `/items/${item.id}/image`, {
      method: "PUT",
      json: { contentType: "image/png", data: Buffer.from("not a picture").toString("base64") },
    });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
  });
});

describe("awards, bonuses, savings and payouts", () => {
  it("keep a Guide within their weekly budget and to their own students", async () => {
    const budget = (await call("guide", "/budget")).body;
    expect(budget.budget).toBe(500);
    const given = await call("guide", "/grants", {
      json: { studentId: AVA, kind: "award", amount: 20, reason: "Kind to a friend", idempotencyKey: key() },
    });
    expect(given.status).toBe(201);
    expect((await call("guide", "/budget")).body.remaining).toBe(budget.remaining - 20);
    const tooMuch = await call("guide", "/grants", {
      json: {
        studentId: AVA,
        kind: "award",
        amount: budget.remaining,
        reason: "Too much",
        idempotencyKey: key(),
      },
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe("limit_reached");
    const notTheirs = await call("guide", "/grants", {
      json: { studentId: LEO, kind: "award", amount: 5, reason: "Not my student", idempotencyKey: key() },
    });
    expect(notTheirs.status).toBe(403);
    // Deductions do not use the budget, but cannot take more than the student has.
    const { available } = await account();
    const deduct = await call("guide", "/grants", {
      json: {
        studentId: AVA,
        kind: "award",
        amount: -(available + 1),
        reason: "Too big a deduction",
        idempotencyKey: key(),
      },
    });
    expect(deduct.body.code).toBe("insufficient_balance");
  });

  it("never move Alphas twice for one key, even sent at once", async () => {
    const before = await account();
    const idempotencyKey = key();
    const json = { studentId: AVA, kind: "award", amount: 7, reason: "Replayed award", idempotencyKey };
    const answers = await Promise.all(Array.from({ length: 5 }, () => call("admin", "/grants", { json })));
    const ids = new Set(answers.map((answer) => answer.body.entryIds[0]));
    expect(ids.size).toBe(1);
    expect((await account()).balance).toBe(before.balance + 7);
  });

  it("give a parent 12 weekly bonuses a school year and refuse the 13th", async () => {
    const leoBefore = await account(LEO);
    const allowance = (await call("parent", `/students/${LEO}/bonuses`)).body;
    expect(allowance.limit).toBe(12);
    expect(allowance.remaining).toBe(12 - allowance.given);
    const given: number = allowance.given;
    for (let index = given; index < 12; index++) {
      const bonus = await call("parent", "/grants", {
        json: { studentId: LEO, kind: "parent_bonus", reason: "A good week", idempotencyKey: key() },
      });
      expect(bonus.status).toBe(201);
    }
    expect((await account(LEO)).balance).toBe(leoBefore.balance + 30 * (12 - given));
    const thirteenth = await call("parent", "/grants", {
      json: { studentId: LEO, kind: "parent_bonus", reason: "One more", idempotencyKey: key() },
    });
    expect(thirteenth.status).toBe(409);
    expect(thirteenth.body.code).toBe("limit_reached");
    expect((await call("parent", `/students/${LEO}/bonuses`)).body).toMatchObject({
      given: 12,
      remaining: 0,
    });
    expect((await call("guardian", `/students/${LEO}/bonuses`)).status).toBe(403);
    const debit = await call("parent", "/grants", {
      json: {
        studentId: LEO,
        kind: "parent_debit",
        reason: "Screen time rules broken",
        idempotencyKey: key(),
      },
    });
    expect(debit.status).toBe(201);
    expect(debit.body.account.balance).toBe(leoBefore.balance + 30 * (12 - given) - 50);
    const wrongAmount = await call("parent", "/grants", {
      json: { studentId: LEO, kind: "parent_bonus", amount: 100, reason: "More", idempotencyKey: key() },
    });
    expect(wrongAmount.status).toBe(400);
  });

  it("refuse kinds the caller may not use and amounts that are not whole Alphas", async () => {
    const base = { studentId: AVA, reason: "Testing kinds", idempotencyKey: key() };
    expect((await call("parent", "/grants", { json: { ...base, kind: "award", amount: 5 } })).status).toBe(
      400,
    );
    expect((await call("guide", "/grants", { json: { ...base, kind: "parent_bonus" } })).status).toBe(400);
    expect((await call("student", "/grants", { json: { ...base, kind: "award", amount: 5 } })).status).toBe(
      400,
    );
    for (const amount of [0, 1.5, "5"])
      expect((await call("admin", "/grants", { json: { ...base, kind: "award", amount } })).status).toBe(400);
    expect((await call("admin", "/grants", { json: { ...base, kind: "spend", amount: 5 } })).status).toBe(
      400,
    );
  });

  it("move Alphas to savings and back, and record a parent's payout at the exchange rate", async () => {
    await award(300);
    const before = await account();
    const saved = await call("student", `/students/${AVA}/transfers`, { json: { toSavings: 120 } });
    expect(saved.status).toBe(201);
    expect(saved.body.account).toMatchObject({
      balance: before.balance - 120,
      savings: before.savings + 120,
    });
    const back = await call("student", `/students/${AVA}/transfers`, { json: { toSpending: 20 } });
    expect(back.body.account.savings).toBe(before.savings + 100);
    const tooMuch = await call("student", `/students/${AVA}/transfers`, { json: { toSpending: 1_000_000 } });
    expect(tooMuch.status).toBe(400);
    const short = await call("student", `/students/${AVA}/transfers`, {
      json: { toSpending: before.savings + 101 },
    });
    expect(short.body.code).toBe("insufficient_balance");
    expect(
      (await call("student", `/students/${AVA}/transfers`, { json: { toSavings: 5, toSpending: 5 } })).status,
    ).toBe(400);
    expect((await call("guide", `/students/${AVA}/transfers`, { json: { toSavings: 5 } })).status).toBe(403);

    const payout = await call("parent", `/students/${AVA}/payouts`, {
      json: { amount: 150, reward: "Cinema trip", idempotencyKey: key() },
    });
    expect(payout.status).toBe(201);
    expect(payout.body.worth).toEqual({ amount: 1.5, currency: "USD" });
    expect(
      (
        await call("student", `/students/${AVA}/payouts`, {
          json: { amount: 1, reward: "Myself", idempotencyKey: key() },
        })
      ).status,
    ).toBe(403);
    expect((await call("admin", `/students/${AVA}/reconciliation`)).body.isBalanced).toBe(true);
  });
});

describe("administration", () => {
  it("reverses an entry once with a compensating entry, never editing it", async () => {
    const granted = await award(33);
    const entryId = granted.entryIds[0];
    const before = await account();
    expect(
      (await call("guide", `/ledger/${entryId}/reverse`, { json: { reason: "Given by mistake" } })).status,
    ).toBe(403);
    const reversed = await call("admin", `/ledger/${entryId}/reverse`, {
      json: { reason: "Given by mistake" },
    });
    expect(reversed.status).toBe(201);
    expect(reversed.body.account.balance).toBe(before.balance - 33);
    expect((await call("admin", `/ledger/${entryId}/reverse`, { json: { reason: "Again" } })).status).toBe(
      409,
    );
    const listed = await call("admin", `/ledger?studentId=${AVA}&kind=reversal`);
    expect(listed.body.data[0]).toMatchObject({
      amount: -33,
      reversesEntryId: entryId,
      reason: "Given by mistake",
    });
    const original = (await call("admin", `/ledger?studentId=${AVA}&kind=award&limit=500`)).body.data.find(
      (entry: { id: number }) => entry.id === entryId,
    );
    expect(original).toMatchObject({ amount: 33, reversedByEntryId: listed.body.data[0].id });
  });

  it("exports the filtered ledger as CSV and keeps the rules for administrators", async () => {
    const csv = await t.request(`/api/rewards/ledger.csv?studentId=${AVA}`, { cookie: cookies.admin });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "Entry,Time (UTC),Student ID,Student,Account,Kind,Alphas,Reason,By,Request,Reverses entry",
    );
    expect(lines.length).toBeGreaterThan(5);
    expect((await t.request("/api/rewards/ledger.csv", { cookie: cookies.guide })).status).toBe(403);

    const settings = (await call("guide", "/settings")).body;
    expect(settings.parents).toEqual({ weeklyBonus: 30, bonusesPerSchoolYear: 12, weeklyDebit: 50 });
    expect((await call("guide", "/settings", { method: "PUT", json: settings })).status).toBe(403);
    const changed = { ...settings, guideWeeklyBudget: 800 };
    expect((await call("admin", "/settings", { method: "PUT", json: changed })).status).toBe(200);
    expect((await call("guide", "/budget")).body.budget).toBe(800);
    const refusals = [
      [{ requestExpiryDays: 0 }, "requestExpiryDays", "At least 1"],
      [{ requestExpiryDays: 2.5 }, "requestExpiryDays", "Whole numbers only"],
      [
        { savings: { ...settings.savings, weeklyInterestPercent: 25 } },
        "savings.weeklyInterestPercent",
        "At most 20",
      ],
    ] as const;
    for (const [change, path, text] of refusals) {
      const refused = await call("admin", "/settings", { method: "PUT", json: { ...settings, ...change } });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(path);
      expect(refused.text).toContain(text);
    }
  });

  it("shows the monitor to staff within their reach", async () => {
    const monitor = await call("guide", "/monitor");
    expect(monitor.status).toBe(200);
    expect(Object.keys(monitor.body.byStatus).sort()).toEqual([
      "approved",
      "cancelled",
      "expired",
      "fulfilled",
      "pending",
      "rejected",
    ]);
    expect((await call("parent", "/monitor")).status).toBe(403);
    // A family's own reward runs low only on the administrators' monitor.
    const isFamilys = (item: { audience: { kind: string } }) => item.audience.kind === "child";
    expect(monitor.body.lowStock.some(isFamilys)).toBe(false);
    expect((await call("admin", "/monitor")).body.lowStock.some(isFamilys)).toBe(true);
    const balances = await call("guide", "/students?search=Ava");
    expect(balances.body.data[0]).toMatchObject({ studentId: AVA, name: "Ava Johnson" });
  });
});

describe("earning rules", () => {
  it("pay mastered units and mastery tests once, however often they run", async () => {
    const occurredAt = new Date(t.clock.now().getTime() - 60_000).toISOString();
    const ingest = await t.request("/api/ingest/activity", {
      headers: { authorization: `Bearer ${DEMO_APP_KEY}` },
      json: {
        events: [
          {
            eventId: `units-${key()}`,
            studentId: AVA,
            occurredAt,
            subject: "Math",
            masteredUnits: 3,
            activeSeconds: 600,
          },
          {
            eventId: `test-${key()}`,
            studentId: AVA,
            occurredAt,
            subject: "Math",
            scorePercent: 100,
            totalQuestions: 10,
            correctQuestions: 10,
            activeSeconds: 900,
          },
        ],
      },
    });
    expect((await ingest.json()).accepted).toHaveLength(2);
    const before = await account();
    const today = t.clock.now().toISOString().slice(0, 10);
    await t.jobs.runDueJobs();
    const range = { from: today, to: today, studentIds: [AVA] };
    await applyEarningRules(t.db, range, t.clock.now());
    expect(await applyEarningRules(t.db, range, t.clock.now())).toBe(0);
    const after = await account();
    expect(after.balance - before.balance).toBeGreaterThanOrEqual(3 + 200);
    const earned = (await call("student", `/students/${AVA}/ledger?limit=20`)).body.data.filter(
      (entry: { kind: string }) => entry.kind === "earn",
    );
    expect(earned.map((entry: { reason: string }) => entry.reason)).toEqual(
      expect.arrayContaining(["Mastered 3 units in Math", "Scored 100% on Math"]),
    );
  });

  it("shows a dry run of a period before paying it, and pays it once", async () => {
    const today = t.clock.now().toISOString().slice(0, 10);
    const run = { from: today, to: today };
    expect((await call("guide", "/bounty-runs", { json: run })).status).toBe(403);
    const dry = await call("admin", "/bounty-runs", { json: { ...run, dryRun: true } });
    expect(dry.status).toBe(200);
    expect(dry.body.paid).toBe(0);
    const paid = await call("admin", "/bounty-runs", { json: { ...run, dryRun: false } });
    expect(paid.body.paid).toBe(dry.body.due);
    const again = await call("admin", "/bounty-runs", { json: { ...run, dryRun: true } });
    expect(again.body.due).toBe(0);
  });
});
