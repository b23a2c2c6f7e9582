import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PasswordResetLink } from "../../../shared/contracts/auth";
import type { ManagedUser } from "../../../shared/contracts/people";
import { CopyableValue } from "../../components/ui/copy-button";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { instantLabel } from "../../lib/format";
import { fullName } from "../auth/auth-state";
import { issuePasswordResetLink } from "./api";
import { useRefreshRoster } from "./user-roles";

/**
 * A one-time link for the chosen person to choose a new password: made on request, shown this
 * once with a copy button (Dash keeps only its fingerprint), replacing any earlier unused link.
 */
export function PasswordLink({ person }: { person: ManagedUser }) {
  const { t } = useTranslation("admin");
  const [issued, setIssued] = useState<PasswordResetLink | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isIssuing, setIsIssuing] = useState(false);
  const refresh = useRefreshRoster();
  const name = fullName(person);

  async function issue() {
    setIsIssuing(true);
    setProblem(null);
    try {
      setIssued(await issuePasswordResetLink(person.sourcedId));
      await refresh();
    } catch (error) {
      setProblem(failureMessage(error, t("passwordLink.failed")));
    } finally {
      setIsIssuing(false);
    }
  }

  return (
    <div className="mt-5 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <h3 className="font-semibold">{t("passwordLink.heading")}</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        {t("passwordLink.explanation", { name })}
      </p>
      {issued ? (
        <IssuedLink link={issued} name={name} onDone={() => setIssued(null)} />
      ) : (
        <button
          type="button"
          onClick={issue}
          disabled={isIssuing}
          className={buttonClass("secondary", "mt-3")}
        >
          {isIssuing ? t("passwordLink.making") : t("passwordLink.make")}
        </button>
      )}
      {problem && (
        <p role="alert" className="mt-3 text-sm font-medium text-red-700 dark:text-red-300">
          {problem}
        </p>
      )}
    </div>
  );
}

function IssuedLink({ link, name, onDone }: { link: PasswordResetLink; name: string; onDone: () => void }) {
  const { t } = useTranslation("admin");
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-label={t("passwordLink.issuedLabel", { name })}
      className="mt-3 rounded-xl border-2 border-amber-500 bg-amber-50 p-4 dark:border-amber-400 dark:bg-amber-950/60"
    >
      <p ref={heading} tabIndex={-1} className="text-sm font-medium text-amber-900 dark:text-amber-100">
        {t("passwordLink.giveIt", { name, until: instantLabel(link.expiresAt) })}
      </p>
      <div className="mt-3">
        <CopyableValue label={t("passwordLink.linkLabel")} value={`${window.location.origin}${link.link}`} />
      </div>
      <button type="button" onClick={onDone} className={buttonClass("primary", "mt-3")}>
        {t("passwordLink.done")}
      </button>
    </section>
  );
}
