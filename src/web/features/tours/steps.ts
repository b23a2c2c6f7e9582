import type { TourName } from "../../../shared/contracts/tours";

/**
 * The steps of each tour, in order. Each names its page and the element it points at (the
 * `data-tour` attribute on it); its title and text are `tours:<tour>.<id>.title` and `.text`.
 * `page-header` is every page's title block (components/page-header.tsx).
 */
export interface TourStep {
  id: string;
  path: string;
  target: string;
}

const step = (id: string, path: string, target = "page-header"): TourStep => ({ id, path, target });

const welcome = step("welcome", "/app", "home-welcome");
const sidebar = step("sidebar", "/app", "sidebar");

export const TOUR_STEPS: Record<TourName, readonly TourStep[]> = {
  student: [
    welcome,
    sidebar,
    step("today", "/app", "home-today"),
    step("week", "/app", "home-week"),
    step("everyDay", "/app", "home-daily"),
    step("learningMetrics", "/app/learning-metrics"),
    step("xpStats", "/app/xp-stats"),
    step("timeback", "/app/timeback"),
    step("emporium", "/app/emporium"),
    step("goals", "/app/goals"),
    step("leaderboards", "/app/leaderboards"),
    step("learningReport", "/app/my-learning-report"),
    step("mapGrowth", "/app/map-growth"),
    step("checkChart", "/app/check-chart"),
    step("placements", "/app/placements"),
    step("surveys", "/app/surveys"),
    step("messages", "/app/messages"),
    // The app store sends everyone home: apps open from the home's list.
    step("appStore", "/app", "home-apps"),
    step("theme", "/app", "theme"),
    step("tourMenu", "/app", "tour-menu"),
    step("home", "/app", "home-welcome"),
  ],
  teacher: [
    welcome,
    sidebar,
    step("learningMetrics", "/app/learning-metrics"),
    step("flow", "/app/flow"),
    step("goals", "/app/goals"),
    step("mapGrowth", "/app/guide/map-growth"),
    step("rewards", "/app/teacher/rewards-management"),
  ],
  parent: [
    welcome,
    sidebar,
    step("myChildren", "/app/my-children"),
    step("childrenProgress", "/app/children-progress"),
    step("learningMetrics", "/app/learning-metrics"),
    step("leaderboards", "/app/leaderboards"),
    step("mapGrowth", "/app/parent-map-growth"),
    step("emporium", "/app/parent-emporium"),
    step("timeback", "/app/timeback"),
    step("messages", "/app/messages"),
  ],
  administrator: [
    welcome,
    sidebar,
    step("learningMetrics", "/app/learning-metrics"),
    step("courseProgress", "/app/admin/course-progress"),
    step("placements", "/app/admin/placements"),
    step("screening", "/app/admin/screening"),
    step("guideMapGrowth", "/app/guide/map-growth"),
    step("mapImport", "/app/admin/map-growth"),
    step("goals", "/app/goals"),
    step("emporiumMonitor", "/app/emporium-monitor"),
    step("leaderboards", "/app/admin/leaderboards"),
    step("roles", "/app/admin/roles"),
    step("rosterSync", "/app/admin/roster-sync"),
    step("operations", "/app/admin/operations"),
    step("privacy", "/app/admin/privacy"),
  ],
};

/** A path as the steps write it: without a trailing slash ("/app/flow/" is "/app/flow"). */
export function samePage(pathname: string, path: string): boolean {
  return pathname.replace(/\/+$/, "") === path;
}

/** The element a step points at: the first one shown (the sidebar on a laptop, its Menu button on a phone). */
export function findTarget(name: string): HTMLElement | null {
  for (const element of document.querySelectorAll<HTMLElement>(`[data-tour="${name}"]`))
    if (element.getClientRects().length > 0 && element.checkVisibility({ visibilityProperty: true }))
      return element;
  return null;
}
