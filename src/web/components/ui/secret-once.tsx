import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { CopyableValue } from "./copy-button";
import { buttonClass } from "./form";

/**
 * A newly made secret, shown this once: Dash keeps only its hash. The panel takes the focus so a
 * screen reader announces it, and stays until the administrator says the secret is saved.
 */
export function SecretOnce({
  title,
  values,
  onDone,
}: {
  title: string;
  values: { label: string; value: string }[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const titleId = useId();
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-xl border-2 border-amber-500 bg-amber-50 p-4 sm:p-5 dark:border-amber-400 dark:bg-amber-950/60"
    >
      <h3 id={titleId} ref={heading} tabIndex={-1} className="text-base font-bold">
        {title}
      </h3>
      <p className="mt-1 text-sm font-medium text-amber-900 dark:text-amber-100">{t("secretOnce.warning")}</p>
      <div className="mt-4 space-y-3">
        {values.map((entry) => (
          <CopyableValue key={entry.label} label={entry.label} value={entry.value} />
        ))}
      </div>
      <button type="button" onClick={onDone} className={buttonClass("primary", "mt-4")}>
        {t("secretOnce.saved")}
      </button>
    </section>
  );
}
