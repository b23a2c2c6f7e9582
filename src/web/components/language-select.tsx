import { Languages } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from "../../shared/languages";

/**
 * The language switcher: each language named in itself, whatever the page's language. `choose`
 * keeps the choice (on this device, or with the account).
 */
export function LanguageSelect({
  choose,
  className = "",
}: {
  choose: (language: Language) => void;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className={`flex items-center gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-slate-600 dark:text-slate-300">
        <Languages aria-hidden="true" className="h-4 w-4" />
        <span className="sr-only">{t("language.label")}</span>
      </label>
      <select
        id={id}
        value={i18n.resolvedLanguage}
        onChange={(event) => {
          if (isLanguage(event.target.value)) choose(event.target.value);
        }}
        className="min-h-9 rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
