import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type ApiClient,
  OAUTH_TOKEN_PATH,
  ONEROSTER_BASE_PATH,
  ONEROSTER_SCOPE_LIST,
  ONEROSTER_SCOPES,
  type OneRosterScope,
} from "../../../shared/contracts/api-clients";
import { Card } from "../../components/page-header";
import { CopyableValue } from "../../components/ui/copy-button";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass, TextField } from "../../components/ui/form";
import { SecretOnce } from "../../components/ui/secret-once";
import { instantDateLabel, relativeTime } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { apiClientsQuery, createApiClient, credentialKeys, revokeApiClient } from "./credentials-api";

/** A scope's name in the catalogue: "core", "full", "demographics". */
const scopeKey = (scope: string) =>
  (Object.keys(ONEROSTER_SCOPES) as (keyof typeof ONEROSTER_SCOPES)[]).find(
    (key) => ONEROSTER_SCOPES[key] === scope,
  );

const dateOf = (instant: string) => instantDateLabel(instant);

/** OneRoster API clients: where a SIS connects, registering a client, the list with revocation. */
export function OneRosterClients() {
  const { t } = useTranslation("admin");
  const [created, setCreated] = useState<{ name: string; clientId: string; clientSecret: string } | null>(
    null,
  );
  return (
    <div className="space-y-6">
      <ConnectionDetails />
      <Card>
        <h2 className="text-lg font-bold">{t("oneroster.new.heading")}</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("oneroster.new.description")}</p>
        {created ? (
          <div className="mt-4">
            <SecretOnce
              title={t("oneroster.new.ready", { name: created.name })}
              values={[
                { label: t("oneroster.clientId"), value: created.clientId },
                { label: t("oneroster.clientSecret"), value: created.clientSecret },
              ]}
              onDone={() => setCreated(null)}
            />
          </div>
        ) : (
          <NewClientForm onCreated={setCreated} />
        )}
      </Card>
      <ClientList />
    </div>
  );
}

function ConnectionDetails() {
  const { t } = useTranslation("admin");
  const origin = window.location.origin;
  return (
    <Card>
      <h2 className="text-lg font-bold">{t("oneroster.connect.heading")}</h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600 dark:text-slate-300">
        {t("oneroster.connect.description", { id: "client_id", secret: "client_secret" })}
      </p>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <CopyableValue label={t("oneroster.connect.tokenUrl")} value={`${origin}${OAUTH_TOKEN_PATH}`} />
        <CopyableValue label={t("oneroster.connect.baseUrl")} value={`${origin}${ONEROSTER_BASE_PATH}`} />
      </div>
    </Card>
  );
}

