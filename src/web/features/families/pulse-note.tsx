import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PulseNote } from "../../../shared/contracts/families";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { dateLabel, instantLabel } from "../../lib/format";
import { Loading, QueryError, Section } from "../home/parts";
import { DoneNote } from "../rewards/store-done-note";
import { pulseKeys, pulseQuery, savePulseNote } from "./pulse-api";

const NOTE_MAX = 1000;

/** The Guide's note of a week, as the family reads it. */
export function PulseNoteText({ note }: { note: PulseNote | null }) {
  const { t } = useTranslation("families");
  if (!note) return <p className="text-sm text-slate-600 dark:text-slate-300">{t("pulse.note.none")}</p>;
  return (
    <figure>
      <blockquote className="border-l-4 border-brand-600 pl-4 text-base whitespace-pre-line dark:border-brand-500">
        {note.text}
      </blockquote>
      <figcaption className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        {note.authorName
          ? t("pulse.note.by", { author: note.authorName, date: instantLabel(note.updatedAt) })
          : t("pulse.note.at", { date: instantLabel(note.updatedAt) })}
      </figcaption>
    </figure>
  );
}

/** A Guide writes or rewrites the week's note for the child's family, in plain text. */
export function PulseNoteForm({
  childId,
  childName,
  week,
  note,
}: {
  childId: string;
  childName: string;
  week: string;
  note: PulseNote | null;
}) {
  const { t } = useTranslation("families");
  const queryClient = useQueryClient();
  const [text, setText] = useState(note?.text ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { field: useId(), hint: useId(), problem: useId() };
  const save = useMutation({
    mutationFn: savePulseNote,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pulseKeys.all }),
    onError: (error) => setProblem(failureMessage(error, t("pulse.note.failed"))),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setProblem(null);
    save.reset();
    if (text.trim().length < 3) return setProblem(t("pulse.note.tooShort"));
    save.mutate({ childId, week, note: text });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <div>
        <label htmlFor={ids.field} className="text-sm font-medium">
          {t("pulse.note.label", { name: childName, week: dateLabel(week) })}
        </label>
        <textarea
          id={ids.field}
          rows={4}
          maxLength={NOTE_MAX}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-describedby={problem ? `${ids.hint} ${ids.problem}` : ids.hint}
          aria-invalid={problem ? true : undefined}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950"
        />
        <p id={ids.hint} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {t("pulse.note.hint", { count: NOTE_MAX - text.length })}
        </p>
      </div>
      {problem && (
        <p id={ids.problem} role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
      <div role="status">
        {save.isSuccess && <DoneNote>{t("pulse.note.saved", { name: childName })}</DoneNote>}
      </div>
      <button type="submit" disabled={save.isPending} className={buttonClass("primary", "w-full sm:w-auto")}>
        {save.isPending ? t("pulse.note.saving") : t("pulse.note.save")}
      </button>
    </form>
  );
}

/**
 * Where a Guide writes a student's weekly note: this week's or an earlier week's, with the note
 * the family already has. Shown on the Guide's view of the student.
 */
export function GuideWeeklyNote({ studentId }: { studentId: string }) {
  const { t } = useTranslation("families");
  const [week, setWeek] = useState<string | undefined>(undefined);
  const pulse = useQuery(pulseQuery(studentId, week));
  const weekId = useId();
  return (
    <Section title={t("pulse.note.guideTitle")} description={t("pulse.note.guideDescription")}>
      {pulse.isPending ? (
        <Loading label={t("pulse.loading")} rows={2} />
      ) : pulse.isError ? (
        <QueryError error={pulse.error} fallback={t("pulse.loadFailed")} onRetry={() => pulse.refetch()} />
      ) : (
        <div className="space-y-4">
          <div className="max-w-xs">
            <label htmlFor={weekId} className="text-sm font-medium">
              {t("pulse.chooseWeek")}
            </label>
            <select
              id={weekId}
              value={pulse.data.week}
              onChange={(event) => setWeek(event.target.value)}
              className="mt-1 block h-[2.875rem] w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 dark:border-slate-700 dark:bg-slate-950"
            >
              {pulse.data.weeks.map((option) => (
                <option key={option} value={option}>
                  {t("pulse.weekOption", { start: dateLabel(option) })}
                </option>
              ))}
            </select>
          </div>
          {pulse.data.canWriteNote ? (
            <PulseNoteForm
              key={pulse.data.week}
              childId={studentId}
              childName={pulse.data.child.givenName}
              week={pulse.data.week}
              note={pulse.data.note}
            />
          ) : (
            <PulseNoteText note={pulse.data.note} />
          )}
        </div>
      )}
    </Section>
  );
}
