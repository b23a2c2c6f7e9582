import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Gift, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { RewardItem } from "../../../shared/contracts/rewards";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { orgsQuery } from "../admin/api";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { SuccessNote } from "./admin-form";
import { ItemDialog, type SchoolChoice } from "./admin-item-dialog";
import { ItemPicture, PictureDialog } from "./admin-item-picture";
import { itemsQuery, rewardKeys, updateItem } from "./api";
import { AlphaAmount } from "./parts";

type Editing = { kind: "add" } | { kind: "edit"; item: RewardItem } | { kind: "picture"; item: RewardItem };

const SMALL_BUTTON = buttonClass("secondary", "px-3 py-1.5 whitespace-nowrap");

/** The active schools, for offering an item in one school. */
function useSchools(): SchoolChoice[] {
  const orgs = useQuery(orgsQuery(""));
  return (orgs.data?.data ?? [])
    .filter((org) => org.type.toLowerCase() === "school" && org.status === "active")
    .map((org) => ({ orgId: org.sourcedId, name: org.name }));
}

/** Every store item, retired ones too: add, edit, picture, retire and bring back. */
export function CatalogueSection() {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const items = useQuery(itemsQuery(undefined, true));
  const schools = useSchools();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const toggle = useMutation({
    mutationFn: (item: RewardItem) => updateItem(item.id, { isActive: !item.isActive }),
    onMutate: () => {
      setNotice(null);
      setFailure(null);
    },
    onSuccess: (item) => {
      setNotice(
        t(item.isActive ? "catalogue.notice.reactivated" : "catalogue.notice.retired", { name: item.name }),
      );
      void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
    },
    onError: (error) => setFailure(failureMessage(error, t("catalogue.form.failed"))),
  });

  function done(message: string) {
    setEditing(null);
    setFailure(null);
    setNotice(message);
    void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
  }

  const list = items.data ?? [];
  const categories = [...new Set(list.map((item) => item.category))].sort((a, b) => a.localeCompare(b));
  const schoolNames = new Map(schools.map((school) => [school.orgId, school.name]));
  const audienceText = ({ audience }: RewardItem) =>
    audience.kind === "district"
      ? t("catalogue.audience.district")
      : audience.kind === "school"
        ? t("catalogue.audience.schoolNamed", {
            name: schoolNames.get(audience.orgId) ?? t("catalogue.audience.school"),
          })
        : t("catalogue.audience.child");

  return (
    <Section
      title={t("catalogue.title")}
      description={t("catalogue.description")}
      actions={
        <button
          type="button"
          onClick={() => setEditing({ kind: "add" })}
          className={buttonClass("primary", "inline-flex items-center gap-2")}
        >
          <Plus aria-hidden="true" className="size-4" />
          {t("catalogue.add")}
        </button>
      }
    >
      <div role="status">{notice && <SuccessNote className="mb-4">{notice}</SuccessNote>}</div>
      {failure && (
        <p role="alert" className="mb-4 text-sm font-medium text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
      {items.isPending ? (
        <Loading label={t("catalogue.loading")} />
      ) : items.isError ? (
        <QueryError
          error={items.error}
          fallback={t("catalogue.loadFailed")}
          onRetry={() => items.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState icon={Gift} title={t("catalogue.empty.title")}>
          {t("catalogue.empty.body")}
        </EmptyState>
      ) : (
        <ul aria-label={t("catalogue.title")} className="grid gap-4 sm:grid-cols-2 2xl:grid-cols-3">
          {list.map((item) => (
            <ItemCard
              key={item.id}
              item={item}
              audience={audienceText(item)}
              isBusy={toggle.isPending}
              onEdit={() => setEditing({ kind: "edit", item })}
              onPicture={() => setEditing({ kind: "picture", item })}
              onToggle={() => toggle.mutate(item)}
            />
          ))}
        </ul>
      )}
      {(editing?.kind === "add" || editing?.kind === "edit") && (
        <ItemDialog
          item={editing.kind === "edit" ? editing.item : null}
          schools={schools}
          categories={categories}
          onClose={() => setEditing(null)}
          onDone={(item, change) => done(t(`catalogue.notice.${change}`, { name: item.name }))}
        />
      )}
      {editing?.kind === "picture" && (
        <PictureDialog
          item={editing.item}
          onClose={() => setEditing(null)}
          onDone={(item) => done(t("catalogue.notice.picture", { name: item.name }))}
        />
      )}
    </Section>
  );
}

/** One item: its picture and facts, and what an administrator can do with it. */
function ItemCard({
  item,
  audience,
  isBusy,
  onEdit,
  onPicture,
  onToggle,
}: {
  item: RewardItem;
  audience: string;
  isBusy: boolean;
  onEdit: () => void;
  onPicture: () => void;
  onToggle: () => void;
}) {
  const { t } = useTranslation("rewards");
  const facts = [
    { key: "price", value: <AlphaAmount value={item.price} className="font-semibold" /> },
    {
      key: "stock",
      value:
        item.stock === null
          ? t("catalogue.stock.unlimited")
          : t("catalogue.stock.left", {
              remaining: formatNumber(item.remaining ?? 0, 0),
              stock: formatNumber(item.stock, 0),
            }),
    },
    { key: "audience", value: audience },
    { key: "order", value: item.sortOrder ?? t("catalogue.noOrder") },
  ] as const;
  return (
    <li
      className={`flex flex-col rounded-xl border p-4 ${
        item.isActive
          ? "border-slate-200 dark:border-slate-800"
          : "border-dashed border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-950"
      }`}
    >
      <div className="flex items-start gap-3">
        <ItemPicture item={item} size="size-16" />
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold break-words">{item.name}</h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">{item.category}</p>
          {!item.isActive && (
            <span className="mt-1 inline-flex rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100">
              {t("catalogue.retired")}
            </span>
          )}
        </div>
      </div>
      {item.description && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{item.description}</p>
      )}
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
        {facts.map((fact) => (
          <div key={fact.key} className="min-w-0">
            <dt className="text-xs text-slate-600 dark:text-slate-400">{t(`catalogue.facts.${fact.key}`)}</dt>
            <dd className="break-words">{fact.value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        <button
          type="button"
          onClick={onEdit}
          aria-label={t("catalogue.actions.editNamed", { name: item.name })}
          className={SMALL_BUTTON}
        >
          {t("catalogue.actions.edit")}
        </button>
        <button
          type="button"
          onClick={onPicture}
          aria-label={t("catalogue.actions.pictureNamed", { name: item.name })}
          className={SMALL_BUTTON}
        >
          {t("catalogue.actions.picture")}
        </button>
        <button
          type="button"
          disabled={isBusy}
          onClick={onToggle}
          aria-label={t(
            item.isActive ? "catalogue.actions.retireNamed" : "catalogue.actions.reactivateNamed",
            {
              name: item.name,
            },
          )}
          className={SMALL_BUTTON}
        >
          {item.isActive ? t("catalogue.actions.retire") : t("catalogue.actions.reactivate")}
        </button>
      </div>
    </li>
  );
}
