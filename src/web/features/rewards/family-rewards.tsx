import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Gift } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CreateItem, RewardItem } from "../../../shared/contracts/rewards";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, NumberField, TextField } from "../../components/ui/form";
import { ApiRequestError } from "../../lib/http";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { createItem, itemsQuery, rewardKeys, updateItem } from "./api";
import type { Child } from "./family-requests";
import { AlphaAmount } from "./parts";
import { DoneNote } from "./store-done-note";
import { ItemPicture, StockLeft } from "./store-item-grid";

const TEXTAREA_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

/**
 * Rewards a family made for one child: what they are, and a way to add one, retire one or bring a
 * retired one back.
 */
export function FamilyRewards({ child }: { child: Child }) {
  const { t } = useTranslation("rewards");
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const items = useQuery(itemsQuery(child.sourcedId, true));
  const [isCreating, setIsCreating] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const toggle = useMutation({
    mutationFn: (item: RewardItem) => updateItem(item.id, { isActive: !item.isActive }),
    onSuccess: (item) => {
      setDone(
        t(item.isActive ? "family.rewards.reactivated" : "family.rewards.retired", {
          item: item.name,
          name: child.givenName,
        }),
      );
      queryClient.invalidateQueries({ queryKey: rewardKeys.all });
    },
    onError: (error) => setProblem(failureMessage(error, t("family.rewards.failed"))),
  });

  const change = (item: RewardItem) => {
    setDone(null);
    setProblem(null);
    toggle.mutate(item);
  };

  let list: ReactNode;
  if (items.isPending) list = <Loading label={t("family.rewards.loading")} rows={2} />;
  else if (items.isError)
    list = (
      <QueryError
        error={items.error}
        fallback={t("family.rewards.loadFailed")}
        onRetry={() => items.refetch()}
      />
    );
  else {
    const shown = items.data.filter((item) => item.audience.kind === "child");
    list =
      shown.length === 0 ? (
        <EmptyState icon={Gift} title={t("family.rewards.empty.title")}>
          {t("family.rewards.empty.body", { name: child.givenName })}
        </EmptyState>
      ) : (
        <ul
          aria-label={t("family.rewards.listLabel", { name: child.givenName })}
          className="divide-y divide-slate-100 dark:divide-slate-800"
        >
          {shown.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
              <ItemPicture item={item} size="small" />
              <div className="min-w-40 flex-1">
                <p className="flex flex-wrap items-center gap-2 font-semibold">
                  {item.name}
                  {!item.isActive && (
                    <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100">
                      {t("family.rewards.retiredBadge")}
                    </span>
                  )}
                  {item.isActive && <StockLeft remaining={item.remaining} />}
                </p>
                <p className="text-sm text-slate-600 dark:text-slate-300">
                  <AlphaAmount value={item.price} />
                  {item.description && ` · ${item.description}`}
                </p>
              </div>
              {item.createdBy === user.sourcedId ? (
                <button
                  type="button"
                  disabled={toggle.isPending}
                  onClick={() => change(item)}
                  aria-label={t(
                    item.isActive ? "family.rewards.retireLabel" : "family.rewards.reactivateLabel",
                    {
                      item: item.name,
                    },
                  )}
                  className={buttonClass("secondary")}
                >
                  {t(item.isActive ? "family.rewards.retire" : "family.rewards.reactivate")}
                </button>
              ) : (
                <p className="text-sm text-slate-600 dark:text-slate-300">
                  {t("family.rewards.madeByOther")}
                </p>
              )}
            </li>
          ))}
        </ul>
      );
  }

  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-prose text-sm text-slate-600 dark:text-slate-300">
          {t("family.rewards.explain", { name: child.givenName })}
        </p>
        <button type="button" onClick={() => setIsCreating(true)} className={buttonClass("primary")}>
          {t("family.rewards.new")}
        </button>
      </div>
      {problem && (
        <p role="alert" className="mb-3 text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <div role="status">{done && <DoneNote className="mb-3">{done}</DoneNote>}</div>
      {list}
      {isCreating && (
        <NewRewardDialog
          child={child}
          onCreated={(item) => {
            setProblem(null);
            setDone(t("family.rewards.created", { item: item.name, name: child.givenName }));
          }}
          onClose={() => setIsCreating(false)}
        />
      )}
    </div>
  );
}

function NewRewardDialog({
  child,
  onCreated,
  onClose,
}: {
  child: Child;
  onCreated: (item: RewardItem) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [price, setPrice] = useState("");
  const [stock, setStock] = useState("");
  const [category, setCategory] = useState(() => t("family.rewards.defaultCategory"));
  const [problems, setProblems] = useState<string[]>([]);
  const descriptionId = useId();

  const create = useMutation({
    mutationFn: (item: CreateItem) => createItem(item),
    onSuccess: (item) => {
      onCreated(item);
      queryClient.invalidateQueries({ queryKey: rewardKeys.all });
      onClose();
    },
    onError: (error) =>
      setProblems([
        failureMessage(error, t("family.rewards.failed")),
        ...(error instanceof ApiRequestError ? error.issues.map((issue) => issue.message) : []),
      ]),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    const priceValue = Number(price);
    const stockValue = stock.trim() === "" ? null : Number(stock);
    const found: string[] = [];
    if (!name.trim()) found.push(t("family.rewards.problems.name"));
    if (!Number.isInteger(priceValue) || priceValue < 1) found.push(t("family.rewards.problems.price"));
    if (stockValue !== null && (!Number.isInteger(stockValue) || stockValue < 0))
      found.push(t("family.rewards.problems.stock"));
    if (!category.trim()) found.push(t("family.rewards.problems.category"));
    setProblems(found);
    if (found.length > 0) return;
    create.mutate({
      name: name.trim(),
      description: description.trim(),
      price: priceValue,
      stock: stockValue,
      category: category.trim(),
      childId: child.sourcedId,
    });
  }

  return (
    <Dialog
      title={t("family.rewards.newTitle", { name: child.givenName })}
      description={t("family.rewards.newDescription", { name: child.givenName })}
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <TextField
          label={t("family.rewards.fields.name")}
          required
          maxLength={120}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <div>
          <label htmlFor={descriptionId} className="text-sm font-medium">
            {t("family.rewards.fields.description")}
          </label>
          <textarea
            id={descriptionId}
            rows={2}
            maxLength={1000}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            className={TEXTAREA_CLASS}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberField
            label={t("family.rewards.fields.price")}
            required
            min={1}
            step={1}
            inputMode="numeric"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
          />
          <NumberField
            label={t("family.rewards.fields.stock")}
            hint={t("family.rewards.fields.stockHint")}
            min={0}
            step={1}
            inputMode="numeric"
            value={stock}
            onChange={(event) => setStock(event.target.value)}
          />
        </div>
        <TextField
          label={t("family.rewards.fields.category")}
          required
          maxLength={60}
          value={category}
          onChange={(event) => setCategory(event.target.value)}
        />
        {problems.length > 0 && (
          <div role="alert">
            <ul className="list-disc space-y-1 pl-5 text-sm font-medium text-red-700 dark:text-red-300">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={create.isPending} className={buttonClass("primary")}>
            {create.isPending ? t("common:dialog.working") : t("family.rewards.create")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
