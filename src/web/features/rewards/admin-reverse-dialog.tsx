import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LedgerEntry, LedgerKind, MovementResult } from "../../../shared/contracts/rewards";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { instantLabel } from "../../lib/format";
import { ADMIN_INPUT_CLASS, AdminField, type FormProblems, ProblemsAlert, problemsOf } from "./admin-form";
import { reverseEntry } from "./api";
import { AlphaAmount } from "./parts";

/** Kinds the server undoes: holds and transfers belong to a request or a pair, and are left alone. */
const REVERSIBLE_KINDS: readonly LedgerKind[] = [
  "earn",
  "award",
  "parent_bonus",
  "parent_debit",
  "interest",
  "payout",
  "spend",
];

/** Whether an administrator may still undo an entry: once, and never an undoing itself. */
export const isReversible = (entry: LedgerEntry) =>
  REVERSIBLE_KINDS.includes(entry.kind) && entry.reversedByEntryId === null && entry.reversesEntryId === null;

/** Asks why before undoing a ledger entry with a compensating one. */
export function ReverseDialog({
  entry,
  onDone,
  onClose,
}: {
  entry: LedgerEntry;
  onDone: (result: MovementResult) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("rewards");
  const [reason, setReason] = useState("");
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim().length < 3)
      return setProblems({ fields: { reason: t("transactions.reverse.reasonShort") } });
    setProblems({ fields: {} });
    setIsSaving(true);
    try {
      onDone(await reverseEntry(entry.id, reason.trim()));
    } catch (error) {
      setProblems(problemsOf(error, t("transactions.reverse.failed")));
      setIsSaving(false);
    }
  }

  return (
    <Dialog
      title={t("transactions.reverse.title", { id: entry.id })}
      description={t(
        entry.kind === "spend" ? "transactions.reverse.explainSpend" : "transactions.reverse.explain",
      )}
      onClose={onClose}
    >
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <dt className="text-slate-600 dark:text-slate-300">{t("ledger.student")}</dt>
        <dd className="font-medium">{entry.student?.name ?? entry.studentId}</dd>
        <dt className="text-slate-600 dark:text-slate-300">{t("ledger.what")}</dt>
        <dd>
          {t(`kind.${entry.kind}`)}
          {entry.reason && ` · ${entry.reason}`}
        </dd>
        <dt className="text-slate-600 dark:text-slate-300">{t("ledger.amount")}</dt>
        <dd className="font-semibold">
          <AlphaAmount value={entry.amount} signed />
        </dd>
        <dt className="text-slate-600 dark:text-slate-300">{t("ledger.when")}</dt>
        <dd>{instantLabel(entry.createdAt)}</dd>
      </dl>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <AdminField
          label={t("transactions.reverse.reason")}
          hint={t("transactions.reverse.reasonHint")}
          error={problems.fields.reason}
        >
          {(control) => (
            <textarea
              {...control}
              autoFocus
              required
              minLength={3}
              maxLength={500}
              rows={3}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>
        <ProblemsAlert problems={problems} />
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={isSaving} className={buttonClass("danger")}>
            {isSaving ? t("common:dialog.working") : t("transactions.reverse.confirm")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
