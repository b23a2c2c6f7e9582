import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { chunksOf } from "../../../shared/flow";
import type { searchSchemas } from "../../../shared/routes";
import { Card, PageHeader } from "../../components/page-header";
import { TableRegion } from "../../components/ui/table-region";
import { dayLabel, formatXp } from "../../lib/format";
import { minuteOfDayIn, subjectColor, timeOfDayIn } from "../../lib/subjects";
import { useAuth } from "../auth/use-auth";
import { GuideWeeklyNote } from "../families/pulse-note";
import { type FlowStudentDay, flowDayQuery, myClassesQuery } from "./api";

type DaySearch = z.output<typeof searchSchemas.flowDay>;
type StudentSearch = z.output<typeof searchSchemas.flowStudent>;

// The school day shown on timelines: 7:00 to 17:00 in each student's own timezone.
const DAY_START_MINUTE = 7 * 60;
const DAY_END_MINUTE = 17 * 60;
const HOURS = Array.from({ length: (DAY_END_MINUTE - DAY_START_MINUTE) / 60 + 1 }, (_, index) => 7 + index);

const inputClass =
  "mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950";

function DateControl({ value, onChange }: { value: string; onChange: (date: string) => void }) {
  const { t } = useTranslation("flow");
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {t("date")}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        onChange={(event) => event.target.value && onChange(event.target.value)}
        className={inputClass}
      />
    </div>
  );
}

function SubjectLegend({ subjects }: { subjects: string[] }) {
  const { t } = useTranslation("flow");
  if (subjects.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-3 text-xs" aria-label={t("subjects")}>
      {subjects.map((subject) => (
        <li key={subject} className="flex items-center gap-1.5">
          <span
            className="h-3 w-3 rounded-sm"
            style={{ background: subjectColor(subject) }}
            aria-hidden="true"
          />
          {subject}
        </li>
      ))}
    </ul>
  );
}

function Problem({ error }: { error: Error }) {
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      {error.message}
    </p>
  );
}

