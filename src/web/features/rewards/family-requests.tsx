import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, ClipboardList, PackageCheck } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Redemption, RedemptionAction } from "../../../shared/contracts/rewards";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { formatNumber } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { decideRequest, itemsQuery, type RedemptionFilters, redemptionsQuery, rewardKeys } from "./api";
import { DoneNote } from "./store-done-note";
import { RequestList } from "./store-request-list";

/** A child, as the family pages name them. */
export interface Child {
  sourcedId: string;
  givenName: string;
}

const NOTE_CLASS =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950";

type Step = Exclude<RedemptionAction, "cancel">;

/** A child's requests in one state (or all of them), a page at a time, said in words when empty. */
function ChildRequests({
  filters,
  label,
  empty,
  action,
}: {
  filters: RedemptionFilters;
  label: string;
  empty: { title: string; body: string; icon: typeof ClipboardList };
  action?: (request: Redemption) => ReactNode;
}) {
  const { t } = useTranslation("rewards");
  const [offset, setOffset] = useState(0);
  const limit = filters.limit ?? 10;
  const requests = useQuery(redemptionsQuery({ ...filters, offset, limit }));
  if (requests.isPending) return <Loading label={t("family.requests.loading")} rows={2} />;
  if (requests.isError)
    return (
      <QueryError
        error={requests.error}
        fallback={t("family.requests.loadFailed")}
        onRetry={() => requests.refetch()}
      />
    );
  if (requests.data.total === 0)
    return (
      <EmptyState icon={empty.icon} title={empty.title}>
        {empty.body}
      </EmptyState>
    );
  return (
    <>
      <RequestList requests={requests.data.data} label={label} action={action} />
      <Pager offset={offset} limit={limit} total={requests.data.total} onChange={setOffset} label={label} />
    </>
  );
}

/** What a family just did with a request, and the dialog that asks before doing it. */
function useRequestSteps(child: Child) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<{ request: Redemption; step: Step } | null>(null);
  const [done, setDone] = useState<{ request: Redemption; step: Step } | null>(null);
  const [note, setNote] = useState("");
  const noteId = useId();

  const open = (request: Redemption, step: Step) => {
    setNote("");
    setAsking({ request, step });
  };
  const values = (request: Redemption) => ({
    item: request.itemName,
    name: child.givenName,
    count: request.price,
    amount: formatNumber(request.price, 0),
  });

  const status = (
    <div role="status">
      {done && (
        <DoneNote className="mb-3">{t(`family.steps.${done.step}.done`, values(done.request))}</DoneNote>
      )}
    </div>
  );
  const dialog = asking && (
    <ConfirmDialog
      tone="primary"
      title={t(`family.steps.${asking.step}.title`, values(asking.request))}
      message={t(`family.steps.${asking.step}.confirm`, values(asking.request))}
      confirmLabel={t(`family.steps.${asking.step}.button`)}
      cancelLabel={t("family.steps.back")}
      onConfirm={async () => {
        const request = await decideRequest(asking.request.id, asking.step, note.trim() || undefined);
        setDone({ request, step: asking.step });
        void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
      }}
      onClose={() => setAsking(null)}
    >
      {asking.step === "reject" && (
        <div className="mt-4">
          <label htmlFor={noteId} className="text-sm font-medium">
            {t("family.steps.reject.note", { name: child.givenName })}
          </label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={500}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            className={NOTE_CLASS}
          />
        </div>
      )}
    </ConfirmDialog>
  );
  return { open, status, dialog };
}

const stepButton = (label: string, onClick: () => void, kind: "primary" | "secondary", name: string) => (
  <button type="button" onClick={onClick} aria-label={name} className={buttonClass(kind)}>
    {label}
  </button>
);

/** Requests waiting for the family's answer: Approve or Not now (with a note). */
export function WaitingRequests({ child }: { child: Child }) {
  const { t } = useTranslation("rewards");
  const steps = useRequestSteps(child);
  return (
    <>
      {steps.status}
      <ChildRequests
        filters={{ studentId: child.sourcedId, status: "pending", limit: 20 }}
        label={t("family.waiting.title")}
        empty={{
          icon: CheckCircle2,
          title: t("family.waiting.empty.title"),
          body: t("family.waiting.empty.body", { name: child.givenName }),
        }}
        action={(request) =>
          request.approverKind === "family" ? (
            <>
              {stepButton(
                t("family.steps.approve.button"),
                () => steps.open(request, "approve"),
                "primary",
                t("family.steps.approve.buttonLabel", { item: request.itemName }),
              )}
              {stepButton(
                t("family.steps.reject.button"),
                () => steps.open(request, "reject"),
                "secondary",
                t("family.steps.reject.buttonLabel", { item: request.itemName }),
              )}
            </>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-300">{t("family.waiting.guideDecides")}</p>
          )
        }
      />
      {steps.dialog}
    </>
  );
}

/**
 * Approved requests waiting to be handed out. The school hands out its own items; the family's
 * own rewards are handed out at home, so the family marks those.
 */
export function ApprovedRequests({ child }: { child: Child }) {
  const { t } = useTranslation("rewards");
  const steps = useRequestSteps(child);
  const items = useQuery(itemsQuery(child.sourcedId));
  const familyItemIds = new Set(
    (items.data ?? []).filter((item) => item.audience.kind === "child").map((item) => item.id),
  );
  return (
    <>
      {steps.status}
      <ChildRequests
        filters={{ studentId: child.sourcedId, status: "approved", limit: 20 }}
        label={t("family.approved.title")}
        empty={{
          icon: PackageCheck,
          title: t("family.approved.empty.title"),
          body: t("family.approved.empty.body"),
        }}
        action={(request) =>
          familyItemIds.has(request.itemId) ? (
            stepButton(
              t("family.steps.fulfil.button"),
              () => steps.open(request, "fulfil"),
              "secondary",
              t("family.steps.fulfil.buttonLabel", { item: request.itemName }),
            )
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {t("family.approved.schoolHandsOut")}
            </p>
          )
        }
      />
      {steps.dialog}
    </>
  );
}

/** Every request of the child, newest first. */
export function RecentRequests({ child }: { child: Child }) {
  const { t } = useTranslation("rewards");
  return (
    <ChildRequests
      filters={{ studentId: child.sourcedId, limit: 10 }}
      label={t("family.recent.title")}
      empty={{
        icon: ClipboardList,
        title: t("family.recent.empty.title"),
        body: t("family.recent.empty.body", { name: child.givenName }),
      }}
    />
  );
}
