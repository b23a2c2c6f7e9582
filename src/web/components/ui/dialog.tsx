import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiRequestError } from "../../lib/http";
import { buttonClass } from "./form";

/**
 * A modal dialog: opens when mounted, closes with Escape or when the parent unmounts it. Focus
 * stays inside while it is open and returns to where it was afterwards (the browser's <dialog>).
 */
export function Dialog({
  title,
  description,
  onClose,
  children,
}: {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(30rem,calc(100%-2rem))] rounded-2xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id={titleId} className="text-lg font-bold">
        {title}
      </h2>
      {description && <div className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</div>}
      {children}
    </dialog>
  );
}

/** The message of a failed request, for showing to the user. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.message ? error.message : fallback;
}

/** Asks before doing something that cannot simply be undone; shows the server's refusal in words. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel,
  tone = "danger",
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** The way out, when "Cancel" would be confusing ("Keep it"). */
  cancelLabel?: string;
  /** Red for a step that removes or refuses something; the brand's colour for one that gives. */
  tone?: "primary" | "danger";
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  /** A field the step takes (a note), under the message. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function confirm() {
    setIsBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, t("dialog.failed")));
      setIsBusy(false);
    }
  }
  return (
    <Dialog title={title} description={message} onClose={onClose}>
      {children}
      {failure && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button type="button" onClick={onClose} className={buttonClass("secondary")}>
          {cancelLabel ?? t("dialog.cancel")}
        </button>
        <button type="button" onClick={confirm} disabled={isBusy} className={buttonClass(tone)}>
          {isBusy ? t("dialog.working") : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
