import {
  Candy,
  Gift,
  HeartHandshake,
  House,
  type LucideIcon,
  PencilRuler,
  Shirt,
  Star,
  Ticket,
} from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RewardItem } from "../../../shared/contracts/rewards";
import { AlphaAmount } from "./parts";

/** A picture for the store's usual categories when an item has none; anything else is a gift. */
const CATEGORY_ICONS: Record<string, LucideIcon> = {
  treats: Candy,
  "school supplies": PencilRuler,
  privileges: Star,
  experiences: Ticket,
  giving: HeartHandshake,
  clothing: Shirt,
  "family rewards": House,
};

const iconOf = (category: string) => CATEGORY_ICONS[category.trim().toLowerCase()] ?? Gift;

/** The categories in the order the store first lists them. */
const categoriesOf = (items: RewardItem[]) => [...new Set(items.map((item) => item.category))];

/**
 * The store's items as cards, a category's together, with buttons to show one category only.
 * `action` adds what the viewer can do with an item (a student's Request button).
 */
export function StoreItemGrid({
  items,
  action,
}: {
  items: RewardItem[];
  action?: (item: RewardItem) => ReactNode;
}) {
  const { t } = useTranslation("rewards");
  const [shown, setShown] = useState<string | null>(null);
  const categories = categoriesOf(items);
  const chosen = shown && categories.includes(shown) ? shown : null;
  const visible = categories.flatMap((category) =>
    chosen === null || chosen === category ? items.filter((item) => item.category === category) : [],
  );
  const chip = (isOn: boolean) =>
    `inline-flex min-h-9 items-center rounded-full border px-3.5 py-1.5 text-sm font-semibold ${
      isOn
        ? "border-brand-600 bg-brand-600 text-white dark:border-brand-500 dark:bg-brand-500 dark:text-slate-950"
        : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
    }`;
  return (
    <div>
      {categories.length > 1 && (
        <fieldset className="mb-5 flex flex-wrap gap-2">
          <legend className="sr-only">{t("emporium.store.categories")}</legend>
          {[null, ...categories].map((category) => (
            <button
              key={category ?? ""}
              type="button"
              aria-pressed={chosen === category}
              onClick={() => setShown(category)}
              className={chip(chosen === category)}
            >
              {category ?? t("emporium.store.all")}
            </button>
          ))}
        </fieldset>
      )}
      <ul
        aria-label={chosen ?? t("emporium.store.all")}
        className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4"
      >
        {visible.map((item) => (
          <li key={item.id} className="min-w-0">
            <ItemCard item={item} action={action?.(item)} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ItemCard({ item, action }: { item: RewardItem; action?: ReactNode }) {
  const headingId = useId();
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
    >
      <ItemPicture item={item} />
      <div className="flex flex-1 flex-col p-4">
        <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
          {item.category}
        </p>
        <h3 id={headingId} className="font-bold">
          {item.name}
        </h3>
        {item.description && (
          <p className="mt-1 flex-1 text-sm text-slate-600 dark:text-slate-300">{item.description}</p>
        )}
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
          <AlphaAmount
            value={item.price}
            className="text-lg font-extrabold text-brand-700 dark:text-brand-100"
          />
          <StockLeft remaining={item.remaining} />
        </div>
        {action && <div className="mt-3">{action}</div>}
      </div>
    </article>
  );
}

/** The item's picture, or its category's icon on a soft background. */
export function ItemPicture({ item, size = "card" }: { item: RewardItem; size?: "card" | "small" }) {
  const box = size === "card" ? "h-28 w-full" : "size-12 shrink-0 rounded-lg";
  if (item.imageUrl)
    return (
      <img
        src={item.imageUrl}
        alt=""
        loading="lazy"
        className={`${box} bg-slate-100 object-cover dark:bg-slate-800`}
      />
    );
  const Icon = iconOf(item.category);
  return (
    <div
      aria-hidden="true"
      className={`${box} flex items-center justify-center bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100`}
    >
      <Icon className={size === "card" ? "size-10" : "size-6"} strokeWidth={1.5} />
    </div>
  );
}

/** "3 left" or "Sold out" for an item with limited stock; nothing for an unlimited one. */
export function StockLeft({ remaining }: { remaining: number | null }) {
  const { t } = useTranslation("rewards");
  if (remaining === null) return null;
  return remaining > 0 ? (
    <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">
      {t("emporium.store.left", { count: remaining })}
    </span>
  ) : (
    <span className="rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-900/40 dark:text-red-100">
      {t("emporium.store.soldOut")}
    </span>
  );
}
