import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { XpDay, XpDayEvent } from "../../../shared/contracts/activity";
import { isIsoDate } from "../../../shared/search";
import { addDays } from "../../../shared/time-zone";
import { Card } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { dayLabel, shownLocale } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import { xpDayQuery } from "./api";
import { amountClass, xpAmount } from "./xp-history";

const round2 = (value: number) => Math.round(value * 100) / 100;

function timeIn(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleTimeString(shownLocale(), {
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  });
}

function duration(seconds: number): string {
  if (seconds === 0) return "0";
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (!minutes) return i18next.t("xp:day.seconds", { seconds: rest });
  return rest
    ? i18next.t("xp:day.minutesSeconds", { minutes, seconds: rest })
    : i18next.t("xp:day.minutes", { minutes });
}

/** A date field with previous, next and today, for a day of the student's calendar. */
export function DayPicker({
  date,
  today,
  onChange,
}: {
  date: string;
  today: string | undefined;
  onChange: (date: string) => void;
}) {
  const { t } = useTranslation("xp");
  const id = useId();
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {t("day.day")}
        </label>
        <input
          id={id}
          type="date"
          value={date}
          max={today}
          onChange={(event) => {
            if (isIsoDate(event.target.value)) onChange(event.target.value);
          }}
          className="mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm dark:border-slate-700 dark:bg-slate-950 dark:[color-scheme:dark]"
        />
      </div>
      <button
        type="button"
        className={buttonClass("secondary", "py-2.5")}
        onClick={() => onChange(addDays(date, -1))}
      >
        <span aria-hidden="true">←</span> {t("day.previous")}
      </button>
      <button
        type="button"
        className={buttonClass("secondary", "py-2.5")}
        disabled={Boolean(today && date >= today)}
        onClick={() => onChange(addDays(date, 1))}
      >
        {t("day.next")} <span aria-hidden="true">→</span>
      </button>
      {today && date !== today && (
        <button type="button" className={buttonClass("secondary", "py-2.5")} onClick={() => onChange(today)}>
          {t("day.today")}
        </button>
      )}
    </div>
  );
}

/** Loads one student's day; `date` undefined means the student's today. */
export function useXpDay(studentId: string | null, date: string | undefined) {
  return useQuery({ ...xpDayQuery(studentId ?? "", date), enabled: Boolean(studentId) });
}

/**
 * "Why this number": every event of the day with its figures and the explanation stored when
 * its XP was computed, the manual entries, and the totals per subject.
 */
