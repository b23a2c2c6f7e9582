import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ShieldAlert } from "lucide-react";
import { type ReactNode, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IntegritySummary, StudentIntegrity } from "../../../shared/contracts/integrity";
import { useAnnouncement } from "../../components/ui/announcement";
import { buttonClass } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { useAuth } from "../auth/use-auth";
import { Section } from "../home/parts";
import { studentIntegrityQuery, summaryQuery } from "./api";
import { LockedBadge, StrikeMeter } from "./parts";
import { StrikeList } from "./strike-list";

/**
 * Integrity on the homes: what waits for a reviewer, a calm notice to a family about a child's
 * strikes, and a student's own strikes. Each keeps out of the way: nothing while its words or
 * figures load, nothing when there is nothing to say or it cannot load.
 */

/** A Guide's, proctor's or administrator's notice: incidents waiting, new strikes, locked students. */
export function ReviewerNotice() {
  return (
    <Suspense fallback={null}>
      <ReviewerNoticeBody />
    </Suspense>
  );
}

function ReviewerNoticeBody() {
  const { t } = useTranslation("integrity");
  const summary = useQuery(summaryQuery);
  if (!summary.data || !hasNews(summary.data)) return null;
  return (
    <Section
      title={t("home.reviewer.title")}
      description={t("home.reviewer.description")}
      actions={
        <Link to="/app/flow/cheating/pending" className={buttonClass("primary")}>
          {t("home.reviewer.link")}
        </Link>
      }
    >
      <Figures summary={summary.data} />
    </Section>
  );
}

/** Whether anything waits, is new or is locked: otherwise the homes say nothing. */
const hasNews = ({ totals }: IntegritySummary) =>
  totals.pending > 0 || totals.newStrikes > 0 || totals.lockedStudents > 0;

/** The reviewer's figures alone, for a home that already has a section on incidents (the proctor's). */
export function ReviewerFigures() {
  return (
    <Suspense fallback={null}>
      <ReviewerFiguresBody />
    </Suspense>
  );
}

function ReviewerFiguresBody() {
  const summary = useQuery(summaryQuery);
  if (!summary.data || !hasNews(summary.data)) return null;
  return (
    <div className="mb-5">
      <Figures summary={summary.data} />
    </div>
  );
}

function Figures({ summary: { totals, students } }: { summary: IntegritySummary }) {
  const { t } = useTranslation("integrity");
  const locked = students.filter((student) => student.isLocked).map((student) => student.name);
  return (
    <>
      <ul className="grid gap-3 sm:grid-cols-3">
        <Figure value={totals.pending} label={t("home.reviewer.pending", { count: totals.pending })} />
        <Figure
          value={totals.newStrikes}
          label={t("home.reviewer.newStrikes", { count: totals.newStrikes })}
        />
        <Figure
          value={totals.lockedStudents}
          label={t("home.reviewer.locked", { count: totals.lockedStudents })}
        />
      </ul>
      {locked.length > 0 && (
        <p className="mt-3 text-sm">
          <span className="font-semibold">{t("home.reviewer.lockedNames")}</span> {locked.join(", ")}
        </p>
      )}
    </>
  );
}

function Figure({ value, label }: { value: number; label: string }) {
  return (
    <li className="min-w-0 rounded-xl bg-slate-50 p-3 dark:bg-slate-800">
      <span className="block text-2xl font-bold tabular-nums">{formatNumber(value, 0)}</span>
      <span className="text-sm text-slate-700 dark:text-slate-200">{label}</span>
    </li>
  );
}

/** On a family's child card: the child's strikes or lock, calmly, with their reasons and appeals. */
export function ChildNotice({ childId, givenName }: { childId: string; givenName: string }) {
  return (
    <Suspense fallback={null}>
      <ChildNoticeBody childId={childId} givenName={givenName} />
    </Suspense>
  );
}

