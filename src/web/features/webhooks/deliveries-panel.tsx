import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Inbox, RotateCcw } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
} from "../../../shared/contracts/webhooks";
import { ConfirmDialog, Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber, instantLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import {
  dayStart,
  deliveriesQuery,
  replayDeliveries,
  replayDelivery,
  subscriptionsQuery,
  webhookKeys,
} from "./api";
import { DayRange, ROW, StateBadge, shortUrl, TD, TD_NUMBER, TH, TH_NUMBER, THEAD } from "./parts";
import type { WebhookMonitorSearch } from "./webhook-monitor-page";

const EVENTS = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];

/** Every delivery with its outcome, filtered in the address; administrators replay one or many. */
export function DeliveriesPanel({
  search,
  setSearch,
  canManage,
}: {
  search: WebhookMonitorSearch;
  setSearch: (changes: Partial<WebhookMonitorSearch>) => void;
  canManage: boolean;
}) {
  const { t } = useTranslation("webhooks");
  const queryClient = useQueryClient();
  const filters = {
    subscriptionId: search.subscriptionId,
    event: search.event,
    state: search.state,
    from: search.from,
    to: search.to,
  };
  const page = search.page ?? 1;
  const deliveries = useQuery(deliveriesQuery({ ...filters, page }));
  const subscriptions = useQuery(subscriptionsQuery);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [shown, setShown] = useState<WebhookDelivery | null>(null);
  const [isReplayingFiltered, setIsReplayingFiltered] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const replayed = (count: number) => {
    setNotice(t("deliveries.replayed", { count }));
    setChosen(new Set());
    return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  };
  const replayChosen = useMutation({
    mutationFn: () => replayDeliveries({ ids: [...chosen] }),
    onSuccess: (result) => replayed(result.replayed),
    onError: (error) => setNotice(failureMessage(error, t("deliveries.replayFailed"))),
  });

  const rows = deliveries.data?.data ?? [];
  const finished = rows.filter((row) => row.state === "succeeded" || row.state === "failed");
  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <Section title={t("deliveries.title")} description={t("deliveries.description")}>
      <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-5">
        <SelectField
          className="col-span-2 lg:col-span-1"
          label={t("filters.subscription")}
          value={search.subscriptionId ?? ""}
          onChange={(event) => setSearch({ subscriptionId: event.target.value || undefined })}
          options={[
            { value: "", label: t("filters.all") },
            ...(subscriptions.data ?? []).map((subscription) => ({
              value: subscription.id,
              label: subscription.description || shortUrl(subscription.url),
            })),
          ]}
        />
        <SelectField
          label={t("filters.event")}
          value={search.event ?? ""}
          onChange={(event) =>
            setSearch({ event: (event.target.value || undefined) as WebhookMonitorSearch["event"] })
          }
          options={[
            { value: "", label: t("filters.all") },
            ...EVENTS.map((type) => ({ value: type, label: t(`events.${type}`) })),
          ]}
        />
        <SelectField
          label={t("filters.state")}
          value={search.state ?? ""}
          onChange={(event) =>
            setSearch({ state: (event.target.value || undefined) as WebhookMonitorSearch["state"] })
          }
          options={[
            { value: "", label: t("filters.all") },
            ...WEBHOOK_DELIVERY_STATES.map((state) => ({ value: state, label: t(`states.${state}`) })),
          ]}
        />
        <DayRange from={search.from} to={search.to} onChange={setSearch} />
      </div>

      {canManage && (
        <div className="mb-4 flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={buttonClass("secondary", "inline-flex items-center gap-2")}
            disabled={chosen.size === 0 || replayChosen.isPending}
            onClick={() => replayChosen.mutate()}
          >
            <RotateCcw aria-hidden="true" className="size-4" />
            {t("deliveries.replayChosen", { count: chosen.size })}
          </button>
          <button
            type="button"
            className={buttonClass("secondary")}
            disabled={(deliveries.data?.total ?? 0) === 0}
            onClick={() => setIsReplayingFiltered(true)}
          >
            {t("deliveries.replayFiltered")}
          </button>
        </div>
      )}
      <p role="status" className="mb-3 text-sm text-slate-700 empty:hidden dark:text-slate-200">
        {notice}
      </p>

      {deliveries.isPending ? (
        <Loading label={t("deliveries.loading")} rows={5} />
      ) : deliveries.isError ? (
        <QueryError
          error={deliveries.error}
          fallback={t("deliveries.loadFailed")}
          onRetry={() => deliveries.refetch()}
        />
      ) : rows.length === 0 ? (
        <EmptyState icon={Inbox} title={t("deliveries.none")}>
          {t("deliveries.noneHint")}
        </EmptyState>
      ) : (
        <>
          <TableRegion label={t("deliveries.title")}>
            <table className="w-full min-w-[48rem] text-sm">
              <thead className={THEAD}>
                <tr>
                  {canManage && (
                    <th className={TH}>
                      <input
                        type="checkbox"
                        aria-label={t("deliveries.chooseAll")}
                        checked={finished.length > 0 && finished.every((row) => chosen.has(row.id))}
                        onChange={(event) =>
                          setChosen(event.target.checked ? new Set(finished.map((row) => row.id)) : new Set())
                        }
                        className="size-4"
                      />
                    </th>
                  )}
                  <th className={TH}>{t("deliveries.event")}</th>
                  <th className={TH}>{t("deliveries.state")}</th>
                  <th className={TH_NUMBER}>{t("deliveries.attempts")}</th>
                  <th className={TH_NUMBER}>{t("deliveries.response")}</th>
                  <th className={TH}>{t("deliveries.time")}</th>
                  <th className={TH}>{t("deliveries.subscriber")}</th>
                  <th className={TH}>
                    <span className="sr-only">{t("deliveries.details")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} className={ROW}>
                    {canManage && (
                      <td className={TD}>
                        <input
                          type="checkbox"
                          aria-label={t("deliveries.choose", { event: t(`events.${row.eventType}`) })}
                          disabled={row.state === "queued" || row.state === "delivering"}
                          checked={chosen.has(row.id)}
                          onChange={() => toggle(row.id)}
                          className="size-4"
                        />
                      </td>
                    )}
                    <td className={TD}>
                      <span className="font-medium">{t(`events.${row.eventType}`)}</span>
                      {row.replayOf && (
                        <span className="block text-xs text-slate-600 dark:text-slate-300">
                          {t("deliveries.replay")}
                        </span>
                      )}
                    </td>
                    <td className={TD}>
                      <StateBadge state={row.state} />
                    </td>
                    <td className={TD_NUMBER}>
                      {t("deliveries.attemptsOf", { attempts: row.attempts, max: row.maxAttempts })}
                    </td>
                    <td className={TD_NUMBER}>{row.lastStatusCode ?? "—"}</td>
                    <td className={TD}>
                      <span className="whitespace-nowrap">{instantLabel(row.createdAt)}</span>
                      {row.lastDurationMs !== null && (
                        <span className="block text-xs text-slate-600 dark:text-slate-300">
                          {t("deliveries.took", { ms: formatNumber(row.lastDurationMs, 0) })}
                        </span>
                      )}
                    </td>
                    <td className={`${TD} max-w-56 truncate`} title={row.url}>
                      {shortUrl(row.url)}
                    </td>
                    <td className={TD}>
                      <button
                        type="button"
                        className="font-semibold text-brand-700 underline dark:text-brand-100"
                        onClick={() => setShown(row)}
                      >
                        {t("deliveries.details")}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <Pager
            offset={(page - 1) * deliveries.data.pageSize}
            limit={deliveries.data.pageSize}
            total={deliveries.data.total}
            label={t("deliveries.title")}
            onChange={(offset) => setSearch({ page: offset / deliveries.data.pageSize + 1 })}
          />
        </>
      )}

      {shown && (
        <DeliveryDialog
          delivery={shown}
          canManage={canManage}
          onReplayed={replayed}
          onClose={() => setShown(null)}
        />
      )}
      {isReplayingFiltered && (
        <ConfirmDialog
          title={t("deliveries.replayFilteredTitle")}
          message={t("deliveries.replayFilteredMessage", { count: deliveries.data?.total ?? 0 })}
          confirmLabel={t("deliveries.replayFiltered")}
          tone="primary"
          onConfirm={async () => {
            const result = await replayDeliveries({
              filter: {
                ...filters,
                state:
                  filters.state === "queued" || filters.state === "delivering" ? "failed" : filters.state,
                from: dayStart(filters.from),
                to: dayStart(filters.to, true),
              },
            });
            await replayed(result.replayed);
          }}
          onClose={() => setIsReplayingFiltered(false)}
        />
      )}
    </Section>
  );
}

