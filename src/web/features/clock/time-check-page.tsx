import { useQuery } from "@tanstack/react-query";
import { AlertTriangle } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { type DayBounds, serverTimeSchema } from "../../../shared/contracts/clock";
import { dayBoundsOf } from "../../../shared/time-zone";
import { Card, PageHeader } from "../../components/page-header";
import { dateLabel, shownLocale } from "../../lib/format";
import { apiFetch, searchParamsOf } from "../../lib/http";
import { useAuth } from "../auth/use-auth";
import { Loading, QueryError } from "../home/parts";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";

/** How far the device's clock may be from the server's before the page warns. */
const MAX_SKEW_MS = 60_000;
const REFRESH_MS = 30_000;
const BROWSER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The server's answer with how far the device's clock is behind it, measured at the middle of the
 * round trip (the server read its clock somewhere in between).
 */
async function fetchServerTime(studentId: string | undefined, signal: AbortSignal) {
  const sentAt = Date.now();
  const answer = await apiFetch(`/api/time?${searchParamsOf({ studentId })}`, serverTimeSchema, { signal });
  const receivedAt = Date.now();
  return { ...answer, skewMs: Date.parse(answer.now) - (sentAt + receivedAt) / 2 };
}

/** The current instant, again every second. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * /app/debug/time-hand-test: checks that the student-time display agrees with the server. Clocks
 * for the student's timezone (a student's own; staff choose a student or get the school's), the
 * browser's and the server's, each with the day it counts as today.
 */
export function TimeCheckPage() {
  const { t } = useTranslation("clock");
  const { activeRole } = useAuth();
  const [picked, setPicked] = useState<PickedStudent | null>(null);
  const studentId = picked?.sourcedId;
  const answer = useQuery({
    queryKey: ["clock", studentId ?? "own"],
    queryFn: ({ signal }) => fetchServerTime(studentId, signal),
    refetchInterval: REFRESH_MS,
    retry: 1,
  });
  const now = useNow();

  return (
    <div className="space-y-6">
      <PageHeader title={t("page.title")} description={t("page.description")} />
      {activeRole !== "student" && (
        <Card>
          <h2 className="text-lg font-bold">{t("page.choose.title")}</h2>
          <p className="mb-4 mt-0.5 text-sm text-slate-600 dark:text-slate-300">
            {t("page.choose.description")}
          </p>
          <StudentPicker selected={picked} onSelect={setPicked} />
        </Card>
      )}
      {answer.isPending ? (
        <Loading label={t("page.loading")} rows={3} />
      ) : answer.isError ? (
        <QueryError error={answer.error} fallback={t("page.loadFailed")} onRetry={() => answer.refetch()} />
      ) : (
        <>
          {Math.abs(answer.data.skewMs) > MAX_SKEW_MS && <SkewWarning skewMs={answer.data.skewMs} />}
          <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
            <ClockCard
              title={
                answer.data.counted.student
                  ? t("clocks.student", { name: answer.data.counted.student.name })
                  : t("clocks.school")
              }
              note={answer.data.counted.student ? t("notes.student") : t("notes.school")}
              timeZone={answer.data.counted.timeZone}
              instant={now + answer.data.skewMs}
              day={answer.data.counted.day}
              source={t("source.server")}
            />
            <ClockCard
              title={t("clocks.browser")}
              note={t("notes.browser")}
              timeZone={BROWSER_TIME_ZONE}
              instant={now}
              day={dayBoundsOf(new Date(now), BROWSER_TIME_ZONE)}
              source={t("source.browser")}
            />
            <ClockCard
              title={t("clocks.server")}
              note={t("notes.server")}
              timeZone={answer.data.server.timeZone}
              instant={now + answer.data.skewMs}
              day={answer.data.server.day}
              source={t("source.server")}
            />
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            <SkewSentence skewMs={answer.data.skewMs} />
          </p>
        </>
      )}
    </div>
  );
}

function SkewSentence({ skewMs }: { skewMs: number }) {
  const { t } = useTranslation("clock");
  const seconds = Math.round(skewMs / 1000);
  return t("page.skew", {
    direction: seconds === 0 ? "same" : seconds > 0 ? "behind" : "ahead",
    seconds: Math.abs(seconds),
  });
}

