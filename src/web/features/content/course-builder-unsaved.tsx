import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";

/**
 * Changes not saved yet are never lost without a question: each form reports whether it holds
 * some, and whatever would close or leave it (choosing another entry, leaving the page, closing a
 * dialog) asks first.
 */

const UnsavedChanges = createContext<(key: string, isDirty: boolean) => void>(() => {});

/**
 * Called by a form with whether it holds changes not saved yet. Answers a way to say at once that
 * it holds none (just saved), before the form draws again, for a step that follows the save.
 */
export function useReportUnsaved(isDirty: boolean): () => void {
  const report = useContext(UnsavedChanges);
  const key = useId();
  useEffect(() => {
    report(key, isDirty);
    return () => report(key, false);
  }, [report, key, isDirty]);
  return useCallback(() => report(key, false), [report, key]);
}

/** Collects what the forms inside report: `hasUnsaved` while any of them holds changes. */
export function useUnsavedForms() {
  const unsaved = useRef(new Set<string>());
  const [count, setCount] = useState(0);
  const report = useCallback((key: string, isDirty: boolean) => {
    if (unsaved.current.has(key) === isDirty) return;
    if (isDirty) unsaved.current.add(key);
    else unsaved.current.delete(key);
    setCount(unsaved.current.size);
  }, []);
  /** The same, as it is this instant (what a click handler should read). */
  const hasUnsavedNow = useCallback(() => unsaved.current.size > 0, []);
  const Provider = useCallback(
    ({ children }: { children: ReactNode }) => (
      <UnsavedChanges.Provider value={report}>{children}</UnsavedChanges.Provider>
    ),
    [report],
  );
  return { hasUnsaved: count > 0, hasUnsavedNow, Provider };
}

/**
 * A dialog whose forms may hold changes: Escape, Cancel or closing it asks before they are thrown
 * away. `children` gets the way to ask to close (the form's Cancel button).
 */
export function DialogKeepingChanges({
  title,
  description,
  onClose,
  isDirty = false,
  children,
}: {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  /** Changes held outside the forms that report them (the dialog's own fields). */
  isDirty?: boolean;
  children: (requestClose: () => void) => ReactNode;
}) {
  const { t } = useTranslation("content");
  const forms = useUnsavedForms();
  const [isAsking, setIsAsking] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const fieldsChanged = useRef(isDirty);
  fieldsChanged.current = isDirty;
  const { hasUnsavedNow } = forms;
  const hasChanges = useCallback(() => fieldsChanged.current || hasUnsavedNow(), [hasUnsavedNow]);

  // Escape closes a dialog: with changes held, it asks instead.
  useEffect(() => {
    const dialog = body.current?.closest("dialog");
    const onCancel = (event: Event) => {
      if (!hasChanges()) return;
      event.preventDefault();
      setIsAsking(true);
    };
    dialog?.addEventListener("cancel", onCancel);
    return () => dialog?.removeEventListener("cancel", onCancel);
  }, [hasChanges]);

  const requestClose = () => (hasChanges() ? setIsAsking(true) : onClose());
  return (
    <Dialog title={title} description={description} onClose={onClose}>
      <div ref={body}>
        <forms.Provider>{children(requestClose)}</forms.Provider>
        {isAsking && (
          <div
            role="alert"
            className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900 dark:border-amber-700 dark:bg-amber-950 dark:text-slate-100"
          >
            <p className="font-medium">{t("builder.unsaved.question")}</p>
            <div className="mt-3 flex flex-wrap gap-2">
              <button type="button" className={buttonClass("danger")} onClick={onClose}>
                {t("builder.unsaved.discard")}
              </button>
              <button type="button" className={buttonClass("secondary")} onClick={() => setIsAsking(false)}>
                {t("builder.unsaved.keepEditing")}
              </button>
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}
