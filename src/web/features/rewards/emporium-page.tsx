import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ClipboardList, Store } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Redemption, RewardAccount, RewardItem } from "../../../shared/contracts/rewards";
import { PageHeader } from "../../components/page-header";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { formatNumber } from "../../lib/format";
import { newIdempotencyKey } from "../../lib/idempotency";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import {
  accountQuery,
  decideRequest,
  itemsQuery,
  type RedemptionFilters,
  redemptionsQuery,
  requestItem,
  rewardKeys,
} from "./api";
import { StudentAccount, StudentLedger } from "./parts";
import { DoneNote } from "./store-done-note";
import { StoreItemGrid } from "./store-item-grid";
import { RequestList } from "./store-request-list";
import { SavingsPanel } from "./store-savings";

const REQUESTS_PAGE = 10;
const myRequests = (studentId: string, offset = 0): RedemptionFilters => ({
  studentId,
  offset,
  limit: REQUESTS_PAGE,
});

type ApproverKind = Redemption["approverKind"];

/** The emporium: a student's Alphas, savings, the store and their requests; staff browse the store. */
export function EmporiumPage() {
  const { t } = useTranslation("rewards");
  const { activeRole } = useAuth();
  const isStudent = activeRole === "student";
  return (
    <div>
      <PageHeader
        title={t("common:pages./app/emporium.title")}
        description={isStudent ? t("emporium.student.description") : t("emporium.staff.description")}
      />
      {isStudent ? <StudentEmporium /> : <StaffStore />}
    </div>
  );
}

function StudentEmporium() {
  const { t } = useTranslation("rewards");
  const { user } = useAuth();
  const studentId = user.sourcedId;
  const account = useQuery(accountQuery(studentId));
  // Who approves is the same for every request of a student: the latest one tells.
  const latest = useQuery(redemptionsQuery(myRequests(studentId)));
  const approverKind = latest.data?.data[0]?.approverKind ?? null;
  const [asked, setAsked] = useState<Redemption | null>(null);

  return (
    <div className="space-y-6">
      <Section
        title={t("emporium.account.title")}
        description={account.data && <AccountSentence account={account.data} />}
      >
        <StudentAccount studentId={studentId} />
      </Section>

      <Section title={t("emporium.store.title")} description={t("emporium.store.studentDescription")}>
        <div role="status">
          {asked && (
            <DoneNote key={asked.id} className="mb-4" takeFocus>
              {t("emporium.request.done", { item: asked.itemName, approver: asked.approverKind })}
            </DoneNote>
          )}
        </div>
        <StoreItems
          renderItems={(items) => (
            <StudentStore
              items={items}
              available={account.data?.available}
              approverKind={approverKind}
              onAsked={setAsked}
            />
          )}
        />
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title={t("emporium.requests.title")} description={t("emporium.requests.description")}>
          <MyRequests studentId={studentId} />
        </Section>
        <Section title={t("emporium.savings.title")}>
          <SavingsPanel studentId={studentId} />
        </Section>
      </div>

      <Section title={t("emporium.history.title")} description={t("emporium.history.description")}>
        <StudentLedger studentId={studentId} />
      </Section>
    </div>
  );
}

/** "You can spend 230 Alphas. 40 are waiting on a request." */
function AccountSentence({ account }: { account: RewardAccount }) {
  const { t } = useTranslation("rewards");
  const spend = t("emporium.account.canSpend", {
    count: account.available,
    amount: formatNumber(account.available, 0),
  });
  if (account.held === 0) return spend;
  return `${spend} ${t("emporium.account.waiting", { count: account.held, amount: formatNumber(account.held, 0) })}`;
}

/** The items the caller may see, with loading, failure and an empty store said in words. */
function StoreItems({ renderItems }: { renderItems: (items: RewardItem[]) => ReactNode }) {
  const { t } = useTranslation("rewards");
  const items = useQuery(itemsQuery());
  if (items.isPending) return <Loading label={t("emporium.store.loading")} />;
  if (items.isError)
    return (
      <QueryError
        error={items.error}
        fallback={t("emporium.store.loadFailed")}
        onRetry={() => items.refetch()}
      />
    );
  if (items.data.length === 0)
    return (
      <EmptyState icon={Store} title={t("emporium.store.empty.title")}>
        {t("emporium.store.empty.body")}
      </EmptyState>
    );
  return renderItems(items.data);
}

function StudentStore({
  items,
  available,
  approverKind,
  onAsked,
}: {
  items: RewardItem[];
  available: number | undefined;
  approverKind: ApproverKind | null;
  onAsked: (request: Redemption) => void;
}) {
  const [asking, setAsking] = useState<RewardItem | null>(null);
  return (
    <>
      <StoreItemGrid
        items={items}
        action={(item) => <RequestButton item={item} available={available} onAsk={() => setAsking(item)} />}
      />
      {asking && (
        <RequestDialog
          item={asking}
          approverKind={approverKind}
          onAsked={onAsked}
          onClose={() => setAsking(null)}
        />
      )}
    </>
  );
}

