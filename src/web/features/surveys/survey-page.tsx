import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { CircleAlert, Clock, Lock, PartyPopper, Users } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AnswerProblem,
  type Answers,
  type AnswerValue,
  answerProblems,
  isAnswered,
  type SurveyForm,
} from "../../../shared/contracts/surveys";
import { Card } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { dateLabel, instantLabel, timeLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { isRefusal, saveDraft, saveDraftOnLeave, submitAnswers, surveyFormQuery, surveyKeys } from "./api";
import { QuestionField } from "./questions";

/** How long after the last change a draft is saved. */
const AUTOSAVE_MS = 1200;

/** /app/survey/$surveyId: one survey to answer, saved as a draft as it goes and sent once. */
export function SurveyPage() {
  const { t } = useTranslation("surveys");
  const { surveyId } = useParams({ strict: false }) as { surveyId: string };
  const form = useQuery(surveyFormQuery(surveyId));
  if (form.isPending)
    return (
      <p role="status" data-loading className="mt-10 text-center text-lg text-slate-700 dark:text-slate-200">
        {t("answer.loading")}
      </p>
    );
  if (form.isError) return <SurveyErrorView error={form.error} onRetry={() => form.refetch()} />;
  return <SurveyAnswering key={surveyId} form={form.data} />;
}

/** The page's own error view: the survey could not be opened, in words a child reads. */
function SurveyErrorView({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation("surveys");
  const refused = isRefusal(error);
  return (
    <div role="alert" className="mx-auto mt-10 max-w-lg">
      <Card className="text-center">
        <CircleAlert aria-hidden="true" className="mx-auto size-10 text-red-700 dark:text-red-300" />
        <h1 className="mt-3 text-2xl font-extrabold">
          {refused ? t("answer.error.notFoundTitle") : t("answer.error.title")}
        </h1>
        <p className="mt-2 text-slate-700 dark:text-slate-200">
          {refused ? t("answer.error.notFoundBody") : failureMessage(error, t("answer.error.body"))}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {!refused && (
            <button type="button" className={buttonClass("primary")} onClick={onRetry}>
              {t("answer.error.retry")}
            </button>
          )}
          <Link to="/app/surveys" className={buttonClass(refused ? "primary" : "secondary")}>
            {t("answer.backToSurveys")}
          </Link>
        </div>
      </Card>
    </div>
  );
}

type SaveState =
  | { kind: "idle" }
  | { kind: "saving" }
  | { kind: "saved"; at: string }
  | { kind: "failed"; message: string };

function SurveyAnswering({ form }: { form: SurveyForm }) {
  const { t } = useTranslation("surveys");
  const queryClient = useQueryClient();
  const { survey } = form;
  const [answers, setAnswers] = useState<Answers>(form.draft?.answers ?? {});
  const [problems, setProblems] = useState<Record<string, AnswerProblem | string>>({});
  const [saveState, setSaveState] = useState<SaveState>(
    form.draft ? { kind: "saved", at: form.draft.savedAt } : { kind: "idle" },
  );
  const [sent, setSent] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const [sendFailure, setSendFailure] = useState<string | null>(null);
  const canAnswer = form.state === "open" && !form.isReadOnly && sent === null;
  const latest = useRef(answers);
  const unsaved = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const save = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!unsaved.current) return;
    unsaved.current = false;
    setSaveState({ kind: "saving" });
    try {
      const saved = await saveDraft(survey.id, latest.current);
      setSaveState({ kind: "saved", at: saved.savedAt });
    } catch (error) {
      unsaved.current = true;
      setSaveState({ kind: "failed", message: failureMessage(error, t("answer.saveFailed")) });
    }
  }, [survey.id, t]);

  // Leaving the page (another page of Dash, a closed tab, the phone's home screen) keeps the draft.
  useEffect(() => {
    if (!canAnswer) return;
    const saveOnLeave = () => {
      if (!unsaved.current) return;
      unsaved.current = false;
      saveDraftOnLeave(survey.id, latest.current);
    };
    const onVisibility = () => document.visibilityState === "hidden" && saveOnLeave();
    window.addEventListener("pagehide", saveOnLeave);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", saveOnLeave);
      document.removeEventListener("visibilitychange", onVisibility);
      if (timer.current) clearTimeout(timer.current);
      saveOnLeave();
    };
  }, [canAnswer, survey.id]);

  function answer(questionId: string, value: AnswerValue) {
    const next = { ...latest.current, [questionId]: value };
    latest.current = next;
    setAnswers(next);
    if (problems[questionId]) setProblems(({ [questionId]: _, ...rest }) => rest);
    unsaved.current = true;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), AUTOSAVE_MS);
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    setSendFailure(null);
    const found = answerProblems(survey.sections, answers, { complete: true });
    if (Object.keys(found).length > 0) {
      setProblems(found);
      focusQuestion(Object.keys(found));
      return;
    }
    if (timer.current) clearTimeout(timer.current);
    unsaved.current = false;
    setIsSending(true);
    try {
      const result = await submitAnswers(survey.id, answers);
      setSent(result.submittedOn);
      void queryClient.invalidateQueries({ queryKey: surveyKeys.mine });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 409) {
        // Already answered (another tab, another device) or closed meanwhile: show what is so now.
        await queryClient.resetQueries({ queryKey: surveyKeys.form(survey.id) });
        return;
      }
      if (error instanceof ApiRequestError && error.issues.length > 0) {
        const fromServer = Object.fromEntries(
          error.issues.map((issue) => [issue.path.replace(/^answers\./, ""), issue.message]),
        );
        setProblems(fromServer);
        focusQuestion(Object.keys(fromServer));
      }
      unsaved.current = true;
      setSendFailure(failureMessage(error, t("answer.sendFailed")));
    } finally {
      setIsSending(false);
    }
  }

  if (sent) return <ThankYou title={survey.title} day={sent} />;

  const questions = survey.sections.flatMap((section) => section.questions);
  const answeredCount = questions.filter((question) => isAnswered(answers[question.id])).length;
  const problemText = (problem: string) =>
    problem === "required" || problem === "invalid" || problem === "unknown"
      ? t(`answer.problems.${problem}`)
      : problem;
  let number = 0;

  return (
    <div className="mx-auto max-w-3xl">
      <header className="mb-6">
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{survey.title}</h1>
        {survey.description && (
          <p className="mt-2 text-slate-700 dark:text-slate-200">{survey.description}</p>
        )}
        <p className="mt-3 inline-flex items-center gap-2 rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-100">
          {survey.isAnonymous ? (
            <Lock aria-hidden="true" className="size-4" />
          ) : (
            <Users aria-hidden="true" className="size-4" />
          )}
          {survey.isAnonymous ? t("answer.anonymous") : t("answer.named")}
        </p>
        {form.round?.closesAt && form.state === "open" && (
          <p className="mt-2 flex items-center gap-1.5 text-sm text-slate-600 dark:text-slate-300">
            <Clock aria-hidden="true" className="size-4" />
            {t("answer.closes", { when: instantLabel(form.round.closesAt) })}
          </p>
        )}
      </header>

      <StateNote form={form} />

      <form noValidate onSubmit={send} aria-label={survey.title} className="space-y-8">
        {survey.sections.map((section, sectionIndex) => (
          <section key={section.id} aria-labelledby={`section-${section.id}`} className="space-y-4">
            <div>
              <h2 id={`section-${section.id}`} className="text-lg font-bold">
                {section.title ||
                  (survey.sections.length > 1
                    ? t("answer.part", { number: sectionIndex + 1 })
                    : t("answer.questions"))}
              </h2>
              {section.description && (
                <p className="text-sm text-slate-600 dark:text-slate-300">{section.description}</p>
              )}
            </div>
            {section.questions.map((question) => {
              number += 1;
              const problem = problems[question.id];
              return (
                <QuestionField
                  key={question.id}
                  question={question}
                  number={number}
                  value={answers[question.id]}
                  onChange={(value) => answer(question.id, value)}
                  error={problem ? problemText(problem) : null}
                  disabled={!canAnswer}
                />
              );
            })}
          </section>
        ))}

        {canAnswer && (
          <div className="sticky bottom-0 -mx-4 border-t border-slate-200 bg-white px-4 py-3 shadow-[0_-4px_12px_rgba(15,23,42,0.06)] sm:mx-0 sm:rounded-xl sm:border dark:border-slate-800 dark:bg-slate-900">
            {Object.keys(problems).length > 0 && (
              <p role="alert" className="mb-2 text-sm font-semibold text-red-700 dark:text-red-300">
                {t("answer.fixProblems", { count: Object.keys(problems).length })}
              </p>
            )}
            {sendFailure && Object.keys(problems).length === 0 && (
              <p role="alert" className="mb-2 text-sm font-semibold text-red-700 dark:text-red-300">
                {sendFailure}
              </p>
            )}
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div className="text-sm text-slate-600 dark:text-slate-300">
                <p>{t("answer.progress", { answered: answeredCount, total: questions.length })}</p>
                <p role="status" aria-live="polite">
                  <SaveText state={saveState} />
                </p>
              </div>
              <button
                type="submit"
                disabled={isSending}
                className={buttonClass("primary", "px-6 py-2.5 text-base")}
              >
                {isSending ? t("answer.sending") : t("answer.send")}
              </button>
            </div>
          </div>
        )}
      </form>
    </div>
  );
}

