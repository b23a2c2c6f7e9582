import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { HeldEvent, HeldEventStatus } from "../../../shared/contracts/activity";
import { Card } from "../../components/page-header";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { dayLabel, instantLabel } from "../../lib/format";
import { homeKeys } from "../home/keys";
import { approveHeldEvent, dismissHeldEvent, heldEventsQuery } from "./api";
import { xpKeys } from "./keys";
import { SELECT_CLASS } from "./student-picker";
import { xpAmount } from "./xp-history";

const STATUS_CHOICES: (HeldEventStatus | "all")[] = ["pending", "approved", "dismissed", "all"];

const STATUS_BADGES: Record<HeldEventStatus, string> = {
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  approved: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  dismissed: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
};

/**
 * Activity that learning apps reported past the XP a student's day may earn without a person
 * looking: the administrator sees every student's, a Guide their own students'.
 */
export function HeldForReview() {
  const { t } = useTranslation("xp");
  const [status, setStatus] = useState<HeldEventStatus | "all">("pending");
  const [deciding, setDeciding] = useState<{ event: HeldEvent; action: "approve" | "dismiss" } | null>(null);
  const held = useQuery(heldEventsQuery(status));
  const ids = { heading: useId(), status: useId(), description: useId() };

  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="max-w-2xl">
          <h2 id={ids.heading} className="text-lg font-bold">
            {t("held.heading")}
          </h2>
          <p id={ids.description} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {t("held.intro")}
          </p>
        </div>
        <div>
          <label htmlFor={ids.status} className="text-sm font-medium">
            {t("held.show")}
          </label>
          <select
            id={ids.status}
            value={status}
            onChange={(event) => setStatus(event.target.value as HeldEventStatus | "all")}
            className={SELECT_CLASS}
          >
            {STATUS_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t(`held.choices.${choice}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {held.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-300">
          {t("held.loadFailed", { message: held.error.message })}
        </p>
      ) : held.isPending ? (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{t("loading")}</p>
      ) : held.data.data.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
          {status === "pending" ? t("held.nothingWaiting") : t("held.noActivity")}
        </p>
      ) : (
        <TableRegion label={t("held.heading")} className="mt-4">
          <table aria-labelledby={ids.heading} aria-describedby={ids.description} className="w-full text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-left dark:border-slate-700">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t("held.columns.student")}
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t("held.columns.activity")}
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t("held.columns.figures")}
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  {t("held.columns.xp")}
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t("held.columns.why")}
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  {t("held.columns.status")}
                </th>
                <th scope="col" className="py-2 font-semibold">
                  <span className="sr-only">{t("held.columns.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {held.data.data.map((event) => (
                <HeldEventRow
                  key={event.id}
                  event={event}
                  onDecide={(action) => setDeciding({ event, action })}
                />
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {deciding && (
        <DecisionDialog event={deciding.event} action={deciding.action} onClose={() => setDeciding(null)} />
      )}
    </Card>
  );
}

function HeldEventRow({
  event,
  onDecide,
}: {
  event: HeldEvent;
  onDecide: (action: "approve" | "dismiss") => void;
}) {
  const { t } = useTranslation("xp");
  const who = { what: event.activityName ?? event.subject, name: event.studentName };
  return (
    <tr className="align-top">
      <td className="py-3 pr-4 font-medium">{event.studentName}</td>
      <td className="py-3 pr-4">
        <p>{event.activityName ?? event.subject}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {[event.appName ?? t("held.unknownApp"), event.subject, dayLabel(event.localDate)].join(" · ")}
        </p>
      </td>
      <td className="py-3 pr-4 whitespace-nowrap">
        <p>{t("held.active", { minutes: Math.round(event.activeSeconds / 60) })}</p>
        {event.totalQuestions > 0 && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t("held.correct", { correct: event.correctQuestions, total: event.totalQuestions })}
          </p>
        )}
      </td>
      <td className="py-3 pr-4 text-right font-semibold whitespace-nowrap tabular-nums">
        {xpAmount(event.xp, { exact: true })}
      </td>
      <td className="py-3 pr-4 first-letter:uppercase">
        {withoutPrefix(event.heldReason, t("held.reasonPrefix"))}
      </td>
      <td className="py-3 pr-4">
        <span
          className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_BADGES[event.status]}`}
        >
          {t(`held.badges.${event.status}`)}
        </span>
        {event.reviewerName && (
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {event.reviewedAt
              ? t("held.reviewedByAt", {
                  name: event.reviewerName,
                  when: instantLabel(event.reviewedAt),
                })
              : t("held.reviewedBy", { name: event.reviewerName })}
            {event.reviewNote && `: ${event.reviewNote}`}
          </p>
        )}
      </td>
      <td className="py-3">
        {event.status === "pending" && (
          <div className="flex gap-2">
            <button
              type="button"
              onClick={() => onDecide("approve")}
              aria-label={t("held.approveLabel", who)}
              className={buttonClass("primary")}
            >
              {t("held.approve")}
            </button>
            <button
              type="button"
              onClick={() => onDecide("dismiss")}
              aria-label={t("held.dismissLabel", who)}
              className={buttonClass("secondary")}
            >
              {t("held.dismiss")}
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** Approving takes an optional note; dismissing needs a reason the next reviewer can read. */
function DecisionDialog({
  event,
  action,
  onClose,
}: {
  event: HeldEvent;
  action: "approve" | "dismiss";
  onClose: () => void;
}) {
  const { t } = useTranslation("xp");
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const textId = useId();
  const isApproval = action === "approve";

  async function submit(form: FormEvent) {
    form.preventDefault();
    if (!isApproval && text.trim().length < 3) return setFailure(t("held.reasonTooShort"));
    setIsBusy(true);
    setFailure(null);
    try {
      if (isApproval) await approveHeldEvent(event.id, text.trim());
      else await dismissHeldEvent(event.id, text.trim());
      // Approved XP shows wherever the student's XP does.
      queryClient.invalidateQueries({ queryKey: xpKeys.all });
      queryClient.invalidateQueries({ queryKey: homeKeys.all });
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, t("common:dialog.failed")));
      setIsBusy(false);
    }
  }

  return (
    <Dialog
      title={t("held.dialog.title", { action })}
      description={t("held.dialog.description", {
        action,
        named: event.activityName ? "yes" : "no",
        name: event.studentName,
        amount: xpAmount(event.xp, { exact: true }),
        subject: event.subject,
        activity: event.activityName ?? "",
      })}
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="mt-4">
        <label htmlFor={textId} className="text-sm font-medium">
          {isApproval ? t("held.dialog.note") : t("held.dialog.reason")}
        </label>
        <textarea
          id={textId}
          rows={3}
          maxLength={500}
          required={!isApproval}
          value={text}
          onChange={(change) => setText(change.target.value)}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base dark:border-slate-700 dark:bg-slate-950"
        />
        {failure && (
          <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
            {failure}
          </p>
        )}
        <div className="mt-6 flex justify-end gap-3">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={isBusy} className={buttonClass("primary")}>
            {isBusy ? t("held.dialog.saving") : isApproval ? t("held.dialog.approve") : t("held.dismiss")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The reason without the "Held for review: " the column's heading already says. */
function withoutPrefix(reason: string, prefix: string): string {
  return reason.startsWith(prefix) ? reason.slice(prefix.length) : reason;
}