/** /app/flow: the day of a class, or of everyone the caller looks after, hour by hour. */
export function FlowPage() {
  const { t } = useTranslation("flow");
  const search = useSearch({ strict: false }) as DaySearch;
  const navigate = useNavigate();
  const { activeRole } = useAuth();
  const isStaff = activeRole === "teacher" || activeRole === "administrator";
  const classes = useQuery({ ...myClassesQuery, enabled: isStaff });
  const classId =
    search.classId ?? (activeRole === "administrator" ? classes.data?.data[0]?.sourcedId : undefined);
  const day = useQuery({
    ...flowDayQuery({ date: search.date, classId }),
    enabled: activeRole !== "administrator" || Boolean(classId),
  });
  const classSelectId = useId();
  const setSearch = (next: Partial<DaySearch>) =>
    void navigate({ to: "/app/flow", search: { ...search, ...next } as never });

  const students = day.data?.data.students ?? [];
  const subjects = [
    ...new Set(students.flatMap((student) => student.events.map((event) => event.subject))),
  ].sort();
  const date = day.data?.data.date ?? search.date ?? "";

  return (
    <div>
      <PageHeader title={t("common:pages./app/flow/.title")} description={t("day.description")} />
      <Card className="mb-6">
        <div className="flex flex-wrap items-end gap-4">
          <DateControl value={date} onChange={(next) => setSearch({ date: next })} />
          {isStaff && (
            <div className="max-w-full min-w-0">
              <label htmlFor={classSelectId} className="text-sm font-medium">
                {t("day.class")}
              </label>
              <select
                id={classSelectId}
                value={classId ?? ""}
                onChange={(event) => setSearch({ classId: event.target.value || undefined })}
                className={`${inputClass} max-w-full`}
              >
                {activeRole === "teacher" && <option value="">{t("day.allStudents")}</option>}
                {classes.data?.data.map((entry) => (
                  <option key={entry.sourcedId} value={entry.sourcedId}>
                    {entry.schoolName
                      ? t("day.classAtSchool", { title: entry.title, school: entry.schoolName })
                      : entry.title}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="ml-auto">
            <SubjectLegend subjects={subjects} />
          </div>
        </div>
      </Card>
      {day.isError && <Problem error={day.error} />}
      {day.isPending && day.fetchStatus !== "idle" && (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("day.loading")}</p>
      )}
      {day.data && (
        <Card>
          <h2 className="text-lg font-bold">{date ? dayLabel(date) : t("day.today")}</h2>
          {students.length === 0 ? (
            <p className="mt-2 text-slate-600 dark:text-slate-300">{t("day.noStudents")}</p>
          ) : (
            <TableRegion label={date ? dayLabel(date) : t("day.today")} className="mt-4">
              <div className="min-w-[640px]">
                <div
                  className="ml-44 grid text-xs text-slate-500 dark:text-slate-400"
                  style={{ gridTemplateColumns: `repeat(${HOURS.length - 1}, 1fr)` }}
                >
                  {HOURS.slice(0, -1).map((hour) => (
                    <span key={hour}>{String(hour).padStart(2, "0")}:00</span>
                  ))}
                </div>
                <ul className="mt-1 divide-y divide-slate-100 dark:divide-slate-800">
                  {students.map((student) => (
                    <li key={student.sourcedId} className="flex items-center gap-2 py-1.5">
                      <Link
                        to="/app/flow/student/$studentId"
                        params={{ studentId: student.sourcedId }}
                        search={{ date }}
                        className="w-42 shrink-0 truncate text-sm font-medium text-brand-700 hover:underline dark:text-brand-100"
                      >
                        {student.givenName} {student.familyName}
                      </Link>
                      <DayBar student={student} />
                    </li>
                  ))}
                </ul>
              </div>
            </TableRegion>
          )}
        </Card>
      )}
    </div>
  );
}

/** One student's day as coloured blocks on the 7:00–17:00 line. */
function DayBar({ student }: { student: FlowStudentDay }) {
  const { t } = useTranslation("flow");
  const span = DAY_END_MINUTE - DAY_START_MINUTE;
  const place = (minute: number) => Math.min(100, Math.max(0, ((minute - DAY_START_MINUTE) / span) * 100));
  const totalXp = student.events.reduce((total, event) => total + event.xp, 0);
  return (
    <div
      role="img"
      aria-label={t("day.bar", {
        name: `${student.givenName} ${student.familyName}`,
        count: student.events.length,
        xp: formatXp(totalXp),
      })}
      className="relative h-6 flex-1 rounded bg-slate-100 dark:bg-slate-800"
    >
      {student.events.map((event) => {
        const left = place(minuteOfDayIn(event.start, student.timezone));
        const right = place(minuteOfDayIn(event.end, student.timezone));
        return (
          <span
            key={event.id}
            title={t(event.activityName ? "day.eventWithActivity" : "day.event", {
              subject: event.subject,
              activity: event.activityName,
              start: timeOfDayIn(event.start, student.timezone),
              end: timeOfDayIn(event.end, student.timezone),
              xp: formatXp(event.xp),
            })}
            className="absolute inset-y-0.5 rounded-sm"
            style={{
              left: `${left}%`,
              width: `${Math.max(0.6, right - left)}%`,
              background: subjectColor(event.subject),
            }}
          />
        );
      })}
    </div>
  );
}

function useStudentDay() {
  const { studentId } = useParams({ strict: false }) as { studentId: string };
  const search = useSearch({ strict: false }) as StudentSearch;
  const day = useQuery(flowDayQuery({ date: search.date, studentId }));
  return { studentId, search, day, student: day.data?.data.students[0] };
}

/** /app/flow/student/$studentId: one student's day as a timeline; `time` marks the activity at that moment. */
export function StudentFlowPage() {
  const { t } = useTranslation("flow");
  const { activeRole } = useAuth();
  const { studentId, search, day, student } = useStudentDay();
  const navigate = useNavigate();
  const marked = useRef<HTMLLIElement>(null);
  const date = day.data?.data.date ?? search.date ?? "";
  const isMarked = (start: string, end: string) =>
    Boolean(
      search.time &&
        student &&
        timeOfDayIn(start, student.timezone) <= search.time &&
        search.time <= timeOfDayIn(end, student.timezone),
    );

  useEffect(() => {
    marked.current?.scrollIntoView({ block: "center" });
  }, []);

  return (
    <div>
      <PageHeader
        title={
          student
            ? `${student.givenName} ${student.familyName}`
            : t("common:pages./app/flow/student/$studentId.title")
        }
        description={t("student.description")}
        actions={
          <Link
            to="/app/flow/student/$studentId/chunks"
            params={{ studentId }}
            search={{ date }}
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold dark:border-slate-700"
          >
            {t("student.seeChunks")}
          </Link>
        }
      />
      <Card className="mb-6">
        <DateControl
          value={date}
          onChange={(next) =>
            void navigate({
              to: "/app/flow/student/$studentId",
              params: { studentId },
              search: { date: next },
            })
          }
        />
      </Card>
      {day.isError && <Problem error={day.error} />}
      {student && (
        <Card>
          <h2 className="text-lg font-bold">{dayLabel(date)}</h2>
          {student.events.length === 0 ? (
            <p className="mt-2 text-slate-600 dark:text-slate-300">{t("noLearning")}</p>
          ) : (
            <ol className="mt-4 space-y-3 border-l-2 border-slate-200 pl-5 dark:border-slate-700">
              {student.events.map((event) => {
                const isCurrent = isMarked(event.start, event.end);
                return (
                  <li
                    key={event.id}
                    ref={isCurrent ? marked : undefined}
                    aria-current={isCurrent ? "time" : undefined}
                    className={`relative rounded-lg p-3 ${isCurrent ? "bg-amber-50 ring-2 ring-amber-400 dark:bg-amber-950" : "bg-slate-50 dark:bg-slate-800/60"}`}
                  >
                    <span
                      className="absolute top-4 -left-[27px] h-3 w-3 rounded-full ring-2 ring-white dark:ring-slate-900"
                      style={{ background: subjectColor(event.subject) }}
                      aria-hidden="true"
                    />
                    <p className="text-sm font-semibold">
                      {t("student.when", {
                        start: timeOfDayIn(event.start, student.timezone),
                        end: timeOfDayIn(event.end, student.timezone),
                        subject: event.subject,
                      })}
                    </p>
                    <p className="text-sm text-slate-700 dark:text-slate-200">
                      {event.appName
                        ? t("student.activityInApp", {
                            activity: event.activityName ?? t("activity"),
                            app: event.appName,
                          })
                        : (event.activityName ?? t("activity"))}
                    </p>
                    <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                      {event.accuracy !== null
                        ? t("student.xpAndAccuracy", {
                            xp: formatXp(event.xp),
                            accuracy: Math.round(event.accuracy * 100) / 100,
                          })
                        : t("xp", { xp: formatXp(event.xp) })}
                    </p>
                  </li>
                );
              })}
            </ol>
          )}
        </Card>
      )}
      {/* The student's Guide writes the family's weekly note from here. */}
      {activeRole === "teacher" && (
        <div className="mt-6">
          <GuideWeeklyNote studentId={studentId} />
        </div>
      )}
    </div>
  );
}

/** /app/flow/student/$studentId/chunks: the day in stretches of continuous work. */
export function StudentChunksPage() {
  const { t } = useTranslation("flow");
  const { studentId, search, day, student } = useStudentDay();
  const navigate = useNavigate();
  const date = day.data?.data.date ?? search.date ?? "";
  const chunks = student ? chunksOf(student.events) : [];
  return (
    <div>
      <PageHeader
        title={
          student
            ? t("chunks.title", { name: `${student.givenName} ${student.familyName}` })
            : t("common:pages./app/flow/student/$studentId/chunks.title")
        }
        description={t("chunks.description")}
        actions={
          <Link
            to="/app/flow/student/$studentId"
            params={{ studentId }}
            search={{ date }}
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold dark:border-slate-700"
          >
            {t("chunks.seeTimeline")}
          </Link>
        }
      />
      <Card className="mb-6">
        <DateControl
          value={date}
          onChange={(next) =>
            void navigate({
              to: "/app/flow/student/$studentId/chunks",
              params: { studentId },
              search: { date: next },
            })
          }
        />
      </Card>
      {day.isError && <Problem error={day.error} />}
      {student &&
        (chunks.length === 0 ? (
          <Card>
            <p className="text-slate-600 dark:text-slate-300">{t("noLearning")}</p>
          </Card>
        ) : (
          <ol className="space-y-4">
            {chunks.map((chunk) => (
              <li key={chunk.start}>
                <Card>
                  <h2 className="font-bold">
                    {t("chunks.heading", {
                      start: timeOfDayIn(chunk.start, student.timezone),
                      end: timeOfDayIn(chunk.end, student.timezone),
                      minutes: chunk.minutes,
                      xp: formatXp(chunk.xp),
                    })}
                  </h2>
                  <SubjectLegend subjects={chunk.subjects} />
                  <ul className="mt-3 space-y-1 text-sm">
                    {chunk.events.map((event) => (
                      <li key={event.id}>
                        {t("chunks.event", {
                          time: timeOfDayIn(event.start, student.timezone),
                          subject: event.subject,
                          activity: event.activityName ?? t("activity"),
                          xp: formatXp(event.xp),
                        })}
                      </li>
                    ))}
                  </ul>
                </Card>
              </li>
            ))}
          </ol>
        ))}
    </div>
  );
}
