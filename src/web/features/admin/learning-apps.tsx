import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Puzzle, ShieldCheck } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  APP_KINDS,
  type AppKey,
  type AppKind,
  type LearningApp,
} from "../../../shared/contracts/learning-apps";
import { Card } from "../../components/page-header";
import { ConfirmDialog } from "../../components/ui/dialog";
import { buttonClass, TextField } from "../../components/ui/form";
import { SecretOnce } from "../../components/ui/secret-once";
import { instantDateLabel, relativeTime } from "../../lib/format";
import {
  appKeysQuery,
  appsQuery,
  createAppKey,
  createLearningApp,
  credentialKeys,
  revokeAppKey,
  updateLearningApp,
} from "./credentials-api";

const dateOf = (instant: string) => instantDateLabel(instant);

/** Learning apps that report activity to Dash, and the API keys they report with. */
export function LearningApps() {
  const { t } = useTranslation("admin");
  const apps = useQuery(appsQuery);
  const [isAdding, setIsAdding] = useState(false);
  return (
    <div className="space-y-6">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 className="text-lg font-bold">{t("learningApps.heading")}</h2>
            <p className="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-300">
              {t("learningApps.description")}
            </p>
          </div>
          {!isAdding && (
            <button type="button" onClick={() => setIsAdding(true)} className={buttonClass("primary")}>
              {t("learningApps.add")}
            </button>
          )}
        </div>
        {isAdding && (
          <AppForm
            title={t("learningApps.newApp")}
            submitLabel={t("learningApps.add")}
            onDone={() => setIsAdding(false)}
          />
        )}
      </Card>
      {apps.isPending && (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("learningApps.loading")}</p>
      )}
      {apps.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {apps.error.message}
        </p>
      )}
      {apps.data?.data.length === 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("learningApps.none")}</p>
      )}
      {apps.data?.data.map((app) => (
        <AppCard key={app.id} app={app} />
      ))}
    </div>
  );
}

/** A new app's kind, chosen once: a learning app or the monitoring agent. */
function KindChoice({ value, onChange }: { value: AppKind; onChange: (kind: AppKind) => void }) {
  const { t } = useTranslation("admin");
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium">{t("learningApps.kind.legend")}</legend>
      <div className="mt-1 grid gap-2 sm:grid-cols-2">
        {APP_KINDS.map((kind) => (
          <label
            key={kind}
            className={`flex cursor-pointer flex-col rounded-lg border-2 px-3 py-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
              value === kind
                ? "border-brand-600 bg-brand-50 dark:border-brand-500 dark:bg-slate-800"
                : "border-slate-300 bg-white dark:border-slate-700 dark:bg-slate-950"
            }`}
          >
            <span className="flex items-center gap-2 font-semibold">
              <input
                type="radio"
                name={name}
                value={kind}
                checked={value === kind}
                onChange={() => onChange(kind)}
                className="size-4 accent-brand-600"
              />
              {t(`learningApps.kind.${kind}`)}
            </span>
            <span className="text-xs text-slate-600 dark:text-slate-300">
              {t(`learningApps.kind.${kind}Hint`)}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The app form, to add an app or change one. */
function AppForm({
  app,
  title,
  submitLabel,
  onDone,
}: {
  app?: LearningApp;
  title: string;
  submitLabel: string;
  onDone: () => void;
}) {
  const { t } = useTranslation("admin");
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<AppKind>(app?.kind ?? "learning");
  const [name, setName] = useState(app?.name ?? "");
  const [subjects, setSubjects] = useState(app?.subjects.join(", ") ?? "");
  const [launchUrl, setLaunchUrl] = useState(app?.launchUrl ?? "");
  const [icon, setIcon] = useState(app?.icon ?? "");
  const [isActive, setIsActive] = useState(app?.isActive ?? true);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), active: useId(), subjectsHint: useId() };
  const save = useMutation({
    mutationFn: () => {
      const isAgent = kind === "agent";
      const input = {
        name: name.trim(),
        subjects: subjects
          .split(",")
          .map((subject) => subject.trim())
          .filter(Boolean),
        launchUrl: launchUrl.trim() || null,
        icon: icon.trim() || null,
        isActive,
      };
      if (app) return updateLearningApp(app.id, input);
      // A monitoring agent has no subjects and nothing to launch.
      return createLearningApp(
        isAgent ? { ...input, kind, subjects: [], launchUrl: null } : { ...input, kind },
      );
    },
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: credentialKeys.apps });
      onDone();
    },
    onError: (error) => setProblem(error.message),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!name.trim()) return setProblem(t("learningApps.form.nameIt"));
    save.mutate();
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby={ids.title} className="mt-4 space-y-4">
      <h3 id={ids.title} className="font-semibold">
        {title}
      </h3>
      {!app && <KindChoice value={kind} onChange={setKind} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={t("learningApps.form.name")}
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
        {kind === "learning" && (
          <div>
            <TextField
              label={t("learningApps.form.subjects")}
              value={subjects}
              onChange={(event) => setSubjects(event.target.value)}
              placeholder={t("learningApps.form.subjectsPlaceholder")}
              aria-describedby={ids.subjectsHint}
            />
            <p id={ids.subjectsHint} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {t("learningApps.form.subjectsHint")}
            </p>
          </div>
        )}
        {kind === "learning" && (
          <TextField
            label={t("learningApps.form.launchUrl")}
            type="url"
            inputMode="url"
            value={launchUrl}
            onChange={(event) => setLaunchUrl(event.target.value)}
            placeholder={t("learningApps.form.launchUrlPlaceholder")}
          />
        )}
        <TextField
          label={t("learningApps.form.icon")}
          value={icon}
          maxLength={500}
          onChange={(event) => setIcon(event.target.value)}
          placeholder={t("learningApps.form.iconPlaceholder")}
        />
      </div>
      <label htmlFor={ids.active} className="flex items-center gap-2 text-sm font-medium">
        <input
          id={ids.active}
          type="checkbox"
          checked={isActive}
          onChange={(event) => setIsActive(event.target.checked)}
          className="size-4 accent-brand-600"
        />
        {kind === "agent" ? t("learningApps.form.activeAgent") : t("learningApps.form.active")}
      </label>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={save.isPending} className={buttonClass("primary")}>
          {save.isPending ? t("learningApps.form.saving") : submitLabel}
        </button>
        <button type="button" onClick={onDone} className={buttonClass("secondary")}>
          {t("common:dialog.cancel")}
        </button>
      </div>
    </form>
  );
}

