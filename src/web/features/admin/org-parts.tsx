import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { Card } from "../../components/page-header";
import { ApiRequestError } from "../../lib/http";
import { i18next } from "../../lib/i18n";
import { QueryError } from "../home/parts";

/**
 * Why an organisation's page cannot show: it does not exist, or the caller may not see it, in
 * words, with the way back to the list.
 */
export function OrgLoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation("admin");
  const status = error instanceof ApiRequestError ? error.status : 0;
  if (status !== 404 && status !== 403)
    return <QueryError error={error} fallback={t("orgLoadError.failed")} onRetry={onRetry} />;
  return (
    <Card className="text-center">
      <h1 className="text-2xl font-bold">
        {status === 404 ? t("orgLoadError.notFound") : t("orgLoadError.notYours")}
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        {status === 404 ? t("orgLoadError.notFoundBody") : error.message}
      </p>
      <Link
        to="/app/admin/organizations"
        className="mt-4 inline-block font-semibold text-brand-700 underline dark:text-brand-100"
      >
        {t("orgLoadError.seeAll")}
      </Link>
    </Card>
  );
}

/** "77 students · 5 Guides · 16 classes", leaving out what does not apply. */
export function countsText(counts: { students: number; guides: number; classes?: number }): string {
  const { students, guides, classes } = counts;
  return classes
    ? i18next.t("admin:orgCounts.withClasses", { students, guides, classes })
    : i18next.t("admin:orgCounts.withoutClasses", { students, guides });
}
