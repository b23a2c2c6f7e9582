import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LearningSettings } from "../../../shared/contracts/activity";
import { DEFAULT_XP_RULES, type XpRules } from "../../../shared/xp-rules";
import { Card } from "../../components/page-header";
import { buttonClass, NUMBER_INPUT_CLASS, NumberField } from "../../components/ui/form";
import { learningSettingsQuery, saveLearningSettings } from "./api";
import { xpKeys } from "./keys";

const RULE_FIELDS: { key: keyof XpRules; step: number; max: number }[] = [
  { key: "accuracyFloor", step: 0.01, max: 1 },
  { key: "firstAttemptPerfect", step: 0.05, max: 5 },
  { key: "firstAttemptPassing", step: 0.05, max: 5 },
  { key: "retryPerfect", step: 0.05, max: 5 },
  { key: "retryPassing", step: 0.05, max: 5 },
  { key: "gamingPenaltyPerMinute", step: 0.5, max: 10 },
];

type GoalRow = { id: number; subject: string; xp: string };
let nextRowId = 0;
const toRows = (goals: Record<string, number>): GoalRow[] =>
  Object.entries(goals).map(([subject, xp]) => ({ id: ++nextRowId, subject, xp: String(xp) }));

/** Administrators: the XP rules and default daily goals the whole school runs on. */
export function LearningSettingsCard() {
  const { t } = useTranslation("xp");
  const baseId = useId();
  const queryClient = useQueryClient();
  const settings = useQuery(learningSettingsQuery);
  const [rules, setRules] = useState<Record<keyof XpRules, string> | null>(null);
  const [goals, setGoals] = useState<GoalRow[]>([]);
  const save = useMutation({
    mutationFn: saveLearningSettings,
    onSuccess: (response) => {
      queryClient.setQueryData(learningSettingsQuery.queryKey, response);
      queryClient.invalidateQueries({ queryKey: xpKeys.all });
    },
  });

  // The form starts from what the server holds, and again after each save.
  useEffect(() => {
    if (!settings.data) return;
    setRules(
      Object.fromEntries(RULE_FIELDS.map(({ key }) => [key, String(settings.data.xpRules[key])])) as Record<
        keyof XpRules,
        string
      >,
    );
    setGoals(toRows(settings.data.dailyGoals));
  }, [settings.data]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!rules) return;
    const xpRules: XpRules = { ...DEFAULT_XP_RULES };
    for (const { key } of RULE_FIELDS) xpRules[key] = Number(rules[key]);
    const next: LearningSettings = {
      xpRules,
      dailyGoals: Object.fromEntries(goals.map((row) => [row.subject.trim(), Number(row.xp)])),
    };
    save.mutate(next);
  }

  return (
    <Card>
      <section aria-labelledby={`${baseId}-heading`}>
        <h2 id={`${baseId}-heading`} className="text-lg font-bold">
          {t("settings.heading")}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("settings.intro")}</p>
        {settings.isError ? (
          <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-300">
            {t("settings.loadFailed", { message: settings.error.message })}
          </p>
        ) : !rules ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{t("loading")}</p>
        ) : (
          <form onSubmit={submit} noValidate className="mt-4 space-y-5">
            <fieldset>
              <legend className="text-sm font-semibold">{t("settings.rulesLegend")}</legend>
              <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
                {RULE_FIELDS.map((field) => (
                  <NumberField
                    key={field.key}
                    label={t(`settings.rules.${field.key}.label`)}
                    hint={t(`settings.rules.${field.key}.hint`)}
                    min={0}
                    max={field.max}
                    step={field.step}
                    required
                    value={rules[field.key]}
                    onChange={(event) => setRules({ ...rules, [field.key]: event.target.value })}
                  />
                ))}
              </div>
            </fieldset>
            <fieldset>
              <legend className="text-sm font-semibold">{t("settings.goalsLegend")}</legend>
              <ul className="mt-2 space-y-2">
                {goals.map((row, index) => (
                  <li key={row.id} className="flex items-end gap-2">
                    <div className="min-w-0 flex-1">
                      <label htmlFor={`${baseId}-subject-${row.id}`} className="sr-only">
                        {t("settings.subjectNumber", { number: index + 1 })}
                      </label>
                      <input
                        id={`${baseId}-subject-${row.id}`}
                        value={row.subject}
                        required
                        maxLength={50}
                        onChange={(event) =>
                          setGoals(
                            goals.map((entry) =>
                              entry.id === row.id ? { ...entry, subject: event.target.value } : entry,
                            ),
                          )
                        }
                        className={NUMBER_INPUT_CLASS}
                      />
                    </div>
                    <div className="w-28">
                      <label htmlFor={`${baseId}-goal-${row.id}`} className="sr-only">
                        {t("settings.goalLabel", {
                          named: row.subject ? "yes" : "no",
                          subject: row.subject,
                          number: index + 1,
                        })}
                      </label>
                      <input
                        id={`${baseId}-goal-${row.id}`}
                        type="number"
                        min={0}
                        max={600}
                        step={1}
                        required
                        value={row.xp}
                        onChange={(event) =>
                          setGoals(
                            goals.map((entry) =>
                              entry.id === row.id ? { ...entry, xp: event.target.value } : entry,
                            ),
                          )
                        }
                        className={NUMBER_INPUT_CLASS}
                      />
                    </div>
                    <button
                      type="button"
                      className={buttonClass("secondary", "py-2.5")}
                      aria-label={t("settings.removeLabel", {
                        named: row.subject ? "yes" : "no",
                        subject: row.subject,
                        number: index + 1,
                      })}
                      onClick={() => setGoals(goals.filter((entry) => entry.id !== row.id))}
                    >
                      {t("settings.remove")}
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className={buttonClass("secondary", "mt-2")}
                onClick={() => setGoals([...goals, { id: ++nextRowId, subject: "", xp: "20" }])}
              >
                {t("settings.addSubject")}
              </button>
            </fieldset>
            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" className={buttonClass("primary")} disabled={save.isPending}>
                {save.isPending ? t("settings.saving") : t("settings.save")}
              </button>
              <p aria-live="polite" className="text-sm">
                {save.isError ? (
                  <span className="text-red-700 dark:text-red-300">{save.error.message}</span>
                ) : save.isSuccess ? (
                  <span className="text-emerald-700 dark:text-emerald-300">{t("settings.saved")}</span>
                ) : null}
              </p>
            </div>
          </form>
        )}
      </section>
    </Card>
  );
}