/** An icon is an emoji (or any short text) or the address of an image. */
function AppIcon({ icon }: { icon: string | null }) {
  const box =
    "flex size-11 shrink-0 items-center justify-center overflow-hidden rounded-xl bg-slate-100 text-2xl dark:bg-slate-800";
  if (icon && /^https?:\/\//i.test(icon)) {
    return (
      <span className={box}>
        <img src={icon} alt="" className="size-full object-cover" />
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={box}>
      {icon || <Puzzle className="size-5" />}
    </span>
  );
}

function AppCard({ app }: { app: LearningApp }) {
  const { t } = useTranslation("admin");
  const queryClient = useQueryClient();
  const [isEditing, setIsEditing] = useState(false);
  const [showKeys, setShowKeys] = useState(false);
  const keysId = useId();
  const toggleActive = useMutation({
    mutationFn: () => updateLearningApp(app.id, { isActive: !app.isActive }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialKeys.apps }),
  });
  return (
    <Card>
      <article aria-label={app.name}>
        <div className="flex flex-wrap items-start gap-4">
          <AppIcon icon={app.icon} />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="text-lg font-bold break-words">{app.name}</h3>
              <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-800 dark:text-slate-100">
                {app.kind === "agent" && <ShieldCheck aria-hidden="true" className="size-3.5" />}
                {t(`learningApps.kind.${app.kind}`)}
              </span>
              <span
                className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${app.isActive ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200" : "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300"}`}
              >
                {app.isActive ? t("learningApps.card.active") : t("learningApps.card.inactive")}
              </span>
            </div>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
              {app.kind === "agent"
                ? t("learningApps.card.agentLine")
                : app.subjects.length > 0
                  ? app.subjects.join(", ")
                  : t("learningApps.card.noSubject")}
            </p>
            {app.launchUrl && (
              <a
                href={app.launchUrl}
                target="_blank"
                rel="noreferrer"
                className="mt-1 inline-block text-sm break-all text-brand-700 underline dark:text-brand-100"
              >
                {app.launchUrl}
              </a>
            )}
          </div>
          <div className="flex w-full flex-wrap gap-2 sm:w-auto">
            <button
              type="button"
              onClick={() => setIsEditing(!isEditing)}
              aria-label={t("learningApps.card.editLabel", { name: app.name })}
              className={buttonClass("secondary")}
            >
              {t("learningApps.card.edit")}
            </button>
            <button
              type="button"
              disabled={toggleActive.isPending}
              onClick={() => toggleActive.mutate()}
              aria-label={t(
                app.isActive ? "learningApps.card.deactivateLabel" : "learningApps.card.activateLabel",
                {
                  name: app.name,
                },
              )}
              className={buttonClass("secondary")}
            >
              {app.isActive ? t("learningApps.card.deactivate") : t("learningApps.card.activate")}
            </button>
            <button
              type="button"
              aria-expanded={showKeys}
              aria-controls={keysId}
              onClick={() => setShowKeys(!showKeys)}
              aria-label={t(showKeys ? "learningApps.card.hideKeysLabel" : "learningApps.card.keysLabel", {
                name: app.name,
              })}
              className={buttonClass("secondary")}
            >
              {showKeys ? t("learningApps.card.hideKeys") : t("learningApps.card.keys")}
            </button>
          </div>
        </div>
        {toggleActive.isError && (
          <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-300">
            {toggleActive.error.message}
          </p>
        )}
        {isEditing && (
          <AppForm
            app={app}
            title={t("learningApps.card.editLabel", { name: app.name })}
            submitLabel={t("learningApps.card.saveChanges")}
            onDone={() => setIsEditing(false)}
          />
        )}
        <div id={keysId} hidden={!showKeys}>
          {showKeys && <AppKeys app={app} />}
        </div>
      </article>
    </Card>
  );
}

function AppKeys({ app }: { app: LearningApp }) {
  const { t } = useTranslation("admin");
  const queryClient = useQueryClient();
  const keys = useQuery(appKeysQuery(app.id));
  const [label, setLabel] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<{ label: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<AppKey | null>(null);
  const headingId = useId();
  const create = useMutation({
    mutationFn: () => createAppKey(app.id, label.trim()),
    onSuccess: ({ data }) => {
      setLabel("");
      setCreated({ label: data.label, secret: data.secret });
      queryClient.invalidateQueries({ queryKey: credentialKeys.appKeys(app.id) });
    },
    onError: (error) => setProblem(error.message),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!label.trim()) return setProblem(t("learningApps.keys.labelIt"));
    create.mutate();
  }

  return (
    <section
      aria-labelledby={headingId}
      className="mt-5 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h4 id={headingId} className="font-semibold">
        {t("learningApps.card.keysLabel", { name: app.name })}
      </h4>
      {!app.isActive && (
        <p className="mt-1 text-sm text-amber-800 dark:text-amber-200">{t("learningApps.keys.inactive")}</p>
      )}
      {keys.isError && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {keys.error.message}
        </p>
      )}
      {keys.data && keys.data.data.length === 0 && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t("learningApps.keys.none")}</p>
      )}
      {keys.data && keys.data.data.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          {keys.data.data.map((key) => (
            <li
              key={key.id}
              aria-label={key.label}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3"
            >
              <div className="min-w-0">
                <p className="font-medium break-words">{key.label}</p>
                <p className="text-xs text-slate-600 dark:text-slate-300">
                  <span className="font-mono">{key.keyPrefix}…</span> ·{" "}
                  {key.lastUsedAt
                    ? t("learningApps.keys.usage", {
                        date: dateOf(key.createdAt),
                        when: relativeTime(key.lastUsedAt),
                      })
                    : t("learningApps.keys.usageNever", { date: dateOf(key.createdAt) })}
                </p>
              </div>
              {key.revokedAt ? (
                <span className="rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-800 dark:bg-red-950 dark:text-red-200">
                  {t("learningApps.keys.revoked", { date: dateOf(key.revokedAt) })}
                </span>
              ) : (
                <button
                  type="button"
                  onClick={() => setRevoking(key)}
                  aria-label={t("learningApps.keys.revokeLabel", { label: key.label })}
                  className={buttonClass("secondary", "text-red-700 dark:text-red-300")}
                >
                  {t("learningApps.keys.revoke")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4">
        {created ? (
          <SecretOnce
            title={t("learningApps.keys.newKey", { label: created.label })}
            values={[{ label: t("learningApps.keys.apiKey"), value: created.secret }]}
            onDone={() => setCreated(null)}
          />
        ) : (
          <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
            <TextField
              label={t("learningApps.keys.newKeyLabel")}
              value={label}
              maxLength={100}
              onChange={(event) => setLabel(event.target.value)}
              placeholder={t("learningApps.keys.newKeyPlaceholder")}
              className="min-w-0 flex-1 sm:max-w-sm"
            />
            <button type="submit" disabled={create.isPending} className={buttonClass("primary")}>
              {create.isPending ? t("learningApps.keys.creating") : t("learningApps.keys.create")}
            </button>
            {problem && (
              <p role="alert" className="w-full text-sm font-medium text-red-700 dark:text-red-300">
                {problem}
              </p>
            )}
          </form>
        )}
      </div>
      {revoking && (
        <ConfirmDialog
          title={t("learningApps.keys.revokeTitle", { label: revoking.label })}
          confirmLabel={t("learningApps.keys.revokeKey")}
          onConfirm={async () => {
            await revokeAppKey(app.id, revoking.id);
            await queryClient.invalidateQueries({ queryKey: credentialKeys.appKeys(app.id) });
          }}
          message={t("learningApps.keys.revokeMessage", { name: app.name })}
          onClose={() => setRevoking(null)}
        />
      )}
    </section>
  );
}
