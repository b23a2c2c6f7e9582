import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearch } from "@tanstack/react-router";
import type { TFunction } from "i18next";
import { ChevronLeft, ChevronRight, Footprints, UserSearch, Users } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import {
  ACTIVITY_SUGGESTIONS,
  type AthleticEntry,
  type AthleticsWeek,
  MINUTES_BOUNDS,
  WEEKLY_GOAL_BOUNDS,
} from "../../../shared/contracts/athletics";
import type { searchSchemas } from "../../../shared/routes";
import { addDays, weekStartOf } from "../../../shared/time-zone";
import { BarFigure } from "../../components/charts/bar-figure";
import { ProgressRing } from "../../components/charts/progress-ring";
import { Card, PageHeader } from "../../components/page-header";
import { ConfirmDialog, Dialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { dateLabel, dayLabel, formatNumber, formatPercent, monthDayLabel } from "../../lib/format";
import { childrenQuery } from "../auth/api";
import { fullName } from "../auth/auth-state";
import { useAuth } from "../auth/use-auth";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import {
  ADMIN_INPUT_CLASS,
  AdminField,
  type FormProblems,
  ProblemsAlert,
  problemsOf,
  SuccessNote,
} from "../rewards/admin-form";
import { ChildSwitcher } from "../rewards/family-child-switcher";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";
import {
  athleticsKeys,
  athleticsSettingsQuery,
  athleticsWeekQuery,
  changeActivity,
  logActivity,
  removeActivity,
  saveAthleticsSettings,
} from "./api";

/**
 * Who reads a log, for its wording: the student themself, a Guide or an administrator, or the
 * student's family (who read it and log nothing).
 */
type Reader = "self" | "other" | "family";

type AthleticsSearch = z.output<typeof searchSchemas.childrenProgress>;

/**
 * /app/athletics: a student's own activity log; staff choose a student and follow theirs; parents
 * and guardians read their children's, one child at a time.
 */
export function AthleticsPage() {
  const { t } = useTranslation("athletics");
  const { activeRole, user } = useAuth();
  const reader: Reader =
    activeRole === "student"
      ? "self"
      : activeRole === "parent" || activeRole === "guardian"
        ? "family"
        : "other";

  return (
    <div className="space-y-6">
      <PageHeader title={t("page.title")} description={t(`page.description.${reader}`)} />
      {reader === "self" && <StudentLog studentId={user.sourcedId} reader="self" />}
      {reader === "family" && <FamilyLog />}
      {reader === "other" && <StaffLog />}
      {activeRole === "administrator" && <GoalSettings />}
    </div>
  );
}

/** Guides and administrators pick one of the students they reach. */
function StaffLog() {
  const { t } = useTranslation("athletics");
  const [picked, setPicked] = useState<PickedStudent | null>(null);
  return (
    <>
      <Card>
        <h2 className="text-lg font-bold">{t("page.choose.title")}</h2>
        <p className="mb-4 mt-0.5 text-sm text-slate-600 dark:text-slate-300">
          {t("page.choose.description")}
        </p>
        <StudentPicker selected={picked} onSelect={setPicked} autoSelect />
      </Card>
      {picked ? (
        <StudentLog key={picked.sourcedId} studentId={picked.sourcedId} reader="other" />
      ) : (
        <EmptyState icon={UserSearch} title={t("page.choose.emptyTitle")}>
          {t("page.choose.emptyBody")}
        </EmptyState>
      )}
    </>
  );
}

/** A family's children, one at a time (the first when the address names none of theirs). */
function FamilyLog() {
  const { t } = useTranslation("athletics");
  const { childId } = useSearch({ strict: false }) as AthleticsSearch;
  const children = useQuery(childrenQuery);
  if (children.isPending) return <Loading label={t("family.loadingChildren")} rows={4} />;
  if (children.isError)
    return (
      <QueryError
        error={children.error}
        fallback={t("family.childrenFailed")}
        onRetry={() => children.refetch()}
      />
    );
  const choices = children.data.data;
  const child = choices.find((choice) => choice.sourcedId === childId) ?? choices[0];
  if (!child)
    return (
      <EmptyState icon={Users} title={t("family.noChildren.title")}>
        {t("family.noChildren.body")}
      </EmptyState>
    );
  return (
    <>
      {choices.length > 1 && (
        <ChildSwitcher
          choices={choices}
          selectedId={child.sourcedId}
          label={t("family.switcher")}
          linkOf={(id) => ({ to: "/app/athletics", search: { childId: id } })}
        />
      )}
      <h2 className="text-xl font-bold">{t("family.heading", { name: fullName(child) })}</h2>
      <StudentLog key={child.sourcedId} studentId={child.sourcedId} reader="family" />
    </>
  );
}

/** One student's week: progress toward the goal, the weeks before, the log form and the entries. */
function StudentLog({ studentId, reader }: { studentId: string; reader: Reader }) {
  const { t } = useTranslation("athletics");
  const [week, setWeek] = useState<string | undefined>(undefined);
  const answer = useQuery(athleticsWeekQuery(studentId, week));
  const isOwn = reader === "self";

  if (answer.isPending) return <Loading label={t("page.loading")} rows={4} />;
  if (answer.isError)
    return (
      <QueryError error={answer.error} fallback={t("page.loadFailed")} onRetry={() => answer.refetch()} />
    );
  const data = answer.data;
  const isThisWeek = data.week.start === weekStartOf(data.today);

  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Section
          title={isThisWeek ? t("week.thisWeek") : t("week.weekOf", { date: dateLabel(data.week.start) })}
          description={t("week.range", { start: dayLabel(data.week.start), end: dayLabel(data.week.end) })}
          actions={
            <WeekSwitch
              data={data}
              isThisWeek={isThisWeek}
              onChange={(start) => setWeek(start === weekStartOf(data.today) ? undefined : start)}
            />
          }
        >
          <WeekProgress data={data} reader={reader} isThisWeek={isThisWeek} />
        </Section>
        <Section
          title={t("history.title")}
          description={t("history.description", { goal: data.week.goalMinutes })}
        >
          <BarFigure
            bars={data.history.map((entry) => ({
              label: monthDayLabel(entry.weekStart),
              name: t("history.barName", { date: dateLabel(entry.weekStart) }),
              value: entry.minutes,
            }))}
            description={t("history.chart", { name: data.student.name })}
            valueLabel={t("history.minutes")}
            formatValue={(value) => t("minutes", { count: value })}
            minimumTop={data.week.goalMinutes}
            caption={t("history.caption", { goal: data.week.goalMinutes })}
          />
        </Section>
      </div>
      {data.canLog && (
        <LogForm data={data} isOwn={isOwn} onLogged={(date) => setWeek(thisOrOther(data, date))} />
      )}
      <Entries data={data} reader={reader} when={isThisWeek ? "this" : "past"} />
    </div>
  );
}

