import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useState } from "react";
import type { LearningSettings } from "../../../shared/contracts/activity";
import { DEFAULT_XP_RULES, type XpRules } from "../../../shared/xp-rules";
import { Card } from "../../components/page-header";
import { buttonClass, NUMBER_INPUT_CLASS, NumberField } from "../../components/ui/form";
import { learningSettingsQuery, saveLearningSettings, xpKeys } from "./api";

const RULE_FIELDS: { key: keyof XpRules; label: string; hint: string; step: number; max: number }[] = [
  {
    key: "accuracyFloor",
    label: "Accuracy floor",
    hint: "0.8 = below 80% earns nothing",
    step: 0.01,
    max: 1,
  },
  { key: "firstAttemptPerfect", label: "First attempt, 100%", hint: "× expected XP", step: 0.05, max: 5 },
  { key: "firstAttemptPassing", label: "First attempt, passing", hint: "× expected XP", step: 0.05, max: 5 },
  { key: "retryPerfect", label: "Retry, 100%", hint: "× expected XP", step: 0.05, max: 5 },
  { key: "retryPassing", label: "Retry, passing", hint: "× expected XP", step: 0.05, max: 5 },
  { key: "gamingPenaltyPerMinute", label: "Gaming penalty", hint: "XP taken per minute", step: 0.5, max: 10 },
];

type GoalRow = { id: number; subject: string; xp: string };
let nextRowId = 0;
const toRows = (goals: Record<string, number>): GoalRow[] =>
  Object.entries(goals).map(([subject, xp]) => ({ id: ++nextRowId, subject, xp: String(xp) }));

/** Administrators: the XP rules and default daily goals the whole school runs on. */
export function LearningSettingsCard() {
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
          XP rules and daily goals
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          The school's rules for every student. Changes apply to activity that arrives from now on; XP already
          awarded stays as it was.
        </p>
        {settings.isError ? (
          <p role="alert" className="mt-4 text-sm text-red-700 dark:text-red-300">
            Could not load the settings: {settings.error.message}
          </p>
        ) : !rules ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">Loading…</p>
        ) : (
          <form onSubmit={submit} noValidate className="mt-4 space-y-5">
            <fieldset>
              <legend className="text-sm font-semibold">XP rules</legend>
              <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
                {RULE_FIELDS.map((field) => (
                  <NumberField
                    key={field.key}
                    label={field.label}
                    hint={field.hint}
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
              <legend className="text-sm font-semibold">Daily XP goal per subject</legend>
              <ul className="mt-2 space-y-2">
                {goals.map((row, index) => (
                  <li key={row.id} className="flex items-end gap-2">
                    <div className="min-w-0 flex-1">
                      <label htmlFor={`${baseId}-subject-${row.id}`} className="sr-only">
                        Subject {index + 1}
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
                        {row.subject || `Subject ${index + 1}`} daily goal in XP
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
                      aria-label={`Remove ${row.subject || `subject ${index + 1}`}`}
                      onClick={() => setGoals(goals.filter((entry) => entry.id !== row.id))}
                    >
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className={buttonClass("secondary", "mt-2")}
                onClick={() => setGoals([...goals, { id: ++nextRowId, subject: "", xp: "20" }])}
              >
                Add a subject
              </button>
            </fieldset>
            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" className={buttonClass("primary")} disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save rules and goals"}
              </button>
              <p aria-live="polite" className="text-sm">
                {save.isError ? (
                  <span className="text-red-700 dark:text-red-300">{save.error.message}</span>
                ) : save.isSuccess ? (
                  <span className="text-emerald-700 dark:text-emerald-300">Saved.</span>
                ) : null}
              </p>
            </div>
          </form>
        )}
      </section>
    </Card>
  );
}
