import { useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { SyllabusHistoryEntry } from "../../../shared/contracts/content";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { relativeTime } from "../../lib/format";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { syllabusHistoryQuery } from "./syllabus-api";

const PAGE = 20;

/** The fields of a lesson whose change the history names. */
const LESSON_FIELDS = ["title", "expectedXp", "masteryPercent", "descriptionHtml"] as const;

/** The course builder's "History" button and the dialog it opens: who changed the syllabus, and how. */
export function SyllabusHistoryButton({ courseId }: { courseId: string }) {
  const { t } = useTranslation("content");
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={buttonClass("secondary", "inline-flex items-center gap-1.5")}
        onClick={() => setOpen(true)}
      >
        <History aria-hidden="true" className="size-4" />
        {t("builder.history.open")}
      </button>
      {open && <SyllabusHistoryDialog courseId={courseId} onClose={() => setOpen(false)} />}
    </>
  );
}

function SyllabusHistoryDialog({ courseId, onClose }: { courseId: string; onClose: () => void }) {
  const { t } = useTranslation("content");
  const [limit, setLimit] = useState(PAGE);
  const history = useQuery(syllabusHistoryQuery(courseId, limit));
  const entries = history.data?.data ?? [];

  return (
    <Dialog
      title={t("builder.history.title")}
      description={t("builder.history.description")}
      onClose={onClose}
    >
      <div className="mt-4 max-h-[60vh] overflow-y-auto">
        {history.isError ? (
          <QueryError
            error={history.error}
            fallback={t("builder.history.loadFailed")}
            onRetry={() => history.refetch()}
          />
        ) : !history.data ? (
          <Loading label={t("builder.history.loading")} rows={4} />
        ) : entries.length === 0 ? (
          <EmptyState icon={History} title={t("builder.history.emptyTitle")}>
            {t("builder.history.empty")}
          </EmptyState>
        ) : (
          <ol className="divide-y divide-slate-200 dark:divide-slate-800">
            {entries.map((entry) => (
              <HistoryLine key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        {history.data && history.data.total > entries.length && (
          <button
            type="button"
            className={buttonClass("secondary")}
            disabled={history.isFetching}
            onClick={() => setLimit((shown) => Math.min(shown + PAGE, 200))}
          >
            {t("builder.history.more")}
          </button>
        )}
        <button type="button" className={buttonClass("primary")} onClick={onClose}>
          {t("builder.history.close")}
        </button>
      </div>
    </Dialog>
  );
}

function HistoryLine({ entry }: { entry: SyllabusHistoryEntry }) {
  const { t } = useTranslation("content");
  const title = entry.targetTitle ?? t("builder.history.untitled");
  const fields =
    entry.action === "update" && entry.targetKind === "lesson"
      ? LESSON_FIELDS.filter((field) => field in entry.details).map((field) =>
          t(`builder.history.fields.${field}`),
        )
      : [];
  return (
    <li className="py-2.5">
      <p className="text-sm">
        {t(`builder.history.${entry.action}.${entry.targetKind}`, { name: entry.actor.name, title })}
      </p>
      <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-300">
        <time dateTime={entry.at} title={new Date(entry.at).toLocaleString()}>
          {relativeTime(entry.at)}
        </time>
        {fields.length > 0 && ` · ${t("builder.history.changedFields", { fields: fields.join(", ") })}`}
      </p>
    </li>
  );
}
