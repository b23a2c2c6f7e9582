import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Redemption, RedemptionStatus } from "../../../shared/contracts/rewards";
import { instantDateLabel } from "../../lib/format";
import { AlphaAmount, StatusBadge } from "./parts";

/** States someone decided (or handed out), so a name goes with them. */
const DECIDED = new Set<RedemptionStatus>(["approved", "rejected", "fulfilled"]);

/**
 * Requests from the store, newest first: what was asked for, when, its price and where it stands,
 * with a family's or Guide's note. `action` adds a button to a row (Cancel, Approve).
 */
export function RequestList({
  requests,
  label,
  action,
}: {
  requests: Redemption[];
  label: string;
  action?: (request: Redemption) => ReactNode;
}) {
  const { t } = useTranslation("rewards");
  return (
    <ul aria-label={label} className="divide-y divide-slate-100 dark:divide-slate-800">
      {requests.map((request) => {
        const buttons = action?.(request);
        return (
          <li key={request.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 py-3">
            <div className="min-w-48 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{request.itemName}</span>
                <StatusBadge status={request.status} />
              </p>
              <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
                <AlphaAmount value={request.price} /> ·{" "}
                <time dateTime={request.createdAt}>
                  {t("emporium.requests.asked", { date: instantDateLabel(request.createdAt) })}
                </time>
                {request.expiresAt && (
                  <> · {t("emporium.requests.expires", { date: instantDateLabel(request.expiresAt) })}</>
                )}
              </p>
              {request.decidedBy && DECIDED.has(request.status) && (
                <p className="text-sm text-slate-600 dark:text-slate-300">
                  {t("emporium.requests.decidedBy", {
                    name: request.decidedBy.name,
                    rejected: String(request.status === "rejected"),
                  })}
                  {request.fulfilledBy &&
                    ` · ${t("emporium.requests.fulfilledBy", { name: request.fulfilledBy.name })}`}
                </p>
              )}
              {request.note && (
                <p className="mt-1 text-sm text-slate-700 italic dark:text-slate-200">
                  {t("emporium.requests.note", { note: request.note })}
                </p>
              )}
            </div>
            {buttons && <div className="flex shrink-0 flex-wrap gap-2">{buttons}</div>}
          </li>
        );
      })}
    </ul>
  );
}
