import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type {
  NotificationPreferences,
  NotificationType,
  UpdatePreferencesBody,
} from "../../../shared/contracts/notifications";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "../../../shared/languages";
import { Card, PageHeader } from "../../components/page-header";
import { type Announce, useAnnouncement } from "../../components/ui/announcement";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { chooseOwnLanguage } from "../../lib/language";
import { authKeys, saveOwnLanguage } from "../auth/api";
import { useAuth } from "../auth/use-auth";
import { Loading, QueryError } from "../home/parts";
import { preferencesQuery, savePreferences } from "./api";
import { notificationKeys } from "./keys";

type Channel = "inApp" | "email";
type Choices = Record<NotificationType, Record<Channel, boolean>>;

interface Draft {
  choices: Choices;
  timeZone: string;
  language: Language | null;
  digestDay: number | null;
  /** Stopped kinds of mail to send again. */
  resumeMail: string[];
}

function draftOf(preferences: NotificationPreferences): Draft {
  return {
    choices: Object.fromEntries(
      preferences.types.map((entry) => [entry.type, { inApp: entry.inApp, email: entry.email }]),
    ) as Choices,
    timeZone: preferences.timeZone,
    language: preferences.language,
    digestDay: preferences.digestDay,
    resumeMail: [],
  };
}

/** What changed since what was saved: only that is sent. */
function changesOf(saved: Draft, draft: Draft, canChooseTimeZone: boolean): UpdatePreferencesBody {
  const types = (Object.keys(draft.choices) as NotificationType[])
    .filter(
      (type) =>
        draft.choices[type].inApp !== saved.choices[type]?.inApp ||
        draft.choices[type].email !== saved.choices[type]?.email,
    )
    .map((type) => ({ type, ...draft.choices[type] }));
  return {
    ...(types.length > 0 && { types }),
    ...(canChooseTimeZone && draft.timeZone !== saved.timeZone && { timeZone: draft.timeZone }),
    ...(draft.language !== saved.language && { language: draft.language }),
    ...(draft.digestDay !== saved.digestDay && { digestDay: draft.digestDay }),
    ...(draft.resumeMail.length > 0 && { resumeMail: draft.resumeMail }),
  };
}

/** The IANA time zones the browser knows, with the one saved even if it does not. */
function timeZoneList(saved: string): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return known.includes(saved) ? known : [saved, ...known];
}

/** A person's notifications (per kind: in the app, by email), time zone, language and digest day. */
export function PreferencesPage() {
  const { t } = useTranslation("notifications");
  const preferences = useQuery(preferencesQuery());
  // Outside the form, which starts again from each saved answer: the confirmation stays.
  const [announcement, announce] = useAnnouncement();
  return (
    <>
      <PageHeader title={t("preferences.title")} description={t("preferences.description")} />
      <div className="has-[p]:mb-4">{announcement}</div>
      {preferences.isPending ? (
        <Card>
          <Loading label={t("preferences.loading")} rows={6} />
        </Card>
      ) : preferences.isError ? (
        <Card>
          <QueryError
            error={preferences.error}
            fallback={t("preferences.failed")}
            onRetry={() => void preferences.refetch()}
          />
        </Card>
      ) : (
        // A new answer (after saving, or from another tab) starts the form again from it.
        <PreferencesForm
          key={JSON.stringify(preferences.data)}
          preferences={preferences.data}
          announce={announce}
        />
      )}
    </>
  );
}