function ChildNoticeBody({ childId, givenName }: { childId: string; givenName: string }) {
  const standing = useQuery(studentIntegrityQuery(childId));
  if (!standing.data) return null;
  return (
    <FamilyStandingNotice childId={childId} name={givenName} standing={standing.data} className="mt-3" />
  );
}

/**
 * A child's strikes or lock as their family reads them, only while there is something to say,
 * with each strike's reasons (and its appeal) when the family asks for them.
 */
export function FamilyStandingNotice({
  childId,
  name,
  standing,
  className = "",
}: {
  childId: string;
  name: string;
  standing: Pick<StudentIntegrity, "activeStrikes" | "threshold" | "isLocked" | "lockoutEnabled">;
  className?: string;
}) {
  const { t } = useTranslation("integrity");
  const { activeStrikes, threshold, isLocked, lockoutEnabled } = standing;
  if (activeStrikes === 0 && !isLocked) return null;
  return (
    <div
      className={`rounded-xl border border-sky-300 bg-sky-50 p-3 text-sm dark:border-sky-800 dark:bg-sky-950 ${className}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <ShieldAlert aria-hidden="true" className="size-4 shrink-0 text-sky-800 dark:text-sky-200" />
        <p className="font-semibold">
          {isLocked ? t("home.family.lockedTitle", { name }) : t("home.family.title", { name })}
        </p>
        {isLocked && <LockedBadge />}
      </div>
      <div className="mt-2">
        <StrikeMeter active={activeStrikes} threshold={lockoutEnabled ? threshold : null} />
      </div>
      <p className="mt-2">
        {isLocked
          ? t("home.family.lockedBody", { name })
          : lockoutEnabled
            ? t("home.family.bodyLockout", { name, threshold })
            : t("home.family.body", { name })}
      </p>
      <StrikesToggle
        showLabel={t("home.family.show", { name })}
        hideLabel={t("home.family.hide")}
        className="mt-2"
      >
        {(announce) => <StrikeList studentId={childId} name={name} viewer="family" announce={announce} />}
      </StrikesToggle>
    </div>
  );
}

/** A button that shows a student's strikes beneath it, with the message of an appeal sent from them. */
function StrikesToggle({
  showLabel,
  hideLabel,
  className = "",
  children,
}: {
  showLabel: string;
  hideLabel: string;
  className?: string;
  children: (announce: (text: string) => void) => ReactNode;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const [announcement, announce] = useAnnouncement();
  const panelId = useId();
  return (
    <div className={className}>
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setIsOpen(!isOpen)}
        className="text-left text-sm font-semibold text-brand-700 underline hover:text-brand-900 dark:text-brand-100"
      >
        {isOpen ? hideLabel : showLabel}
      </button>
      <div id={panelId} hidden={!isOpen} className="mt-3 space-y-3">
        {announcement}
        {isOpen && children(announce)}
      </div>
    </div>
  );
}

/** On a student's home, only while they have strikes: what they are, and the way to appeal. */
export function StudentStrikes() {
  return (
    <Suspense fallback={null}>
      <StudentStrikesBody />
    </Suspense>
  );
}

function StudentStrikesBody() {
  const { t } = useTranslation("integrity");
  const { user } = useAuth();
  const standing = useQuery(studentIntegrityQuery(user.sourcedId));
  if (!standing.data || standing.data.activeStrikes === 0) return null;
  const { activeStrikes, threshold, lockoutEnabled } = standing.data;
  return (
    <Section
      title={t("home.student.title")}
      description={
        lockoutEnabled
          ? t("home.student.descriptionLockout", { count: activeStrikes, threshold })
          : t("home.student.description", { count: activeStrikes })
      }
      actions={<StrikeMeter active={activeStrikes} threshold={lockoutEnabled ? threshold : null} />}
    >
      <p className="text-sm text-slate-700 dark:text-slate-200">{t("home.student.explain")}</p>
      <StrikesToggle showLabel={t("home.student.show")} hideLabel={t("home.student.hide")} className="mt-3">
        {(announce) => <StrikeList viewer="student" announce={announce} />}
      </StrikesToggle>
    </Section>
  );
}
