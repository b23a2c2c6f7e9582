import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Audience, CreateItem, RewardItem, UpdateItem } from "../../../shared/contracts/rewards";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { ADMIN_INPUT_CLASS, AdminField, type FormProblems, ProblemsAlert, problemsOf } from "./admin-form";
import { createItem, updateItem } from "./api";

/** A school an item may be offered in. */
export interface SchoolChoice {
  orgId: string;
  name: string;
}

/** The form's fields as typed; the audience as "district", "school:<orgId>" or "child". */
interface ItemDraft {
  name: string;
  description: string;
  price: string;
  stock: string;
  category: string;
  sortOrder: string;
  audience: string;
  imageUrl: string;
}

type ItemValues = Required<Omit<CreateItem, "childId" | "isActive">>;

const UPLOADED_PICTURE = /^\/api\/rewards\/items\//;

function draftOf(item: RewardItem | null): ItemDraft {
  if (!item)
    return {
      name: "",
      description: "",
      price: "",
      stock: "",
      category: "",
      sortOrder: "",
      audience: "district",
      imageUrl: "",
    };
  return {
    name: item.name,
    description: item.description,
    price: String(item.price),
    stock: item.stock === null ? "" : String(item.stock),
    category: item.category,
    sortOrder: item.sortOrder === null ? "" : String(item.sortOrder),
    audience: item.audience.kind === "school" ? `school:${item.audience.orgId}` : item.audience.kind,
    // An uploaded picture is changed with its own button; this field is for a picture found elsewhere.
    imageUrl: item.imageUrl && !UPLOADED_PICTURE.test(item.imageUrl) ? item.imageUrl : "",
  };
}

const optionalNumber = (text: string) => (text.trim() === "" ? null : Number(text));

function valuesOf(draft: ItemDraft, item: RewardItem | null): ItemValues {
  const audience: Audience =
    draft.audience === "child" && item
      ? item.audience
      : draft.audience.startsWith("school:")
        ? { kind: "school", orgId: draft.audience.slice("school:".length) }
        : { kind: "district" };
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    price: Number(draft.price),
    stock: optionalNumber(draft.stock),
    category: draft.category.trim(),
    sortOrder: optionalNumber(draft.sortOrder),
    audience,
    imageUrl: draft.imageUrl.trim() || null,
  };
}

/** Only the fields that differ from the item as it was, so a PATCH changes nothing else. */
function changesOf(values: ItemValues, before: ItemValues): UpdateItem {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(values) as (keyof ItemValues)[])
    if (JSON.stringify(values[key]) !== JSON.stringify(before[key])) changes[key] = values[key];
  return changes as UpdateItem;
}

const isWholeNumber = (value: number | null, minimum: number) =>
  value === null || (Number.isInteger(value) && value >= minimum);

