import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Mail, Trash2, X } from "lucide-react";
import { type FormEvent, useDeferredValue, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AdminReportId,
  MAX_SCHEDULE_RECIPIENTS,
  REPORT_FREQUENCIES,
  type ReportFrequency,
  type ReportSchedule,
  type ReportSearch,
  type SchedulePerson,
} from "../../../shared/contracts/reports";
import { ConfirmDialog, Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, TextField } from "../../components/ui/form";
import { instantLabel } from "../../lib/format";
import { Loading, QueryError, Section } from "../home/parts";
import { reportQuery } from "./api";
import {
  createSchedule,
  deleteSchedule,
  reportSchedulesQuery,
  scheduleFiltersOf,
  scheduleKeys,
  staffQuery,
} from "./schedules-api";

/**
 * An administrator report's emailed copies: the button that schedules this report (with the
 * filters on screen) for staff, and the schedules it has, each with a way to stop it.
 */
export function ReportSchedules({
  reportId,
  search,
}: {
  reportId: AdminReportId;
  search: Partial<ReportSearch>;
}) {
  const { t } = useTranslation("reports");
  const schedules = useQuery(reportSchedulesQuery(reportId));
  const queryClient = useQueryClient();
  const [isCreating, setIsCreating] = useState(false);
  const [removing, setRemoving] = useState<ReportSchedule | null>(null);

  return (
    <Section
      title={t("schedules.title")}
      description={t("schedules.description")}
      actions={
        <button
          type="button"
          onClick={() => setIsCreating(true)}
          className={buttonClass("primary", "inline-flex items-center gap-2")}
        >
          <Mail aria-hidden="true" className="size-4" />
          {t("schedules.email")}
        </button>
      }
    >
      {schedules.isPending ? (
        <Loading label={t("schedules.loading")} rows={2} />
      ) : schedules.isError ? (
        <QueryError
          error={schedules.error}
          fallback={t("schedules.failed")}
          onRetry={() => schedules.refetch()}
        />
      ) : schedules.data.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("schedules.none")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {schedules.data.map((schedule) => (
            <ScheduleItem key={schedule.id} schedule={schedule} onRemove={() => setRemoving(schedule)} />
          ))}
        </ul>
      )}
      {isCreating && (
        <ScheduleDialog reportId={reportId} search={search} onClose={() => setIsCreating(false)} />
      )}
      {removing && (
        <ConfirmDialog
          title={t("schedules.removeTitle")}
          message={t("schedules.removeMessage", {
            frequency: t(`schedules.frequencies.${removing.frequency}`),
            count: removing.recipients.length,
          })}
          confirmLabel={t("schedules.remove")}
          onConfirm={async () => {
            await deleteSchedule(removing.id);
            await queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </Section>
  );
}

function ScheduleItem({ schedule, onRemove }: { schedule: ReportSchedule; onRemove: () => void }) {
  const { t } = useTranslation("reports");
  const names = schedule.recipients.map((person) => person.name).join(", ");
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3 first:pt-0 last:pb-0">
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-semibold">{t(`schedules.frequencies.${schedule.frequency}`)}</p>
        <p className="break-words">{t("schedules.to", { names })}</p>
        <p className="text-slate-600 dark:text-slate-300">
          {schedule.applied.length
            ? schedule.applied.map((filter) => `${filter.label}: ${filter.value}`).join(" · ")
            : t("schedules.noFilters")}
        </p>
        <p className="text-slate-600 dark:text-slate-300">
          {schedule.lastSentAt
            ? t("schedules.lastSent", { when: instantLabel(schedule.lastSentAt) })
            : t("schedules.notSentYet")}
        </p>
      </div>
      <button
        type="button"
        onClick={onRemove}
        aria-label={t("schedules.removeLabel", {
          frequency: t(`schedules.frequencies.${schedule.frequency}`),
          names,
        })}
        className={buttonClass("secondary", "inline-flex items-center gap-2")}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        {t("schedules.remove")}
      </button>
    </li>
  );
}

/** Choose how often and to whom: the filters are those of the page, shown in words. */
function ScheduleDialog({
  reportId,
  search,
  onClose,
}: {
  reportId: AdminReportId;
  search: Partial<ReportSearch>;
  onClose: () => void;
}) {
  const { t } = useTranslation("reports");
  const queryClient = useQueryClient();
  const report = useQuery(reportQuery(reportId, search));
  const [frequency, setFrequency] = useState<ReportFrequency>("weekly");
  const [typed, setTyped] = useState("");
  const q = useDeferredValue(typed.trim());
  const staff = useQuery(staffQuery(q));
  const [chosen, setChosen] = useState<SchedulePerson[]>([]);
  const frequencyId = useId();
  const resultsId = useId();
  const save = useMutation({
    mutationFn: () =>
      createSchedule({
        reportId,
        filters: scheduleFiltersOf(search),
        frequency,
        recipientIds: chosen.map((person) => person.id),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
      onClose();
    },
  });
  const isFull = chosen.length >= MAX_SCHEDULE_RECIPIENTS;
  const toggle = (person: SchedulePerson) =>
    setChosen((current) =>
      current.some((other) => other.id === person.id)
        ? current.filter((other) => other.id !== person.id)
        : [...current, { id: person.id, name: person.name }],
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length > 0) save.mutate();
  };
  const applied = report.data?.applied ?? [];

  return (
    <Dialog
      title={t("schedules.dialogTitle")}
      description={t("schedules.dialogDescription")}
      onClose={onClose}
    >
      <form onSubmit={submit} className="mt-4 space-y-5">
        <div>
          <h3 className="text-sm font-semibold">{t("schedules.filters")}</h3>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-200">
            {applied.length
              ? applied.map((filter) => `${filter.label}: ${filter.value}`).join(" · ")
              : t("schedules.noFilters")}
          </p>
        </div>
        <fieldset aria-describedby={frequencyId}>
          <legend className="text-sm font-semibold">{t("schedules.frequency")}</legend>
          <p id={frequencyId} className="text-xs text-slate-600 dark:text-slate-300">
            {t("schedules.frequencyHint")}
          </p>
          <div className="mt-2 flex flex-wrap gap-4">
            {REPORT_FREQUENCIES.map((value) => (
              <label key={value} className="inline-flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="frequency"
                  value={value}
                  checked={frequency === value}
                  onChange={() => setFrequency(value)}
                  className="size-4"
                />
                {t(`schedules.frequencies.${value}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <TextField
            label={t("schedules.findStaff")}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={t("schedules.findStaffPlaceholder")}
            aria-controls={resultsId}
            autoComplete="off"
          />
          <div
            id={resultsId}
            className="mt-2 max-h-48 overflow-auto rounded-lg border border-slate-200 dark:border-slate-700"
          >
            {staff.isPending ? (
              <div className="p-2">
                <Loading label={t("schedules.searching")} rows={2} />
              </div>
            ) : staff.isError ? (
              <QueryError error={staff.error} fallback={t("schedules.staffFailed")} />
            ) : staff.data.length === 0 ? (
              <p className="p-3 text-sm text-slate-600 dark:text-slate-300">{t("schedules.noStaff")}</p>
            ) : (
              <ul aria-label={t("schedules.staffResults")}>
                {staff.data.map((person) => {
                  const isChosen = chosen.some((other) => other.id === person.id);
                  return (
                    <li
                      key={person.id}
                      className="border-b border-slate-100 last:border-0 dark:border-slate-800"
                    >
                      <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50 dark:hover:bg-slate-800">
                        <input
                          type="checkbox"
                          checked={isChosen}
                          disabled={!isChosen && isFull}
                          onChange={() => toggle(person)}
                          className="size-4"
                        />
                        <span className="min-w-0 flex-1">
                          <span className="block font-medium">{person.name}</span>
                          <span className="block text-xs text-slate-600 dark:text-slate-300">
                            {t(`schedules.roles.${person.role}`)}
                            {person.email ? ` · ${person.email}` : ""}
                          </span>
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </div>
        <div>
          <h3 className="text-sm font-semibold">
            {t("schedules.recipients", { count: chosen.length, max: MAX_SCHEDULE_RECIPIENTS })}
          </h3>
          {chosen.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("schedules.chooseSomeone")}</p>
          ) : (
            <ul className="mt-2 flex flex-wrap gap-2">
              {chosen.map((person) => (
                <li key={person.id}>
                  <button
                    type="button"
                    onClick={() => toggle(person)}
                    aria-label={t("schedules.removeRecipient", { name: person.name })}
                    className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-sm hover:bg-slate-200 dark:bg-slate-800 dark:hover:bg-slate-700"
                  >
                    {person.name}
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <p className="text-xs text-slate-600 dark:text-slate-300">{t("schedules.guideNote")}</p>
        {save.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {failureMessage(save.error, t("schedules.saveFailed"))}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("schedules.cancel")}
          </button>
          <button
            type="submit"
            disabled={chosen.length === 0 || save.isPending}
            className={buttonClass("primary")}
          >
            {save.isPending ? t("schedules.saving") : t("schedules.save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
