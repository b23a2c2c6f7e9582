import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "./form";

/** Puts text on the clipboard; outside a secure context (plain http) it falls back to a selection copy. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/** A button that copies a value, and says so in words for everyone, screen readers included. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      aria-label={label}
      onClick={async () => setState((await copyText(value)) ? "copied" : "failed")}
      className={buttonClass("secondary", "shrink-0")}
    >
      <span aria-live="polite">
        {state === "copied" ? t("copy.copied") : state === "failed" ? t("copy.failed") : t("copy.copy")}
      </span>
    </button>
  );
}

/** A read-only value in a monospace box with its copy button, for ids, URLs and secrets. */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <p className="text-sm font-medium">{label}</p>
      <div className="mt-1 flex items-stretch gap-2">
        <code className="min-w-0 flex-1 overflow-x-auto rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm break-all whitespace-pre-wrap dark:border-slate-700 dark:bg-slate-950">
          {value}
        </code>
        <CopyButton value={value} label={t("copy.copyWhat", { what: label })} />
      </div>
    </div>
  );
}