/** The week to show after logging a day: the day's own week, named by its start unless it is this week. */
function thisOrOther(data: AthleticsWeek, date: string): string | undefined {
  const start = weekStartOf(date);
  return start === weekStartOf(data.today) ? undefined : start;
}

function WeekSwitch({
  data,
  isThisWeek,
  onChange,
}: {
  data: AthleticsWeek;
  isThisWeek: boolean;
  onChange: (weekStart: string) => void;
}) {
  const { t } = useTranslation("athletics");
  const iconButton = buttonClass("secondary", "inline-flex items-center gap-1 px-3");
  return (
    <div className="flex gap-2">
      <button type="button" className={iconButton} onClick={() => onChange(addDays(data.week.start, -7))}>
        <ChevronLeft aria-hidden="true" className="size-4" />
        {t("week.earlier")}
      </button>
      <button
        type="button"
        className={iconButton}
        disabled={isThisWeek}
        onClick={() => onChange(addDays(data.week.start, 7))}
      >
        {t("week.later")}
        <ChevronRight aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

/** The week's minutes as a ring against the goal, said in a plain sentence beside it. */
function WeekProgress({
  data,
  reader,
  isThisWeek,
}: {
  data: AthleticsWeek;
  reader: Reader;
  isThisWeek: boolean;
}) {
  const { t } = useTranslation("athletics");
  const { minutes, goalMinutes } = data.week;
  const share = goalMinutes > 0 ? Math.min(1, minutes / goalMinutes) : 0;
  const isReached = minutes >= goalMinutes;
  const values = {
    reader,
    when: isThisWeek ? "this" : "past",
    name: data.student.name,
    minutes,
    goal: goalMinutes,
    left: Math.max(0, goalMinutes - minutes),
    percent: formatPercent(share),
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-5">
        <ProgressRing
          share={share}
          label={t("week.ringLabel")}
          value={Math.min(minutes, goalMinutes)}
          max={goalMinutes}
          valueText={t("week.ringValue", values)}
          strokeClass={
            isReached
              ? "stroke-emerald-600 dark:stroke-emerald-400"
              : "stroke-orange-500 dark:stroke-orange-400"
          }
        >
          <span className="text-2xl font-extrabold tabular-nums">{formatNumber(minutes)}</span>
          <span className="text-xs text-slate-600 dark:text-slate-300">
            {t("week.ofGoal", { goal: formatNumber(goalMinutes) })}
          </span>
        </ProgressRing>
        <div className="min-w-0 flex-1 space-y-1">
          <p className="text-lg font-semibold">{t("week.moved", values)}</p>
          <p className="text-slate-700 dark:text-slate-200">
            {isReached ? t("week.reached", values) : t("week.left", values)}
          </p>
        </div>
      </div>
      {reader === "family" && (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("week.goalExplained", values)}</p>
      )}
    </div>
  );
}

interface Draft {
  activity: string;
  minutes: string;
  date: string;
  note: string;
}

const FIELDS = new Set(["activity", "minutes", "date", "note"]);

/** The fields of an entry, shared by logging a new one and changing one. */
function EntryFields({
  draft,
  onChange,
  problems,
  data,
  isDateLocked = false,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  problems: FormProblems;
  data: AthleticsWeek;
  /** An entry older than the days one may log for keeps its day. */
  isDateLocked?: boolean;
}) {
  const { t } = useTranslation("athletics");
  const suggestionsId = useId();
  const set = (field: keyof Draft) => (event: { target: { value: string } }) =>
    onChange({ ...draft, [field]: event.target.value });
  const field = problems.fields;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <AdminField label={t("form.activity")} hint={t("form.activityHint")} error={field.activity}>
        {(control) => (
          <>
            <input
              {...control}
              list={suggestionsId}
              autoComplete="off"
              required
              maxLength={80}
              value={draft.activity}
              onChange={set("activity")}
              className={ADMIN_INPUT_CLASS}
            />
            <datalist id={suggestionsId}>
              {ACTIVITY_SUGGESTIONS.map((key) => (
                <option key={key} value={t(`suggestions.${key}`)} />
              ))}
            </datalist>
          </>
        )}
      </AdminField>
      <AdminField
        label={t("form.minutes")}
        hint={t("form.minutesHint", { max: MINUTES_BOUNDS.max })}
        error={field.minutes}
      >
        {(control) => (
          <input
            {...control}
            type="number"
            inputMode="numeric"
            min={MINUTES_BOUNDS.min}
            max={MINUTES_BOUNDS.max}
            step={1}
            required
            value={draft.minutes}
            onChange={set("minutes")}
            className={`${ADMIN_INPUT_CLASS} tabular-nums`}
          />
        )}
      </AdminField>
      <AdminField
        label={t("form.date")}
        hint={isDateLocked ? t("form.dateLocked") : t("form.dateHint")}
        error={field.date}
      >
        {(control) => (
          <input
            {...control}
            type="date"
            required
            disabled={isDateLocked}
            min={isDateLocked ? undefined : data.earliestDate}
            max={data.today}
            value={draft.date}
            onChange={set("date")}
            className={ADMIN_INPUT_CLASS}
          />
        )}
      </AdminField>
      <AdminField label={t("form.note")} hint={t("form.noteHint")} error={field.note}>
        {(control) => (
          <input
            {...control}
            maxLength={500}
            value={draft.note}
            onChange={set("note")}
            className={ADMIN_INPUT_CLASS}
          />
        )}
      </AdminField>
    </div>
  );
}