function NewClientForm({
  onCreated,
}: {
  onCreated: (client: { name: string; clientId: string; clientSecret: string }) => void;
}) {
  const { t } = useTranslation("admin");
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<OneRosterScope[]>([ONEROSTER_SCOPES.core]);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: createApiClient,
    onSuccess: ({ data }) => {
      setName("");
      setScopes([ONEROSTER_SCOPES.core]);
      queryClient.invalidateQueries({ queryKey: credentialKeys.apiClients });
      onCreated(data);
    },
    onError: (error) => setProblem(error.message),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!name.trim()) return setProblem(t("oneroster.new.nameIt"));
    if (scopes.length === 0) return setProblem(t("oneroster.new.chooseScope"));
    create.mutate({ name: name.trim(), scopes });
  }

  const toggle = (scope: OneRosterScope, checked: boolean) =>
    setScopes((current) => (checked ? [...current, scope] : current.filter((entry) => entry !== scope)));

  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-5">
      <TextField
        label={t("oneroster.new.name")}
        value={name}
        maxLength={100}
        onChange={(event) => setName(event.target.value)}
        placeholder={t("oneroster.new.namePlaceholder")}
        className="max-w-md"
      />
      <fieldset>
        <legend className="text-sm font-medium">{t("oneroster.new.scopes")}</legend>
        <div className="mt-2 grid gap-2 md:grid-cols-3">
          {ONEROSTER_SCOPE_LIST.map((scope) => (
            <label
              key={scope}
              className="flex cursor-pointer gap-3 rounded-lg border border-slate-300 bg-white p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 dark:border-slate-700 dark:bg-slate-950 dark:has-[:checked]:border-brand-500 dark:has-[:checked]:bg-slate-800"
            >
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-brand-600"
              />
              <span>
                <span className="block text-sm font-semibold">
                  {t(`oneroster.scopes.${scopeKey(scope)}.label`)}
                </span>
                <span className="block text-xs text-slate-600 dark:text-slate-300">
                  {t(`oneroster.scopes.${scopeKey(scope)}.description`)}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <button
        type="submit"
        disabled={create.isPending}
        className={buttonClass("primary", "w-full sm:w-auto")}
      >
        {create.isPending ? t("oneroster.new.creating") : t("oneroster.new.create")}
      </button>
    </form>
  );
}

const scopeLabel = (scope: string) => {
  const key = scopeKey(scope);
  return key ? i18next.t(`admin:oneroster.scopes.${key}.label`) : (scope.split("/").at(-1) ?? scope);
};

function ClientList() {
  const { t } = useTranslation("admin");
  const clients = useQuery(apiClientsQuery);
  const [revoking, setRevoking] = useState<ApiClient | null>(null);
  const queryClient = useQueryClient();
  const headingId = useId();
  return (
    <Card>
      <h2 id={headingId} className="text-lg font-bold">
        {t("oneroster.list.heading")}
      </h2>
      {clients.isPending && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("oneroster.list.loading")}</p>
      )}
      {clients.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
          {clients.error.message}
        </p>
      )}
      {clients.data && clients.data.total === 0 && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{t("oneroster.list.none")}</p>
      )}
      {clients.data && clients.data.total > 0 && (
        <ul aria-labelledby={headingId} className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
          {clients.data.data.map((client) => (
            <li
              key={client.id}
              aria-label={client.name}
              className="grid gap-3 py-4 md:grid-cols-[minmax(0,1.2fr)_minmax(0,1.4fr)_minmax(0,1fr)_auto] md:items-center"
            >
              <div className="min-w-0">
                <p className="font-semibold break-words">{client.name}</p>
                <p className="font-mono text-xs break-all text-slate-600 dark:text-slate-300">
                  {client.clientId}
                </p>
              </div>
              <ul aria-label={t("oneroster.list.scopes")} className="flex flex-wrap gap-1.5">
                {client.scopes.map((scope) => (
                  <li
                    key={scope}
                    className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                  >
                    {scopeLabel(scope)}
                  </li>
                ))}
              </ul>
              <div className="text-xs text-slate-600 dark:text-slate-300">
                <p>
                  {client.createdBy
                    ? t("oneroster.list.createdBy", {
                        date: dateOf(client.createdAt),
                        name: client.createdBy.name,
                      })
                    : t("oneroster.list.created", { date: dateOf(client.createdAt) })}
                </p>
                <p>
                  {client.lastUsedAt
                    ? t("oneroster.list.lastUsed", { when: relativeTime(client.lastUsedAt) })
                    : t("oneroster.list.neverUsed")}
                </p>
              </div>
              <div className="md:text-right">
                {client.revokedAt ? (
                  <span className="inline-block rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200">
                    {t("oneroster.list.revoked", { date: dateOf(client.revokedAt) })}
                  </span>
                ) : (
                  <button
                    type="button"
                    onClick={() => setRevoking(client)}
                    aria-label={t("oneroster.list.revokeLabel", { name: client.name })}
                    className={buttonClass("secondary", "text-red-700 dark:text-red-300")}
                  >
                    {t("oneroster.list.revoke")}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title={t("oneroster.list.revokeTitle", { name: revoking.name })}
          confirmLabel={t("oneroster.list.revokeClient")}
          onConfirm={async () => {
            await revokeApiClient(revoking.id);
            await queryClient.invalidateQueries({ queryKey: credentialKeys.apiClients });
          }}
          message={t("oneroster.list.revokeMessage")}
          onClose={() => setRevoking(null)}
        />
      )}
    </Card>
  );
}
