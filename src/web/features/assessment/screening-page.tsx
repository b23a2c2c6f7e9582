import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { ClipboardList, Plus } from "lucide-react";
import { type FormEvent, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  DASH_SUBJECTS,
  SCREENING_DECISIONS,
  type ScreeningDecision,
  type ScreeningResult,
} from "../../../shared/contracts/assessment";
import { localDateOf, SCHOOL_TIME_ZONE } from "../../../shared/time-zone";
import { BarFigure } from "../../components/charts/bar-figure";
import { PageHeader } from "../../components/page-header";
import { Dialog, failureMessage } from "../../components/ui/dialog";
import { DownloadLink } from "../../components/ui/download-link";
import { buttonClass, SelectField, TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { dateLabel } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { SuccessNote } from "../rewards/admin-form";
import { type PickedStudent, StudentPicker } from "../xp/student-picker";
import {
  addScreeningResult,
  changeScreeningResult,
  type ScreeningFilters,
  screeningCsvUrl,
  screeningQuery,
} from "./placements-api";
import { CsvImportPanel } from "./placements-import";
import { DateRangeFields, DialogButtons, FormProblem, gradeName, gradeOptions } from "./placements-parts";

const PAGE_SIZE = 50;

/** /app/admin/screening: admissions screening results, their decisions and links to rostered students. */
export function ScreeningPage() {
  const { t } = useTranslation("assessment");
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<ScreeningFilters>({});
  const [searchText, setSearchText] = useState("");
  const search = useDeferredValue(searchText.trim());
  const [page, setPage] = useState(0);
  const [isAdding, setIsAdding] = useState(false);
  const [linking, setLinking] = useState<ScreeningResult | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const applied = { ...filters, search: search || undefined };
  const list = useQuery({ ...screeningQuery(applied, page, PAGE_SIZE), placeholderData: keepPreviousData });
  const change = (next: Partial<ScreeningFilters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage(0);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["screening"] });

  async function decide(result: ScreeningResult, decision: ScreeningDecision) {
    setNotice(null);
    setProblem(null);
    try {
      await changeScreeningResult(result.id, { decision });
      await refresh();
      setNotice(
        t("screening.decided", {
          name: result.applicantName,
          decision: t(`screening.decisions.${decision}`),
        }),
      );
    } catch (error) {
      setProblem(failureMessage(error, t("placements.form.failed")));
    }
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/screening.title")}
        description={t("screening.description")}
        actions={
          <div className="flex flex-wrap gap-2">
            <DownloadLink href={screeningCsvUrl(applied)}>{t("screening.download")}</DownloadLink>
            <button
              type="button"
              className={buttonClass("primary", "inline-flex items-center gap-2")}
              onClick={() => {
                setNotice(null);
                setIsAdding(true);
              }}
            >
              <Plus aria-hidden="true" className="size-4" />
              {t("screening.add")}
            </button>
          </div>
        }
      />
      <Section title={t("placements.table.filters")}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <TextField
            label={t("screening.search")}
            type="search"
            value={searchText}
            maxLength={200}
            onChange={(event) => {
              setSearchText(event.target.value);
              setPage(0);
            }}
          />
          <SelectField
            label={t("placements.table.subject")}
            value={filters.subject ?? ""}
            onChange={(event) => change({ subject: event.target.value || undefined })}
            options={[
              { value: "", label: t("placements.table.allSubjects") },
              ...(list.data?.subjects ?? DASH_SUBJECTS).map((subject) => ({
                value: subject,
                label: subject,
              })),
            ]}
          />
          <SelectField
            label={t("screening.decision")}
            value={filters.decision ?? ""}
            onChange={(event) => change({ decision: event.target.value || undefined })}
            options={[
              { value: "", label: t("screening.allDecisions") },
              ...SCREENING_DECISIONS.map((decision) => ({
                value: decision,
                label: t(`screening.decisions.${decision}`),
              })),
            ]}
          />
          <DateRangeFields from={filters.from} to={filters.to} onChange={change} />
        </div>
      </Section>

      {list.data && Object.values(list.data.decisions).some((count) => count > 0) && (
        <Section title={t("screening.chartTitle")}>
          <BarFigure
            bars={SCREENING_DECISIONS.map((decision) => ({
              label: t(`screening.decisions.${decision}`),
              name: t(`screening.decisions.${decision}`),
              value: list.data.decisions[decision],
            }))}
            description={t("screening.chartDescription")}
            valueLabel={t("screening.results")}
            minimumTop={4}
            caption={t("screening.chartCaption")}
          />
        </Section>
      )}

      <Section
        title={t("screening.tableTitle")}
        description={list.data ? t("screening.count", { count: list.data.total }) : undefined}
      >
        <div role="status">{notice && <SuccessNote className="mb-4">{notice}</SuccessNote>}</div>
        <FormProblem text={problem} />
        {list.isPending ? (
          <Loading label={t("screening.loading")} rows={5} />
        ) : list.isError ? (
          <QueryError
            error={list.error}
            fallback={t("screening.loadFailed")}
            onRetry={() => list.refetch()}
          />
        ) : list.data.results.length === 0 ? (
          <EmptyState icon={ClipboardList} title={t("screening.emptyTitle")}>
            {t("screening.emptyBody")}
          </EmptyState>
        ) : (
          <>
            <TableRegion label={t("screening.tableTitle")}>
              <table className="w-full min-w-[52rem] text-left text-sm">
                <caption className="sr-only">{t("screening.tableTitle")}</caption>
                <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
                  <tr>
                    {["applicant", "test", "rit", "date", "decision", "student"].map((column) => (
                      <th key={column} scope="col" className="px-3 py-2 font-semibold">
                        {t(`screening.columns.${column}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {list.data.results.map((result) => (
                    <tr key={result.id} className="align-top">
                      <th scope="row" className="px-3 py-2.5 text-left font-normal">
                        <span className="block font-semibold">{result.applicantName}</span>
                        {result.notes && (
                          <span className="block max-w-xs text-xs text-slate-600 dark:text-slate-300">
                            {result.notes}
                          </span>
                        )}
                      </th>
                      <td className="px-3 py-2.5">
                        <span className="block">{result.testName}</span>
                        <span className="block text-xs text-slate-600 dark:text-slate-300">
                          {result.subject} · {gradeName(result.grade)}
                        </span>
                      </td>
                      <td className="px-3 py-2.5 tabular-nums">{result.rit ?? "—"}</td>
                      <td className="px-3 py-2.5 whitespace-nowrap">{dateLabel(result.testedOn)}</td>
                      <td className="px-3 py-2.5">
                        <label className="sr-only" htmlFor={`decision-${result.id}`}>
                          {t("screening.decisionFor", { name: result.applicantName })}
                        </label>
                        <select
                          id={`decision-${result.id}`}
                          value={result.decision}
                          onChange={(event) => void decide(result, event.target.value as ScreeningDecision)}
                          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
                        >
                          {SCREENING_DECISIONS.map((decision) => (
                            <option key={decision} value={decision}>
                              {t(`screening.decisions.${decision}`)}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td className="px-3 py-2.5">
                        {result.student && <span className="mb-1 block">{result.student.name}</span>}
                        <button
                          type="button"
                          className={buttonClass("secondary", "px-3 py-1.5 whitespace-nowrap")}
                          aria-label={t("screening.linkFor", { name: result.applicantName })}
                          onClick={() => {
                            setNotice(null);
                            setLinking(result);
                          }}
                        >
                          {result.student ? t("screening.changeLink") : t("screening.link")}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
            <Pager
              offset={page * PAGE_SIZE}
              limit={PAGE_SIZE}
              total={list.data.total}
              onChange={(offset) => setPage(offset / PAGE_SIZE)}
              label={t("screening.pagerLabel")}
            />
          </>
        )}
      </Section>

      <CsvImportPanel
        kind="screening"
        title={t("screening.importTitle")}
        columns={t("screening.importColumns")}
        refresh={[["screening"]]}
      />
      {isAdding && (
        <AddDialog
          subjects={list.data?.subjects ?? [...DASH_SUBJECTS]}
          onClose={() => setIsAdding(false)}
          onDone={async (text) => {
            await refresh();
            setNotice(text);
          }}
        />
      )}
      {linking && (
        <LinkDialog
          result={linking}
          onClose={() => setLinking(null)}
          onDone={async (text) => {
            await refresh();
            setNotice(text);
          }}
        />
      )}
    </div>
  );
}

function AddDialog({
  subjects,
  onClose,
  onDone,
}: {
  subjects: readonly string[];
  onClose: () => void;
  onDone: (text: string) => Promise<void>;
}) {
  const { t } = useTranslation("assessment");
  const today = localDateOf(new Date(), SCHOOL_TIME_ZONE);
  const [form, setForm] = useState({
    applicantName: "",
    subject: subjects[0] ?? "Math",
    grade: "",
    rit: "",
    testName: "",
    testedOn: today,
    decision: "pending" as ScreeningDecision,
    notes: "",
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (form.grade === "") return setProblem(t("placements.form.gradeNeeded"));
    setIsBusy(true);
    setProblem(null);
    try {
      await addScreeningResult({
        applicantName: form.applicantName.trim(),
        subject: form.subject,
        grade: Number(form.grade),
        rit: form.rit.trim() === "" ? null : Number(form.rit),
        testName: form.testName.trim(),
        testedOn: form.testedOn,
        decision: form.decision,
        notes: form.notes.trim() || null,
      });
      await onDone(t("screening.added", { name: form.applicantName.trim() }));
      onClose();
    } catch (error) {
      setProblem(failureMessage(error, t("placements.form.failed")));
      setIsBusy(false);
    }
  }

  return (
    <Dialog title={t("screening.addTitle")} onClose={onClose}>
      <form onSubmit={submit} className="mt-4 space-y-4">
        <TextField
          label={t("screening.applicantName")}
          value={form.applicantName}
          required
          maxLength={200}
          onChange={set("applicantName")}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t("placements.form.subject")}
            value={form.subject}
            onChange={set("subject")}
            options={subjects.map((subject) => ({ value: subject, label: subject }))}
          />
          <SelectField
            label={t("screening.grade")}
            value={form.grade}
            required
            onChange={set("grade")}
            options={[{ value: "", label: t("placements.form.chooseGrade") }, ...gradeOptions()]}
          />
          <TextField
            label={t("screening.testName")}
            value={form.testName}
            required
            maxLength={120}
            onChange={set("testName")}
          />
          <TextField
            label={t("screening.rit")}
            type="number"
            min={100}
            max={350}
            step={1}
            value={form.rit}
            onChange={set("rit")}
          />
          <TextField
            label={t("screening.testedOn")}
            type="date"
            required
            max={today}
            value={form.testedOn}
            onChange={set("testedOn")}
          />
          <SelectField
            label={t("screening.decision")}
            value={form.decision}
            onChange={set("decision")}
            options={SCREENING_DECISIONS.map((decision) => ({
              value: decision,
              label: t(`screening.decisions.${decision}`),
            }))}
          />
        </div>
        <TextField label={t("screening.notes")} value={form.notes} maxLength={2000} onChange={set("notes")} />
        <FormProblem text={problem} />
        <DialogButtons onClose={onClose} isBusy={isBusy} label={t("screening.save")} />
      </form>
    </Dialog>
  );
}

/** Ties an applicant's result to the rostered student they became, or undoes that. */
function LinkDialog({
  result,
  onClose,
  onDone,
}: {
  result: ScreeningResult;
  onClose: () => void;
  onDone: (text: string) => Promise<void>;
}) {
  const { t } = useTranslation("assessment");
  const [student, setStudent] = useState<PickedStudent | null>(
    result.student ? { sourcedId: result.student.id, name: result.student.name } : null,
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function save(studentId: string | null, text: string) {
    setIsBusy(true);
    setProblem(null);
    try {
      await changeScreeningResult(result.id, { studentId });
      await onDone(text);
      onClose();
    } catch (error) {
      setProblem(failureMessage(error, t("placements.form.failed")));
      setIsBusy(false);
    }
  }

  return (
    <Dialog
      title={t("screening.linkTitle", { name: result.applicantName })}
      description={t("screening.linkDescription")}
      onClose={onClose}
    >
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!student) return setProblem(t("screening.chooseStudent"));
          void save(
            student.sourcedId,
            t("screening.linked", { name: result.applicantName, student: student.name }),
          );
        }}
      >
        <StudentPicker selected={student} onSelect={setStudent} wide />
        {result.student && (
          <button
            type="button"
            disabled={isBusy}
            className={buttonClass("danger")}
            onClick={() => void save(null, t("screening.unlinked", { name: result.applicantName }))}
          >
            {t("screening.unlink")}
          </button>
        )}
        <FormProblem text={problem} />
        <DialogButtons onClose={onClose} isBusy={isBusy} label={t("screening.saveLink")} />
      </form>
    </Dialog>
  );
}
