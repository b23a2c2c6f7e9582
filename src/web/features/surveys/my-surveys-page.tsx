import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CheckCircle2, ClipboardList, Lock } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { MySurveys } from "../../../shared/contracts/surveys";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { instantLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { mySurveysQuery } from "./api";

type MySurvey = MySurveys["data"][number];

/** /app/surveys: the surveys waiting for the signed-in person, and those they answered this round. */
export function MySurveysPage() {
  const { t } = useTranslation("surveys");
  const surveys = useQuery(mySurveysQuery);
  const list = surveys.data?.data ?? [];
  const waiting = list.filter((survey) => survey.state !== "answered");
  const answered = list.filter((survey) => survey.state === "answered");
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t("mine.title")} description={t("mine.description")} />
      {surveys.isPending ? (
        <Loading label={t("mine.loading")} rows={3} />
      ) : surveys.isError ? (
        <QueryError error={surveys.error} fallback={t("mine.loadFailed")} onRetry={() => surveys.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState icon={ClipboardList} title={t("mine.empty.title")}>
          {t("mine.empty.body")}
        </EmptyState>
      ) : (
        <div className="space-y-8">
          <section aria-labelledby="surveys-waiting">
            <h2 id="surveys-waiting" className="mb-3 text-lg font-bold">
              {t("mine.waiting", { count: waiting.length })}
            </h2>
            {waiting.length === 0 ? (
              <p className="text-slate-700 dark:text-slate-200">{t("mine.allDone")}</p>
            ) : (
              <ul className="space-y-4">
                {waiting.map((survey) => (
                  <SurveyCard key={survey.surveyId} survey={survey} />
                ))}
              </ul>
            )}
          </section>
          {answered.length > 0 && (
            <section aria-labelledby="surveys-answered">
              <h2 id="surveys-answered" className="mb-3 text-lg font-bold">
                {t("mine.answered")}
              </h2>
              <ul className="space-y-4">
                {answered.map((survey) => (
                  <SurveyCard key={survey.surveyId} survey={survey} />
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
    </div>
  );
}

function SurveyCard({ survey }: { survey: MySurvey }) {
  const { t } = useTranslation("surveys");
  const isDone = survey.state === "answered";
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-lg font-bold break-words">{survey.title}</h3>
          {survey.description && (
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">{survey.description}</p>
          )}
        </div>
        <span
          className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            isDone
              ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
              : survey.state === "draft"
                ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
                : "bg-brand-50 text-brand-800 dark:bg-slate-800 dark:text-brand-100"
          }`}
        >
          {isDone && <CheckCircle2 aria-hidden="true" className="size-3.5" />}
          {t(`mine.state.${survey.state}`)}
        </span>
      </div>
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
        <li>{t("mine.questions", { count: survey.questionCount })}</li>
        {survey.closesAt && <li>{t("mine.closes", { when: instantLabel(survey.closesAt) })}</li>}
        {survey.isAnonymous && (
          <li className="inline-flex items-center gap-1">
            <Lock aria-hidden="true" className="size-3.5" />
            {t("mine.anonymous")}
          </li>
        )}
      </ul>
      {!isDone && (
        <Link
          to="/app/survey/$surveyId"
          params={{ surveyId: survey.surveyId }}
          aria-label={t(survey.state === "draft" ? "mine.continueLabel" : "mine.startLabel", {
            title: survey.title,
          })}
          className={buttonClass("primary", "mt-4 inline-block")}
        >
          {t(survey.state === "draft" ? "mine.continue" : "mine.start")}
        </Link>
      )}
    </li>
  );
}
