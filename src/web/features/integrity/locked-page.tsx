import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { LockOpen } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page-header";
import { useAnnouncement } from "../../components/ui/announcement";
import { buttonClass } from "../../components/ui/form";
import { instantLabel } from "../../lib/format";
import { Loading, QueryError, Section } from "../home/parts";
import { lockoutQuery } from "./api";
import { isLockedOut } from "./lockout";
import { StrikeMeter } from "./parts";
import { StrikeList } from "./strike-list";

/**
 * /app/dashboard-locked: a student whose dashboard is locked learns why, calmly, with the code to
 * read to their Guide, how to get help, their strikes and the way to appeal one. The page asks
 * again every 30 seconds; once the Guide unlocks, it takes the student home by itself.
 */
export function DashboardLockedPage() {
  const { t } = useTranslation("integrity");
  // An answer from before this page opened may be out of date: it is asked again first.
  const [openedAt] = useState(() => Date.now());
  const status = useQuery({ ...lockoutQuery, refetchOnMount: "always" });
  const isLocked = isLockedOut(status.data);
  const wasLocked = useRef(false);

  useEffect(() => {
    if (isLocked) wasLocked.current = true;
    // Unlocked while here: home, loaded afresh, as everything refused during the lock works again.
    else if (wasLocked.current && status.data) window.location.assign("/app");
  }, [isLocked, status.data]);

  if (status.isError && !status.data)
    return (
      <div>
        <PageHeader title={t("locked.checking")} />
        <QueryError error={status.error} fallback={t("locked.loadFailed")} onRetry={() => status.refetch()} />
      </div>
    );
  if (!status.data || (!isLocked && status.dataUpdatedAt < openedAt))
    return (
      <div>
        <PageHeader title={t("locked.checking")} />
        <Loading label={t("locked.checking")} rows={3} />
      </div>
    );
  if (!isLocked || !status.data.lockout) return <OpenDashboard />;
  return (
    <LockedDashboard
      lockout={status.data.lockout}
      onCheck={() => status.refetch()}
      isChecking={status.isFetching}
    />
  );
}

function OpenDashboard() {
  const { t } = useTranslation("integrity");
  return (
    <div>
      <PageHeader title={t("open.title")} description={t("open.description")} />
      <div className="flex items-center gap-3 rounded-2xl border border-emerald-300 bg-emerald-50 p-5 dark:border-emerald-800 dark:bg-emerald-950">
        <LockOpen aria-hidden="true" className="size-8 shrink-0 text-emerald-700 dark:text-emerald-300" />
        <Link to="/app" className={buttonClass("primary")}>
          {t("open.home")}
        </Link>
      </div>
    </div>
  );
}

function LockedDashboard({
  lockout,
  onCheck,
  isChecking,
}: {
  lockout: { code: string; lockedAt: string; activeStrikes: number; threshold: number };
  onCheck: () => void;
  isChecking: boolean;
}) {
  const { t } = useTranslation("integrity");
  const [announcement, announce] = useAnnouncement();
  // A digit's place in the code is what tells it apart.
  const digits = [...lockout.code].map((digit, place) => ({ digit, place: `place-${place}` }));
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("locked.title")}
        description={t("locked.lead", { count: lockout.activeStrikes, threshold: lockout.threshold })}
      />

      <section
        aria-labelledby="unlock-code"
        className="rounded-2xl border-2 border-brand-600 bg-brand-50 p-5 text-center sm:p-8 dark:border-brand-500 dark:bg-slate-900"
      >
        <h2 id="unlock-code" className="text-lg font-bold">
          {t("locked.code.title")}
        </h2>
        <p className="mt-1 text-slate-700 dark:text-slate-200">{t("locked.code.readIt")}</p>
        <p className="mt-4 flex justify-center gap-1.5 sm:gap-3">
          {digits.map(({ digit, place }) => (
            <span
              key={place}
              aria-hidden="true"
              className="flex h-16 w-11 items-center justify-center rounded-xl border-2 border-slate-300 bg-white font-mono text-4xl font-bold text-slate-900 tabular-nums sm:h-20 sm:w-14 sm:text-5xl dark:border-slate-600 dark:bg-slate-950 dark:text-white"
            >
              {digit}
            </span>
          ))}
          <span className="sr-only" data-lockout-code={lockout.code}>
            {[...lockout.code].join(" ")}
          </span>
        </p>
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
          {t("locked.since", { when: instantLabel(lockout.lockedAt) })}
        </p>
      </section>

      <Section title={t("locked.help.title")}>
        <ol className="list-decimal space-y-2 pl-5">
          <li>{t("locked.help.find")}</li>
          <li>{t("locked.help.read")}</li>
          <li>{t("locked.help.talk")}</li>
        </ol>
        <p className="mt-4 text-sm text-slate-700 dark:text-slate-200">{t("locked.help.okay")}</p>
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <button type="button" onClick={onCheck} disabled={isChecking} className={buttonClass("secondary")}>
            {isChecking ? t("locked.checking") : t("locked.checkNow")}
          </button>
          <p className="text-sm text-slate-600 dark:text-slate-300">{t("locked.autoCheck")}</p>
        </div>
      </Section>

      <Section
        title={t("locked.strikes.title")}
        description={t("locked.strikes.description")}
        actions={<StrikeMeter active={lockout.activeStrikes} threshold={lockout.threshold} />}
      >
        <div className="space-y-4">
          {announcement}
          <StrikeList viewer="student" announce={announce} />
        </div>
      </Section>
    </div>
  );
}
