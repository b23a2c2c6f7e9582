import { useParams, useSearch } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { PageRoute } from "../../shared/routes";
import { Card, PageHeader } from "./page-header";

/** A page whose content is still to come: its title, what it will hold and the state its address carries. */
export function PlaceholderPage({ route }: { route: PageRoute }) {
  const { t } = useTranslation();
  const params = useParams({ strict: false }) as Record<string, string>;
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const state = [
    ...Object.entries(params).map(([key, value]) => [key, value] as const),
    ...Object.entries(search)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, Array.isArray(value) ? value.join(", ") : String(value)] as const),
  ];
  return (
    <div>
      <PageHeader title={t(`pages.${route.path}.title`)} description={t(`pages.${route.path}.summary`)} />
      <Card>
        <p className="text-slate-700 dark:text-slate-200">{t("placeholder.comingSoon")}</p>
        {state.length > 0 && (
          <>
            <h2 className="mt-5 text-sm font-semibold text-slate-600 dark:text-slate-300">
              {t("placeholder.fromAddress")}
            </h2>
            <dl
              className="mt-2 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm"
              data-testid="page-state"
            >
              {state.map(([key, value]) => (
                <div key={key} className="contents">
                  <dt className="font-mono text-slate-500 dark:text-slate-400">{key}</dt>
                  <dd className="font-mono break-all">{value}</dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </Card>
    </div>
  );
}
