import { Gift } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RewardItem } from "../../../shared/contracts/rewards";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { uploadItemImage } from "./api";

/** What the server takes for an item's picture. */
const PICTURE_TYPES = ["image/png", "image/jpeg", "image/webp"];
const PICTURE_MAX_KB = 700;

/** An item's picture, or a gift icon when it has none or it cannot be shown. */
export function ItemPicture({ item, size = "size-12" }: { item: RewardItem; size?: string }) {
  const [failed, setFailed] = useState(false);
  if (!item.imageUrl || failed)
    return (
      <span
        aria-hidden="true"
        className={`${size} grid shrink-0 place-items-center rounded-lg bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400`}
      >
        <Gift className="size-1/2" />
      </span>
    );
  return (
    <img
      src={item.imageUrl}
      alt=""
      onError={() => setFailed(true)}
      className={`${size} shrink-0 rounded-lg bg-slate-100 object-cover dark:bg-slate-800`}
    />
  );
}

/** Uploads a new picture for an item, checking its type and size before sending it. */
export function PictureDialog({
  item,
  onDone,
  onClose,
}: {
  item: RewardItem;
  onDone: (item: RewardItem) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("rewards");
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);

  function choose(chosen: File | null) {
    setFile(null);
    setProblem(null);
    if (!chosen) return;
    if (!PICTURE_TYPES.includes(chosen.type)) return setProblem(t("catalogue.picture.wrongType"));
    if (chosen.size > PICTURE_MAX_KB * 1024)
      return setProblem(
        t("catalogue.picture.tooLarge", {
          size: formatNumber(Math.ceil(chosen.size / 1024), 0),
          max: PICTURE_MAX_KB,
        }),
      );
    setFile(chosen);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) return setProblem(t("catalogue.picture.chooseFirst"));
    setIsSending(true);
    try {
      onDone(await uploadItemImage(item.id, file));
    } catch (error) {
      setProblem(failureMessage(error, t("catalogue.picture.failed")));
      setIsSending(false);
    }
  }

  return (
    <Dialog title={t("catalogue.picture.title", { name: item.name })} onClose={onClose}>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <div className="flex items-center gap-3">
          <ItemPicture item={item} size="size-20" />
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {item.imageUrl ? t("catalogue.picture.replaces") : t("catalogue.picture.none")}
          </p>
        </div>
        <div>
          <label htmlFor={inputId} className="text-sm font-medium">
            {t("catalogue.picture.file")}
          </label>
          <input
            id={inputId}
            type="file"
            accept={PICTURE_TYPES.join(",")}
            aria-describedby={`${inputId}-hint`}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:font-semibold dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100"
          />
          <p id={`${inputId}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {t("catalogue.picture.hint", { max: PICTURE_MAX_KB })}
          </p>
        </div>
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={isSending} className={buttonClass("primary")}>
            {isSending ? t("catalogue.picture.sending") : t("catalogue.picture.upload")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