/** One delivery: what was sent, how its last attempt ended, and (administrators) a replay. */
function DeliveryDialog({
  delivery,
  canManage,
  onReplayed,
  onClose,
}: {
  delivery: WebhookDelivery;
  canManage: boolean;
  onReplayed: (count: number) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation("webhooks");
  const replay = useMutation({
    mutationFn: () => replayDelivery(delivery.id),
    onSuccess: async (result) => {
      await onReplayed(result.replayed);
      onClose();
    },
  });
  const isFinished = delivery.state === "succeeded" || delivery.state === "failed";
  return (
    <Dialog title={t(`events.${delivery.eventType}`)} description={delivery.url} onClose={onClose}>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">{t("deliveries.state")}</dt>
        <dd>
          <StateBadge state={delivery.state} />
        </dd>
        <dt className="font-medium">{t("deliveries.attempts")}</dt>
        <dd>{t("deliveries.attemptsOf", { attempts: delivery.attempts, max: delivery.maxAttempts })}</dd>
        <dt className="font-medium">{t("deliveries.response")}</dt>
        <dd>{delivery.lastStatusCode ?? "—"}</dd>
        {delivery.nextAttemptAt && (
          <>
            <dt className="font-medium">{t("deliveries.nextAttempt")}</dt>
            <dd>{instantLabel(delivery.nextAttemptAt)}</dd>
          </>
        )}
        <dt className="font-medium">{t("deliveries.deliveryId")}</dt>
        <dd className="font-mono text-xs break-all">{delivery.id}</dd>
      </dl>
      {delivery.lastError && (
        <>
          <h3 className="mt-4 text-sm font-semibold">{t("deliveries.lastError")}</h3>
          <p className="mt-1 rounded-lg bg-red-50 p-2 text-sm break-words text-red-900 dark:bg-red-950 dark:text-red-100">
            {delivery.lastError}
          </p>
        </>
      )}
      <h3 className="mt-4 text-sm font-semibold">{t("deliveries.payload")}</h3>
      {delivery.payload === null ? (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("deliveries.payloadHidden")}</p>
      ) : (
        <pre className="mt-1 max-h-64 overflow-auto rounded-lg bg-slate-100 p-3 text-xs dark:bg-slate-800">
          {JSON.stringify(delivery.payload, null, 2)}
        </pre>
      )}
      {replay.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {failureMessage(replay.error, t("deliveries.replayFailed"))}
        </p>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button type="button" className={buttonClass("secondary")} onClick={onClose}>
          {t("close")}
        </button>
        {canManage && (
          <button
            type="button"
            className={buttonClass("primary")}
            disabled={!isFinished || replay.isPending}
            onClick={() => replay.mutate()}
          >
            {t("deliveries.replayOne")}
          </button>
        )}
      </div>
    </Dialog>
  );
}
