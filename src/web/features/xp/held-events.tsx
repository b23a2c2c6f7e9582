import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { HeldEvent, HeldEventStatus } from "../../../shared/contracts/activity";
import { Card } from "../../components/page-header";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { homeKeys } from "../home/api";
import { approveHeldEvent, dismissHeldEvent, heldEventsQuery, xpKeys } from "./api";
import { SELECT_CLASS } from "./student-picker";
import { formatDate, formatXp } from "./xp-history";

const STATUS_CHOICES: { value: HeldEventStatus | "all"; label: string }[] = [
  { value: "pending", label: "Waiting for review" },
  { value: "approved", label: "Approved" },
  { value: "dismissed", label: "Dismissed" },
  { value: "all", label: "All" },
];

const STATUS_BADGES: Record<HeldEventStatus, { label: string; className: string }> = {
  pending: {
    label: "Waiting",
    className: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  },
  approved: {
    label: "Approved",
    className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  },
  dismissed: {
    label: "Dismissed",
    className: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  },
};

const minutes = (seconds: number) => `${Math.round(seconds / 60).toLocaleString()} min`;

/**
 * Activity that learning apps reported past the XP a student's day may earn without a person
 * looking: the administrator sees every student's, a Guide their own students'.
 */
export function HeldForReview() {
  const [status, setStatus] = useState<HeldEventStatus | "all">("pending");
  const [deciding, setDeciding] = useState<{ event: HeldEvent; action: "approve" | "dismiss" } | null>(null);
  const held = useQuery(heldEventsQuery(status));
  const ids = { heading: useId(), status: useId(), description: useId() };

  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="max-w-2xl">
          <h2 id={ids.heading} className="text-lg font-bold">
            Held for review
          </h2>
          <p id={ids.description} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            When an app reports more XP for a student's day than Dash credits on its own, the extra activity
            waits here. Approve it to add its XP, or dismiss it with a reason.
          </p>
        </div>
        <div>
          <label htmlFor={ids.status} className="text-sm font-medium">
            Show
          </label>
          <select
            id={ids.status}
            value={status}
            onChange={(event) => setStatus(event.target.value as HeldEventStatus | "all")}
            className={SELECT_CLASS}
          >
            {STATUS_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {held.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-300">
          Could not load the held activity: {held.error.message}
        </p>
      ) : held.isPending ? (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">Loading…</p>
      ) : held.data.data.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
          {status === "pending" ? "Nothing is waiting for review." : "No activity here."}
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <table aria-labelledby={ids.heading} aria-describedby={ids.description} className="w-full text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-left dark:border-slate-700">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Student
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Activity
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Figures
                </th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">
                  XP
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Why it is held
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Status
                </th>
                <th scope="col" className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
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
        </div>
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
  const badge = STATUS_BADGES[event.status];
  const who = `${event.activityName ?? event.subject} for ${event.studentName}`;
  return (
    <tr className="align-top">
      <td className="py-3 pr-4 font-medium">{event.studentName}</td>
      <td className="py-3 pr-4">
        <p>{event.activityName ?? event.subject}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {[event.appName ?? "Unknown app", event.subject, formatDate(event.localDate)].join(" · ")}
        </p>
      </td>
      <td className="py-3 pr-4 whitespace-nowrap">
        <p>{minutes(event.activeSeconds)} active</p>
        {event.totalQuestions > 0 && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {event.correctQuestions} of {event.totalQuestions} correct
          </p>
        )}
      </td>
      <td className="py-3 pr-4 text-right font-semibold whitespace-nowrap tabular-nums">
        {formatXp(event.xp)}
      </td>
      <td className="py-3 pr-4 first-letter:uppercase">
        {event.heldReason.replace(/^Held for review: /, "")}
      </td>
      <td className="py-3 pr-4">
        <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${badge.className}`}>
          {badge.label}
        </span>
        {event.reviewerName && (
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            by {event.reviewerName}
            {event.reviewedAt && `, ${new Date(event.reviewedAt).toLocaleString()}`}
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
              aria-label={`Approve ${who}`}
              className={buttonClass("primary")}
            >
              Approve
            </button>
            <button
              type="button"
              onClick={() => onDecide("dismiss")}
              aria-label={`Dismiss ${who}`}
              className={buttonClass("secondary")}
            >
              Dismiss
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
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const textId = useId();
  const isApproval = action === "approve";

  async function submit(form: FormEvent) {
    form.preventDefault();
    if (!isApproval && text.trim().length < 3) return setFailure("Give a reason of at least 3 characters.");
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
      setFailure(failureMessage(error, "That did not work. Try again."));
      setIsBusy(false);
    }
  }

  return (
    <Dialog
      title={isApproval ? "Approve this activity?" : "Dismiss this activity?"}
      description={
        isApproval
          ? `${event.studentName} gets ${formatXp(event.xp)} in ${event.subject} for ${event.activityName ?? "this activity"}.`
          : `${event.studentName} does not get the ${formatXp(event.xp)} for ${event.activityName ?? "this activity"}.`
      }
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="mt-4">
        <label htmlFor={textId} className="text-sm font-medium">
          {isApproval ? "Note (optional)" : "Reason"}
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
            Cancel
          </button>
          <button type="submit" disabled={isBusy} className={buttonClass("primary")}>
            {isBusy ? "Saving…" : isApproval ? "Approve and credit XP" : "Dismiss"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
