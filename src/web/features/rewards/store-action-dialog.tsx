import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";

const DANGER_BUTTON =
  "rounded-lg border border-red-700 bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-60";

/**
 * Asks before a step with Alphas (asking for an item, approving, recording a payout): says what
 * will happen, may hold a field (a note), and shows the server's refusal in words. Closes itself
 * once the step is done.
 */
export function ActionDialog({
  title,
  message,
  confirmLabel,
  cancelLabel,
  tone = "primary",
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** The way out, when "Cancel" would be confusing ("Keep it"). */
  cancelLabel?: string;
  tone?: "primary" | "danger";
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
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
        <button
          type="button"
          onClick={confirm}
          disabled={isBusy}
          className={tone === "danger" ? DANGER_BUTTON : buttonClass("primary")}
        >
          {isBusy ? t("dialog.working") : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
