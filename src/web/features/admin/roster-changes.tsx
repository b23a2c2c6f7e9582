import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Pager } from "../../components/ui/pager";
import { relativeTime } from "../../lib/format";
import { Loading, QueryError, Section } from "../home/parts";
import { CHANGES_PAGE_SIZE, rosterChangesQuery } from "./api";

/** The latest changes to roles, parent links, organisations, onboarding and passwords: who, what, when. */
export function RecentChanges() {
  const [offset, setOffset] = useState(0);
  const changes = useQuery({ ...rosterChangesQuery(offset), placeholderData: keepPreviousData });
  return (
    <Section
      title="Recent changes"
      description="Every change made to roles, parent links, organizations, onboarding and passwords."
    >
      {changes.isError && (
        <QueryError
          error={changes.error}
          fallback="Could not load the changes"
          onRetry={() => changes.refetch()}
        />
      )}
      {changes.isPending && <Loading label="Loading the changes" />}
      {changes.data &&
        (changes.data.total === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">No changes yet.</p>
        ) : (
          <>
            <ol className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Recent changes">
              {changes.data.data.map((change) => (
                <li key={change.id} className="py-2.5">
                  <p className="text-sm">{change.summary}</p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    by {change.actor.name} ·{" "}
                    <time dateTime={change.createdAt} title={new Date(change.createdAt).toLocaleString()}>
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
              label="recent changes"
            />
          </>
        ))}
    </Section>
  );
}
