import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ClipboardList, Lock, Plus, Repeat } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SurveyState, SurveySummary } from "../../../shared/contracts/surveys";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { Tabs } from "../../components/ui/tabs";
import { formatNumber, formatPercent, gradeLabel, instantDateLabel } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { surveyKeys, surveyListQuery } from "./api";
import { SurveyEditor } from "./survey-editor";

type Editing = { surveyId: string | null } | null;

/** /app/admin/surveys: the surveys the caller manages, and the builder for a new or chosen one. */
export function AdminSurveysPage() {
  const { t } = useTranslation("surveys");
  const { activeRole } = useAuth();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const [note, setNote] = useState("");
  const isGuide = activeRole === "teacher";

  return (
    <div>
      <PageHeader
        title={t("admin.title")}
        description={isGuide ? t("admin.descriptionGuide") : t("admin.description")}
        actions={
          !editing && (
            <button
              type="button"
              onClick={() => {
                setNote("");
                setEditing({ surveyId: null });
              }}
              className={buttonClass("primary", "inline-flex items-center gap-2")}
            >
              <Plus aria-hidden="true" className="size-4" />
              {t("admin.new")}
            </button>
          )
        }
      />
      <p
        role="status"
        className={
          note
            ? "mb-4 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
            : "sr-only"
        }
      >
        {note}
      </p>
      {editing ? (
        <SurveyEditor
          surveyId={editing.surveyId}
          onCancel={() => setEditing(null)}
          onDone={(done) => {
            setEditing(null);
            setNote(done);
            void queryClient.invalidateQueries({ queryKey: surveyKeys.all });
          }}
        />
      ) : (
        <SurveyLists
          onEdit={(surveyId) => {
            setNote("");
            setEditing({ surveyId });
          }}
        />
      )}
    </div>
  );
}

