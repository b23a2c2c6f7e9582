import { expect, test } from "@playwright/test";
import { demoId } from "../src/server/seed/demo-accounts";
import { DESKTOP, loadAxe, screenshots, signInAs } from "./helpers";

/**
 * The parent pages from the demo parent's side: a card per child on `my-children`, one child's
 * progress over weeks and terms, and a child's hub with a way into every page about them. The
 * weekly pulse on the hub is another journey's; nothing here counts on it.
 */

test.use({ viewport: DESKTOP });

const AVA = demoId("student-ava");
const LEO = demoId("student-leo");

test.describe
  .serial("the parent pages", () => {
    test("my-children shows a card per child with their day, week, goals, Alphas and MAP", async ({
      page,
    }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", "/app/my-children");
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "My children", level: 1 })).toBeVisible();
      const list = main.getByRole("list", { name: "Your children" });
      await expect(list.getByRole("article")).toHaveCount(2);

      const ava = main.getByRole("article", { name: "Ava Johnson" });
      await expect(ava.getByText(/^Grade 3 · Maple Grove School$/)).toBeVisible();
      await expect(ava.getByText(/^Guides?: .*Maya Patel/)).toBeVisible();
      await expect(ava.getByRole("region", { name: "Ava's day" })).toContainText(
        /\d+ of \d+ XP · \d of \d goals met/,
      );
      await expect(ava.getByRole("list", { name: "XP per day this week" }).getByRole("listitem")).toHaveCount(
        7,
      );
      await expect(ava.getByRole("term").filter({ hasText: "Weekly goal" })).toBeVisible();
      await expect(ava.getByRole("definition").filter({ hasText: /\d to spend/ })).toBeVisible();
      await expect(
        ava
          .getByRole("definition")
          .filter({ hasText: /RIT \d+/ })
          .first(),
      ).toBeVisible();

      const leo = main.getByRole("article", { name: "Leo Johnson" });
      await expect(leo.getByText(/Riverside School$/)).toBeVisible();

      // Each card leads to the child's pages.
      const pages = ava.getByRole("navigation", { name: "Ava's pages" });
      await expect(pages.getByRole("link", { name: "Progress" })).toHaveAttribute(
        "href",
        `/app/children-progress?childId=${AVA}`,
      );
      await expect(pages.getByRole("link", { name: "Emporium" })).toHaveAttribute(
        "href",
        `/app/parent-emporium?childId=${AVA}`,
      );
      await screenshots(page, "families-my-children", { axe: true });

      await pages.getByRole("link", { name: "Open Ava's page" }).click();
      await expect(page).toHaveURL(new RegExp(`/app/child/${AVA}$`));
      await expect(main.getByRole("heading", { name: "Ava Johnson", level: 1 })).toBeVisible();
    });

    test("a child's progress shows weeks, subjects, terms, MAP and placements, one child at a time", async ({
      page,
    }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", `/app/children-progress?childId=${AVA}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Children's progress", level: 1 })).toBeVisible();
      await expect(main.getByRole("heading", { name: "Ava Johnson's progress" })).toBeVisible();
      const switcher = main.getByRole("navigation", { name: "Choose a child" });
      await expect(switcher.getByRole("link", { name: "Ava Johnson" })).toHaveAttribute(
        "aria-current",
        "page",
      );

      // The span's totals, the two charts and the tables, twelve weeks by default.
      for (const tile of ["XP", "Time on task", "Units mastered", "Days with every goal met"])
        await expect(
          main
            .getByRole("term")
            .filter({ hasText: new RegExp(`^${tile}$`) })
            .first(),
        ).toBeVisible();
      await expect(
        main.getByRole("img", { name: /^Stacked bar chart of XP per week by subject/ }),
      ).toBeVisible();
      await expect(
        main.getByRole("img", { name: /^Bar chart of the days with every goal met/ }),
      ).toBeVisible();
      const subjects = main.getByRole("table", { name: /^Ava's subjects over the last 12 weeks/ });
      await expect(subjects.getByRole("rowheader", { name: "Math", exact: true })).toBeVisible();
      const weeks = main.getByRole("table", { name: /^Ava's weeks/ });
      await expect(weeks.getByRole("row")).toHaveCount(13);
      await main.getByLabel("Show").selectOption({ label: "The last 4 weeks" });
      await expect(weeks.getByRole("row")).toHaveCount(5);

      await expect(main.getByRole("heading", { name: "Terms" })).toBeVisible();
      await expect(main.getByRole("heading", { name: "MAP Growth", level: 2 })).toBeVisible();
      await expect(main.getByRole("img", { name: /RIT/ }).first()).toBeVisible();
      await expect(main.getByRole("heading", { name: "Placements", level: 2 })).toBeVisible();
      await expect(page.locator("[data-loading]")).toHaveCount(0);
      await screenshots(page, "families-children-progress", { axe: true });

      // The switcher keeps the child in the address; an unknown child falls back to the first.
      await switcher.getByRole("link", { name: "Leo Johnson" }).click();
      await expect(page).toHaveURL(new RegExp(`childId=${LEO}`));
      await expect(main.getByRole("heading", { name: "Leo Johnson's progress" })).toBeVisible();
      await page.goto("/app/children-progress?childId=someone-else");
      await expect(main.getByRole("heading", { name: "Ava Johnson's progress" })).toBeVisible();
    });

    test("a child's hub shows the child and a card for every page about them", async ({ page }) => {
      await loadAxe(page);
      await signInAs(page, "parent@dash.demo", `/app/child/${LEO}`);
      const main = page.getByRole("main");
      await expect(main.getByRole("heading", { name: "Leo Johnson", level: 1 })).toBeVisible();
      await expect(main.getByText(/Riverside School$/)).toBeVisible();
      for (const term of ["Today", "This week", "Alphas to spend"])
        await expect(main.getByRole("term").filter({ hasText: new RegExp(`^${term}$`) })).toBeVisible();

      const pages = main.getByRole("region", { name: "Everything about Leo" });
      const expected: [string, string][] = [
        ["Progress", `/app/children-progress?childId=${LEO}`],
        ["MAP Growth", `/app/parent-map-growth?childId=${LEO}`],
        ["Emporium", `/app/parent-emporium?childId=${LEO}`],
        ["Payout", `/app/child/${LEO}/payout`],
        ["Resources", `/app/student-resources/${LEO}`],
        ["Learning metrics", `/app/learning-metrics?studentId=${LEO}`],
        ["Leaderboards", `/app/leaderboards?child=${LEO}`],
        ["Download Leo's data", `/api/privacy/children/${LEO}/export`],
      ];
      for (const [name, href] of expected)
        await expect(pages.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", href);
      await expect(page.locator("[data-loading]")).toHaveCount(0);
      await screenshots(page, "families-child-hub", { axe: true });

      // From the hub to another child's, then into a page.
      await main
        .getByRole("navigation", { name: "Your children" })
        .getByRole("link", { name: "Ava Johnson" })
        .click();
      await expect(page).toHaveURL(new RegExp(`/app/child/${AVA}$`));
      await expect(main.getByRole("heading", { name: "Ava Johnson", level: 1 })).toBeVisible();
      await main.getByRole("link", { name: /^Progress/ }).click();
      await expect(page).toHaveURL(new RegExp(`/app/children-progress\\?childId=${AVA}$`));

      // Someone else's child is no page of theirs.
      await page.goto(`/app/child/${demoId("guide-patel")}`);
      await expect(main.getByText("This is not one of your children")).toBeVisible();
    });
  });
