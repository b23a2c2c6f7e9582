import { type Browser, expect, type Page, test } from "@playwright/test";
import { DESKTOP, signInAs } from "./helpers";

/**
 * The emporium from request to hand-out, each person on their own page: Ava asks for an item, her
 * parent approves it, her Guide hands it out; the Alphas each page shows move as they should.
 */

test.use({ viewport: DESKTOP });

const AVA_NAME = "Ava Johnson";

async function pageAs(browser: Browser, email: string, path: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signInAs(page, email, path);
  return page;
}

/** The figure of one of the account's tiles ("Can spend", "Waiting on requests", "Total"). */
async function tile(page: Page, label: string): Promise<number> {
  const value = page.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
  await expect(value).toBeVisible();
  return Number((await value.innerText()).replace(/[^\d-]/g, ""));
}

test("a student asks, the parent approves, the Guide hands out, and the Alphas follow", async ({
  browser,
}) => {
  const item = `Journey notebook ${Date.now()}`;
  const admin = await pageAs(browser, "admin@dash.demo", "/app");
  const created = await admin.request.post("/api/rewards/items", {
    data: { name: item, price: 35, category: "School supplies", stock: 5 },
  });
  expect(created.status()).toBe(201);

  // Ava asks for it: 35 Alphas leave what she can spend and wait on the request.
  const student = await pageAs(browser, "student@dash.demo", "/app/emporium");
  const spendable = await tile(student, "Can spend");
  const total = await tile(student, "Total");
  await student.getByRole("button", { name: `Request ${item}` }).click();
  const ask = student.getByRole("dialog", { name: `Ask for ${item}?` });
  await expect(ask).toContainText("Your family will be asked to approve it.");
  await ask.getByRole("button", { name: "Yes, ask for it" }).click();
  await expect(student.getByText(`You asked for ${item}.`)).toBeVisible();
  await expect.poll(() => tile(student, "Can spend")).toBe(spendable - 35);
  expect(await tile(student, "Total")).toBe(total);

  // Her parent approves it from the family's emporium page.
  const parent = await pageAs(browser, "parent@dash.demo", "/app/parent-emporium");
  await parent.getByRole("button", { name: `Approve ${item}` }).click();
  const approve = parent.getByRole("dialog", { name: `Approve ${item}?` });
  await expect(approve).toContainText(`${AVA_NAME.split(" ")[0]}`);
  await approve.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(parent.getByText(`You approved ${item}.`)).toBeVisible();

  // Her Guide hands it out: the hold becomes a spend.
  const guide = await pageAs(browser, "guide@dash.demo", "/app/teacher/emporium");
  await guide.getByRole("button", { name: new RegExp(`Handed out.*${item}`) }).click();
  await expect(guide.getByText(`Handed out: ${item} to ${AVA_NAME}.`)).toBeVisible();

  await student.reload();
  await expect.poll(() => tile(student, "Total")).toBe(total - 35);
  expect(await tile(student, "Can spend")).toBe(spendable - 35);
  const request = student.getByRole("listitem").filter({ hasText: item }).filter({ hasText: "Asked on" });
  await expect(request).toContainText("Handed out");

  // The ledger agrees with every page.
  const check = await admin.request.get(`/api/rewards/students/${await studentId(admin)}/reconciliation`);
  expect((await check.json()).isBalanced).toBe(true);
});

async function studentId(admin: Page): Promise<string> {
  const found = await admin.request.get(`/api/rewards/students?search=${encodeURIComponent(AVA_NAME)}`);
  return (await found.json()).data[0].studentId;
}
