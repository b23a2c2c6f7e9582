import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, Link, Outlet } from "@tanstack/react-router";
import { RouteError } from "../components/route-error";

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Outlet,
  errorComponent: (props) => <RouteError {...props} isRoot />,
  notFoundComponent: NotFound,
});

function NotFound() {
  return (
    <main className="mx-auto mt-24 max-w-md px-6 text-center">
      <h1 className="text-3xl font-bold">Not Found</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">There is no page at this address.</p>
      <Link
        to="/app"
        className="mt-6 inline-block font-semibold text-brand-700 underline dark:text-brand-500"
      >
        Go to your dashboard
      </Link>
    </main>
  );
}
