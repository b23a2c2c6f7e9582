import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { NewAccount, OnboardingResult } from "../../../shared/contracts/onboarding";
import { buttonClass } from "../../components/ui/form";
import { shownLocale } from "../../lib/format";
import { i18next } from "../../lib/i18n";

/** A grade in words, in the shown language: "kindergarten", "grade 3". */
export function gradeText(grade: string): string {
  const number = /^\d+$/.test(grade) ? String(Number(grade)) : grade;
  return i18next.t("admin:grade.name", { grade: grade === "PK" || grade === "KG" ? grade : "other", number });
}

/** Names joined as the shown language joins them: "Ana and Luis", "Ana y Luis". */
export function namesList(names: string[]): string {
  return new Intl.ListFormat(shownLocale(), { type: "conjunction" }).format(names);
}

// While this sheet is on screen, printing shows only the sheet: no sidebar, header or buttons.
const PRINT_ONLY_THE_SHEET = `@media print {
  body * { visibility: hidden !important; }
  [data-print-area], [data-print-area] * { visibility: visible !important; }
  [data-print-area] { position: absolute; left: 0; top: 0; width: 100%; }
  [data-print-hide] { display: none !important; }
}`;

/**
 * The sign-in details of the new accounts: shown once (only password hashes are stored), with
 * copy buttons and a printable sheet to hand to the family.
 */
export function OnboardingDone({
  result,
  grade,
  onRestart,
}: {
  result: OnboardingResult;
  grade: string;
  onRestart: () => void;
}) {
  const { t } = useTranslation("admin");
  const accounts = [result.student, ...result.newGuardians];
  const enrolled = {
    student: result.student.name,
    school: result.school.name,
    grade: gradeText(grade),
    classes: result.classes.map((entry) => entry.title).join(", "),
  };
  const summary = [
    result.classes.length
      ? t("onboardingDone.enrolledInClasses", enrolled)
      : t("onboardingDone.enrolled", enrolled),
    result.linkedGuardians.length
      ? t("onboardingDone.linked", { names: namesList(result.linkedGuardians.map((entry) => entry.name)) })
      : null,
    result.pendingGuardians.length
      ? t("onboardingDone.pending", {
          names: namesList(result.pendingGuardians.map((entry) => entry.name)),
          student: result.student.name,
        })
      : null,
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <div data-print-area>
      <style>{PRINT_ONLY_THE_SHEET}</style>
      <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
        {summary}
      </p>
      <p
        data-print-hide
        className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        <strong>{t("onboardingDone.shownOnlyNow")}</strong> {t("onboardingDone.copyOrPrint")}
      </p>
      <ul className="mt-4 grid gap-4 md:grid-cols-2" aria-label={t("onboardingDone.newAccounts")}>
        {accounts.map((account) => (
          <AccountCard key={account.sourcedId} account={account} />
        ))}
      </ul>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
        {t("onboardingDone.signInAt", { address: `${window.location.origin}/login` })}
      </p>
      <div data-print-hide className="mt-6 flex flex-wrap gap-3">
        <button type="button" onClick={() => window.print()} className={buttonClass("primary")}>
          {t("onboardingDone.print")}
        </button>
        <button type="button" onClick={onRestart} className={buttonClass("secondary")}>
          {t("onboardingDone.another")}
        </button>
      </div>
    </div>
  );
}

function AccountCard({ account }: { account: NewAccount }) {
  const { t } = useTranslation("admin");
  const headingId = `account-${account.sourcedId}`;
  return (
    <li
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm break-inside-avoid dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 id={headingId} className="text-lg font-bold">
        {account.name}
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-300">{t(`common:roles.${account.role}`)}</p>
      <dl className="mt-3 space-y-3">
        <Secret
          kind={account.signIn.includes("@") ? "email" : "username"}
          value={account.signIn}
          owner={account.name}
        />
        <Secret kind="password" value={account.password} owner={account.name} />
      </dl>
    </li>
  );
}

function Secret({
  kind,
  value,
  owner,
}: {
  kind: "email" | "username" | "password";
  value: string;
  owner: string;
}) {
  const { t } = useTranslation("admin");
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // Without clipboard access (an insecure page, a refusal) the value stays on screen to copy by hand.
      setCopied("no");
    }
  }
  return (
    <div>
      <dt className="text-xs font-medium text-slate-600 uppercase dark:text-slate-300">
        {t(`onboardingDone.secret.${kind}`)}
      </dt>
      <dd className="mt-0.5 flex flex-wrap items-center gap-2">
        <code className="rounded-md bg-slate-100 px-2 py-1 font-mono text-base break-all text-slate-900 select-all dark:bg-slate-800 dark:text-slate-100">
          {value}
        </code>
        <button
          type="button"
          data-print-hide
          onClick={copy}
          aria-label={t("onboardingDone.copySecret", { kind, owner })}
          className="rounded-lg border border-slate-300 px-2.5 py-1 text-sm font-semibold hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {t("common:copy.copy")}
        </button>
        <span data-print-hide aria-live="polite" className="text-xs text-slate-600 dark:text-slate-300">
          {copied === "yes" ? t("common:copy.copied") : copied === "no" ? t("onboardingDone.copyByHand") : ""}
        </span>
      </dd>
    </div>
  );
}
