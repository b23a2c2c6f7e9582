import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { CsvImportReport } from "../../../shared/contracts/assessment";
import { ImportPanel } from "./import-panel";
import { type UploadKind, uploadCsv } from "./placements-api";

/** The placements' and screening's CSV import: checked first, then imported whole or not at all. */
export function CsvImportPanel({
  kind,
  title,
  columns,
  refresh,
}: {
  kind: UploadKind;
  title: string;
  /** The columns the file takes, said for people. */
  columns: ReactNode;
  /** The queries an applied import changes. */
  refresh: readonly (readonly unknown[])[];
}) {
  const { t } = useTranslation("assessment");
  return (
    <ImportPanel<CsvImportReport>
      title={title}
      description={columns}
      accept=".csv,text/csv"
      upload={(file, dryRun) => uploadCsv(kind, file, dryRun)}
      changesOf={(report) => report.rows.changed}
      summaryOf={(report) => t("placements.import.summary", { ...report.rows })}
      refresh={refresh}
    />
  );
}
