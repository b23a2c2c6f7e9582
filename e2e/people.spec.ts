import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, screenshots, signInAs, submitSignIn } from "./helpers";

/**
 * Organisations, roles and onboarding: an administrator walks the organisations, their tree and
 * explorer; changes a person's roles; links and unlinks a guardian; onboards a new student, who
 * then signs in with the password shown.
 */

const unique = () => Math.random().toString(36).slice(2, 8);

test.use({ viewport: DESKTOP });

test("organizations list → hierarchy tree → explorer", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/organizations");
  await expect(page.getByRole("heading", { name: "Organizations", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: /Organizations with their students/ });
  await expect(table.getByRole("row")).toHaveCount(4);
  await page.getByLabel("Search organizations").fill("MGS");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("link", { name: "Maple Grove School", exact: true })).toBeVisible();
  await page.getByLabel("Search organizations").fill("");
  await expect(table.getByRole("row")).toHaveCount(4);
  await screenshots(page, "people-organizations");

  await page.getByRole("link", { name: "Hierarchy of Dash Demo District" }).click();
  await expect(page.getByRole("heading", { name: "Organization hierarchy", level: 1 })).toBeVisible();
  const tree = page.getByRole("tree");
  const district = tree.getByRole("treeitem", { name: /Dash Demo District/ });
  await expect(district).toHaveAttribute("aria-expanded", "true");
  const maple = tree.getByRole("treeitem", { name: /^Maple Grove School/ });
  await expect(maple).toHaveAttribute("aria-expanded", "false");

  // Keyboard: focus the tree, go down to Maple Grove, open it, go into its first class.
  await district.focus();
  await page.keyboard.press("ArrowDown");
  await expect(maple).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(maple).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("ArrowRight");
  // The tree is one flat list: the item after Maple Grove, one level down, is its first class.
  const firstClass = tree.locator('[role="treeitem"][aria-level="3"]').first();
  await expect(firstClass).toBeFocused();
  await expect(firstClass).toHaveAttribute("aria-posinset", "1");
  await expect(page.getByRole("heading", { level: 2, name: /· .* group$/ })).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(maple).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(maple).toHaveAttribute("aria-expanded", "false");
  await screenshots(page, "people-hierarchy");

  await page.getByRole("link", { name: "Explore Maple Grove School" }).click();
  await expect(page.getByRole("heading", { name: "Maple Grove School", level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: /Bar chart of students per grade/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Students per grade" })).toContainText("Grade 3");
  await screenshots(page, "people-explorer");

  await page.getByRole("tab", { name: "Classes" }).click();
  await page.getByLabel("Search classes").fill("patel");
  const classes = page.getByRole("table", { name: /Classes of Maple Grove School/ });
  await expect(classes.getByRole("row")).toHaveCount(5);
  await expect(classes.getByRole("row", { name: /Science · Patel group/ })).toContainText(
    "Jordan Lee, Maya Patel",
  );

  await page.getByRole("tab", { name: "People" }).click();
  await page.getByLabel("Role", { exact: true }).selectOption("teacher");
  const people = page.getByRole("list", { name: "People" });
  await expect(people.getByRole("listitem").filter({ hasText: "Maya Patel" })).toBeVisible();
  await page.getByLabel("Search people", { exact: true }).fill("jordan");
  await expect(people.locator(":scope > li")).toHaveCount(1);
  await expect(people).toContainText("multi@dash.demo");
  await screenshots(page, "people-explorer-people");

  await page.goto("/app/admin/org-explorer/no-such-org");
  await expect(page.getByRole("heading", { name: "Organization not found" })).toBeVisible();
});

test("an administrator sets a school's default language, and clears it again", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/organizations");
  const language = () => page.getByRole("dialog").getByLabel("Default language");
  await page.getByRole("button", { name: "Edit Riverside School" }).click();
  await expect(language()).toHaveValue("");
  await language().selectOption("es");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Edit Riverside School" }).click();
  await expect(language()).toHaveValue("es");
  await language().selectOption("");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const saved = await page.request.get(`/api/admin/orgs/${demoId("riverside")}`);
  expect((await saved.json()).data.defaultLanguage).toBeNull();
});

test("a Guide sees only their own school, and another school's explorer is refused", async ({ page }) => {
  await signInAs(page, "guide@dash.demo", "/app/admin/organizations");
  const table = page.getByRole("table", { name: /Organizations with their students/ });
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText("Maple Grove School");
  await expect(page.getByRole("button", { name: /^Edit/ })).toHaveCount(0);
  await page.getByRole("link", { name: "Explore Maple Grove School" }).click();
  await expect(page.getByRole("heading", { name: "Maple Grove School", level: 1 })).toBeVisible();
  await page.goto(`/app/admin/org-explorer/${demoId("riverside")}`);
  await expect(page.getByRole("heading", { name: "This organization is not yours to see" })).toBeVisible();
  await expect(page.getByText("Guides can only see the organizations they teach at")).toBeVisible();
});

test("roles tab: an administrator adds a role, makes it primary and removes it", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roles");
  await page.getByLabel("Search users", { exact: true }).fill("Rachel Hughes");
  await page.getByRole("button", { name: "Roles of Rachel Hughes" }).click();
  const roles = page.getByRole("list", { name: "Roles of Rachel Hughes" });
  await expect(roles.getByRole("listitem")).toHaveCount(1);
  await expect(roles).toContainText("Guide");
  await expect(roles).toContainText("Primary");

  await page.getByLabel("New role").selectOption("proctor");
  await page.getByLabel("At organization").selectOption({ label: "Maple Grove School (School)" });
  await page.getByRole("button", { name: "Add role" }).click();
  await expect(page.getByText("Added Proctor at Maple Grove School to Rachel Hughes.")).toBeVisible();
  await expect(roles.getByRole("listitem")).toHaveCount(2);

  await page.getByRole("button", { name: "Make Proctor at Maple Grove School primary" }).click();
  await expect(
    page.getByText("Proctor at Maple Grove School is now the primary role of Rachel Hughes."),
  ).toBeVisible();
  await expect(roles.getByRole("listitem").filter({ hasText: "Proctor" })).toContainText("Primary");
  await screenshots(page, "people-roles-users");

  await page.getByRole("button", { name: "Remove Proctor at Maple Grove School" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove this role?" });
  await expect(dialog).toContainText("Rachel Hughes will no longer be Proctor at Maple Grove School");
  await dialog.getByRole("button", { name: "Remove role" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(roles.getByRole("listitem")).toHaveCount(1);
  await expect(roles).toContainText("Primary");
  await expect(
    page.getByRole("list", { name: "Recent changes" }).getByRole("listitem").first(),
  ).toContainText(
    "Removed Proctor at Maple Grove School from Rachel Hughes; Guide at Maple Grove School is now the primary role",
  );

  // Guard rail: the administrator cannot remove their own last administrator role.
  await page.getByLabel("Search users", { exact: true }).fill("Alex Morgan");
  await page.getByRole("button", { name: "Roles of Alex Morgan" }).click();
  await page.getByRole("button", { name: "Remove Administrator at Dash Demo District" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove role" }).click();
  await expect(page.getByRole("dialog").getByRole("alert")).toContainText(
    "You cannot remove your own last administrator role",
  );
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
});

test("relationships tab: link and unlink a guardian", async ({ page }) => {
  await signInAs(page, "admin@dash.demo", "/app/admin/roles?tab=relationships");
  await expect(page.getByRole("tab", { name: "Relationships" })).toHaveAttribute("aria-selected", "true");
  await page.getByLabel("Search people", { exact: true }).fill("Leo Johnson");
  await page.getByRole("button", { name: "Links of Leo Johnson" }).click();
  const agents = page.getByRole("list", { name: "Parents and guardians of Leo Johnson" });
  await expect(agents.getByRole("listitem")).toHaveCount(1);
  await expect(agents).toContainText("Sam Johnson");

  await page.getByText("Link someone").click();
  await page.getByLabel("Find a parent or guardian to link", { exact: true }).fill("Grace Miller");
  await page.getByRole("button", { name: "Link Grace Miller" }).click();
  await expect(page.getByText("Linked Grace Miller and Leo Johnson.")).toBeVisible();
  await expect(agents.getByRole("listitem")).toHaveCount(2);
  await screenshots(page, "people-roles-relationships");

  // Grace now sees Leo among her children.
  const grace = await page
    .context()
    .browser()
    ?.newContext({ baseURL: new URL(page.url()).origin });
  if (!grace) throw new Error("no browser");
  await grace.request.post("/api/auth/login", {
    data: { email: "guardian@dash.demo", password: "dash-demo" },
  });
  const children = await (await grace.request.get("/api/parent/children")).json();
  expect(children.data.map((child: { givenName: string }) => child.givenName).sort()).toEqual(["Ava", "Leo"]);

  await page.getByRole("button", { name: "Unlink Grace Miller" }).click();
  const dialog = page.getByRole("dialog", { name: "Unlink?" });
  await expect(dialog).toContainText("Grace Miller and Leo Johnson will no longer be linked");
  await dialog.getByRole("button", { name: "Unlink" }).click();
  await expect(agents.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("list", { name: "Recent changes" })).toContainText(
    "Unlinked Grace Miller from Leo Johnson",
  );
  const after = await (await grace.request.get("/api/parent/children")).json();
  expect(after.data.map((child: { givenName: string }) => child.givenName)).toEqual(["Ava"]);
  await grace.close();
});

test("the onboarding wizard end to end, then the new student signs in", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const studentEmail = `zara.${unique()}@learners.example.org`;
  const parentEmail = `quinn.${unique()}@families.example.org`;
  await signInAs(page, "guide@dash.demo", "/app/admin/onboarding");
  await expect(page.getByRole("heading", { name: "Onboarding", level: 1 })).toBeVisible();

  // 1. Student: nothing filled in yet, so Next shows the problems.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Given name is required")).toBeVisible();
  await expect(page.getByLabel("Given name")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Given name").fill("Zara");
  await expect(page.getByText("Given name is required")).toHaveCount(0);
  await page.getByLabel("Family name").fill("Quinn");
  await page.getByLabel("Grade").selectOption("03");
  await page.getByLabel("Email").fill(studentEmail);
  await page.getByLabel("Date of birth (optional)").fill("2017-05-02");
  await screenshots(page, "people-onboarding-student");
  await page.getByRole("button", { name: "Next" }).click();

  // 2. School: a Guide's only school is chosen for them.
  await expect(page.getByRole("heading", { name: "2. School" })).toBeFocused();
  await expect(page.getByRole("radio", { name: /Maple Grove School/ })).toBeChecked();
  await expect(page.getByRole("radio")).toHaveCount(1);
  await page.getByRole("button", { name: "Next" }).click();

  // 3. A new parent and an existing one.
  await page.getByRole("button", { name: "Add a new parent or guardian" }).click();
  const newParent = page.getByRole("group", { name: "New parent or guardian 1" });
  // An email already in use: the server refuses it at the end, and nothing is created.
  await newParent.getByLabel("Email").fill("parent@dash.demo");
  await newParent.getByLabel("Given name").fill("Robin");
  await newParent.getByLabel("Family name").fill("Quinn");
  await page.getByLabel("Link a parent or guardian already in Dash").fill("Sam Johnson");
  await page.getByRole("button", { name: "Link Sam Johnson" }).click();
  await expect(
    page.getByRole("list", { name: "Parents and guardians to add" }).getByRole("listitem"),
  ).toHaveCount(2);
  await screenshots(page, "people-onboarding-guardians");
  await page.getByRole("button", { name: "Next" }).click();

  // 4. Classes: the Guide's own come first; another Guide's cannot be chosen.
  await expect(page.getByRole("checkbox", { name: /Math · Okoro group/ })).toBeDisabled();
  await page.getByRole("checkbox", { name: /Math · Patel group/ }).check();
  await page.getByRole("checkbox", { name: /Reading · Patel group/ }).check();
  await screenshots(page, "people-onboarding-classes");
  await page.getByRole("button", { name: "Next" }).click();

  // 5. Review, then create.
  await expect(page.getByText("Zara Quinn, grade 3, born 2017-05-02")).toBeVisible();
  await expect(page.getByText("Math · Patel group, Reading · Patel group")).toBeVisible();
  await page.getByRole("button", { name: "Create accounts" }).click();
  await expect(page.getByRole("alert")).toContainText(
    "An account with the email parent@dash.demo already exists. Link that person instead.",
  );
  await page.getByRole("button", { name: "Change parents and guardians" }).click();
  await newParent.getByLabel("Email").fill(parentEmail);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Math · Patel group, Reading · Patel group")).toBeVisible();
  await page.getByRole("button", { name: "Create accounts" }).click();

  // 6. Done: the sign-in details, shown once.
  await expect(page.getByRole("heading", { name: "Accounts created" })).toBeVisible();
  const accounts = page.getByRole("list", { name: "New accounts" });
  await expect(accounts.getByRole("listitem")).toHaveCount(2);
  const zara = accounts.getByRole("listitem", { name: "Zara Quinn" });
  await expect(zara).toContainText(studentEmail);
  const password = (await zara.locator("code").nth(1).textContent()) ?? "";
  expect(password).toMatch(/^[2-9a-z]{4}(-[2-9a-z]{4}){3}$/);
  await zara.getByRole("button", { name: "Copy the password of Zara Quinn" }).click();
  await expect(zara.getByText("Copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
  await expect(page.getByRole("button", { name: "Print sign-in details" })).toBeVisible();
  await screenshots(page, "people-onboarding-done");

  // The new student signs in with the password shown.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await submitSignIn(page, studentEmail, password);
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByRole("main").getByRole("heading", { name: "Zara Quinn" })).toBeVisible();
});
