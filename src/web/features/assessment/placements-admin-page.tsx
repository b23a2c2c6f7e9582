import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { DASH_SUBJECTS, MAX_BULK_PLACEMENT_STUDENTS } from "../../../shared/contracts/assessment";
import { PageHeader } from "../../components/page-header";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { buttonClass, SelectField } from "../../components/ui/form";
import { bulkSetPlacementLevel, placementKeys } from "./placements-api";
import { CsvImportPanel } from "./placements-import";
import { DialogButtons, FormProblem, gradeName, gradeOptions, ReasonField } from "./placements-parts";
import { PlacementTable } from "./placements-table";

/** /app/admin/placements: every student's placements, a bulk change of the chosen, CSV export and import. */
export function AdminPlacementsPage() {
  const { t } = useTranslation("assessment");
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/placements.title")}
        description={t("placements.adminPage.description")}
      />
      <PlacementTable isAdmin bulkAction={(chosen, clear) => <BulkBar chosen={chosen} clear={clear} />} />
      <CsvImportPanel
        kind="placements"
        title={t("placements.adminPage.importTitle")}
        columns={t("placements.adminPage.importColumns")}
        refresh={[[...placementKeys.all]]}
      />
    </div>
  );
}

/** What is chosen, with the bulk change and a way to clear the choice. */
function BulkBar({ chosen, clear }: { chosen: Map<string, string>; clear: () => void }) {
  const { t } = useTranslation("assessment");
  const [isOpen, setIsOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3 rounded-xl bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
      <p className="text-sm" aria-live="polite">
        {notice ?? t("placements.bulk.chosen", { count: chosen.size })}
      </p>
      <button
        type="button"
        className={buttonClass("primary", "px-3 py-1.5")}
        disabled={chosen.size === 0 || chosen.size > MAX_BULK_PLACEMENT_STUDENTS}
        onClick={() => {
          setNotice(null);
          setIsOpen(true);
        }}
      >
        {t("placements.bulk.open")}
      </button>
      {chosen.size > 0 && (
        <button type="button" className={buttonClass("secondary", "px-3 py-1.5")} onClick={clear}>
          {t("placements.bulk.clear")}
        </button>
      )}
      {isOpen && (
        <BulkDialog
          chosen={chosen}
          onClose={() => setIsOpen(false)}
          onDone={(text) => {
            setNotice(text);
            clear();
          }}
        />
      )}
    </div>
  );
}

function BulkDialog({
  chosen,
  onClose,
  onDone,
}: {
  chosen: Map<string, string>;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState<string>(DASH_SUBJECTS[0]);
  const [grade, setGrade] = useState("");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const names = [...chosen.values()];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (grade === "") return setProblem(t("placements.form.gradeNeeded"));
    if (!reason.trim()) return setProblem(t("placements.form.reasonNeeded"));
    setIsBusy(true);
    setProblem(null);
    try {
      const result = await bulkSetPlacementLevel({
        studentIds: [...chosen.keys()],
        subject,
        grade: Number(grade),
        reason: reason.trim(),
      });
      await queryClient.invalidateQueries({ queryKey: placementKeys.all });
      onDone(t("placements.bulk.done", { ...result, subject, grade: gradeName(Number(grade)) }));
      onClose();
    } catch (error) {
      setProblem(failureMessage(error, t("placements.form.failed")));
      setIsBusy(false);
    }
  }

  return (
    <Dialog
      title={t("placements.bulk.title", { count: chosen.size })}
      description={
        names.length <= 5
          ? names.join(", ")
          : t("placements.bulk.someNames", { names: names.slice(0, 5).join(", "), more: names.length - 5 })
      }
      onClose={onClose}
    >
      <form onSubmit={submit} className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t("placements.form.subject")}
            value={subject}
            onChange={(event) => setSubject(event.target.value)}
            options={DASH_SUBJECTS.map((name) => ({ value: name, label: name }))}
          />
          <SelectField
            label={t("placements.form.newLevel")}
            value={grade}
            aria-required="true"
            onChange={(event) => setGrade(event.target.value)}
            options={[{ value: "", label: t("placements.form.chooseGrade") }, ...gradeOptions()]}
          />
        </div>
        <ReasonField value={reason} onChange={setReason} />
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("placements.bulk.allOrNothing")}</p>
        <FormProblem text={problem} />
        <DialogButtons
          onClose={onClose}
          isBusy={isBusy}
          label={t("placements.bulk.save", { count: chosen.size })}
        />
      </form>
    </Dialog>
  );
}