function SurveyLists({ onEdit }: { onEdit: (surveyId: string) => void }) {
  const { t } = useTranslation("surveys");
  const [archived, setArchived] = useState(false);
  const list = useQuery(surveyListQuery(archived));
  const surveys = list.data?.data ?? [];
  return (
    <Section
      title={archived ? t("admin.archivedTitle") : t("admin.currentTitle")}
      actions={
        <Tabs
          label={t("admin.which")}
          look="pills"
          idPrefix="survey-list"
          panelId="survey-list-panel"
          items={[
            { id: "current", label: t("admin.current") },
            { id: "archived", label: t("admin.archived") },
          ]}
          selected={archived ? "archived" : "current"}
          onSelect={(id) => setArchived(id === "archived")}
        />
      }
    >
      <div
        id="survey-list-panel"
        role="tabpanel"
        aria-labelledby={`survey-list-${archived ? "archived" : "current"}`}
      >
        {list.isPending ? (
          <Loading label={t("admin.loading")} rows={4} />
        ) : list.isError ? (
          <QueryError error={list.error} fallback={t("admin.loadFailed")} onRetry={() => list.refetch()} />
        ) : surveys.length === 0 ? (
          <EmptyState icon={ClipboardList} title={archived ? t("admin.emptyArchived") : t("admin.empty")}>
            {!archived && t("admin.emptyBody")}
          </EmptyState>
        ) : (
          <TableRegion label={t("admin.tableLabel")} className="-mx-5 sm:mx-0">
            <table className="w-full min-w-[46rem] text-left text-sm">
              <caption className="sr-only">{t("admin.tableLabel")}</caption>
              <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
                <tr>
                  <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
                    {t("admin.columns.survey")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("admin.columns.state")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("admin.columns.responses")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("admin.columns.dates")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    <span className="sr-only">{t("admin.columns.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {surveys.map((survey) => (
                  <SurveyRow key={survey.id} survey={survey} onEdit={() => onEdit(survey.id)} />
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </div>
    </Section>
  );
}

const STATE_STYLES: Record<SurveyState, string> = {
  draft: "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100",
  scheduled: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100",
  open: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  closed: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  archived: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
};

export function StateBadge({ state }: { state: SurveyState }) {
  const { t } = useTranslation("surveys");
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATE_STYLES[state]}`}
    >
      {t(`state.${state}`)}
    </span>
  );
}

/** Who a survey asks, in a line: "Students · Maple Grove School · Grade 3". */
export function useAudienceText() {
  const { t } = useTranslation("surveys");
  return (survey: Pick<SurveySummary, "audience" | "audienceNames">) =>
    [
      survey.audience.roles.map((role) => t(`audienceRoles.${role}`)).join(", "),
      ...survey.audienceNames.schools,
      survey.audience.grades.length > 0 ? gradeLabel(survey.audience.grades) : null,
      survey.audienceNames.classes.length > 2
        ? t("admin.classCount", { count: survey.audienceNames.classes.length })
        : survey.audienceNames.classes.join(", "),
    ]
      .filter(Boolean)
      .join(" · ");
}

function SurveyRow({ survey, onEdit }: { survey: SurveySummary; onEdit: () => void }) {
  const { t } = useTranslation("surveys");
  const audienceText = useAudienceText();
  const round = survey.latestRound;
  const share = round && round.invited > 0 ? round.answered / round.invited : 0;
  return (
    <tr>
      <th scope="row" className="max-w-80 px-5 py-3 text-left align-top font-normal sm:px-3">
        <span className="block font-semibold break-words">{survey.title}</span>
        <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-300">
          {audienceText(survey)}
        </span>
        <span className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
          <span>{t("admin.questionCount", { count: survey.questionCount })}</span>
          {survey.isAnonymous && (
            <span className="inline-flex items-center gap-1">
              <Lock aria-hidden="true" className="size-3" />
              {t("admin.anonymous")}
            </span>
          )}
          {survey.repeat !== "none" && (
            <span className="inline-flex items-center gap-1">
              <Repeat aria-hidden="true" className="size-3" />
              {t(`repeat.${survey.repeat}`)}
            </span>
          )}
        </span>
      </th>
      <td className="px-3 py-3 align-top">
        <StateBadge state={survey.state} />
      </td>
      <td className="min-w-44 px-3 py-3 align-top">
        {round ? (
          <>
            <span className="block tabular-nums">
              {t("admin.rate", {
                answered: formatNumber(round.answered, 0),
                invited: formatNumber(round.invited, 0),
                share: formatPercent(share),
              })}
            </span>
            {survey.repeat !== "none" && (
              <span className="block text-xs text-slate-600 dark:text-slate-300">
                {t("admin.roundNumber", { number: round.number })}
              </span>
            )}
            <span
              role="progressbar"
              aria-label={t("admin.rateLabel", { title: survey.title })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(share * 100)}
              className="mt-1 block h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
            >
              <span
                className="block h-full rounded-full bg-brand-600 dark:bg-brand-500"
                style={{ width: `${Math.min(100, share * 100)}%` }}
              />
            </span>
          </>
        ) : (
          <span className="text-slate-600 dark:text-slate-300">{t("admin.noRounds")}</span>
        )}
      </td>
      <td className="px-3 py-3 align-top text-xs whitespace-nowrap">
        <span className="block">{t("admin.opens", { when: instantDateLabel(survey.opensAt) })}</span>
        <span className="block text-slate-600 dark:text-slate-300">
          {survey.closesAt
            ? t("admin.closes", { when: instantDateLabel(survey.closesAt) })
            : t("admin.noClose")}
        </span>
        <span className="mt-1 block text-slate-600 dark:text-slate-300">
          {t("admin.changedBy", { who: survey.updatedBy ?? "—" })}
        </span>
      </td>
      <td className="px-3 py-3 align-top">
        <div className="flex flex-col items-start gap-1.5">
          {survey.state !== "draft" && (
            <Link
              to="/app/admin/survey-responses/$surveyId"
              params={{ surveyId: survey.id }}
              aria-label={t("admin.resultsLabel", { title: survey.title })}
              className="font-semibold text-brand-700 underline whitespace-nowrap dark:text-brand-100"
            >
              {t("admin.results")}
            </Link>
          )}
          {survey.state !== "archived" && (
            <button
              type="button"
              onClick={onEdit}
              aria-label={t("admin.editLabel", { title: survey.title })}
              className="font-semibold text-brand-700 underline whitespace-nowrap dark:text-brand-100"
            >
              {t("admin.edit")}
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}
