import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { startAnalytics } from "./features/analytics/collector";
import { startAuthChecks } from "./features/auth/auth-check";
import { i18next, startI18n } from "./lib/i18n";
import { languageFor } from "./lib/language";
import { createAppRouter, preloadFirstPage } from "./router";
import "./styles.css";

const { router, queryClient } = createAppRouter();
const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

// Until `me` says more (an account's choice, the school's default): this device's choice or the browser's.
i18next.on("languageChanged", (language) => {
  document.documentElement.lang = language;
});
await startI18n(languageFor(null));
preloadFirstPage(router);

startAuthChecks(queryClient);
startAnalytics(router, queryClient);
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
