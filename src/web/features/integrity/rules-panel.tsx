import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IntegritySettings } from "../../../shared/contracts/integrity";
import { buttonClass } from "../../components/ui/form";
import { orgsQuery } from "../admin/api";
import { Loading, QueryError } from "../home/parts";
import {
  ADMIN_INPUT_CLASS,
  AdminField,
  type FormProblems,
  ProblemsAlert,
  problemsOf,
  SuccessNote,
} from "../rewards/admin-form";
import { integrityKeys, saveSettings, settingsQuery } from "./api";

/** The number rules, each with its bounds (those of the contract). */
const NUMBER_RULES = [
  { key: "strikeThreshold", min: 1, max: 20 },
  { key: "strikeExpiryDays", min: 1, max: 365 },
  { key: "evidenceRetentionDays", min: 1, max: 3650 },
] as const;
type NumberRule = (typeof NUMBER_RULES)[number]["key"];
const SWITCHES = ["secondReviewer", "voidSessionXp"] as const;

/** The rules of review and lockout, folded away until an administrator opens them. */
export function RulesPanel() {
  const { t } = useTranslation("integrity");
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={headingId} className="text-lg font-bold">
        <button
          type="button"
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={() => setIsOpen(!isOpen)}
          className="flex w-full items-center justify-between gap-3 rounded-2xl p-5 text-left sm:px-6"
        >
          <span>
            {t("rules.title")}
            <span className="block text-sm font-normal text-slate-600 dark:text-slate-300">
              {t("rules.description")}
            </span>
          </span>
          <ChevronDown
            aria-hidden="true"
            className={`size-5 shrink-0 motion-safe:transition-transform ${isOpen ? "rotate-180" : ""}`}
          />
        </button>
      </h2>
      <div
        id={panelId}
        hidden={!isOpen}
        className="border-t border-slate-200 p-5 sm:p-6 dark:border-slate-800"
      >
        {isOpen && <RulesLoader />}
      </div>
    </section>
  );
}

function RulesLoader() {
  const { t } = useTranslation("integrity");
  const settings = useQuery(settingsQuery);
  if (settings.isPending) return <Loading label={t("rules.loading")} rows={4} />;
  if (settings.isError)
    return (
      <QueryError
        error={settings.error}
        fallback={t("rules.loadFailed")}
        onRetry={() => settings.refetch()}
      />
    );
  return <RulesForm settings={settings.data} />;
}

type Draft = Omit<IntegritySettings, NumberRule> & Record<NumberRule, string>;

const draftOf = (settings: IntegritySettings): Draft => ({
  ...settings,
  strikeThreshold: String(settings.strikeThreshold),
  strikeExpiryDays: String(settings.strikeExpiryDays),
  evidenceRetentionDays: String(settings.evidenceRetentionDays),
});

function RulesForm({ settings }: { settings: IntegritySettings }) {
  const { t } = useTranslation("integrity");
  const queryClient = useQueryClient();
  const orgs = useQuery(orgsQuery(""));
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [saved, setSaved] = useState(false);
  const [isSaving, setIsSaving] = useState(false);
  const schools = (orgs.data?.data ?? [])
    .filter((org) => org.type.toLowerCase() === "school")
    .sort((a, b) => a.name.localeCompare(b.name));

  const change = (next: Partial<Draft>) => {
    setDraft({ ...draft, ...next });
    setSaved(false);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const fields: Record<string, string> = {};
    for (const rule of NUMBER_RULES) {
      const value = Number(draft[rule.key]);
      if (draft[rule.key].trim() === "" || !Number.isInteger(value) || value < rule.min || value > rule.max)
        fields[rule.key] = t("rules.wholeNumber", { min: rule.min, max: rule.max });
    }
    setProblems({ fields });
    if (Object.keys(fields).length > 0) return;
    setIsSaving(true);
    try {
      const next = await saveSettings({
        ...draft,
        strikeThreshold: Number(draft.strikeThreshold),
        strikeExpiryDays: Number(draft.strikeExpiryDays),
        evidenceRetentionDays: Number(draft.evidenceRetentionDays),
      });
      queryClient.setQueryData(integrityKeys.settings, next);
      setDraft(draftOf(next));
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: integrityKeys.all });
    } catch (error) {
      setProblems(
        problemsOf(error, t("rules.failed"), (path) => {
          const field = path.split(".")[0] ?? "";
          return [...NUMBER_RULES.map((rule) => rule.key as string), "lockoutSchoolIds"].includes(field)
            ? field
            : null;
        }),
      );
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <fieldset className="space-y-3">
        <legend className="mb-2 text-base font-bold">{t("rules.review")}</legend>
        {SWITCHES.map((key) => (
          <Switch
            key={key}
            label={t(`rules.fields.${key}.label`)}
            hint={t(`rules.fields.${key}.hint`)}
            checked={draft[key]}
            onChange={(checked) => change({ [key]: checked })}
          />
        ))}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        {NUMBER_RULES.map((rule) => (
          <AdminField
            key={rule.key}
            label={t(`rules.fields.${rule.key}.label`)}
            hint={t(`rules.fields.${rule.key}.hint`, { min: rule.min, max: rule.max })}
            error={problems.fields[rule.key]}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={rule.min}
                max={rule.max}
                step={1}
                value={draft[rule.key]}
                onChange={(event) => change({ [rule.key]: event.target.value })}
                className={`${ADMIN_INPUT_CLASS} tabular-nums`}
              />
            )}
          </AdminField>
        ))}
      </div>
      <fieldset>
        <legend className="text-base font-bold">{t("rules.lockoutSchools")}</legend>
        <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{t("rules.lockoutSchoolsHint")}</p>
        {orgs.isError && (
          <QueryError error={orgs.error} fallback={t("rules.schoolsFailed")} onRetry={() => orgs.refetch()} />
        )}
        {orgs.isPending && <Loading label={t("rules.schoolsLoading")} rows={1} />}
        {orgs.data && schools.length === 0 && (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t("rules.noSchools")}</p>
        )}
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {schools.map((school) => (
            <li key={school.sourcedId}>
              <Switch
                label={school.name}
                checked={draft.lockoutSchoolIds.includes(school.sourcedId)}
                onChange={(checked) =>
                  change({
                    lockoutSchoolIds: checked
                      ? [...draft.lockoutSchoolIds, school.sourcedId]
                      : draft.lockoutSchoolIds.filter((id) => id !== school.sourcedId),
                  })
                }
              />
            </li>
          ))}
        </ul>
        {problems.fields.lockoutSchoolIds && (
          <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
            {problems.fields.lockoutSchoolIds}
          </p>
        )}
      </fieldset>
      <ProblemsAlert problems={problems} />
      <div role="status">{saved && <SuccessNote>{t("rules.saved")}</SuccessNote>}</div>
      <button type="submit" disabled={isSaving} className={buttonClass("primary", "w-full sm:w-auto")}>
        {isSaving ? t("rules.saving") : t("rules.save")}
      </button>
    </form>
  );
}

/** A checkbox with its label, and a line under it that is read with it. */
function Switch({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-0.5 size-4 shrink-0 accent-brand-600"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
