import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto mt-16 max-w-md px-6 text-center">
      <h1 className="text-3xl font-bold">{t("notFound.heading")}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">{t("notFound.body")}</p>
      <Link
        to="/app"
        className="mt-6 inline-block font-semibold text-brand-700 underline dark:text-brand-100"
      >
        {t("notFound.home")}
      </Link>
    </div>
  );
}
