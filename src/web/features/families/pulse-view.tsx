import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { CalendarClock, ChevronLeft, ChevronRight } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { PulseResponse } from "../../../shared/contracts/families";
import { addDays } from "../../../shared/time-zone";
import { dateLabel, dayLabel, instantLabel } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { pulseQuery } from "./pulse-api";
import { PulseNoteForm, PulseNoteText } from "./pulse-note";
import { PulseFocus, PulseNewsList, PulseSubjectBars, PulseTiles } from "./pulse-parts";
import { PulseWeeklyReward } from "./pulse-reward";

/**
 * A child's weekly pulse, as it heads the child's hub: the week's figures at a glance, XP against
 * the daily goals per subject, tests and levels, focus in plain words, the Guide's note and the
 * week's bonus or debit in one click. Earlier weeks are a click away (the route's `week`).
 */
export function PulseView({ childId, week }: { childId: string; week?: string }) {
  const { t } = useTranslation("families");
  const pulse = useQuery(pulseQuery(childId, week));
  if (pulse.isPending)
    return (
      <Section title={t("pulse.title")}>
        <Loading label={t("pulse.loading")} rows={4} />
      </Section>
    );
  if (pulse.isError) {
    const isMissingWeek =
      week !== undefined && pulse.error instanceof ApiRequestError && pulse.error.status === 404;
    return (
      <Section title={t("pulse.title")}>
        {isMissingWeek ? (
          <EmptyState icon={CalendarClock} title={pulse.error.message}>
            <Link
              to="/app/child/$childId"
              params={{ childId }}
              search={{}}
              className="font-semibold text-brand-700 underline dark:text-brand-100"
            >
              {t("pulse.latest")}
            </Link>
          </EmptyState>
        ) : (
          <QueryError error={pulse.error} fallback={t("pulse.loadFailed")} onRetry={() => pulse.refetch()} />
        )}
      </Section>
    );
  }
  return <PulseWeek pulse={pulse.data} />;
}

function PulseWeek({ pulse }: { pulse: PulseResponse }) {
  const { t } = useTranslation("families");
  const { figures } = pulse;
  const name = pulse.child.givenName;
  return (
    <div className="space-y-6">
      <Section
        title={t("pulse.title")}
        description={
          <>
            <span className="font-semibold text-slate-800 dark:text-slate-100">
              {t("pulse.weekRange", { start: dateLabel(pulse.week), end: dateLabel(addDays(pulse.week, 6)) })}
            </span>
            {pulse.isCurrentWeek && (
              <span className="ml-2 inline-block rounded-full bg-brand-50 whitespace-nowrap px-2 py-0.5 text-xs font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100">
                {t("pulse.thisWeek")}
              </span>
            )}
          </>
        }
        actions={<WeekChooser pulse={pulse} />}
      >
        <PulseTiles figures={figures} />
        <p className="mt-3 text-xs text-slate-600 dark:text-slate-300">
          {t("pulse.counted", {
            name,
            day: dayLabel(figures.through),
            zone: figures.timeZone,
            built: instantLabel(pulse.builtAt),
          })}
        </p>
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title={t("pulse.subjects.title")} description={t("pulse.subjects.description", { name })}>
          <PulseSubjectBars figures={figures} />
        </Section>
        <div className="space-y-6">
          <Section title={t("pulse.note.title")}>
            {pulse.canWriteNote ? (
              <PulseNoteForm
                key={pulse.week}
                childId={pulse.child.sourcedId}
                childName={name}
                week={pulse.week}
                note={pulse.note}
              />
            ) : (
              <PulseNoteText note={pulse.note} />
            )}
          </Section>
          {pulse.canReward && (
            <Section title={t("pulse.reward.title")}>
              <PulseWeeklyReward pulse={pulse} />
            </Section>
          )}
        </div>
        <Section title={t("pulse.news.title")}>
          <PulseNewsList news={figures.news} />
        </Section>
        <Section title={t("pulse.focus.title")}>
          <PulseFocus figures={figures} />
        </Section>
      </div>
    </div>
  );
}

/** The weeks with a pulse: a step back or forward, or any of them from a list. */
function WeekChooser({ pulse }: { pulse: PulseResponse }) {
  const { t } = useTranslation("families");
  const navigate = useNavigate();
  const selectId = useId();
  const childId = pulse.child.sourcedId;
  const at = pulse.weeks.indexOf(pulse.week);
  const earlier = at >= 0 ? pulse.weeks[at + 1] : undefined;
  const later = at > 0 ? pulse.weeks[at - 1] : undefined;
  const latest = pulse.weeks[0];
  const searchOf = (week: string | undefined) => (week === undefined || week === latest ? {} : { week });
  const stepClass =
    "inline-flex items-center gap-1 rounded-lg border border-slate-300 px-2.5 py-2 text-sm font-semibold hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800";
  return (
    <div className="flex flex-wrap items-end gap-2">
      {earlier && (
        <Link to="/app/child/$childId" params={{ childId }} search={searchOf(earlier)} className={stepClass}>
          <ChevronLeft aria-hidden="true" className="size-4" />
          {t("pulse.earlier")}
        </Link>
      )}
      <div>
        <label htmlFor={selectId} className="sr-only">
          {t("pulse.chooseWeek")}
        </label>
        <select
          id={selectId}
          value={pulse.week}
          onChange={(event) =>
            void navigate({
              to: "/app/child/$childId",
              params: { childId },
              search: searchOf(event.target.value),
            })
          }
          className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950"
        >
          {pulse.weeks.map((week) => (
            <option key={week} value={week}>
              {t("pulse.weekOption", { start: dateLabel(week) })}
            </option>
          ))}
        </select>
      </div>
      {later && (
        <Link to="/app/child/$childId" params={{ childId }} search={searchOf(later)} className={stepClass}>
          {t("pulse.later")}
          <ChevronRight aria-hidden="true" className="size-4" />
        </Link>
      )}
    </div>
  );
}