/** Problems the browser can tell before asking: the server checks again and says the rest. */
function checkDraft(draft: Draft, data: AthleticsWeek, t: TFunction<"athletics">) {
  const found: Record<string, string> = {};
  if (!draft.activity.trim()) found.activity = t("form.problems.activity");
  const minutes = Number(draft.minutes);
  if (!Number.isInteger(minutes) || minutes < MINUTES_BOUNDS.min || minutes > MINUTES_BOUNDS.max)
    found.minutes = t("form.problems.minutes", { max: MINUTES_BOUNDS.max });
  if (!draft.date || draft.date > data.today || draft.date < data.earliestDate)
    found.date = t("form.problems.date");
  return found;
}

function LogForm({
  data,
  isOwn,
  onLogged,
}: {
  data: AthleticsWeek;
  isOwn: boolean;
  onLogged: (date: string) => void;
}) {
  const { t } = useTranslation("athletics");
  const queryClient = useQueryClient();
  const empty: Draft = { activity: "", minutes: "", date: data.today, note: "" };
  const [draft, setDraft] = useState<Draft>(empty);
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);
  const [logged, setLogged] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isSaving) return;
    const found = checkDraft(draft, data, t);
    setProblems({ fields: found });
    setLogged(null);
    if (Object.keys(found).length > 0) return;
    setIsSaving(true);
    try {
      await logActivity({
        ...(!isOwn && { studentId: data.student.id }),
        activity: draft.activity,
        minutes: Number(draft.minutes),
        date: draft.date,
        note: draft.note,
      });
      setLogged(t("form.logged", { activity: draft.activity.trim(), minutes: Number(draft.minutes) }));
      setDraft(empty);
      onLogged(draft.date);
      await queryClient.invalidateQueries({ queryKey: athleticsKeys.all });
    } catch (error) {
      setProblems(problemsOf(error, t("form.failed"), (path) => (FIELDS.has(path) ? path : null)));
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Section
      title={isOwn ? t("form.titleSelf") : t("form.titleOther", { name: data.student.name })}
      description={t("form.description")}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <EntryFields draft={draft} onChange={setDraft} problems={problems} data={data} />
        <ProblemsAlert problems={problems} />
        {logged && (
          <div role="status">
            <SuccessNote>{logged}</SuccessNote>
          </div>
        )}
        <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
          {isSaving ? t("form.saving") : t("form.submit")}
        </button>
      </form>
    </Section>
  );
}