function PreferencesForm({
  preferences,
  announce,
}: {
  preferences: NotificationPreferences;
  announce: Announce;
}) {
  const { t } = useTranslation("notifications");
  const { isImpersonating, realUser } = useAuth();
  const queryClient = useQueryClient();
  const saved = useMemo(() => draftOf(preferences), [preferences]);
  const [draft, setDraft] = useState(saved);
  // A student's days are counted in the time zone the school set: a Guide who is also a student keeps it.
  const canChooseTimeZone = !realUser.roles.some((entry) => entry.role === "student");
  const changes = changesOf(saved, draft, canChooseTimeZone);
  const hasChanges = Object.keys(changes).length > 0;
  const zones = useMemo(() => timeZoneList(preferences.timeZone), [preferences.timeZone]);
  const isZoneKnown = zones.includes(draft.timeZone);

  const save = useMutation({
    mutationFn: () => savePreferences(changes),
    onSuccess: async (answer) => {
      announce(t("preferences.saved"));
      queryClient.setQueryData(notificationKeys.preferences, answer);
      // The pages show the language chosen, on this device too, as the header's switcher does.
      if (changes.language !== undefined) {
        await chooseOwnLanguage(changes.language, saveOwnLanguage);
        await queryClient.invalidateQueries({ queryKey: authKeys.me });
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!hasChanges || !isZoneKnown || isImpersonating) return;
    save.mutate();
  };

  const setChoice = (type: NotificationType, channel: Channel, on: boolean) =>
    setDraft((current) => ({
      ...current,
      choices: { ...current.choices, [type]: { ...current.choices[type], [channel]: on } },
    }));

  return (
    <form onSubmit={submit} className="space-y-6">
      {isImpersonating && (
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          {t("preferences.viewingAs")}
        </p>
      )}
      <fieldset disabled={isImpersonating || save.isPending} className="space-y-6">
        <NotificationChoices preferences={preferences} draft={draft} onChange={setChoice} />
        <Card>
          <h2 className="text-lg font-bold">{t("preferences.regional")}</h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <TimeZoneField
              value={draft.timeZone}
              zones={zones}
              canChoose={canChooseTimeZone}
              isKnown={isZoneKnown}
              onChange={(timeZone) => setDraft((current) => ({ ...current, timeZone }))}
            />
            <SelectField
              label={t("preferences.language")}
              value={draft.language ?? ""}
              onChange={(event) =>
                setDraft((current) => ({
                  ...current,
                  language: (event.target.value || null) as Language | null,
                }))
              }
              options={[
                { value: "", label: t("preferences.followBrowser") },
                ...LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] })),
              ]}
            />
          </div>
        </Card>
        {preferences.choosesDigestDay && (
          <Card>
            <h2 className="text-lg font-bold">{t("preferences.digest")}</h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("preferences.digestHint")}</p>
            <SelectField
              className="mt-4 sm:max-w-xs"
              label={t("preferences.digestDay")}
              value={draft.digestDay === null ? "" : String(draft.digestDay)}
              onChange={(event) =>
                setDraft((current) => ({
                  ...current,
                  digestDay: event.target.value === "" ? null : Number(event.target.value),
                }))
              }
              options={[
                { value: "", label: t("preferences.schoolDay") },
                ...[1, 2, 3, 4, 5, 6, 0].map((day) => ({ value: String(day), label: t(`weekdays.${day}`) })),
              ]}
            />
          </Card>
        )}
        {preferences.stoppedMail.length > 0 && (
          <Card>
            <h2 className="text-lg font-bold">{t("preferences.stopped.title")}</h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("preferences.stopped.hint")}</p>
            <ul className="mt-4 space-y-2">
              {preferences.stoppedMail.map((category) => (
                <li key={category}>
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      className="size-5"
                      checked={draft.resumeMail.includes(category)}
                      onChange={(event) =>
                        setDraft((current) => ({
                          ...current,
                          resumeMail: event.target.checked
                            ? [...current.resumeMail, category]
                            : current.resumeMail.filter((entry) => entry !== category),
                        }))
                      }
                    />
                    {t("preferences.stopped.resume", {
                      kind: t(`preferences.stopped.kinds.${category}`, { defaultValue: category }),
                    })}
                  </label>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </fieldset>
      {!isImpersonating && (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={!hasChanges || !isZoneKnown || save.isPending}
            className={buttonClass("primary")}
          >
            {save.isPending ? t("preferences.saving") : t("preferences.save")}
          </button>
          {hasChanges && !save.isPending && (
            <p className="text-sm text-slate-600 dark:text-slate-300">{t("preferences.unsaved")}</p>
          )}
          {save.isError && (
            <p role="alert" className="text-sm text-red-800 dark:text-red-200">
              {failureMessage(save.error, t("preferences.saveFailed"))}
            </p>
          )}
        </div>
      )}
    </form>
  );
}

function NotificationChoices({
  preferences,
  draft,
  onChange,
}: {
  preferences: NotificationPreferences;
  draft: Draft;
  onChange: (type: NotificationType, channel: Channel, on: boolean) => void;
}) {
  const { t } = useTranslation("notifications");
  const channels: { channel: Channel; label: string }[] = [
    { channel: "inApp", label: t("preferences.inApp") },
    { channel: "email", label: t("preferences.byEmail") },
  ];
  return (
    <Card>
      <h2 className="text-lg font-bold">{t("preferences.notifications")}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("preferences.notificationsHint")}</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {preferences.email
          ? t("preferences.emailTo", { email: preferences.email })
          : t("preferences.noEmail")}
      </p>
      <TableRegion label={t("preferences.notifications")} className="mt-4">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-800">
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t("preferences.kind")}
              </th>
              {channels.map(({ channel, label }) => (
                <th key={channel} scope="col" className="w-24 px-2 py-2 text-center font-semibold">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {preferences.types.map(({ type }) => (
              <tr key={type}>
                <th scope="row" className="py-3 pr-3 font-normal">
                  <span className="block font-semibold">{t(`types.${type}.name`)}</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-300">
                    {t(`types.${type}.description`)}
                  </span>
                </th>
                {channels.map(({ channel, label }) => (
                  <td key={channel} className="px-2 py-3 text-center">
                    <Switch
                      label={t("preferences.switchLabel", { type: t(`types.${type}.name`), channel: label })}
                      checked={draft.choices[type][channel]}
                      disabled={channel === "email" && !preferences.email}
                      onChange={(on) => onChange(type, channel, on)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </Card>
  );
}

/** An on/off switch: a checkbox with the switch role, drawn as a track and a knob. */
function Switch({
  label,
  checked,
  disabled = false,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="relative inline-flex cursor-pointer items-center has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-50">
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        aria-label={label}
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer opacity-0 disabled:cursor-not-allowed"
      />
      <span
        aria-hidden="true"
        className="h-6 w-11 rounded-full bg-slate-400 transition-colors peer-checked:bg-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 dark:bg-slate-600 dark:peer-checked:bg-brand-500"
      />
      <span
        aria-hidden="true"
        className="absolute left-0.5 size-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
      />
    </label>
  );
}

function TimeZoneField({
  value,
  zones,
  canChoose,
  isKnown,
  onChange,
}: {
  value: string;
  zones: string[];
  canChoose: boolean;
  isKnown: boolean;
  onChange: (zone: string) => void;
}) {
  const { t } = useTranslation("notifications");
  const id = useId();
  const hint = canChoose
    ? isKnown
      ? t("preferences.timeZoneHint")
      : t("preferences.timeZoneInvalid")
    : t("preferences.timeZoneStudent");
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {t("preferences.timeZone")}
      </label>
      <input
        id={id}
        list={canChoose ? `${id}-zones` : undefined}
        value={value}
        readOnly={!canChoose}
        autoComplete="off"
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        aria-invalid={canChoose && !isKnown}
        onChange={(event) => onChange(event.target.value.trim())}
        className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm read-only:bg-slate-100 focus:border-brand-600 aria-invalid:border-red-700 dark:border-slate-700 dark:bg-slate-950 dark:read-only:bg-slate-800"
      />
      {canChoose && (
        <datalist id={`${id}-zones`}>
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      )}
      <p
        id={`${id}-hint`}
        className={`mt-1 text-xs ${canChoose && !isKnown ? "text-red-800 dark:text-red-200" : "text-slate-600 dark:text-slate-300"}`}
      >
        {hint}
      </p>
    </div>
  );
}
