import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RewardSettings } from "../../../shared/contracts/rewards";
import { buttonClass } from "../../components/ui/form";
import { Loading, QueryError, Section } from "../home/parts";
import {
  ADMIN_INPUT_CLASS,
  AdminField,
  type FormProblems,
  ProblemsAlert,
  problemsOf,
  SuccessNote,
} from "./admin-form";
import { rewardKeys, saveSettings, settingsQuery } from "./api";

/** The rules' fields by group, each named by its path in the settings; all numbers but two. */
const RULE_GROUPS = [
  {
    key: "earning",
    paths: [
      "earning.perMasteredUnit",
      "earning.allDailyGoals",
      "earning.weeklyGoal",
      "earning.masteryTest90",
      "earning.masteryTest100",
      "earning.mapGrowth",
    ],
  },
  {
    key: "families",
    paths: ["parents.weeklyBonus", "parents.bonusesPerSchoolYear", "parents.weeklyDebit", "schoolYearStart"],
  },
  { key: "guides", paths: ["guideWeeklyBudget"] },
  { key: "savings", paths: ["savings.weeklyInterestPercent", "savings.weeklyInterestCap"] },
  { key: "requests", paths: ["requestExpiryDays"] },
  { key: "payouts", paths: ["payout.alphasPerUnit", "payout.currency"] },
] as const;

type RulePath = (typeof RULE_GROUPS)[number]["paths"][number];
const TEXT_PATHS: ReadonlySet<RulePath> = new Set(["payout.currency", "schoolYearStart"]);
const ALL_PATHS: RulePath[] = RULE_GROUPS.flatMap((group) => [...group.paths]);

type Node = Record<string, unknown>;

const valueAt = (settings: RewardSettings, path: string): unknown =>
  path.split(".").reduce<unknown>((node, key) => (node as Node)[key], settings);

function draftOf(settings: RewardSettings): Record<RulePath, string> {
  return Object.fromEntries(ALL_PATHS.map((path) => [path, String(valueAt(settings, path))])) as Record<
    RulePath,
    string
  >;
}

/** The settings with the draft's values put in, numbers as numbers. */
function settingsOf(base: RewardSettings, draft: Record<RulePath, string>): RewardSettings {
  const settings = structuredClone(base);
  for (const path of ALL_PATHS) {
    const keys = path.split(".");
    const last = keys.pop() as string;
    const parent = keys.reduce<Node>((node, key) => node[key] as Node, settings as unknown as Node);
    parent[last] = TEXT_PATHS.has(path) ? draft[path].trim() : Number(draft[path]);
  }
  return settings;
}

/** The school's rules for Alphas: what each thing earns, the families' and Guides' limits, savings, payouts. */
export function RulesSection() {
  const { t } = useTranslation("rewards");
  const settings = useQuery(settingsQuery);
  return (
    <Section title={t("rules.title")} description={t("rules.description")}>
      {settings.isPending ? (
        <Loading label={t("rules.loading")} rows={6} />
      ) : settings.isError ? (
        <QueryError
          error={settings.error}
          fallback={t("rules.loadFailed")}
          onRetry={() => settings.refetch()}
        />
      ) : (
        <RulesForm settings={settings.data} />
      )}
    </Section>
  );
}

function RulesForm({ settings }: { settings: RewardSettings }) {
  const { t } = useTranslation("rewards");
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [saved, setSaved] = useState(false);
  const [isSaving, setIsSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const found: Record<string, string> = {};
    for (const path of ALL_PATHS)
      if (!TEXT_PATHS.has(path) && (draft[path].trim() === "" || !Number.isFinite(Number(draft[path]))))
        found[path] = t("rules.problems.number");
    setProblems({ fields: found });
    if (Object.keys(found).length > 0) return;
    setIsSaving(true);
    try {
      const next = await saveSettings(settingsOf(settings, draft));
      setDraft(draftOf(next));
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
    } catch (error) {
      setProblems(
        problemsOf(error, t("rules.failed"), (path) => (ALL_PATHS.includes(path as RulePath) ? path : null)),
      );
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {RULE_GROUPS.map((group) => (
        <fieldset key={group.key} className="border-t border-slate-200 pt-4 dark:border-slate-800">
          <legend className="pr-2 text-base font-bold">{t(`rules.groups.${group.key}`)}</legend>
          <div className="mt-2 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {group.paths.map((path) => (
              <AdminField
                key={path}
                label={t(`rules.fields.${path}.label`)}
                hint={t(`rules.fields.${path}.hint`)}
                error={problems.fields[path]}
              >
                {(control) => (
                  <input
                    {...control}
                    {...(TEXT_PATHS.has(path)
                      ? { type: "text", maxLength: path === "payout.currency" ? 3 : 5 }
                      : {
                          type: "number",
                          inputMode: "decimal" as const,
                          min: 0,
                          step: path === "savings.weeklyInterestPercent" ? 0.1 : 1,
                        })}
                    value={draft[path]}
                    onChange={(event) => {
                      setDraft({ ...draft, [path]: event.target.value });
                      setSaved(false);
                    }}
                    className={`${ADMIN_INPUT_CLASS} tabular-nums`}
                  />
                )}
              </AdminField>
            ))}
          </div>
        </fieldset>
      ))}
      <ProblemsAlert problems={problems} />
      <div role="status">{saved && <SuccessNote>{t("rules.saved")}</SuccessNote>}</div>
      <button type="submit" disabled={isSaving} className={buttonClass("primary", "w-full sm:w-auto")}>
        {isSaving ? t("rules.saving") : t("rules.save")}
      </button>
    </form>
  );
}
