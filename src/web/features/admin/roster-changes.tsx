import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Pager } from "../../components/ui/pager";
import { instantLabel, relativeTime } from "../../lib/format";
import { Loading, QueryError, Section } from "../home/parts";
import { CHANGES_PAGE_SIZE, rosterChangesQuery } from "./api";

/** The latest changes to roles, parent links, organisations, onboarding and passwords: who, what, when. */
export function RecentChanges() {
  const { t } = useTranslation("admin");
  const [offset, setOffset] = useState(0);
  const changes = useQuery({ ...rosterChangesQuery(offset), placeholderData: keepPreviousData });
  return (
    <Section title={t("recentChanges.heading")} description={t("recentChanges.description")}>
      {changes.isError && (
        <QueryError
          error={changes.error}
          fallback={t("recentChanges.failed")}
          onRetry={() => changes.refetch()}
        />
      )}
      {changes.isPending && <Loading label={t("recentChanges.loading")} />}
      {changes.data &&
        (changes.data.total === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("recentChanges.none")}</p>
        ) : (
          <>
            <ol
              className="divide-y divide-slate-100 dark:divide-slate-800"
              aria-label={t("recentChanges.heading")}
            >
              {changes.data.data.map((change) => (
                <li key={change.id} className="py-2.5">
                  <p className="text-sm">{change.summary}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    {t("recentChanges.by", { name: change.actor.name })}{" "}
                    <time dateTime={change.createdAt} title={instantLabel(change.createdAt)}>
                      {relativeTime(change.createdAt)}
                    </time>
                  </p>
                </li>
              ))}
            </ol>
            <Pager
              offset={offset}
              limit={CHANGES_PAGE_SIZE}
              total={changes.data.total}
              onChange={setOffset}
              label={t("recentChanges.pagerLabel")}
            />
          </>
        ))}
    </Section>
  );
}
