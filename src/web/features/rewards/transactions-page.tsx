import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { ReceiptText } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { LEDGER_KINDS, type LedgerEntry } from "../../../shared/contracts/rewards";
import type { searchSchemas } from "../../../shared/routes";
import { PageHeader } from "../../components/page-header";
import { DownloadLink } from "../../components/ui/download-link";
import { buttonClass } from "../../components/ui/form";
import { Pager } from "../../components/ui/pager";
import { formatNumber } from "../../lib/format";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { SELECT_CLASS } from "../xp/student-picker";
import { ADMIN_INPUT_CLASS, SuccessNote } from "./admin-form";
import { isReversible, ReverseDialog } from "./admin-reverse-dialog";
import { StudentChoice } from "./admin-student-choice";
import { ledgerCsvUrl, rewardKeys, wholeLedgerQuery } from "./api";
import { LedgerTable } from "./parts";

type TransactionsSearch = z.infer<(typeof searchSchemas)["transactions"]>;

const PAGE_SIZE = 50;

/** Every Alphas movement of every student, filtered in the address, with reversals and a CSV download. */
export function TransactionsPage() {
  const { t } = useTranslation("rewards");
  const search = useSearch({ strict: false }) as TransactionsSearch;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [reversing, setReversing] = useState<LedgerEntry | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const ids = { kind: useId(), from: useId(), to: useId() };

  const filters = { studentId: search.studentId, kind: search.kind, from: search.from, to: search.to };
  const page = search.page ?? 0;
  const ledger = useQuery({
    ...wholeLedgerQuery({ ...filters, offset: page * PAGE_SIZE, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  // A new filter starts again from the first page.
  const setFilters = (next: Partial<TransactionsSearch>) =>
    void navigate({
      to: "/app/admin/transactions",
      search: { ...search, ...next, page: undefined } as never,
    });
  const setPage = (offset: number) =>
    void navigate({
      to: "/app/admin/transactions",
      search: { ...search, page: offset / PAGE_SIZE || undefined } as never,
    });
  const hasFilters = Object.values(filters).some(Boolean);
  const studentName = ledger.data?.data.find((entry) => entry.studentId === search.studentId)?.student?.name;

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/transactions.title")}
        description={t("transactions.description")}
        actions={
          <DownloadLink href={ledgerCsvUrl(filters)}>
            {hasFilters ? t("transactions.downloadFiltered") : t("transactions.download")}
          </DownloadLink>
        }
      />
      <Section title={t("transactions.filters.title")}>
        <StudentChoice
          studentId={search.studentId}
          knownName={studentName}
          onChange={(studentId) => setFilters({ studentId })}
        />
        <div className="mt-4 grid gap-4 md:grid-cols-3">
          <div>
            <label htmlFor={ids.kind} className="text-sm font-medium">
              {t("transactions.filters.kind")}
            </label>
            <select
              id={ids.kind}
              value={search.kind ?? ""}
              onChange={(event) =>
                setFilters({ kind: (event.target.value || undefined) as TransactionsSearch["kind"] })
              }
              className={SELECT_CLASS}
            >
              <option value="">{t("transactions.filters.allKinds")}</option>
              {LEDGER_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`kind.${kind}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="grid grid-cols-2 gap-3 md:col-span-2">
            <div>
              <label htmlFor={ids.from} className="text-sm font-medium">
                {t("transactions.filters.from")}
              </label>
              <input
                id={ids.from}
                type="date"
                value={search.from ?? ""}
                max={search.to}
                onChange={(event) => setFilters({ from: event.target.value || undefined })}
                className={`${ADMIN_INPUT_CLASS} h-11`}
              />
            </div>
            <div>
              <label htmlFor={ids.to} className="text-sm font-medium">
                {t("transactions.filters.to")}
              </label>
              <input
                id={ids.to}
                type="date"
                value={search.to ?? ""}
                min={search.from}
                onChange={(event) => setFilters({ to: event.target.value || undefined })}
                className={`${ADMIN_INPUT_CLASS} h-11`}
              />
            </div>
          </div>
        </div>
        {hasFilters && (
          <button
            type="button"
            onClick={() => void navigate({ to: "/app/admin/transactions", search: {} as never })}
            className={buttonClass("secondary", "mt-4")}
          >
            {t("transactions.filters.clear")}
          </button>
        )}
      </Section>

      <Section
        title={t("transactions.entries.title")}
        description={ledger.data ? t("transactions.entries.count", { count: ledger.data.total }) : undefined}
      >
        <div role="status">{notice && <SuccessNote className="mb-4">{notice}</SuccessNote>}</div>
        {ledger.isPending ? (
          <Loading label={t("ledger.loading")} rows={6} />
        ) : ledger.isError ? (
          <QueryError
            error={ledger.error}
            fallback={t("ledger.loadFailed")}
            onRetry={() => ledger.refetch()}
          />
        ) : ledger.data.total === 0 ? (
          <EmptyState icon={ReceiptText} title={t("transactions.entries.emptyTitle")}>
            {hasFilters ? t("transactions.entries.emptyFiltered") : t("transactions.entries.emptyBody")}
          </EmptyState>
        ) : (
          <>
            <LedgerTable
              entries={ledger.data.data}
              showStudent
              actions={(entry) =>
                isReversible(entry) && (
                  <button
                    type="button"
                    onClick={() => {
                      setNotice(null);
                      setReversing(entry);
                    }}
                    aria-label={t("transactions.reverse.buttonNamed", { id: entry.id })}
                    className={buttonClass("secondary", "px-3 py-1.5")}
                  >
                    {t("transactions.reverse.button")}
                  </button>
                )
              }
            />
            <Pager
              offset={page * PAGE_SIZE}
              limit={PAGE_SIZE}
              total={ledger.data.total}
              onChange={setPage}
              label={t("ledger.pagerLabel")}
            />
          </>
        )}
      </Section>
      {reversing && (
        <ReverseDialog
          entry={reversing}
          onClose={() => setReversing(null)}
          onDone={(result) => {
            setNotice(
              t("transactions.reverse.done", {
                id: reversing.id,
                name: reversing.student?.name ?? reversing.studentId,
                balance: t("alphas", {
                  count: result.account.balance,
                  amount: formatNumber(result.account.balance, 0),
                }),
                savings: t("alphas", {
                  count: result.account.savings,
                  amount: formatNumber(result.account.savings, 0),
                }),
              }),
            );
            setReversing(null);
            void queryClient.invalidateQueries({ queryKey: rewardKeys.all });
          }}
        />
      )}
    </div>
  );
}