export function XpDayView({ day, onInspect }: { day: XpDay; onInspect?: (event: XpDayEvent) => void }) {
  const { t } = useTranslation("xp");
  const headings = { totals: useId(), events: useId(), manual: useId() };
  const { timezone } = day.student;
  return (
    <div className="space-y-6">
      <Card>
        <h2 id={headings.totals} className="text-lg font-bold">
          {t("day.totalsFor", { date: dayLabel(day.date) })}
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {t("day.whose", { name: `${day.student.givenName} ${day.student.familyName}`, timezone })}
        </p>
        {day.totals.length === 0 ? (
          <p className="mt-3 text-slate-700 dark:text-slate-200">{t("day.noXp")}</p>
        ) : (
          <TableRegion label={t("day.totalsFor", { date: dayLabel(day.date) })} className="mt-3">
            <table className="w-full text-left text-sm" aria-labelledby={headings.totals}>
              <thead className="text-xs text-slate-600 uppercase dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-2 pr-2">
                    {t("day.columns.subject")}
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    {t("day.columns.activities")}
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    {t("day.columns.manual")}
                  </th>
                  <th scope="col" className="py-2 text-right">
                    {t("day.columns.total")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 tabular-nums dark:divide-slate-800">
                {day.totals.map((total) => {
                  const gap = round2(total.totalXp - total.eventXp - total.manualXp);
                  return (
                    <tr key={total.subject}>
                      <th scope="row" className="py-2 pr-3 font-medium">
                        {total.subject}
                      </th>
                      <td className="py-2 pr-3 text-right">{xpAmount(total.eventXp, { exact: true })}</td>
                      <td className={`py-2 pr-3 text-right ${amountClass(total.manualXp)}`}>
                        {xpAmount(total.manualXp, { signed: true, exact: true })}
                      </td>
                      <td className="py-2 text-right font-semibold">
                        {xpAmount(total.totalXp, { exact: true })}
                        {gap !== 0 && (
                          <span className="block text-xs font-normal text-amber-800 dark:text-amber-300">
                            {t("day.gap", { amount: xpAmount(gap, { signed: true, exact: true }) })}
                          </span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr className="border-t-2 border-slate-200 dark:border-slate-700">
                  <th scope="row" colSpan={3} className="py-2 pr-3 text-right font-semibold">
                    {t("day.allSubjects")}
                  </th>
                  <td className="py-2 text-right font-bold tabular-nums">
                    {xpAmount(day.totalXp, { exact: true })}
                  </td>
                </tr>
              </tfoot>
            </table>
          </TableRegion>
        )}
      </Card>

      <Card>
        <h2 id={headings.events} className="text-lg font-bold">
          {t("day.events", { count: day.events.length })}
        </h2>
        {day.events.length === 0 ? (
          <p className="mt-3 text-slate-700 dark:text-slate-200">{t("day.noEvents")}</p>
        ) : (
          <ol aria-labelledby={headings.events} className="mt-3 space-y-3">
            {day.events.map((event) => (
              <li key={event.id}>
                <EventCard event={event} timezone={timezone} onInspect={onInspect} />
              </li>
            ))}
          </ol>
        )}
      </Card>

      <Card>
        <h2 id={headings.manual} className="text-lg font-bold">
          {t("day.manual", { count: day.manual.length })}
        </h2>
        {day.manual.length === 0 ? (
          <p className="mt-3 text-slate-700 dark:text-slate-200">{t("day.noManual")}</p>
        ) : (
          <ul
            aria-labelledby={headings.manual}
            className="mt-3 divide-y divide-slate-100 dark:divide-slate-800"
          >
            {day.manual.map((entry) => (
              <li key={entry.id} className="flex items-start gap-3 py-3">
                <span
                  className={`w-20 shrink-0 text-right font-semibold tabular-nums ${amountClass(entry.amount)}`}
                >
                  {xpAmount(entry.amount, { signed: true, exact: true })}
                </span>
                <div className="min-w-0 flex-1">
                  <p className="break-words">{entry.reason}</p>
                  <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                    {entry.subject} · {timeIn(entry.createdAt, timezone)} ·{" "}
                    {entry.actorName ? t("history.byActor", { name: entry.actorName }) : t("history.byStaff")}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function EventCard({
  event,
  timezone,
  onInspect,
}: {
  event: XpDayEvent;
  timezone: string;
  onInspect?: (event: XpDayEvent) => void;
}) {
  const { t } = useTranslation("xp");
  const facts: [string, string][] = [
    [
      t("day.facts.questions"),
      event.totalQuestions
        ? `${event.correctQuestions} / ${event.totalQuestions} (${Math.round((event.accuracy ?? 0) * 100)}%)`
        : t("day.facts.none"),
    ],
    [t("day.facts.attempt"), String(event.attempt)],
    [t("day.facts.active"), duration(event.activeSeconds)],
    [t("day.facts.wasted"), duration(event.wasteSeconds)],
    [t("day.facts.antiPattern"), duration(event.antiPatternSeconds)],
    [
      t("day.facts.expected"),
      event.expectedXp === null ? t("day.facts.notSent") : xpAmount(event.expectedXp, { exact: true }),
    ],
  ];
  return (
    <article className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <h3 className="font-semibold break-words">
            {event.activityName ?? event.activityId ?? t("day.activity")}
          </h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {[event.appName ?? t("held.unknownApp"), event.subject, timeIn(event.occurredAt, timezone)].join(
              " · ",
            )}
          </p>
        </div>
        <p className={`text-lg font-bold tabular-nums ${amountClass(event.awardedXp)}`}>
          <span className="sr-only">{t("day.awarded")} </span>
          {xpAmount(event.awardedXp, { exact: true })}
        </p>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt className="text-xs text-slate-600 dark:text-slate-400">{term}</dt>
            <dd className="font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs font-medium text-slate-600 dark:text-slate-400">{t("day.howComputed")}</p>
      <p
        data-testid="xp-explanation"
        className="mt-1 rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm break-words text-slate-800 dark:bg-slate-800 dark:text-slate-100"
      >
        {event.xpExplanation}
      </p>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs break-all text-slate-600 dark:text-slate-400">
          {t("day.eventId", { id: event.eventId })}
        </p>
        {onInspect && (
          <button
            type="button"
            className={buttonClass("secondary", "px-3 py-1")}
            onClick={() => onInspect(event)}
          >
            {t("day.tryInCalculator")}
          </button>
        )}
      </div>
    </article>
  );
}

/** The loading and error states of a day, around the view. */
export function XpDayResult({
  query,
  onInspect,
}: {
  query: ReturnType<typeof useXpDay>;
  onInspect?: (event: XpDayEvent) => void;
}) {
  const { t } = useTranslation("xp");
  if (query.isError)
    return (
      <Card>
        <p role="alert" className="text-red-700 dark:text-red-300">
          {t("day.loadFailed", { message: query.error.message })}
        </p>
      </Card>
    );
  if (!query.data) return <p className="text-slate-600 dark:text-slate-300">{t("day.loading")}</p>;
  return <XpDayView day={query.data.data} onInspect={onInspect} />;
}