function focusQuestion(questionIds: string[]) {
  const first = document.querySelector<HTMLElement>(
    questionIds.map((id) => `[data-question="${CSS.escape(id)}"]`).join(","),
  );
  first?.scrollIntoView({ block: "center" });
  first?.querySelector<HTMLElement>("input, textarea")?.focus({ preventScroll: true });
}

function SaveText({ state }: { state: SaveState }) {
  const { t } = useTranslation("surveys");
  if (state.kind === "saving") return <>{t("answer.saving")}</>;
  if (state.kind === "saved") return <>{t("answer.saved", { time: timeLabel(state.at) })}</>;
  if (state.kind === "failed") return <span className="text-red-700 dark:text-red-300">{state.message}</span>;
  return <>{t("answer.autosave")}</>;
}

/** Why the survey cannot be answered now: answered, closed, not open yet, or viewed as someone. */
function StateNote({ form }: { form: SurveyForm }) {
  const { t } = useTranslation("surveys");
  const note =
    form.state === "answered"
      ? t("answer.state.answered")
      : form.state === "closed"
        ? t("answer.state.closed")
        : form.state === "upcoming"
          ? t("answer.state.upcoming")
          : form.isReadOnly
            ? t("answer.state.readOnly")
            : null;
  if (!note) return null;
  return (
    <div
      role="status"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-brand-50 px-4 py-3 text-brand-900 dark:bg-slate-800 dark:text-brand-100"
    >
      <p className="font-semibold">{note}</p>
      <Link to="/app/surveys" className="text-sm font-semibold underline">
        {t("answer.backToSurveys")}
      </Link>
    </div>
  );
}

/** After sending: thanks, in a child's words, and the way back. */
function ThankYou({ title, day }: { title: string; day: string }) {
  const { t } = useTranslation("surveys");
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto mt-10 max-w-lg">
      <Card className="text-center">
        <PartyPopper aria-hidden="true" className="mx-auto size-12 text-brand-700 dark:text-brand-100" />
        <h1 ref={heading} tabIndex={-1} className="mt-3 text-2xl font-extrabold focus:outline-none">
          {t("answer.thanks.title")}
        </h1>
        <p className="mt-2 text-slate-700 dark:text-slate-200">{t("answer.thanks.body", { title })}</p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {t("answer.thanks.when", { day: dateLabel(day) })}
        </p>
        <Link to="/app/surveys" className={buttonClass("primary", "mt-6 inline-block")}>
          {t("answer.backToSurveys")}
        </Link>
      </Card>
    </div>
  );
}