type Editing = { mode: "change" | "remove"; entry: AthleticEntry } | null;

function Entries({ data, reader, when }: { data: AthleticsWeek; reader: Reader; when: "this" | "past" }) {
  const { t } = useTranslation("athletics");
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: athleticsKeys.all });

  return (
    <Section
      title={t("entries.title", { when })}
      description={t("entries.description", { reader, when, name: data.student.name })}
    >
      {data.week.entries.length === 0 ? (
        <EmptyState icon={Footprints} title={t("entries.emptyTitle", { when })}>
          {t("entries.emptyBody", { reader, name: data.student.name })}
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {data.week.entries.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-semibold">
                  {entry.activity}
                  <span className="ml-2 font-normal text-slate-700 dark:text-slate-200">
                    {t("minutes", { count: entry.minutes })}
                  </span>
                </p>
                <p className="text-sm text-slate-600 dark:text-slate-300">
                  {dayLabel(entry.date)}
                  {entry.recordedBy.id !== data.student.id &&
                    ` · ${t("entries.loggedBy", { name: entry.recordedBy.name ?? t("entries.someone") })}`}
                  {entry.changedAt && ` · ${t("entries.changed")}`}
                </p>
                {entry.note && <p className="mt-1 text-sm">{entry.note}</p>}
              </div>
              {entry.canChange && (
                <div className="flex gap-2">
                  <button
                    type="button"
                    className={buttonClass("secondary")}
                    onClick={() => setEditing({ mode: "change", entry })}
                    aria-label={t("entries.changeLabel", {
                      activity: entry.activity,
                      date: dayLabel(entry.date),
                    })}
                  >
                    {t("entries.change")}
                  </button>
                  <button
                    type="button"
                    className={buttonClass("secondary")}
                    onClick={() => setEditing({ mode: "remove", entry })}
                    aria-label={t("entries.removeLabel", {
                      activity: entry.activity,
                      date: dayLabel(entry.date),
                    })}
                  >
                    {t("entries.remove")}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {editing?.mode === "change" && (
        <ChangeDialog entry={editing.entry} data={data} onClose={() => setEditing(null)} onDone={refresh} />
      )}
      {editing?.mode === "remove" && (
        <ConfirmDialog
          title={t("entries.removeTitle")}
          message={t("entries.removeMessage", {
            activity: editing.entry.activity,
            minutes: editing.entry.minutes,
            date: dayLabel(editing.entry.date),
          })}
          confirmLabel={t("entries.remove")}
          cancelLabel={t("entries.keep")}
          onConfirm={async () => {
            await removeActivity(editing.entry.id);
            await refresh();
          }}
          onClose={() => setEditing(null)}
        />
      )}
    </Section>
  );
}

function ChangeDialog({
  entry,
  data,
  onClose,
  onDone,
}: {
  entry: AthleticEntry;
  data: AthleticsWeek;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const { t } = useTranslation("athletics");
  const [draft, setDraft] = useState<Draft>({
    activity: entry.activity,
    minutes: String(entry.minutes),
    date: entry.date,
    note: entry.note ?? "",
  });
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);
  const keepsDate = entry.date < data.earliestDate;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isSaving) return;
    const found = checkDraft(keepsDate ? { ...draft, date: data.today } : draft, data, t);
    setProblems({ fields: found });
    if (Object.keys(found).length > 0) return;
    setIsSaving(true);
    try {
      await changeActivity(entry.id, {
        activity: draft.activity,
        minutes: Number(draft.minutes),
        ...(!keepsDate && { date: draft.date }),
        note: draft.note,
      });
      await onDone();
      onClose();
    } catch (error) {
      setProblems(problemsOf(error, t("form.failed"), (path) => (FIELDS.has(path) ? path : null)));
      setIsSaving(false);
    }
  }

  return (
    <Dialog title={t("entries.changeTitle")} onClose={onClose}>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <EntryFields
          draft={draft}
          onChange={setDraft}
          problems={problems}
          data={data}
          isDateLocked={keepsDate}
        />
        <ProblemsAlert problems={problems} />
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("entries.cancel")}
          </button>
          <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
            {isSaving ? t("form.saving") : t("entries.save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Administrators set the weekly goal every student's week is measured against. */
function GoalSettings() {
  const { t } = useTranslation("athletics");
  const queryClient = useQueryClient();
  const settings = useQuery(athleticsSettingsQuery);
  const [goal, setGoal] = useState<string | null>(null);
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [saved, setSaved] = useState(false);
  const [isSaving, setIsSaving] = useState(false);

  if (settings.isPending) return <Loading label={t("settings.loading")} rows={1} />;
  if (settings.isError) return <QueryError error={settings.error} fallback={t("settings.loadFailed")} />;
  const shown = goal ?? String(settings.data.weeklyGoalMinutes);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const minutes = Number(shown);
    if (!Number.isInteger(minutes) || minutes < WEEKLY_GOAL_BOUNDS.min || minutes > WEEKLY_GOAL_BOUNDS.max) {
      setProblems({ fields: { weeklyGoalMinutes: t("settings.problem", WEEKLY_GOAL_BOUNDS) } });
      return;
    }
    setIsSaving(true);
    setSaved(false);
    try {
      await saveAthleticsSettings({ weeklyGoalMinutes: minutes });
      setProblems({ fields: {} });
      setGoal(null);
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: athleticsKeys.all });
    } catch (error) {
      setProblems(problemsOf(error, t("form.failed")));
    } finally {
      setIsSaving(false);
    }
  }

  const { changedAt, changedBy } = settings.data;
  return (
    <Section title={t("settings.title")} description={t("settings.description")}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <AdminField
          label={t("settings.goal")}
          hint={
            changedAt
              ? t("settings.changed", {
                  name: changedBy ?? t("entries.someone"),
                  date: dateLabel(changedAt.slice(0, 10)),
                })
              : t("settings.default")
          }
          error={problems.fields.weeklyGoalMinutes}
          className="max-w-xs"
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={WEEKLY_GOAL_BOUNDS.min}
              max={WEEKLY_GOAL_BOUNDS.max}
              step={1}
              value={shown}
              onChange={(event) => setGoal(event.target.value)}
              className={`${ADMIN_INPUT_CLASS} tabular-nums`}
            />
          )}
        </AdminField>
        <ProblemsAlert problems={problems} />
        {saved && (
          <div role="status">
            <SuccessNote>{t("settings.saved")}</SuccessNote>
          </div>
        )}
        <button type="submit" disabled={isSaving} className={buttonClass("primary")}>
          {isSaving ? t("form.saving") : t("settings.save")}
        </button>
      </form>
    </Section>
  );
}
