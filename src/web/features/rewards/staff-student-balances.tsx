import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Check, Users } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import type { StudentBalance } from "../../../shared/contracts/rewards";
import { TextField } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { TableRegion } from "../../components/ui/table-region";
import { formatNumber } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { studentBalancesQuery } from "./api";

const PAGE_SIZE = 20;

export interface ChosenStudent {
  studentId: string;
  name: string;
}

/** The caller's students with their Alphas, found by name, a page at a time; each can be chosen. */
export function StaffStudentBalances({
  chosenId,
  onChoose,
}: {
  chosenId: string | undefined;
  onChoose: (student: ChosenStudent) => void;
}) {
  const { t } = useTranslation("rewards");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const deferredSearch = useDeferredValue(search.trim());
  const students = useQuery({
    ...studentBalancesQuery(deferredSearch, offset, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="space-y-3">
      <TextField
        label={t("awards.students.search")}
        type="search"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setOffset(0);
        }}
        placeholder={t("awards.students.searchPlaceholder")}
        className="sm:max-w-sm"
      />
      {students.isPending ? (
        <Loading label={t("awards.students.loading")} />
      ) : students.isError ? (
        <QueryError
          error={students.error}
          fallback={t("awards.students.loadFailed")}
          onRetry={() => students.refetch()}
        />
      ) : students.data.total === 0 ? (
        <EmptyState
          icon={Users}
          title={deferredSearch ? t("awards.students.noMatch.title") : t("awards.students.none.title")}
        >
          {deferredSearch ? t("awards.students.noMatch.body") : t("awards.students.none.body")}
        </EmptyState>
      ) : (
        <>
          <BalancesTable students={students.data.data} chosenId={chosenId} onChoose={onChoose} />
          <Pager
            offset={offset}
            limit={PAGE_SIZE}
            total={students.data.total}
            onChange={setOffset}
            label={t("awards.students.pagerLabel")}
          />
        </>
      )}
    </div>
  );
}

function BalancesTable({
  students,
  chosenId,
  onChoose,
}: {
  students: StudentBalance[];
  chosenId: string | undefined;
  onChoose: (student: ChosenStudent) => void;
}) {
  const { t } = useTranslation("rewards");
  const figures = [
    { key: "available", label: t("account.available") },
    { key: "held", label: t("account.held") },
    { key: "savings", label: t("account.savings") },
    { key: "pending", label: t("awards.students.pending") },
    { key: "approved", label: t("awards.students.approved") },
  ] as const;
  return (
    <TableRegion label={t("awards.students.caption")} className="-mx-5 sm:mx-0">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{t("awards.students.caption")}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-5 py-2 font-semibold sm:px-3">
              {t("awards.students.student")}
            </th>
            {figures.map((figure) => (
              <th key={figure.key} scope="col" className="px-3 py-2 text-right font-semibold">
                {figure.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {students.map((student) => {
            const isChosen = student.studentId === chosenId;
            return (
              <tr key={student.studentId} className={isChosen ? "bg-brand-50 dark:bg-slate-800" : undefined}>
                <th
                  scope="row"
                  // The sticky column paints its own background, so the chosen row's colour is forced here.
                  className={`px-5 py-2 text-left font-medium sm:px-3 ${isChosen ? "bg-brand-50! dark:bg-slate-800!" : ""}`}
                >
                  <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span>{student.name}</span>
                    {isChosen ? (
                      <span className="inline-flex items-center gap-1 text-xs font-semibold text-brand-700 dark:text-brand-100">
                        <Check aria-hidden="true" className="size-3.5" strokeWidth={3} />
                        {t("awards.students.chosen")}
                      </span>
                    ) : (
                      <button
                        type="button"
                        onClick={() => onChoose({ studentId: student.studentId, name: student.name })}
                        className="min-h-7 rounded-md border border-slate-300 px-2 text-xs font-semibold hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
                      >
                        {t("awards.students.choose")}
                        <span className="sr-only"> {student.name}</span>
                      </button>
                    )}
                  </span>
                </th>
                {figures.map((figure) => (
                  <td key={figure.key} className="px-3 py-2 text-right tabular-nums">
                    {formatNumber(student[figure.key], 0)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
