import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IncidentRecord } from "../../../shared/contracts/integrity";
import type { Announce } from "../../components/ui/announcement";
import { buttonClass } from "../../components/ui/form";
import { Loading, QueryError } from "../home/parts";
import { appealIncident, incidentsQuery, integrityKeys } from "./api";
import { DecisionHistory, NoteDialog, StatusBadge, StrikeTerm, WhatHappened } from "./parts";

/**
 * A student's strikes as they or their family read them: what happened, what the reviewer wrote,
 * how long each counts, and an appeal for each one that may be appealed. `studentId` is left out
 * for the student's own.
 */
export function StrikeList({
  studentId,
  name,
  viewer,
  announce,
}: {
  studentId?: string;
  /** The child's first name, for a family. */
  name?: string;
  viewer: "student" | "family";
  announce: Announce;
}) {
  const { t } = useTranslation("integrity");
  // The strikes group holds appealed strikes too: they count until the appeal is decided.
  const strikes = useQuery(incidentsQuery({ group: "confirmed", studentId }));
  if (strikes.isPending) return <Loading label={t("strikes.loading")} rows={2} />;
  if (strikes.isError)
    return (
      <QueryError
        error={strikes.error}
        fallback={t("strikes.loadFailed")}
        onRetry={() => strikes.refetch()}
      />
    );
  const list = [...strikes.data.incidents].sort((a, b) => b.created_at.localeCompare(a.created_at));
  if (list.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">{t(`strikes.none.${viewer}`, { name })}</p>
    );
  return (
    <ol className="space-y-3" aria-label={t(`strikes.label.${viewer}`, { name })}>
      {list.map((incident) => (
        <li key={incident.id}>
          <StrikeItem incident={incident} viewer={viewer} announce={announce} />
        </li>
      ))}
    </ol>
  );
}

function StrikeItem({
  incident,
  viewer,
  announce,
}: {
  incident: IncidentRecord;
  viewer: "student" | "family";
  announce: Announce;
}) {
  const { t } = useTranslation("integrity");
  const queryClient = useQueryClient();
  const [isAppealing, setIsAppealing] = useState(false);
  const headingId = useId();
  // What the reviewers wrote; the appeal itself shows as its status.
  const reviews = incident.decisions.filter((decision) => decision.action !== "escalate");
  return (
    <article
      aria-labelledby={headingId}
      className="rounded-xl border border-slate-200 p-4 dark:border-slate-700"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {incident.app_name ? t("strikes.heading", { app: incident.app_name }) : t("strikes.headingNoApp")}
        </h3>
        <div className="flex flex-wrap gap-2">
          <StatusBadge status={incident.review_status} reader="family" />
          <StrikeTerm incident={incident} />
        </div>
      </div>
      <div className="mt-2">
        <WhatHappened incident={incident} viewer={viewer} />
      </div>
      {reviews.length > 0 && (
        <div className="mt-3">
          <h4 className="mb-1 text-sm font-semibold">{t("strikes.decided")}</h4>
          <DecisionHistory decisions={reviews} reader="family" />
        </div>
      )}
      {incident.can_appeal && (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <button type="button" onClick={() => setIsAppealing(true)} className={buttonClass("secondary")}>
            {t("appeal.button")}
          </button>
          <p className="text-xs text-slate-600 dark:text-slate-300">{t(`appeal.why.${viewer}`)}</p>
        </div>
      )}
      {isAppealing && (
        <NoteDialog
          title={t("appeal.title")}
          description={t(`appeal.description.${viewer}`, { name: incident.student.name })}
          noteLabel={t(`appeal.note.${viewer}`)}
          noteHint={t("appeal.noteHint")}
          confirmLabel={t("appeal.send")}
          onSubmit={async (note) => {
            await appealIncident(incident.id, note);
            await queryClient.invalidateQueries({ queryKey: integrityKeys.all });
            announce(t(`appeal.done.${viewer}`));
          }}
          onClose={() => setIsAppealing(false)}
        />
      )}
    </article>
  );
}