/** Request, or why not: sold out, or how many more Alphas it takes. */
function RequestButton({
  item,
  available,
  onAsk,
}: {
  item: RewardItem;
  available: number | undefined;
  onAsk: () => void;
}) {
  const { t } = useTranslation("rewards");
  const reasonId = useId();
  const reason =
    item.remaining !== null && item.remaining <= 0
      ? t("emporium.request.soldOut")
      : available !== undefined && available < item.price
        ? t("emporium.request.needMore", {
            count: item.price - available,
            amount: formatNumber(item.price - available, 0),
          })
        : null;
  return (
    <>
      <button
        type="button"
        onClick={onAsk}
        disabled={reason !== null || available === undefined}
        aria-label={t("emporium.request.buttonLabel", { item: item.name })}
        aria-describedby={reason ? reasonId : undefined}
        className={buttonClass("primary", "w-full disabled:cursor-not-allowed")}
      >
        {t("emporium.request.button")}
      </button>
      {reason && (
        <p
          id={reasonId}
          className="mt-1.5 text-center text-sm font-medium text-slate-700 dark:text-slate-200"
        >
          {reason}
        </p>
      )}
    </>
  );
}

/** Asks before requesting; one idempotency key per opening, so a retry cannot ask twice. */
function RequestDialog({
  item,
  approverKind,
  onAsked,
  onClose,
}: {
  item: RewardItem;
  approverKind: ApproverKind | null;
  onAsked: (request: Redemption) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [idempotencyKey] = useState(newIdempotencyKey);
  return (
    <ConfirmDialog
      tone="primary"
      title={t("emporium.request.title", { item: item.name })}
      message={t("emporium.request.confirm", {
        item: item.name,
        count: item.price,
        amount: formatNumber(item.price, 0),
        approver: approverKind ?? "unknown",
      })}
      confirmLabel={t("emporium.request.confirmButton")}
      cancelLabel={t("emporium.request.notNow")}
      onConfirm={async () => {
        onAsked(await requestItem(item.id, idempotencyKey));
        void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
      }}
      onClose={onClose}
    />
  );
}

function MyRequests({ studentId }: { studentId: string }) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const requests = useQuery(redemptionsQuery(myRequests(studentId, offset)));
  const [cancelling, setCancelling] = useState<Redemption | null>(null);
  const [cancelled, setCancelled] = useState<Redemption | null>(null);

  let list: ReactNode;
  if (requests.isPending) list = <Loading label={t("emporium.requests.loading")} />;
  else if (requests.isError)
    list = (
      <QueryError
        error={requests.error}
        fallback={t("emporium.requests.loadFailed")}
        onRetry={() => requests.refetch()}
      />
    );
  else if (requests.data.total === 0)
    list = (
      <EmptyState icon={ClipboardList} title={t("emporium.requests.empty.title")}>
        {t("emporium.requests.empty.body")}
      </EmptyState>
    );
  else
    list = (
      <>
        <RequestList
          requests={requests.data.data}
          label={t("emporium.requests.title")}
          action={(request) =>
            request.status === "pending" && (
              <button
                type="button"
                onClick={() => setCancelling(request)}
                aria-label={t("emporium.cancel.buttonLabel", { item: request.itemName })}
                className={buttonClass("secondary")}
              >
                {t("emporium.cancel.button")}
              </button>
            )
          }
        />
        <Pager
          offset={offset}
          limit={REQUESTS_PAGE}
          total={requests.data.total}
          onChange={setOffset}
          label={t("emporium.requests.title")}
        />
      </>
    );

  return (
    <>
      <div role="status">
        {cancelled && (
          <DoneNote key={cancelled.id} className="mb-3" takeFocus>
            {t("emporium.cancel.done", {
              item: cancelled.itemName,
              count: cancelled.price,
              amount: formatNumber(cancelled.price, 0),
            })}
          </DoneNote>
        )}
      </div>
      {list}
      {cancelling && (
        <ConfirmDialog
          tone="danger"
          title={t("emporium.cancel.title")}
          message={t("emporium.cancel.confirm", {
            item: cancelling.itemName,
            count: cancelling.price,
            amount: formatNumber(cancelling.price, 0),
          })}
          confirmLabel={t("emporium.cancel.confirmButton")}
          cancelLabel={t("emporium.cancel.keep")}
          onConfirm={async () => {
            setCancelled(await decideRequest(cancelling.id, "cancel"));
            void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
          }}
          onClose={() => setCancelling(null)}
        />
      )}
    </>
  );
}

/** Staff see what students can buy; families' own rewards are theirs, so they stay out of it. */
function StaffStore() {
  const { t } = useTranslation("rewards");
  return (
    <div className="space-y-6">
      <p className="rounded-xl border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100">
        {t("emporium.staff.note")}{" "}
        <Link
          to="/app/teacher/emporium"
          className="font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
        >
          {t("emporium.staff.link")}
        </Link>
      </p>
      <Section title={t("emporium.store.title")} description={t("emporium.store.staffDescription")}>
        <StoreItems
          renderItems={(items) => (
            <StoreItemGrid items={items.filter((item) => item.audience.kind !== "child")} />
          )}
        />
      </Section>
    </div>
  );
}
