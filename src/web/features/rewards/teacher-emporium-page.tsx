import {
  keepPreviousData,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { Gift, Inbox, PackageCheck } from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Redemption, RedemptionAction } from "../../../shared/contracts/rewards";
import { PageHeader } from "../../components/page-header";
import { type Announce, useAnnouncement } from "../../components/ui/announcement";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { instantLabel, relativeTime } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { decideRequest, redemptionsQuery, rewardKeys } from "./api";
import { AlphaAmount } from "./parts";

const PAGE_SIZE = 10;

/** Who asked, or "a student" when their account is gone. */
const studentNameOf = (request: Redemption) => request.student?.name ?? i18next.t("rewards:handout.aStudent");

/**
 * A Guide's (or administrator's) side of the emporium: approved requests to hand out, and the
 * requests still waiting for a decision: theirs to make for students without a family.
 */
export function TeacherEmporiumPage() {
  const { t } = useTranslation("rewards");
  const [announcement, announce] = useAnnouncement();

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/teacher/emporium.title")}
        description={t("handout.description")}
      />
      {announcement}
      <HandOutQueue announce={announce} />
      <WaitingRequests announce={announce} />
    </div>
  );
}

function HandOutQueue({ announce }: { announce: Announce }) {
  const { t } = useTranslation("rewards");
  const [offset, setOffset] = useState(0);
  const requests = useQuery({
    ...redemptionsQuery({ status: "approved", offset, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title={t("handout.queue.title")} description={t("handout.queue.description")}>
      <RequestList
        query={requests}
        offset={offset}
        onPage={setOffset}
        loading={t("handout.queue.loading")}
        empty={
          <EmptyState icon={PackageCheck} title={t("handout.queue.empty.title")}>
            {t("handout.queue.empty.body")}
          </EmptyState>
        }
        pagerLabel={t("handout.queue.pagerLabel")}
        row={(request) => <HandOutRow request={request} announce={announce} />}
      />
    </Section>
  );
}

function WaitingRequests({ announce }: { announce: Announce }) {
  const { t } = useTranslation("rewards");
  const [offset, setOffset] = useState(0);
  const requests = useQuery({
    ...redemptionsQuery({ status: "pending", offset, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Section title={t("handout.waiting.title")} description={t("handout.waiting.description")}>
      <RequestList
        query={requests}
        offset={offset}
        onPage={setOffset}
        loading={t("handout.waiting.loading")}
        empty={
          <EmptyState icon={Inbox} title={t("handout.waiting.empty.title")}>
            {t("handout.waiting.empty.body")}
          </EmptyState>
        }
        pagerLabel={t("handout.waiting.pagerLabel")}
        row={(request) =>
          request.approverKind === "staff" ? (
            <DecisionRow request={request} announce={announce} />
          ) : (
            <FamilyWaitRow request={request} />
          )
        }
      />
    </Section>
  );
}

/** A page of requests with its loading, error and empty states. */
function RequestList({
  query,
  offset,
  onPage,
  loading,
  empty,
  pagerLabel,
  row,
}: {
  query: UseQueryResult<{ data: Redemption[]; total: number }>;
  offset: number;
  onPage: (offset: number) => void;
  loading: string;
  empty: ReactNode;
  pagerLabel: string;
  row: (request: Redemption) => ReactNode;
}) {
  const { t } = useTranslation("rewards");
  // A page emptied by the last step taken on it goes back a page rather than show nothing.
  const isPageEmptied = query.data?.data.length === 0 && offset > 0;
  useEffect(() => {
    if (isPageEmptied) onPage(Math.max(0, offset - PAGE_SIZE));
  }, [isPageEmptied, offset, onPage]);
  if (query.isPending || isPageEmptied) return <Loading label={loading} />;
  if (query.isError)
    return (
      <QueryError error={query.error} fallback={t("handout.loadFailed")} onRetry={() => query.refetch()} />
    );
  if (query.data.total === 0) return empty;
  return (
    <>
      <ul className="divide-y divide-slate-100 dark:divide-slate-800">
        {query.data.data.map((request) => (
          <li key={request.id} className="py-4 first:pt-0 last:pb-0">
            {row(request)}
          </li>
        ))}
      </ul>
      <Pager
        offset={offset}
        limit={PAGE_SIZE}
        total={query.data.total}
        onChange={onPage}
        label={pagerLabel}
      />
    </>
  );
}

/** The item's picture, the item, who asked and the price; the row's own details and actions beside. */
function RequestSummary({ request, children }: { request: Redemption; children: ReactNode }) {
  const { t } = useTranslation("rewards");
  const studentName = studentNameOf(request);
  return (
    <div className="flex flex-wrap items-start gap-x-4 gap-y-3">
      <div className="flex min-w-0 flex-1 basis-64 gap-3">
        {request.imageUrl ? (
          <img
            src={request.imageUrl}
            alt=""
            loading="lazy"
            className="size-14 shrink-0 rounded-lg bg-slate-100 object-cover dark:bg-slate-800"
          />
        ) : (
          <div
            aria-hidden="true"
            className="flex size-14 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100"
          >
            <Gift className="size-6" strokeWidth={1.5} />
          </div>
        )}
        <div className="min-w-0">
          <h3 className="font-semibold break-words">{request.itemName}</h3>
          <p className="text-sm">
            <span className="sr-only">{t("handout.for")} </span>
            <span className="font-medium">{studentName}</span>
            <span aria-hidden="true"> · </span>
            <AlphaAmount value={request.price} className="text-slate-700 dark:text-slate-200" />
          </p>
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">
            {t("handout.asked", { when: relativeTime(request.createdAt) })}
          </p>
        </div>
      </div>
      <div className="flex w-full flex-col gap-2 sm:w-auto sm:items-end">{children}</div>
    </div>
  );
}

/** A request step (approve, reject, hand out) with its pending and failed states. */
function useRequestStep(
  request: Redemption,
  action: Exclude<RedemptionAction, "cancel">,
  announce: Announce,
) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const name = studentNameOf(request);
  return useMutation({
    mutationFn: (note?: string) => decideRequest(request.id, action, note),
    // The lists are refreshed first, so the message takes focus once the row has left its list.
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: rewardKeys.all });
      announce(t(`handout.done.${action}`, { item: request.itemName, name }));
    },
  });
}

function HandOutRow({ request, announce }: { request: Redemption; announce: Announce }) {
  const { t } = useTranslation("rewards");
  const handOut = useRequestStep(request, "fulfil", announce);
  return (
    <RequestSummary request={request}>
      <p className="text-sm text-slate-600 sm:text-right dark:text-slate-300">
        {request.decidedAt
          ? t("handout.approvedBy", {
              name: request.decidedBy?.name ?? t("handout.someone"),
              when: instantLabel(request.decidedAt),
            })
          : t("status.approved")}
      </p>
      <button
        type="button"
        onClick={() => handOut.mutate(undefined)}
        disabled={handOut.isPending}
        className={buttonClass("primary", "inline-flex items-center justify-center gap-2")}
      >
        <PackageCheck aria-hidden="true" className="size-4" />
        {handOut.isPending ? t("handout.handingOut") : t("handout.handOut")}
        <WhichRequest request={request} />
      </button>
      <StepFailure error={handOut.error} />
    </RequestSummary>
  );
}

/** A request from a student without a family: the Guide decides. */
function DecisionRow({ request, announce }: { request: Redemption; announce: Announce }) {
  const { t } = useTranslation("rewards");
  const approve = useRequestStep(request, "approve", announce);
  const reject = useRequestStep(request, "reject", announce);
  const [isRejecting, setIsRejecting] = useState(false);
  return (
    <RequestSummary request={request}>
      <p className="text-sm text-slate-600 sm:text-right dark:text-slate-300">{t("handout.youDecide")}</p>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        <button
          type="button"
          onClick={() => approve.mutate(undefined)}
          disabled={approve.isPending || reject.isPending}
          className={buttonClass("primary")}
        >
          {approve.isPending ? t("handout.approving") : t("handout.approve")}
          <WhichRequest request={request} />
        </button>
        <button
          type="button"
          onClick={() => setIsRejecting(true)}
          disabled={approve.isPending || reject.isPending}
          className={buttonClass("secondary")}
        >
          {t("handout.reject")}
          <WhichRequest request={request} />
        </button>
      </div>
      <StepFailure error={approve.error} />
      <ExpiryNote request={request} />
      {isRejecting && (
        <RejectDialog
          request={request}
          onReject={(note) => reject.mutateAsync(note)}
          onClose={() => setIsRejecting(false)}
        />
      )}
    </RequestSummary>
  );
}

/** A request a family decides: shown so the Guide knows it is there and how long it has waited. */
function FamilyWaitRow({ request }: { request: Redemption }) {
  const { t } = useTranslation("rewards");
  return (
    <RequestSummary request={request}>
      <p className="inline-flex rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
        {t("handout.familyDecides")}
      </p>
      <ExpiryNote request={request} />
    </RequestSummary>
  );
}

/** Which request a button acts on, for screen readers: every row has the same buttons. */
function WhichRequest({ request }: { request: Redemption }) {
  const { t } = useTranslation("rewards");
  return (
    <span className="sr-only">
      {t("handout.whatFor", { item: request.itemName, name: studentNameOf(request) })}
    </span>
  );
}

function ExpiryNote({ request }: { request: Redemption }) {
  const { t } = useTranslation("rewards");
  if (!request.expiresAt) return null;
  return (
    <p className="text-xs text-slate-600 sm:text-right dark:text-slate-300">
      {t("handout.expires", { when: instantLabel(request.expiresAt) })}
    </p>
  );
}

function StepFailure({ error }: { error: Error | null }) {
  const { t } = useTranslation("rewards");
  if (!error) return null;
  return (
    <p role="alert" className="text-sm text-red-700 sm:text-right dark:text-red-300">
      {failureMessage(error, t("handout.stepFailed"))}
    </p>
  );
}

/** "Not approved", with a note for the student if the Guide wants to say why. */
function RejectDialog({
  request,
  onReject,
  onClose,
}: {
  request: Redemption;
  onReject: (note?: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation("rewards");
  const noteId = useId();
  const hintId = useId();
  const [note, setNote] = useState("");
  const name = studentNameOf(request);
  return (
    <ConfirmDialog
      title={t("handout.rejectDialog.title", { item: request.itemName })}
      message={t("handout.rejectDialog.description", { name })}
      confirmLabel={t("handout.rejectDialog.confirm")}
      cancelLabel={t("handout.rejectDialog.cancel")}
      onConfirm={() => onReject(note.trim() || undefined)}
      onClose={onClose}
    >
      <div className="mt-4">
        <label htmlFor={noteId} className="text-sm font-medium">
          {t("handout.rejectDialog.note")}
        </label>
        <textarea
          id={noteId}
          rows={3}
          maxLength={500}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          aria-describedby={hintId}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950"
        />
        <p id={hintId} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {t("handout.rejectDialog.hint", { name })}
        </p>
      </div>
    </ConfirmDialog>
  );
}
