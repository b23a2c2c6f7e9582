import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { startAuthChecks } from "./features/auth/auth-check";
import { createAppRouter } from "./router";
import "./styles.css";

const { router, queryClient } = createAppRouter();
const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

startAuthChecks(queryClient);
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