function SkewWarning({ skewMs }: { skewMs: number }) {
  const { t } = useTranslation("clock");
  return (
    <p
      role="alert"
      className="flex items-start gap-2 rounded-lg border border-orange-300 bg-orange-50 p-3 text-sm text-orange-950 dark:border-orange-800 dark:bg-orange-950 dark:text-orange-100"
    >
      <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {t("warning", {
        direction: skewMs > 0 ? "behind" : "ahead",
        minutes: Math.round(Math.abs(skewMs) / 60_000),
      })}
    </p>
  );
}

/** A wall-clock formatter for a zone, in the language the page is shown in. */
function wallClock(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(shownLocale(), { timeZone, ...options });
}

/** One zone's clock: analog and digital, live, with the day it counts as today. */
function ClockCard({
  title,
  note,
  timeZone,
  instant,
  day,
  source,
}: {
  title: string;
  note: string;
  timeZone: string;
  instant: number;
  day: DayBounds;
  source: string;
}) {
  const { t } = useTranslation("clock");
  const titleId = useId();
  const at = new Date(instant);
  const time = wallClock(timeZone, { hour: "numeric", minute: "2-digit", second: "2-digit" }).format(at);
  const zoneName =
    wallClock(timeZone, { timeZoneName: "short" })
      .formatToParts(at)
      .find((part) => part.type === "timeZoneName")?.value ?? "";
  const boundary = (iso: string) =>
    wallClock(timeZone, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }).format(
      new Date(iso),
    );
  return (
    <Card>
      <div role="timer" aria-labelledby={titleId}>
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-300">{note}</p>
        <div className="mt-4 flex items-center gap-4">
          <AnalogClock at={at} timeZone={timeZone} />
          <div>
            <p className="text-2xl font-extrabold tabular-nums">{time}</p>
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {timeZone} · {zoneName}
            </p>
          </div>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">{t("day.today")}</dt>
        <dd>{dateLabel(day.date)}</dd>
        <dt className="font-medium">{t("day.starts")}</dt>
        <dd>{boundary(day.startsAt)}</dd>
        <dt className="font-medium">{t("day.ends")}</dt>
        <dd>{t("day.endsAt", { time: boundary(day.endsAt) })}</dd>
        <dt className="font-medium">{t("day.weekStart")}</dt>
        <dd>{dateLabel(day.weekStart)}</dd>
        <dt className="font-medium">{t("day.source")}</dt>
        <dd>{source}</dd>
      </dl>
    </Card>
  );
}

/** Hands at the zone's wall-clock time; drawn only, the digital time beside it says the same. */
function AnalogClock({ at, timeZone }: { at: Date; timeZone: string }) {
  const parts = Object.fromEntries(
    wallClock(timeZone, { hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" })
      .formatToParts(at)
      .map((part) => [part.type, Number(part.value)]),
  );
  const seconds = parts.second ?? 0;
  const minutes = (parts.minute ?? 0) + seconds / 60;
  const hours = ((parts.hour ?? 0) % 12) + minutes / 60;
  const hand = (turn: number, length: number, className: string, width: number) => {
    const angle = turn * 2 * Math.PI;
    return (
      <line
        x1="50"
        y1="50"
        x2={50 + length * Math.sin(angle)}
        y2={50 - length * Math.cos(angle)}
        strokeWidth={width}
        strokeLinecap="round"
        className={className}
      />
    );
  };
  return (
    <svg viewBox="0 0 100 100" className="size-24 shrink-0" aria-hidden="true">
      <circle
        cx="50"
        cy="50"
        r="46"
        className="fill-white stroke-slate-300 dark:fill-slate-950 dark:stroke-slate-600"
        strokeWidth="3"
      />
      {Array.from({ length: 12 }, (_, mark) => {
        const angle = (mark / 12) * 2 * Math.PI;
        return (
          <line
            // biome-ignore lint/suspicious/noArrayIndexKey: the twelve marks never move
            key={mark}
            x1={50 + 38 * Math.sin(angle)}
            y1={50 - 38 * Math.cos(angle)}
            x2={50 + 43 * Math.sin(angle)}
            y2={50 - 43 * Math.cos(angle)}
            strokeWidth={mark % 3 === 0 ? 3 : 1.5}
            className="stroke-slate-500 dark:stroke-slate-400"
          />
        );
      })}
      {hand(hours / 12, 24, "stroke-slate-900 dark:stroke-slate-100", 4)}
      {hand(minutes / 60, 34, "stroke-brand-600 dark:stroke-brand-400", 3)}
      {hand(seconds / 60, 38, "stroke-orange-500", 1.5)}
      <circle cx="50" cy="50" r="3" className="fill-slate-900 dark:fill-slate-100" />
    </svg>
  );
}
