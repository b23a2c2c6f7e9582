import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { MAX_MANUAL_ALPHAS } from "../../../shared/contracts/rewards";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { dayLabel, formatNumber } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { studentHomeQuery } from "../home/api";
import { Loading, QueryError, Section } from "../home/parts";
import { budgetQuery } from "./api";
import { StudentAccount, StudentLedger } from "./parts";
import { StaffAwardForm } from "./staff-award-form";
import { type ChosenStudent, StaffStudentBalances } from "./staff-student-balances";

type RewardsSearch = z.output<typeof searchSchemas.oneStudent>;

/**
 * Where a Guide (or administrator) awards or deducts Alphas: their week's budget, their students'
 * Alphas, the form, and the chosen student's history. The student comes from the list or the
 * address (`studentId`).
 */
export function TeacherRewardsPage() {
  const { t } = useTranslation("rewards");
  const { activeRole } = useAuth();
  // The server applies the weekly budget to Guides only; administrators award without a limit.
  const hasBudget = activeRole === "teacher";
  const search = useSearch({ strict: false }) as RewardsSearch;
  const navigate = useNavigate();
  const [picked, setPicked] = useState<ChosenStudent | null>(null);
  const formHeading = useRef<HTMLHeadingElement>(null);
  const studentList = useRef<HTMLDivElement>(null);
  const [shouldFocusForm, setShouldFocusForm] = useState(false);
  const student = useChosenStudent(search.studentId, picked);

  const formHeadingId = useId();
  const isFormSettled = !search.studentId || Boolean(student.data);

  // Choosing a student takes keyboard and screen reader users to the form; letting them go, back
  // to the search for the next one.
  useEffect(() => {
    if (shouldFocusForm && isFormSettled) {
      formHeading.current?.focus();
      setShouldFocusForm(false);
    }
  }, [shouldFocusForm, isFormSettled]);

  const choose = (next: ChosenStudent | null) => {
    setPicked(next);
    if (next) setShouldFocusForm(true);
    else studentList.current?.querySelector("input")?.focus();
    void navigate({
      to: "/app/teacher/rewards-management",
      search: { ...search, studentId: next?.studentId } as never,
      replace: true,
    });
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/teacher/rewards-management.title")}
        description={t(hasBudget ? "awards.description.guide" : "awards.description.admin")}
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        {hasBudget ? <BudgetMeter /> : <NoLimitNote />}
        <section
          aria-labelledby={formHeadingId}
          className="min-w-0 self-start rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2
            id={formHeadingId}
            ref={formHeading}
            tabIndex={-1}
            className="text-lg font-bold focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {t("awards.form.title")}
          </h2>
          <div className="mt-4">
            {!search.studentId ? (
              <p className="text-sm text-slate-600 dark:text-slate-300">{t("awards.form.chooseFirst")}</p>
            ) : student.isPending ? (
              <Loading label={t("awards.form.loadingStudent")} rows={2} />
            ) : student.isError ? (
              <QueryError error={student.error} fallback={t("awards.form.studentFailed")} />
            ) : (
              <div className="space-y-5">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p>
                    <span className="text-sm text-slate-600 dark:text-slate-300">
                      {t("awards.form.student")}{" "}
                    </span>
                    <span className="font-semibold">{student.data.name}</span>
                  </p>
                  <button type="button" onClick={() => choose(null)} className={buttonClass("secondary")}>
                    {t("awards.form.clear")}
                  </button>
                </div>
                {/* A new student is a new form fill: its own fields, messages and key. */}
                <StaffAwardForm key={student.data.studentId} student={student.data} hasBudget={hasBudget} />
              </div>
            )}
          </div>
        </section>
      </div>
      {search.studentId && student.data && (
        <Section
          title={t("awards.history.title", { name: student.data.name })}
          description={t("awards.history.description")}
        >
          <div className="space-y-5">
            <StudentAccount studentId={student.data.studentId} />
            <StudentLedger studentId={student.data.studentId} />
          </div>
        </Section>
      )}
      <Section title={t(hasBudget ? "awards.students.titleGuide" : "awards.students.titleAdmin")}>
        <div ref={studentList}>
          <StaffStudentBalances chosenId={search.studentId} onChoose={choose} />
        </div>
      </Section>
    </div>
  );
}

/**
 * The student the address names, with their name: as picked from the list, or looked up when the
 * address came from elsewhere (a link, a reload).
 */
function useChosenStudent(studentId: string | undefined, picked: ChosenStudent | null) {
  const isKnown = picked !== null && picked.studentId === studentId;
  const home = useQuery({ ...studentHomeQuery(studentId ?? ""), enabled: Boolean(studentId) && !isKnown });
  if (isKnown) return { isPending: false, isError: false, error: null, data: picked } as const;
  if (home.isError) return { isPending: false, isError: true, error: home.error, data: undefined } as const;
  if (!home.data) return { isPending: true, isError: false, error: null, data: undefined } as const;
  const data: ChosenStudent = { studentId: home.data.summary.sourcedId, name: fullName(home.data.summary) };
  return { isPending: false, isError: false, error: null, data } as const;
}

/** This week's awards against the Guide's budget, as a bar and in words. */
function BudgetMeter() {
  const { t } = useTranslation("rewards");
  const budget = useQuery(budgetQuery);
  return (
    <Section
      title={t("awards.budget.title")}
      description={t("awards.budget.description")}
      className="self-start"
    >
      {budget.isPending ? (
        <Loading label={t("awards.budget.loading")} rows={1} />
      ) : budget.isError ? (
        <QueryError
          error={budget.error}
          fallback={t("awards.budget.loadFailed")}
          onRetry={() => budget.refetch()}
        />
      ) : budget.data.budget === 0 ? (
        <p className="text-sm">{t("awards.budget.none")}</p>
      ) : (
        <BudgetBar {...budget.data} />
      )}
    </Section>
  );
}

function BudgetBar({
  budget,
  awarded,
  remaining,
  weekStart,
}: {
  budget: number;
  awarded: number;
  remaining: number;
  weekStart: string;
}) {
  const { t } = useTranslation("rewards");
  const used = Math.min(awarded, budget);
  const figures = t("awards.budget.figures", {
    awarded: formatNumber(awarded, 0),
    budget: formatNumber(budget, 0),
  });
  const isSpent = remaining === 0;
  return (
    <div>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <span className="font-semibold tabular-nums">{figures}</span>
        <span
          className={`font-semibold tabular-nums ${isSpent ? "text-red-700 dark:text-red-300" : "text-emerald-700 dark:text-emerald-300"}`}
        >
          {t("awards.budget.left", { count: remaining, remaining: formatNumber(remaining, 0) })}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={t("awards.budget.meter")}
        aria-valuemin={0}
        aria-valuemax={budget}
        aria-valuenow={used}
        aria-valuetext={figures}
        className="mt-2 h-3 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div
          className={`h-full rounded-full ${isSpent ? "bg-red-600 dark:bg-red-400" : "bg-brand-600 dark:bg-brand-500"}`}
          style={{ width: `${(used / budget) * 100}%` }}
        />
      </div>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
        {t("awards.budget.week", { day: dayLabel(weekStart) })}
      </p>
    </div>
  );
}

function NoLimitNote() {
  const { t } = useTranslation("rewards");
  return (
    <p className="self-start rounded-2xl border border-slate-200 bg-white px-5 py-4 text-sm shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <span className="font-semibold">{t("awards.budget.noLimitTitle")}</span>{" "}
      {t("awards.budget.noLimit", { max: formatNumber(MAX_MANUAL_ALPHAS, 0) })}
    </p>
  );
}
