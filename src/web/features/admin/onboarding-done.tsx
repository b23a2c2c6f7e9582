import { useState } from "react";
import { gradeName, type NewAccount, type OnboardingResult } from "../../../shared/contracts/onboarding";
import { ROLE_DISPLAY_NAMES } from "../../../shared/roles";
import { buttonClass } from "../../components/ui/form";

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
  const accounts = [result.student, ...result.newGuardians];
  return (
    <div data-print-area>
      <style>{PRINT_ONLY_THE_SHEET}</style>
      <p className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
        {result.student.name} is enrolled at {result.school.name} ({gradeName(grade)})
        {result.classes.length ? ` in ${result.classes.map((entry) => entry.title).join(", ")}` : ""}.
        {result.linkedGuardians.length
          ? ` Linked to ${result.linkedGuardians.map((entry) => entry.name).join(" and ")}.`
          : ""}
        {result.pendingGuardians.length
          ? ` An administrator will confirm the link to ${result.pendingGuardians.map((entry) => entry.name).join(" and ")} before they can see ${result.student.name}'s learning.`
          : ""}
      </p>
      <p
        data-print-hide
        className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        <strong>These passwords are shown only now.</strong> Copy or print them before you leave this page;
        Dash keeps no readable copy. Each person can sign in at once.
      </p>
      <ul className="mt-4 grid gap-4 md:grid-cols-2" aria-label="New accounts">
        {accounts.map((account) => (
          <AccountCard key={account.sourcedId} account={account} />
        ))}
      </ul>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
        Sign in at <span className="font-mono">{window.location.origin}/login</span>
      </p>
      <div data-print-hide className="mt-6 flex flex-wrap gap-3">
        <button type="button" onClick={() => window.print()} className={buttonClass("primary")}>
          Print sign-in details
        </button>
        <button type="button" onClick={onRestart} className={buttonClass("secondary")}>
          Onboard another student
        </button>
      </div>
    </div>
  );
}

function AccountCard({ account }: { account: NewAccount }) {
  const headingId = `account-${account.sourcedId}`;
  return (
    <li
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm break-inside-avoid dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 id={headingId} className="text-lg font-bold">
        {account.name}
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-300">{ROLE_DISPLAY_NAMES[account.role]}</p>
      <dl className="mt-3 space-y-3">
        <Secret
          label={account.signIn.includes("@") ? "Email" : "Username"}
          value={account.signIn}
          owner={account.name}
        />
        <Secret label="Password" value={account.password} owner={account.name} />
      </dl>
    </li>
  );
}

function Secret({ label, value, owner }: { label: string; value: string; owner: string }) {
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
      <dt className="text-xs font-medium text-slate-600 uppercase dark:text-slate-300">{label}</dt>
      <dd className="mt-0.5 flex flex-wrap items-center gap-2">
        <code className="rounded-md bg-slate-100 px-2 py-1 font-mono text-base break-all text-slate-900 select-all dark:bg-slate-800 dark:text-slate-100">
          {value}
        </code>
        <button
          type="button"
          data-print-hide
          onClick={copy}
          aria-label={`Copy the ${label.toLowerCase()} of ${owner}`}
          className="rounded-lg border border-slate-300 px-2.5 py-1 text-sm font-semibold hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          Copy
        </button>
        <span data-print-hide aria-live="polite" className="text-xs text-slate-600 dark:text-slate-300">
          {copied === "yes" ? "Copied" : copied === "no" ? "Select it and copy by hand" : ""}
        </span>
      </dd>
    </div>
  );
}
