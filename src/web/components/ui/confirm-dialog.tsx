import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { buttonClass } from "./form";

/**
 * A modal question before a step that cannot be undone (revoking a key). Escape or Cancel closes
 * it; the action's failure is shown inside, and the dialog closes when the action succeeds.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [isWorking, setIsWorking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function confirm() {
    setIsWorking(true);
    setFailure(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "That did not work. Try again.");
      setIsWorking(false);
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-2xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <h2 id={titleId} className="text-lg font-bold">
        {title}
      </h2>
      <div className="mt-2 text-sm text-slate-600 dark:text-slate-300">{children}</div>
      {failure && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {failure}
        </p>
      )}
      <div className="mt-5 flex justify-end gap-3">
        <button type="button" onClick={() => dialog.current?.close()} className={buttonClass("secondary")}>
          Cancel
        </button>
        <button
          type="button"
          disabled={isWorking}
          onClick={confirm}
          className="rounded-lg border border-red-700 bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-60"
        >
          {isWorking ? "Working…" : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
