import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import type { XpDayEvent } from "../../../shared/contracts/activity";
import { computeXp, DEFAULT_XP_RULES, type XpInput, type XpRules } from "../../../shared/xp-rules";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass, NumberField, TextField } from "../../components/ui/form";
import { learningSettingsQuery } from "./api";
import { LearningSettingsCard } from "./learning-settings";
import { type PickedStudent, StudentPicker } from "./student-picker";
import { DayPicker, useXpDay, XpDayResult } from "./xp-day-view";
import { amountClass, xpAmount } from "./xp-history";

const EMPTY_INPUT: XpInput = {
  baseXp: 20,
  totalQuestions: 10,
  correctQuestions: 9,
  attempt: 1,
  activeSeconds: 1200,
  wasteSeconds: 0,
  antiPatternSeconds: 0,
};

const FIELDS: { key: keyof XpInput; min: number; step: number }[] = [
  { key: "baseXp", min: 0, step: 0.01 },
  { key: "totalQuestions", min: 0, step: 1 },
  { key: "correctQuestions", min: 0, step: 1 },
  { key: "attempt", min: 1, step: 1 },
  { key: "activeSeconds", min: 0, step: 1 },
  { key: "wasteSeconds", min: 0, step: 1 },
  { key: "antiPatternSeconds", min: 0, step: 1 },
];

/** Administrators: any student's day by id or search, and a what-if calculator of the XP rules. */
export function DebugXpPage() {
  const { t } = useTranslation("xp");
  const [student, setStudent] = useState<PickedStudent | null>(null);
  const [date, setDate] = useState<string | undefined>(undefined);
  const [idText, setIdText] = useState("");
  const [calculator, setCalculator] = useState<{ input: XpInput; from: string | null }>({
    input: EMPTY_INPUT,
    from: null,
  });
  const day = useXpDay(student?.sourcedId ?? null, date);
  const rules = useQuery(learningSettingsQuery).data?.xpRules ?? DEFAULT_XP_RULES;
  const shownDate = date ?? day.data?.data.date;

  function openById(event: FormEvent) {
    event.preventDefault();
    const id = idText.trim();
    if (!id) return;
    setStudent({ sourcedId: id, name: id });
    setDate(undefined);
  }

  function inspect(event: XpDayEvent) {
    setCalculator({
      input: {
        baseXp: event.expectedXp ?? 0,
        totalQuestions: event.totalQuestions,
        correctQuestions: event.correctQuestions,
        attempt: event.attempt,
        activeSeconds: event.activeSeconds,
        wasteSeconds: event.wasteSeconds,
        antiPatternSeconds: event.antiPatternSeconds,
      },
      from: event.activityName ?? event.eventId,
    });
    document.getElementById("what-if")?.scrollIntoView({ behavior: "smooth", block: "start" });
    document.getElementById("what-if-heading")?.focus({ preventScroll: true });
  }

  const loaded = day.data?.data.student;
  return (
    <div>
      <PageHeader title={t("common:pages./app/debug/xp.title")} description={t("debugXp.description")} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          <Card>
            <h2 className="text-lg font-bold">{t("debugXp.studentAndDay")}</h2>
            <div className="mt-4 grid gap-6 md:grid-cols-2">
              <StudentPicker
                selected={student}
                onSelect={(next) => {
                  setStudent(next);
                  setDate(undefined);
                }}
              />
              <form onSubmit={openById} className="flex items-end gap-2">
                <TextField
                  label={t("debugXp.orStudentId")}
                  value={idText}
                  onChange={(event) => setIdText(event.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  className="min-w-0 flex-1"
                />
                <button type="submit" className={buttonClass("secondary", "py-2.5")}>
                  {t("debugXp.open")}
                </button>
              </form>
            </div>
            {student && loaded && (
              <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
                {t("debugXp.showing", {
                  name: `${loaded.givenName} ${loaded.familyName}`,
                  id: loaded.sourcedId,
                })}
              </p>
            )}
            {student && shownDate && (
              <div className="mt-4">
                <DayPicker date={shownDate} today={loaded?.today} onChange={setDate} />
              </div>
            )}
          </Card>
          {student ? (
            <XpDayResult query={day} onInspect={inspect} />
          ) : (
            <p className="text-slate-600 dark:text-slate-300">{t("debugXp.searchOrId")}</p>
          )}
          <LearningSettingsCard />
        </div>
        <WhatIf
          rules={rules}
          input={calculator.input}
          from={calculator.from}
          onChange={(input) => setCalculator({ input, from: null })}
        />
      </div>
    </div>
  );
}

function WhatIf({
  rules,
  input,
  from,
  onChange,
}: {
  rules: XpRules;
  input: XpInput;
  from: string | null;
  onChange: (input: XpInput) => void;
}) {
  const { t } = useTranslation("xp");
  const award = computeXp(input, rules);
  const problem = input.correctQuestions > input.totalQuestions ? t("whatIf.tooManyCorrect") : null;
  return (
    <div className="min-w-0 xl:sticky xl:top-4 xl:self-start">
      <Card>
        <section id="what-if" aria-labelledby="what-if-heading" className="scroll-mt-4">
          <h2 id="what-if-heading" tabIndex={-1} className="text-lg font-bold">
            {t("whatIf.heading")}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {from ? t("whatIf.loadedFrom", { from }) : t("whatIf.enterFigures")}
          </p>
          <div className="mt-4 grid grid-cols-2 gap-3">
            {FIELDS.map((field) => (
              <NumberField
                key={field.key}
                label={t(`whatIf.fields.${field.key}`)}
                min={field.min}
                step={field.step}
                value={Number.isNaN(input[field.key]) ? "" : input[field.key]}
                onChange={(event) => {
                  const value = event.target.value === "" ? field.min : Number(event.target.value);
                  onChange({ ...input, [field.key]: Math.max(field.min, value) });
                }}
              />
            ))}
          </div>
          <div aria-live="polite" className="mt-5 rounded-xl bg-slate-100 p-4 dark:bg-slate-800">
            {problem ? (
              <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
                {problem}
              </p>
            ) : (
              <>
                <p className="text-sm text-slate-600 dark:text-slate-300">{t("whatIf.wouldEarn")}</p>
                <p className={`text-2xl font-extrabold tabular-nums ${amountClass(award.xp)}`}>
                  {xpAmount(award.xp, { exact: true })}
                </p>
                <p className="mt-2 font-mono text-sm break-words">{award.explanation}</p>
              </>
            )}
          </div>
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer font-medium text-brand-700 dark:text-brand-100">
              {t("whatIf.rulesInUse")}
            </summary>
            <ul className="mt-2 space-y-1 text-slate-700 dark:text-slate-200">
              <li>{t("whatIf.ruleFloor", { percent: Math.round(rules.accuracyFloor * 100) })}</li>
              <li>
                {t("whatIf.ruleFirstAttempt", {
                  perfect: rules.firstAttemptPerfect,
                  passing: rules.firstAttemptPassing,
                })}
              </li>
              <li>{t("whatIf.ruleRetries", { perfect: rules.retryPerfect, passing: rules.retryPassing })}</li>
              <li>{t("whatIf.ruleWaste")}</li>
              <li>{t("whatIf.ruleGaming", { penalty: rules.gamingPenaltyPerMinute })}</li>
            </ul>
          </details>
        </section>
      </Card>
    </div>
  );
}
