import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Webhook } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_MIN_LENGTH,
  type WebhookEventType,
  type WebhookSubscription,
} from "../../../shared/contracts/webhooks";
import { ConfirmDialog, Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, TextField } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import {
  createSubscription,
  removeSubscription,
  sendTestEvent,
  subscriptionsQuery,
  updateSubscription,
  webhookKeys,
} from "./api";

/** The subscriptions: administrators add, change, pause, test and remove them; Guides read them. */
export function SubscriptionsPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation("webhooks");
  const queryClient = useQueryClient();
  const subscriptions = useQuery(subscriptionsQuery);
  const [editing, setEditing] = useState<WebhookSubscription | "new" | null>(null);
  const [removing, setRemoving] = useState<WebhookSubscription | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const test = useMutation({
    mutationFn: (subscription: WebhookSubscription) => sendTestEvent(subscription.id),
    onSuccess: async () => {
      setNotice(t("subscriptions.testQueued"));
      await refresh();
    },
    onError: (error) => setNotice(failureMessage(error, t("subscriptions.testFailed"))),
  });

  return (
    <Section
      title={t("subscriptions.title")}
      description={t("subscriptions.description")}
      actions={
        canManage && (
          <button type="button" className={buttonClass("primary")} onClick={() => setEditing("new")}>
            {t("subscriptions.add")}
          </button>
        )
      }
    >
      <p role="status" className="mb-3 text-sm text-slate-700 empty:hidden dark:text-slate-200">
        {notice}
      </p>
      {subscriptions.isPending ? (
        <Loading label={t("subscriptions.loading")} />
      ) : subscriptions.isError ? (
        <QueryError
          error={subscriptions.error}
          fallback={t("subscriptions.loadFailed")}
          onRetry={() => subscriptions.refetch()}
        />
      ) : subscriptions.data.length === 0 ? (
        <EmptyState icon={Webhook} title={t("subscriptions.none")}>
          {canManage ? t("subscriptions.noneHint") : t("subscriptions.noneReadOnly")}
        </EmptyState>
      ) : (
        <ul className="space-y-3">
          {subscriptions.data.map((subscription) => (
            <li
              key={subscription.id}
              className="rounded-xl border border-slate-200 p-4 dark:border-slate-700"
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="font-semibold break-all">{subscription.description || subscription.url}</p>
                  {subscription.description && (
                    <p className="text-sm break-all text-slate-600 dark:text-slate-300">{subscription.url}</p>
                  )}
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
                    {subscription.isActive ? t("subscriptions.active") : t("subscriptions.paused")}
                    {" · "}
                    {t("subscriptions.secretHint", { hint: subscription.secretHint })}
                  </p>
                </div>
                {canManage && (
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className={buttonClass("secondary")}
                      disabled={test.isPending}
                      onClick={() => test.mutate(subscription)}
                    >
                      {t("subscriptions.sendTest")}
                    </button>
                    <button
                      type="button"
                      className={buttonClass("secondary")}
                      onClick={() => setEditing(subscription)}
                    >
                      {t("subscriptions.edit")}
                    </button>
                    <button
                      type="button"
                      className={buttonClass("secondary", "text-red-700 dark:text-red-300")}
                      onClick={() => setRemoving(subscription)}
                    >
                      {t("subscriptions.remove")}
                    </button>
                  </div>
                )}
              </div>
              <ul className="mt-3 flex flex-wrap gap-1.5" aria-label={t("subscriptions.events")}>
                {subscription.events.map((event) => (
                  <li
                    key={event}
                    className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium dark:bg-slate-800"
                  >
                    {t(`events.${event}`)}
                  </li>
                ))}
              </ul>
              <p className="mt-3 text-sm text-slate-700 dark:text-slate-200">
                {t("subscriptions.recent", {
                  succeeded: formatNumber(subscription.recent.succeeded, 0),
                  failed: formatNumber(subscription.recent.failed, 0),
                  pending: formatNumber(subscription.recent.pending, 0),
                })}
              </p>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <SubscriptionDialog
          subscription={editing === "new" ? null : editing}
          onSaved={async () => {
            setNotice(editing === "new" ? t("subscriptions.added") : t("subscriptions.saved"));
            await refresh();
          }}
          onClose={() => setEditing(null)}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={t("subscriptions.removeTitle")}
          message={t("subscriptions.removeMessage", { url: removing.url })}
          confirmLabel={t("subscriptions.remove")}
          onConfirm={async () => {
            await removeSubscription(removing.id);
            setNotice(t("subscriptions.removed"));
            await refresh();
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </Section>
  );
}

/** Adds a subscription, or changes one (its secret stays unless a new one is typed). */
function SubscriptionDialog({
  subscription,
  onSaved,
  onClose,
}: {
  subscription: WebhookSubscription | null;
  onSaved: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation("webhooks");
  const [url, setUrl] = useState(subscription?.url ?? "");
  const [description, setDescription] = useState(subscription?.description ?? "");
  const [secret, setSecret] = useState("");
  const [events, setEvents] = useState<ReadonlySet<string>>(new Set(subscription?.events ?? []));
  const [isActive, setIsActive] = useState(subscription?.isActive ?? true);
  const save = useMutation({
    mutationFn: () => {
      const chosen = WEBHOOK_EVENT_TYPES.filter((event) => events.has(event)) as WebhookEventType[];
      const common = { url: url.trim(), events: chosen, description: description.trim() || null };
      return subscription
        ? updateSubscription(subscription.id, { ...common, isActive, ...(secret ? { secret } : {}) })
        : createSubscription({ ...common, secret });
    },
    onSuccess: async () => {
      await onSaved();
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const toggle = (type: string) =>
    setEvents((current) => {
      const next = new Set(current);
      if (next.has(type)) next.delete(type);
      else next.add(type);
      return next;
    });

  return (
    <Dialog
      title={subscription ? t("subscriptions.editTitle") : t("subscriptions.addTitle")}
      description={t("subscriptions.formHint")}
      onClose={onClose}
    >
      <form onSubmit={submit} className="mt-4 space-y-4">
        <TextField
          label={t("subscriptions.url")}
          type="url"
          required
          value={url}
          placeholder={t("subscriptions.urlPlaceholder")}
          onChange={(event) => setUrl(event.target.value)}
        />
        <TextField
          label={t("subscriptions.descriptionLabel")}
          value={description}
          maxLength={200}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset>
          <legend className="text-sm font-medium">{t("subscriptions.events")}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={events.has(type)}
                  onChange={() => toggle(type)}
                />
                {t(`events.${type}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField
          label={subscription ? t("subscriptions.newSecret") : t("subscriptions.secret")}
          type="password"
          autoComplete="new-password"
          required={!subscription}
          minLength={WEBHOOK_SECRET_MIN_LENGTH}
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
        />
        <p className="-mt-2 text-xs text-slate-600 dark:text-slate-300">
          {t("subscriptions.secretRule", { count: WEBHOOK_SECRET_MIN_LENGTH })}
        </p>
        {subscription && (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4"
              checked={isActive}
              onChange={(event) => setIsActive(event.target.checked)}
            />
            {t("subscriptions.activeLabel")}
          </label>
        )}
        {save.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {[
              failureMessage(save.error, t("subscriptions.saveFailed")),
              ...(save.error instanceof ApiRequestError
                ? save.error.issues.map((issue) => issue.message)
                : []),
            ].join(" ")}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass("secondary")} onClick={onClose}>
            {t("cancel")}
          </button>
          <button
            type="submit"
            className={buttonClass("primary")}
            disabled={save.isPending || events.size === 0}
          >
            {subscription ? t("subscriptions.save") : t("subscriptions.add")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
