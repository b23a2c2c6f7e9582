import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { XpDayEvent } from "../../../shared/contracts/activity";
import { computeXp, DEFAULT_XP_RULES, type XpInput, type XpRules } from "../../../shared/xp-rules";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass, NumberField, TextField } from "../../components/ui/form";
import { learningSettingsQuery } from "./api";
import { LearningSettingsCard } from "./learning-settings";
import { type PickedStudent, StudentPicker } from "./student-picker";
import { DayPicker, useXpDay, XpDayResult } from "./xp-day-view";
import { amountClass, formatXp } from "./xp-history";

const EMPTY_INPUT: XpInput = {
  baseXp: 20,
  totalQuestions: 10,
  correctQuestions: 9,
  attempt: 1,
  activeSeconds: 1200,
  wasteSeconds: 0,
  antiPatternSeconds: 0,
};

const FIELDS: { key: keyof XpInput; label: string; min: number; step: number }[] = [
  { key: "baseXp", label: "Expected XP", min: 0, step: 0.01 },
  { key: "totalQuestions", label: "Questions", min: 0, step: 1 },
  { key: "correctQuestions", label: "Correct", min: 0, step: 1 },
  { key: "attempt", label: "Attempt", min: 1, step: 1 },
  { key: "activeSeconds", label: "Active seconds", min: 0, step: 1 },
  { key: "wasteSeconds", label: "Wasted seconds", min: 0, step: 1 },
  { key: "antiPatternSeconds", label: "Anti-pattern seconds", min: 0, step: 1 },
];

/** Administrators: any student's day by id or search, and a what-if calculator of the XP rules. */
export function DebugXpPage() {
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
      <PageHeader
        title="XP debugger"
        description="Inspect any student's day and recompute XP with the same rules the server uses."
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-6">
          <Card>
            <h2 className="text-lg font-bold">Student and day</h2>
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
                  label="Or student id"
                  value={idText}
                  onChange={(event) => setIdText(event.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  className="min-w-0 flex-1"
                />
                <button type="submit" className={buttonClass("secondary", "py-2.5")}>
                  Open
                </button>
              </form>
            </div>
            {student && loaded && (
              <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
                Showing {loaded.givenName} {loaded.familyName} ({loaded.sourcedId}).
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
            <p className="text-slate-600 dark:text-slate-300">Search for a student or enter their id.</p>
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
  const award = computeXp(input, rules);
  const problem =
    input.correctQuestions > input.totalQuestions ? "Correct answers cannot exceed the questions." : null;
  return (
    <div className="min-w-0 xl:sticky xl:top-4 xl:self-start">
      <Card>
        <section id="what-if" aria-labelledby="what-if-heading" className="scroll-mt-4">
          <h2 id="what-if-heading" tabIndex={-1} className="text-lg font-bold">
            What-if calculator
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {from
              ? `Loaded from “${from}”. Change a figure to see what it would earn.`
              : "Enter an activity's figures to see the XP the rules give it."}
          </p>
          <div className="mt-4 grid grid-cols-2 gap-3">
            {FIELDS.map((field) => (
              <NumberField
                key={field.key}
                label={field.label}
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
                <p className="text-sm text-slate-600 dark:text-slate-300">Would earn</p>
                <p className={`text-2xl font-extrabold tabular-nums ${amountClass(award.xp)}`}>
                  {formatXp(award.xp)}
                </p>
                <p className="mt-2 font-mono text-sm break-words">{award.explanation}</p>
              </>
            )}
          </div>
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer font-medium text-brand-700 dark:text-brand-100">
              The rules in use
            </summary>
            <ul className="mt-2 space-y-1 text-slate-700 dark:text-slate-200">
              <li>Below {Math.round(rules.accuracyFloor * 100)}% accuracy: nothing.</li>
              <li>
                First attempt: × {rules.firstAttemptPerfect} at 100%, × {rules.firstAttemptPassing} otherwise.
              </li>
              <li>
                Retries: × {rules.retryPerfect} at 100%, × {rules.retryPassing} otherwise.
              </li>
              <li>Wasted time takes its share of the XP away.</li>
              <li>Gaming the app: − {rules.gamingPenaltyPerMinute} XP per minute of anti-pattern time.</li>
            </ul>
          </details>
        </section>
      </Card>
    </div>
  );
}
