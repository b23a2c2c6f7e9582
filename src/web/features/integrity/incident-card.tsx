import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { History } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IncidentRecord, ReviewDecision } from "../../../shared/contracts/integrity";
import type { Announce } from "../../components/ui/announcement";
import { buttonClass } from "../../components/ui/form";
import { formatNumber, instantLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { Loading, QueryError } from "../home/parts";
import {
  incidentDetailQuery,
  integrityKeys,
  reviewIncident,
  studentIntegrityQuery,
  unlockStudent,
} from "./api";
import {
  confidenceText,
  DecisionHistory,
  Evidence,
  gradeText,
  incidentTypeText,
  LockedBadge,
  NoteDialog,
  StatusBadge,
  StrikeMeter,
  StrikeTerm,
  When,
} from "./parts";

/**
 * One incident as a reviewer sees it: the evidence and what the agent read, the student's strikes
 * and lockout, the decisions so far, and (in the queue) the decisions the reviewer may take, each
 * with a note. The student's other recent incidents open beneath.
 */
export function IncidentCard({
  incident,
  mode,
  announce,
}: {
  incident: IncidentRecord;
  mode: "pending" | "resolved";
  announce: Announce;
}) {
  const { t } = useTranslation("integrity");
  const headingId = useId();
  const grade = gradeText(incident.student.grade);
  const appeal = incident.review_status === "appealed" ? lastOf(incident, "appeal") : null;
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-bold break-words">
            {incident.student.name}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {[grade, incident.app_name].filter(Boolean).join(" · ")}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <StatusBadge status={incident.review_status} reader="staff" />
          <StrikeTerm incident={incident} />
        </div>
      </div>
      <p className="mt-1 text-sm">
        <span className="sr-only">{t("facts.when")} </span>
        <When instant={incident.created_at} />
      </p>

      <div className="mt-4 grid gap-4 md:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
        <Evidence incident={incident} />
        <div className="min-w-0 space-y-3">
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600 dark:text-slate-300">{t("facts.app")}</dt>
            <dd className="font-medium break-words">{incident.app_name ?? t("facts.noApp")}</dd>
            <dt className="text-slate-600 dark:text-slate-300">{t("facts.type")}</dt>
            <dd className="font-medium break-words">{incidentTypeText(incident.incident_type)}</dd>
            <dt className="text-slate-600 dark:text-slate-300">{t("facts.confidence")}</dt>
            <dd className="font-medium tabular-nums">{confidenceText(incident.confidence_score)}</dd>
            {incident.voided_xp > 0 && (
              <>
                <dt className="text-slate-600 dark:text-slate-300">{t("facts.voidedXp")}</dt>
                <dd className="font-medium tabular-nums">{formatNumber(incident.voided_xp, 1)}</dd>
              </>
            )}
          </dl>
          <div>
            <h3 className="text-sm font-semibold">{t("facts.detected")}</h3>
            {incident.detected_text.trim() ? (
              <blockquote className="mt-1 max-h-40 overflow-y-auto rounded-lg bg-slate-50 p-3 text-sm break-words whitespace-pre-line dark:bg-slate-800">
                {incident.detected_text}
              </blockquote>
            ) : (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("facts.noText")}</p>
            )}
          </div>
        </div>
      </div>

      {appeal && (
        <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
          <p className="font-semibold">{t("appeal.from", { name: appeal.actorName })}</p>
          <p className="mt-0.5 break-words whitespace-pre-line">{appeal.note}</p>
        </div>
      )}

      <StudentStanding
        studentId={incident.student.sourcedId}
        name={incident.student.name}
        announce={announce}
      />

      {incident.decisions.length > 0 && (
        <div className="mt-4">
          <h3 className="mb-2 text-sm font-semibold">{t("history.decisions")}</h3>
          <DecisionHistory decisions={incident.decisions} reader="staff" />
        </div>
      )}

      {mode === "pending" && <ReviewActions incident={incident} announce={announce} />}
      <RecentHistory incident={incident} />
    </article>
  );
}

function lastOf(incident: IncidentRecord, action: IncidentRecord["decisions"][number]["action"]) {
  return incident.decisions.findLast((decision) => decision.action === action) ?? null;
}

/** The student's strikes against the threshold, the lock, and the way to lift it. */
export function StudentStanding({
  studentId,
  name,
  announce,
}: {
  studentId: string;
  name: string;
  announce: Announce;
}) {
  const { t } = useTranslation("integrity");
  const queryClient = useQueryClient();
  const standing = useQuery(studentIntegrityQuery(studentId));
  const [isUnlocking, setIsUnlocking] = useState(false);
  if (!standing.data) return null;
  const { activeStrikes, threshold, isLocked, mayUnlock, lockedAt } = standing.data;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-200 px-3 py-2 first:mt-0 dark:border-slate-700">
      <span className="text-sm text-slate-600 dark:text-slate-300">{t("standing.label", { name })}</span>
      <StrikeMeter active={activeStrikes} threshold={threshold} />
      {isLocked && <LockedBadge />}
      {isLocked && lockedAt && (
        <span className="text-xs text-slate-600 dark:text-slate-300">
          {t("standing.lockedAt", { when: instantLabel(lockedAt) })}
        </span>
      )}
      {isLocked && mayUnlock && (
        <button
          type="button"
          onClick={() => setIsUnlocking(true)}
          aria-label={t("unlock.buttonLabel", { name })}
          className={buttonClass("secondary", "ml-auto px-3 py-1.5")}
        >
          {t("unlock.button")}
        </button>
      )}
      {isUnlocking && (
        <NoteDialog
          title={t("unlock.title", { name })}
          description={t("unlock.description", { name })}
          noteLabel={t("unlock.note")}
          noteHint={t("unlock.noteHint")}
          confirmLabel={t("unlock.confirm")}
          withCode
          onSubmit={async (note, code) => {
            await unlockStudent(studentId, note, code);
            await queryClient.invalidateQueries({ queryKey: integrityKeys.all });
            announce(t("unlock.done", { name }));
          }}
          onClose={() => setIsUnlocking(false)}
        />
      )}
    </div>
  );
}

