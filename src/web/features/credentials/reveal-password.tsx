import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "../../components/ui/copy-button";
import { failureMessage } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { credentialKeys, revealAppLogin } from "./api";

/** How long a revealed password stays on the page before it is forgotten again. */
export const REVEAL_SECONDS = 30;

/**
 * Reveals one app password on request (the server audits each time): masked at first, with Show
 * and Copy, and forgotten after REVEAL_SECONDS so it does not stay on a shared screen.
 */
export function RevealPassword({ credentialId, appName }: { credentialId: string; appName: string }) {
  const { t } = useTranslation("credentials");
  const [password, setPassword] = useState<string | null>(null);
  const [isShown, setIsShown] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(REVEAL_SECONDS);
  const queryClient = useQueryClient();
  const reveal = useMutation({
    mutationFn: () => revealAppLogin(credentialId),
    onSuccess: (decrypted) => {
      setPassword(decrypted.password);
      setIsShown(false);
      setSecondsLeft(REVEAL_SECONDS);
      // The reveal is in the audit now.
      queryClient.invalidateQueries({ queryKey: credentialKeys.allDecrypts });
    },
  });

  useEffect(() => {
    if (password === null) return;
    if (secondsLeft <= 0) {
      setPassword(null);
      setIsShown(false);
      return;
    }
    const timer = setTimeout(() => setSecondsLeft((left) => left - 1), 1000);
    return () => clearTimeout(timer);
  }, [password, secondsLeft]);

  if (password === null)
    return (
      <div>
        <button
          type="button"
          onClick={() => reveal.mutate()}
          disabled={reveal.isPending}
          aria-label={t("reveal.revealLabel", { app: appName })}
          className={buttonClass("secondary", "whitespace-nowrap")}
        >
          {reveal.isPending ? t("reveal.revealing") : t("reveal.reveal")}
        </button>
        {reveal.isError && (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
            {failureMessage(reveal.error, t("reveal.failed"))}
          </p>
        )}
      </div>
    );

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="sr-only">{t("reveal.passwordOf", { app: appName })}</span>
        <code className="min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm break-all dark:border-slate-700 dark:bg-slate-950">
          {isShown ? password : "•".repeat(Math.min(password.length, 12))}
        </code>
        <button
          type="button"
          aria-pressed={isShown}
          onClick={() => setIsShown((shown) => !shown)}
          className={buttonClass("secondary")}
        >
          {isShown ? t("reveal.hide") : t("reveal.show")}
        </button>
        <CopyButton value={password} label={t("reveal.copyLabel", { app: appName })} />
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-300">
        {t("reveal.hidesIn", { seconds: secondsLeft })}
      </p>
    </div>
  );
}
