import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { BookOpen, Eye, Trophy } from "lucide-react";
import { type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AttemptResult, LessonView, QtiResponseValue } from "../../../shared/contracts/content";
import { PageHeader } from "../../components/page-header";
import { RichText } from "../../components/rich-text";
import { ConfirmDialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { formatXp } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { ProgressBar } from "../goals/parts";
import { EmptyState, Loading, QueryError } from "../home/parts";
import {
  attemptResultQuery,
  finishAttempt,
  isAttemptClosed,
  lessonKeys,
  lessonQuery,
  startAttempt,
} from "./lesson-api";
import {
  forgetActiveSeconds,
  hasAnswer,
  type ItemAnswer,
  itemKey,
  type SaveStatus,
  useActiveSeconds,
  useAnswerSaver,
} from "./lesson-hooks";
import { AttemptHistory, ResultPanel } from "./lesson-result";
import { LessonSteps, SaveForLater } from "./lesson-steps";

const LINK_CLASS =
  "rounded font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100";

/**
 * /app/lesson/$lessonId: a student takes a lesson step by step, answers saved as they go, then
 * finishes and sees the score, mastery and XP; staff see a preview.
 */
export function LessonPage() {
  const { t } = useTranslation("content");
  const { lessonId } = useParams({ strict: false }) as { lessonId: string };
  const lesson = useQuery(lessonQuery(lessonId));

  if (lesson.isError) {
    const isRefused = lesson.error instanceof ApiRequestError && lesson.error.status < 500;
    return (
      <div>
        <PageHeader title={t("lessons.take.pageTitle")} />
        {isRefused ? (
          <EmptyState icon={BookOpen} title={t("lessons.take.notFound.title")}>
            {failureMessage(lesson.error, t("lessons.take.notFound.body"))}{" "}
            <Link to="/app" className={LINK_CLASS}>
              {t("lessons.take.notFound.home")}
            </Link>
          </EmptyState>
        ) : (
          <QueryError
            error={lesson.error}
            fallback={t("lessons.take.loadFailed")}
            onRetry={() => lesson.refetch()}
          />
        )}
      </div>
    );
  }
  if (!lesson.data)
    return (
      <div>
        <PageHeader title={t("lessons.take.pageTitle")} />
        <Loading label={t("lessons.take.loading")} rows={5} />
      </div>
    );
  return <LessonContent key={lessonId} view={lesson.data} />;
}

function LessonContent({ view }: { view: LessonView }) {
  const { t } = useTranslation("content");
  const { lesson } = view;
  return (
    <div className="space-y-6">
      <div>
        <nav aria-label={t("lessons.take.breadcrumb")} className="mb-2 text-sm">
          <ol className="flex flex-wrap items-center gap-1 text-slate-600 dark:text-slate-300">
            <li>
              <Link to="/app/course/$courseId" params={{ courseId: lesson.course.id }} className={LINK_CLASS}>
                {lesson.course.title}
              </Link>
            </li>
            <li className="flex items-center gap-1">
              <span aria-hidden="true">›</span>
              <span>{lesson.unit.title}</span>
            </li>
            <li className="flex items-center gap-1">
              <span aria-hidden="true">›</span>
              <span aria-current="page">{lesson.title}</span>
            </li>
          </ol>
        </nav>
        <PageHeader
          title={lesson.title}
          description={
            <span className="flex flex-wrap gap-2 pt-1">
              <Chip>{t("lessons.take.expectedXp", { xp: formatXp(lesson.expectedXp) })}</Chip>
              <Chip>{t("lessons.take.masteryGoal", { percent: lesson.masteryPercent })}</Chip>
              {view.mastered && (
                <Chip tone="good">
                  <Trophy aria-hidden="true" className="size-4" />
                  {t("lessons.take.mastered")}
                </Chip>
              )}
            </span>
          }
        />
        {lesson.descriptionHtml && <RichText html={lesson.descriptionHtml} className="max-w-3xl" />}
      </div>
      {view.mode === "preview" ? <Preview view={view} /> : <StudentLesson view={view} />}
    </div>
  );
}

function Chip({ children, tone = "neutral" }: { children: ReactNode; tone?: "neutral" | "good" }) {
  const colours =
    tone === "good"
      ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
      : "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100";
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-3 py-1 text-sm font-semibold ${colours}`}
    >
      {children}
    </span>
  );
}

function Note({ children }: { children: ReactNode }) {
  return (
    <p className="flex items-start gap-2 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100">
      <Eye aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

/** Staff try the questions as students see them; nothing is sent. */
function Preview({ view }: { view: LessonView }) {
  const { t } = useTranslation("content");
  return (
    <>
      <Note>{t("lessons.take.previewNote")}</Note>
      <LessonSteps resources={view.resources} answers={new Map()} />
    </>
  );
}

function answersOf(view: LessonView): Map<string, ItemAnswer> {
  return new Map(
    (view.openAttempt?.responses ?? []).map((saved) => [
      itemKey(saved.resourceId, saved.itemIdentifier),
      saved.response,
    ]),
  );
}

/** The student's side: the open attempt, or the last result and a new start, and their tries. */
function StudentLesson({ view }: { view: LessonView }) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const lessonId = view.lesson.id;
  const latestFinished = view.attempts.find((attempt) => attempt.finishedAt)?.id ?? null;
  const [shownAttemptId, setShownAttemptId] = useState<string | null>(latestFinished);
  const [justFinished, setJustFinished] = useState(false);

  const start = useMutation({
    mutationFn: () => startAttempt(lessonId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: lessonKeys.lesson(lessonId) }),
  });

  const showResult = (result: AttemptResult) => {
    queryClient.setQueryData(lessonKeys.attempt(result.attempt.id), result);
    queryClient.setQueryData<LessonView>(lessonKeys.lesson(lessonId), (current) =>
      current
        ? {
            ...current,
            openAttempt: null,
            mastered: current.mastered || result.attempt.mastered,
            attempts: [
              result.attempt,
              ...current.attempts.filter((attempt) => attempt.id !== result.attempt.id),
            ],
          }
        : current,
    );
    setShownAttemptId(result.attempt.id);
    setJustFinished(true);
  };

  return (
    <>
      {!view.canAnswer && <Note>{t("lessons.take.viewingAsNote")}</Note>}
      {view.openAttempt ? (
        <AttemptRunner key={view.openAttempt.id} view={view} onFinished={showResult} />
      ) : shownAttemptId ? (
        <ShownResult
          attemptId={shownAttemptId}
          canTryAgain={view.canAnswer}
          onTryAgain={() => start.mutate()}
          isStarting={start.isPending}
          moveFocus={justFinished}
        />
      ) : (
        <StartPanel view={view} onStart={() => start.mutate()} isStarting={start.isPending} />
      )}
      {start.isError && (
        <p
          role="alert"
          className="rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {failureMessage(start.error, t("lessons.take.start.failed"))}
        </p>
      )}
      {!view.openAttempt && (
        <AttemptHistory
          attempts={view.attempts}
          shownAttemptId={shownAttemptId}
          onShow={(attemptId) => {
            setJustFinished(false);
            setShownAttemptId(attemptId);
          }}
        />
      )}
    </>
  );
}

function ShownResult({
  attemptId,
  ...panel
}: {
  attemptId: string;
  canTryAgain: boolean;
  onTryAgain: () => void;
  isStarting: boolean;
  moveFocus: boolean;
}) {
  const { t } = useTranslation("content");
  const result = useQuery(attemptResultQuery(attemptId));
  if (result.isError)
    return (
      <QueryError
        error={result.error}
        fallback={t("lessons.attempt.loadFailed")}
        onRetry={() => result.refetch()}
      />
    );
  if (!result.data) return <Loading label={t("lessons.attempt.loading")} rows={3} />;
  return <ResultPanel result={result.data} {...panel} />;
}

function StartPanel({
  view,
  onStart,
  isStarting,
}: {
  view: LessonView;
  onStart: () => void;
  isStarting: boolean;
}) {
  const { t } = useTranslation("content");
  const questions = view.resources.reduce(
    (count, resource) => count + (resource.kind === "qti" ? resource.items.length : 0),
    0,
  );
  return (
    <section
      aria-labelledby="lesson-start"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="lesson-start" className="text-lg font-bold">
        {t("lessons.take.start.title")}
      </h2>
      <p className="mt-1 text-slate-700 dark:text-slate-200">
        {t("lessons.take.start.body", { steps: view.resources.length, questions })}
      </p>
      {view.canAnswer && (
        <button
          type="button"
          className={buttonClass("primary", "mt-4")}
          onClick={onStart}
          disabled={isStarting}
        >
          {isStarting ? t("lessons.take.start.starting") : t("lessons.take.start.button")}
        </button>
      )}
    </section>
  );
}

/** The open attempt: its steps, answers saved as they change, the progress, and the finish. */
function AttemptRunner({
  view,
  onFinished,
}: {
  view: LessonView;
  onFinished: (result: AttemptResult) => void;
}) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const attempt = view.openAttempt as NonNullable<LessonView["openAttempt"]>;
  const [answers, setAnswers] = useState(() => answersOf(view));
  const [isConfirming, setIsConfirming] = useState(false);
  const saver = useAnswerSaver(view.canAnswer ? attempt.id : null);
  const activeSeconds = useActiveSeconds(view.canAnswer ? attempt.id : null);

  const items = useMemo(
    () =>
      view.resources.flatMap((resource) =>
        resource.kind === "qti" ? resource.items.map((item) => itemKey(resource.id, item.identifier)) : [],
      ),
    [view.resources],
  );
  const answered = items.filter((key) => hasAnswer(answers.get(key))).length;

  // The answers as they stand, for a change that comes before the next render.
  const latestAnswers = useRef(answers);
  const { record } = saver;
  const onAnswer = useCallback(
    (resourceId: string, itemIdentifier: string, responseIdentifier: string, value: QtiResponseValue) => {
      const key = itemKey(resourceId, itemIdentifier);
      const answer = { ...latestAnswers.current.get(key), [responseIdentifier]: value };
      const next = new Map(latestAnswers.current).set(key, answer);
      latestAnswers.current = next;
      setAnswers(next);
      record(resourceId, itemIdentifier, answer);
    },
    [record],
  );

  const finish = useMutation({
    mutationFn: async () => {
      await saver.flush();
      return finishAttempt(attempt.id, activeSeconds());
    },
    onSuccess: (result) => {
      forgetActiveSeconds(attempt.id);
      onFinished(result);
    },
    onError: (error) => {
      // Finished in another tab: the lesson as it now stands.
      if (isAttemptClosed(error))
        void queryClient.invalidateQueries({ queryKey: lessonKeys.lesson(view.lesson.id) });
    },
  });
  const unanswered = items.length - answered;

  return (
    <>
      {items.length > 0 && (
        <div className="rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <div className="mb-1.5 flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-sm">
            <p className="font-semibold">
              {t("lessons.take.progress.text", { answered, total: items.length })}
            </p>
            <SaveState status={saver.status} onRetry={() => saver.flush().catch(() => {})} />
          </div>
          <ProgressBar
            label={t("lessons.take.progress.label")}
            valueNow={answered}
            valueMax={items.length}
            valueText={t("lessons.take.progress.text", { answered, total: items.length })}
            share={answered / items.length}
            tone="good"
          />
        </div>
      )}
      <LessonSteps
        resources={view.resources}
        answers={answers}
        onAnswer={view.canAnswer ? onAnswer : undefined}
        readOnly={!view.canAnswer}
        actionOf={
          view.canSave
            ? (resource) => <SaveForLater lessonId={view.lesson.id} resource={resource} />
            : undefined
        }
      />
      {view.canAnswer && (
        <section
          aria-labelledby="lesson-finish"
          className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 id="lesson-finish" className="text-lg font-bold">
            {t("lessons.take.finish.title")}
          </h2>
          {items.length > 0 && (
            <p className="mt-1 font-semibold">
              {t("lessons.take.progress.text", { answered, total: items.length })}
            </p>
          )}
          <p className="mt-1 text-slate-700 dark:text-slate-200">{t("lessons.take.finish.body")}</p>
          <button
            type="button"
            className={buttonClass("primary", "mt-4")}
            disabled={finish.isPending}
            onClick={() => (unanswered > 0 ? setIsConfirming(true) : finish.mutate())}
          >
            {finish.isPending ? t("lessons.take.finish.finishing") : t("lessons.take.finish.button")}
          </button>
          {finish.isError && !isConfirming && (
            <p
              role="alert"
              className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
            >
              {failureMessage(finish.error, t("lessons.take.finish.failed"))}
            </p>
          )}
        </section>
      )}
      {isConfirming && (
        <ConfirmDialog
          title={t("lessons.take.finish.confirmTitle")}
          message={t("lessons.take.finish.confirmBody", { count: unanswered })}
          confirmLabel={t("lessons.take.finish.confirm")}
          cancelLabel={t("lessons.take.finish.keepGoing")}
          tone="primary"
          onConfirm={() => finish.mutateAsync()}
          onClose={() => setIsConfirming(false)}
        />
      )}
    </>
  );
}

function SaveState({ status, onRetry }: { status: SaveStatus; onRetry: () => void }) {
  const { t } = useTranslation("content");
  return (
    <p role="status" className="text-slate-600 dark:text-slate-300">
      {status === "saving" && t("lessons.take.save.saving")}
      {status === "saved" && t("lessons.take.save.saved")}
      {status === "failed" && (
        <span className="text-red-800 dark:text-red-200">
          {t("lessons.take.save.failed")}{" "}
          <button type="button" className="font-semibold underline" onClick={onRetry}>
            {t("lessons.take.save.retry")}
          </button>
        </span>
      )}
    </p>
  );
}
