import { QueryClient, useQuery } from "@tanstack/react-query";
import {
  type AnyRoute,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  type RouteComponent,
  redirect,
} from "@tanstack/react-router";
import { loginUrlFor, safeRedirectPath } from "../shared/redirect";
import { decideAccess, type PageRoute, type RoutePath, routes, searchSchemas } from "../shared/routes";
import { NotFound } from "./components/not-found";
import { PlaceholderPage } from "./components/placeholder-page";
import { RouteAnnouncer } from "./components/route-announcer";
import { RouteError } from "./components/route-error";
import { configQuery, INVALID_AUTH_DATA, meQuery } from "./features/auth/api";
import { type AuthState, accessSubjectOf, toAuthState } from "./features/auth/auth-state";
import { afterSignInPath } from "./features/auth/login-redirect";
import { lockoutRedirect } from "./features/integrity/lockout";
import { AppShell } from "./features/shell/app-shell";
import { pageComponents, pageLoaders } from "./pages";

/**
 * The router is built from the route table in src/shared/routes.ts: every page gets its path,
 * search schema and guard from there, and its component from ./pages (or a placeholder).
 */
interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: (props) => <RouteError {...props} isRoot />,
  notFoundComponent: RootNotFound,
});

function RootLayout() {
  return (
    <>
      <RouteAnnouncer />
      <Outlet />
    </>
  );
}

/** The signed-in area: loads the caller, or sends them to sign in with the way back. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "signed-in",
  beforeLoad: async ({ context, location }): Promise<{ auth: AuthState }> => {
    const toLogin = () => redirect({ href: loginUrlFor(location.href), replace: true });
    // The public configuration loads beside the session, not after it.
    const configLoad = context.queryClient.ensureQueryData(configQuery);
    configLoad.catch(() => {});
    const me = await context.queryClient.ensureQueryData(meQuery).catch((error: Error) => {
      if (error.message === INVALID_AUTH_DATA) {
        console.error(INVALID_AUTH_DATA);
        throw toLogin();
      }
      throw error;
    });
    if (!me.isAuthenticated) throw toLogin();
    const config = await configLoad;
    return { auth: toAuthState(me, config) };
  },
  component: SignedInLayout,
  errorComponent: RouteError,
  notFoundComponent: NotFound,
});

function SignedInLayout() {
  const { auth } = signedInRoute.useRouteContext();
  return (
    <AppShell auth={auth}>
      <Outlet />
    </AppShell>
  );
}

const appRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: "app",
  validateSearch: searchSchemas.appLayout,
  component: Outlet,
  notFoundComponent: NotFound,
});

/** An address no route matches: inside the shell for a signed-in user, plain otherwise. */
function RootNotFound() {
  const me = useQuery(meQuery);
  const config = useQuery(configQuery);
  if (me.data?.isAuthenticated && config.data) {
    return (
      <AppShell auth={toAuthState(me.data, config.data)}>
        <NotFound />
      </AppShell>
    );
  }
  return <NotFound />;
}

function parentOf(route: PageRoute): AnyRoute {
  if (route.access === "public") return rootRoute;
  return route.path.startsWith("/app/") ? appRoute : signedInRoute;
}

/** The path below the parent: "/app/flow/" becomes "flow", "/app/" the index "/". */
function relativePath(route: PageRoute): string {
  const below = route.path.startsWith("/app/") ? route.path.slice("/app/".length) : route.path.slice(1);
  return below.replace(/\/$/, "") || "/";
}

function pageRoute(route: PageRoute) {
  const component: RouteComponent =
    pageComponents[route.path as RoutePath] ??
    (route.access === "public"
      ? // Outside the shell, a page brings its own main landmark.
        () => (
          <main id="main" className="mx-auto max-w-3xl px-4 py-10">
            <PlaceholderPage route={route} />
          </main>
        )
      : () => <PlaceholderPage route={route} />);
  const load = pageLoaders[route.path as RoutePath];
  // A page with a loader prefetches its data from its search and params before it shows.
  const loading = load && {
    loaderDeps: ({ search }: { search: Record<string, unknown> }) => search,
    loader: ({
      context,
      deps,
      params,
    }: {
      context: RouterContext;
      deps: Record<string, unknown>;
      params: Record<string, string>;
    }) =>
      load({
        queryClient: context.queryClient,
        auth: (context as RouterContext & { auth?: AuthState }).auth,
        search: deps,
        params,
      }),
  };
  return createRoute({
    getParentRoute: () => parentOf(route),
    path: relativePath(route),
    validateSearch: route.search,
    beforeLoad: async ({ context, search }) => {
      const { auth, queryClient } = context as RouterContext & { auth?: AuthState };
      if (route.path === "/login") {
        // Someone already signed in goes where the sign-in would have taken them.
        const me = await queryClient.ensureQueryData(meQuery).catch(() => null);
        const target = search as {
          redirect?: string;
          schoolId?: string;
          role?: "student" | "teacher" | "administrator";
        };
        if (me?.isAuthenticated)
          throw redirect({ href: afterSignInPath(target, safeRedirectPath(target.redirect)) });
        return;
      }
      if (!auth) return;
      const decision = decideAccess(route, accessSubjectOf(auth));
      if (!decision.allowed) throw redirect({ href: decision.redirectTo, replace: true });
      // A student whose dashboard is locked goes back to the page that says so.
      const locked = lockoutRedirect(queryClient, auth, route.path);
      if (locked) throw locked;
    },
    component,
    staticData: { pagePath: route.path },
    ...loading,
  } as Parameters<typeof createRoute>[0]) as unknown as AnyRoute;
}

const pageRoutes = (routes as readonly PageRoute[]).map((route) => ({
  parent: parentOf(route),
  route: pageRoute(route),
}));
const childrenOf = (parent: AnyRoute) =>
  pageRoutes.filter((entry) => entry.parent === parent).map((entry) => entry.route);
const routeTree = rootRoute.addChildren([
  ...childrenOf(rootRoute),
  signedInRoute.addChildren([...childrenOf(signedInRoute), appRoute.addChildren(childrenOf(appRoute))]),
]);

export function createAppRouter() {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false } },
  });
  const router = createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    defaultPreloadDelay: 50,
    defaultPendingMs: 1000,
    defaultPendingMinMs: 500,
    // Loaders read through React Query, which decides freshness itself.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
  return { router, queryClient };
}

/** Starts the first page's code and catalogue while the session is checked, instead of after it. */
export function preloadFirstPage(router: ReturnType<typeof createAppRouter>["router"]) {
  for (const match of router.matchRoutes(router.state.location)) {
    // A failure shows when the page itself loads.
    router
      .loadRouteChunk(router.routesById[match.routeId as keyof typeof router.routesById] as AnyRoute)
      ?.catch(() => {});
  }
}

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The page's path in the route table, for what every page shares (its title). */
    pagePath?: string;
  }
  interface Register {
    router: ReturnType<typeof createAppRouter>["router"];
  }
}