/** Adds or edits a store item; server problems show beside the field they are about. */
export function ItemDialog({
  item,
  schools,
  categories,
  onDone,
  onClose,
}: {
  /** The item to edit, or null to add one. */
  item: RewardItem | null;
  schools: SchoolChoice[];
  categories: string[];
  onDone: (item: RewardItem, change: "created" | "updated" | "unchanged") => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("rewards");
  const [draft, setDraft] = useState(() => draftOf(item));
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);
  const categoryListId = useId();

  const set = (field: keyof ItemDraft) => (event: { target: { value: string } }) => {
    setDraft({ ...draft, [field]: event.target.value });
    setProblems(({ fields }) => ({ fields: { ...fields, [field]: "" } }));
  };

  function check(values: ItemValues): Record<string, string> {
    const found: Record<string, string> = {};
    if (!values.name) found.name = t("catalogue.form.problems.name");
    if (!Number.isInteger(values.price) || values.price < 1) found.price = t("catalogue.form.problems.price");
    if (!isWholeNumber(values.stock, 0)) found.stock = t("catalogue.form.problems.wholeNumber");
    if (!values.category) found.category = t("catalogue.form.problems.category");
    if (!isWholeNumber(values.sortOrder, 0)) found.sortOrder = t("catalogue.form.problems.wholeNumber");
    return found;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const values = valuesOf(draft, item);
    const found = check(values);
    setProblems({ fields: found });
    if (Object.keys(found).length > 0) return;
    const changes = item ? changesOf(values, valuesOf(draftOf(item), item)) : null;
    if (item && changes && Object.keys(changes).length === 0) return onDone(item, "unchanged");
    setIsSaving(true);
    try {
      if (item) onDone(await updateItem(item.id, changes ?? {}), "updated");
      else onDone(await createItem(values), "created");
    } catch (error) {
      // "audience.orgId" is about the audience field; other paths name a field as they are.
      setProblems(problemsOf(error, t("catalogue.form.failed"), (path) => path.split(".")[0] ?? null));
      setIsSaving(false);
    }
  }

  const audienceOptions = [
    { value: "district", label: t("catalogue.audience.district") },
    ...schools.map((school) => ({
      value: `school:${school.orgId}`,
      label: t("catalogue.audience.schoolNamed", { name: school.name }),
    })),
  ];
  // An audience the list does not offer (a parent's reward, a school no longer listed) stays choosable.
  if (!audienceOptions.some((option) => option.value === draft.audience))
    audienceOptions.push({
      value: draft.audience,
      label: t(draft.audience === "child" ? "catalogue.audience.child" : "catalogue.audience.school"),
    });

  const field = problems.fields;
  return (
    <Dialog
      title={item ? t("catalogue.form.editTitle", { name: item.name }) : t("catalogue.form.addTitle")}
      description={t("catalogue.form.description")}
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <AdminField label={t("catalogue.form.name")} error={field.name}>
          {(control) => (
            <input
              {...control}
              value={draft.name}
              onChange={set("name")}
              maxLength={120}
              required
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>
        <AdminField label={t("catalogue.form.itemDescription")} error={field.description}>
          {(control) => (
            <textarea
              {...control}
              value={draft.description}
              onChange={set("description")}
              maxLength={1000}
              rows={2}
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>
        <div className="grid gap-4 sm:grid-cols-2">
          <AdminField label={t("catalogue.form.price")} error={field.price}>
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                required
                value={draft.price}
                onChange={set("price")}
                className={`${ADMIN_INPUT_CLASS} tabular-nums`}
              />
            )}
          </AdminField>
          <AdminField
            label={t("catalogue.form.stock")}
            hint={t("catalogue.form.stockHint")}
            error={field.stock}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={draft.stock}
                onChange={set("stock")}
                className={`${ADMIN_INPUT_CLASS} tabular-nums`}
              />
            )}
          </AdminField>
          <AdminField
            label={t("catalogue.form.category")}
            hint={t("catalogue.form.categoryHint")}
            error={field.category}
          >
            {(control) => (
              <>
                <input
                  {...control}
                  list={categoryListId}
                  value={draft.category}
                  onChange={set("category")}
                  maxLength={60}
                  required
                  className={ADMIN_INPUT_CLASS}
                />
                <datalist id={categoryListId}>
                  {categories.map((category) => (
                    <option key={category} value={category} />
                  ))}
                </datalist>
              </>
            )}
          </AdminField>
          <AdminField
            label={t("catalogue.form.sortOrder")}
            hint={t("catalogue.form.sortOrderHint")}
            error={field.sortOrder}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={draft.sortOrder}
                onChange={set("sortOrder")}
                className={`${ADMIN_INPUT_CLASS} tabular-nums`}
              />
            )}
          </AdminField>
        </div>
        <AdminField label={t("catalogue.form.audience")} error={field.audience}>
          {(control) => (
            <select
              {...control}
              value={draft.audience}
              onChange={set("audience")}
              className={`${ADMIN_INPUT_CLASS} h-[2.875rem]`}
            >
              {audienceOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </AdminField>
        <AdminField
          label={t("catalogue.form.imageUrl")}
          hint={t("catalogue.form.imageUrlHint")}
          error={field.imageUrl}
        >
          {(control) => (
            <input
              {...control}
              type="url"
              inputMode="url"
              placeholder={t("catalogue.form.imageUrlPlaceholder")}
              value={draft.imageUrl}
              onChange={set("imageUrl")}
              maxLength={2000}
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>
        <ProblemsAlert problems={problems} />
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
            {isSaving
              ? t("catalogue.form.saving")
              : item
                ? t("catalogue.form.save")
                : t("catalogue.form.add")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