/** Why a reviewer may not decide an incident now, in words. */
function reasonNotToReview(incident: IncidentRecord, callerId: string): string {
  const confirmedByCaller = incident.decisions.some(
    (decision) => decision.action === "confirm" && decision.actorId === callerId,
  );
  if (confirmedByCaller && incident.review_status === "awaiting_second") return "youConfirmed";
  if (confirmedByCaller && incident.review_status === "appealed") return "youConfirmedAppeal";
  if (incident.review_status === "escalated") return "escalated";
  return "notYours";
}

/** Confirm, dismiss or escalate, each after a note; an appeal's confirm keeps the strike. */
function ReviewActions({ incident, announce }: { incident: IncidentRecord; announce: Announce }) {
  const { t } = useTranslation("integrity");
  const { realUser } = useAuth();
  const queryClient = useQueryClient();
  const [deciding, setDeciding] = useState<ReviewDecision | null>(null);
  const reasonId = useId();
  const isAppeal = incident.review_status === "appealed";
  const kind = isAppeal ? "appeal" : "incident";
  const name = incident.student.name;
  const decisions: { decision: ReviewDecision; tone: "primary" | "danger" | "secondary" }[] = [
    { decision: "confirm", tone: "danger" },
    { decision: "dismiss", tone: isAppeal ? "primary" : "secondary" },
    { decision: "escalate", tone: "secondary" },
  ];
  return (
    <div className="mt-5 border-t border-slate-200 pt-4 dark:border-slate-800">
      <div className="flex flex-wrap gap-2">
        {decisions.map(({ decision, tone }) => (
          <button
            key={decision}
            type="button"
            disabled={!incident.can_review}
            aria-describedby={incident.can_review ? undefined : reasonId}
            onClick={() => setDeciding(decision)}
            className={buttonClass(tone)}
          >
            {t(`review.${kind}.${decision}.button`)}
          </button>
        ))}
      </div>
      {!incident.can_review && (
        <p id={reasonId} className="mt-2 text-sm text-slate-700 dark:text-slate-200">
          {t(`review.cannot.${reasonNotToReview(incident, realUser.sourcedId)}`)}
        </p>
      )}
      {deciding && (
        <NoteDialog
          title={t(`review.${kind}.${deciding}.title`, { name })}
          description={t(`review.${kind}.${deciding}.description`, { name })}
          noteLabel={t("review.note")}
          noteHint={t("review.noteHint")}
          confirmLabel={t(`review.${kind}.${deciding}.button`)}
          tone={deciding === "confirm" ? "danger" : "primary"}
          onSubmit={async (note) => {
            const updated = await reviewIncident(incident.id, deciding, note);
            await queryClient.invalidateQueries({ queryKey: integrityKeys.all });
            announce(doneText(updated, deciding, isAppeal, t));
          }}
          onClose={() => setDeciding(null)}
        />
      )}
    </div>
  );
}

function doneText(
  updated: IncidentRecord,
  decision: ReviewDecision,
  wasAppeal: boolean,
  t: TFunction<"integrity">,
): string {
  const name = updated.student.name;
  if (decision === "escalate") return t("review.done.escalated", { name });
  if (decision === "dismiss")
    return t(wasAppeal ? "review.done.appealUpheld" : "review.done.dismissed", { name });
  if (updated.review_status === "awaiting_second") return t("review.done.awaitingSecond", { name });
  if (wasAppeal) return t("review.done.appealRefused", { name });
  return updated.locked_dashboard
    ? t("review.done.confirmedLocked", { name })
    : t("review.done.confirmed", { name });
}

/** The student's other recent incidents and their strikes, opened on demand. */
function RecentHistory({ incident }: { incident: IncidentRecord }) {
  const { t } = useTranslation("integrity");
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="mt-4">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen(!isOpen)}
        className="inline-flex items-center gap-1.5 rounded-lg text-left text-sm font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-100"
      >
        <History aria-hidden="true" className="size-4" />
        {isOpen
          ? t("recent.hide", { name: incident.student.name })
          : t("recent.show", { name: incident.student.name })}
      </button>
      <div id={panelId} hidden={!isOpen} className="mt-3">
        {isOpen && <RecentHistoryPanel incidentId={incident.id} />}
      </div>
    </div>
  );
}

function RecentHistoryPanel({ incidentId }: { incidentId: string }) {
  const { t } = useTranslation("integrity");
  const detail = useQuery(incidentDetailQuery(incidentId));
  if (detail.isPending) return <Loading label={t("recent.loading")} rows={2} />;
  if (detail.isError)
    return (
      <QueryError error={detail.error} fallback={t("recent.loadFailed")} onRetry={() => detail.refetch()} />
    );
  const { history } = detail.data;
  return (
    <div className="rounded-xl bg-slate-50 px-3 py-1 sm:px-4 dark:bg-slate-800">
      {history.length === 0 ? (
        <p className="py-2 text-sm text-slate-600 dark:text-slate-300">{t("recent.none")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-700">
          {history.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
              <time dateTime={entry.created_at} className="tabular-nums">
                {instantLabel(entry.created_at)}
              </time>
              <span className="min-w-0 flex-1 break-words">
                {[
                  entry.app_name,
                  incidentTypeText(entry.incident_type),
                  confidenceText(entry.confidence_score),
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
              <StatusBadge status={entry.review_status} reader="staff" />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
