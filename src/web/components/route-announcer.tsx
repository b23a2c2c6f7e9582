import { useRouterState } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";

/**
 * Says the page's name after each navigation, in the shown language: a single-page app changes
 * pages without the browser telling a screen reader so. The tab's title stays "Dash".
 */
export function RouteAnnouncer() {
  const { t } = useTranslation();
  const pagePath = useRouterState({ select: (state) => state.matches.at(-1)?.staticData.pagePath });
  return (
    <p id="route-announcer" className="sr-only" aria-live="polite" aria-atomic="true">
      {pagePath ? t(`pages.${pagePath}.title`) : ""}
    </p>
  );
}
