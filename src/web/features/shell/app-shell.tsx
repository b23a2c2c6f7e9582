import { useQueryClient } from "@tanstack/react-query";
import { Link, useRouterState } from "@tanstack/react-router";
import { LifeBuoy, Moon, Sun, SunMoon } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isAdminLevel } from "../../../shared/roles";
import { NAV_GROUPS, sidebarRoutes } from "../../../shared/routes";
import { Brand } from "../../components/brand";
import { LanguageSelect } from "../../components/language-select";
import { chooseOwnLanguage } from "../../lib/language";
import { authKeys, saveOwnLanguage, signOut, stopImpersonation } from "../auth/api";
import { type AuthState, accessSubjectOf, fullName } from "../auth/auth-state";
import { ChangePasswordDialog } from "../auth/change-password-dialog";
import { resetRole, switchRole } from "../auth/role-choice";
import { AuthProvider } from "../auth/use-auth";
import { useLockoutGuard } from "../integrity/lockout";
import { MessagesLink } from "../messaging/messages-link";
import { NotificationBell } from "../notifications/bell";
import { GuidedTour, TourEntries, TourMenu } from "../tours/guided-tour";
import { THEMES, type Theme, useDebugMode, useTheme } from "./preferences";
import { useLiveUpdates } from "./use-live-updates";

/** The signed-in frame of every page: sidebar, header, impersonation banner and help button. */
export function AppShell({ auth, children }: { auth: AuthState; children: ReactNode }) {
  const { t } = useTranslation("shell");
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const [isChangingPassword, setIsChangingPassword] = useState(false);
  // While viewing as someone, the account in view is not one's own: the server refuses too.
  const changePassword = auth.isImpersonating ? null : () => setIsChangingPassword(true);
  const isDebug = useDebugMode(isAdminLevel(auth.activeRole));
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const hasHelpButton = auth.activeRole !== "student";
  useLiveUpdates();
  // A student whose dashboard is locked is kept on the page that says so, and offered no other.
  const isLocked = useLockoutGuard(auth);

  // A page change on a phone closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not a value used
  useEffect(() => setIsMenuOpen(false), [pathname]);

  return (
    <AuthProvider auth={auth}>
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-brand-700 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t("skipToContent")}
      </a>
      <div className="flex min-h-screen">
        <Sidebar
          auth={auth}
          isLocked={isLocked}
          helpUrl={hasHelpButton ? auth.config.supportUrl : null}
          isOpen={isMenuOpen}
          onClose={() => setIsMenuOpen(false)}
          onChangePassword={changePassword}
        />
        <div className="flex min-w-0 flex-1 flex-col">
          <Header
            auth={auth}
            isLocked={isLocked}
            helpUrl={hasHelpButton ? auth.config.supportUrl : null}
            isDebug={isDebug}
            onOpenMenu={() => setIsMenuOpen(true)}
            onChangePassword={changePassword}
          />
          <main
            id="main"
            tabIndex={-1}
            className="mx-auto w-full max-w-6xl flex-1 px-4 pt-6 pb-6 sm:px-6 lg:px-8"
          >
            {children}
          </main>
        </div>
      </div>
      {isChangingPassword && (
        <ChangePasswordDialog user={auth.realUser} onClose={() => setIsChangingPassword(false)} />
      )}
      <GuidedTour auth={auth} isLocked={isLocked} />
    </AuthProvider>
  );
}

/** The sidebar links: pages of the active role, grouped; none while the dashboard is locked. */
function navigationFor(auth: AuthState, isLocked: boolean) {
  if (isLocked) return [];
  const subject = accessSubjectOf(auth);
  return NAV_GROUPS.map((group) => ({
    group,
    links: sidebarRoutes(group, subject).map((route) => ({
      to: route.path === "/app/" ? "/app" : route.path.replace(/\/$/, ""),
      path: route.path,
    })),
  })).filter((section) => section.links.length > 0);
}

function Sidebar({
  auth,
  isLocked,
  helpUrl,
  isOpen,
  onClose,
  onChangePassword,
}: {
  auth: AuthState;
  isLocked: boolean;
  helpUrl: string | null;
  isOpen: boolean;
  onClose: () => void;
  onChangePassword: (() => void) | null;
}) {
  const { t } = useTranslation("shell");
  const sections = navigationFor(auth, isLocked);
  const nav = useRef<HTMLElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // Open on a phone, the menu acts as a dialog: focus moves in and stays in, Escape closes it,
  // and focus goes back to the Menu button.
  useEffect(() => {
    if (!isOpen) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") close.current();
      if (event.key !== "Tab" || !nav.current) return;
      const focusable = [
        ...nav.current.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), select"),
      ];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      opener?.focus();
    };
  }, [isOpen]);
  return (
    <>
      {isOpen && (
        <button
          type="button"
          aria-label={t("closeMenu")}
          onClick={onClose}
          className="fixed inset-0 z-30 bg-slate-900/40 lg:hidden"
        />
      )}
      <nav
        ref={nav}
        data-tour="sidebar"
        aria-label={t("mainNavigation")}
        // Closed on a phone, it is out of sight and out of the Tab order.
        className={`${isOpen ? "translate-x-0" : "-translate-x-full max-lg:invisible"} fixed inset-y-0 left-0 z-40 flex w-64 shrink-0 flex-col border-r border-slate-200 bg-white lg:sticky lg:top-0 lg:h-screen lg:translate-x-0 motion-safe:transition-transform dark:border-slate-800 dark:bg-slate-900`}
      >
        <div className="min-h-0 flex-1 overflow-y-auto px-3 py-4">
          <div className="mb-4 flex items-center justify-between px-2">
            <Link to="/app" className="rounded-lg">
              <Brand />
            </Link>
            <button
              ref={closeButton}
              type="button"
              onClick={onClose}
              className="rounded-lg px-2 py-1 text-sm text-slate-600 lg:hidden dark:text-slate-300"
            >
              {t("close")}
            </button>
          </div>
          {sections.map((section) => (
            <div key={section.group} className="mb-4">
              <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
                {t(`common:navGroups.${section.group}`)}
              </p>
              <ul>
                {section.links.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      activeOptions={{ exact: true }}
                      className="block rounded-lg px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
                      activeProps={{
                        className:
                          "bg-brand-50 font-semibold text-brand-700 dark:bg-slate-800 dark:text-brand-100",
                        "aria-current": "page",
                      }}
                    >
                      {t(`common:pages.${link.path}.title`)}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {/* A phone's header has no room for these: there they are in this menu. */}
          <div className="mb-4 border-t border-slate-200 pt-3 sm:hidden dark:border-slate-800">
            <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
              {t("account")}
            </p>
            <OwnLanguageSelect className="px-3 py-1.5" />
            {onChangePassword && (
              <button
                type="button"
                onClick={() => {
                  onClose();
                  onChangePassword();
                }}
                className="block w-full rounded-lg px-3 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
              >
                {t("changePassword")}
              </button>
            )}
          </div>
        </div>
        {helpUrl && (
          <div className="space-y-2 border-t border-slate-200 p-3 dark:border-slate-800">
            <TourEntries auth={auth} onChosen={onClose} />
            <HelpLink href={helpUrl} where="sidebar" />
          </div>
        )}
      </nav>
    </>
  );
}

function Header({
  auth,
  isLocked,
  helpUrl,
  isDebug,
  onOpenMenu,
  onChangePassword,
}: {
  auth: AuthState;
  isLocked: boolean;
  helpUrl: string | null;
  isDebug: boolean;
  onOpenMenu: () => void;
  onChangePassword: (() => void) | null;
}) {
  const { t } = useTranslation("shell");
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      {/* Inside the sticky header, so the header (and its Menu button) never scrolls under the banner. */}
      {auth.isImpersonating && <ImpersonationBanner auth={auth} />}
      <div className="flex items-center gap-1.5 px-3 py-2.5 sm:gap-3 sm:px-6">
        <button
          type="button"
          onClick={onOpenMenu}
          data-tour="sidebar"
          className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold lg:hidden dark:border-slate-700"
        >
          {t("menu")}
        </button>
        <div className="flex-1" />
        {isDebug && (
          <span className="rounded-md bg-amber-300 px-2 py-0.5 text-xs font-bold tracking-wide text-amber-950 uppercase">
            {t("debug")}
          </span>
        )}
        {auth.availableRoles.length > 1 && <RoleSwitcher auth={auth} />}
        <OwnLanguageSelect className="hidden sm:flex" />
        {/* Both are refused while the dashboard is locked. */}
        {!isLocked && <MessagesLink />}
        {!isLocked && <NotificationBell />}
        <ThemeSwitcher />
        {helpUrl && <HelpLink href={helpUrl} where="header" />}
        {/* Without the help button (students), the tour has a menu of its own. */}
        {!helpUrl && !isLocked && <TourMenu auth={auth} />}
        <UserMenu auth={auth} onChangePassword={onChangePassword} />
      </div>
    </header>
  );
}

/**
 * "Get Help & Support", always in reach and never over the page: at the foot of the sidebar (on a
 * wide screen, and in a phone's menu), in the header of a tablet, whose sidebar is a menu.
 */
function HelpLink({ href, where }: { href: string; where: "sidebar" | "header" }) {
  const { t } = useTranslation("shell");
  const place =
    where === "sidebar"
      ? "flex w-full justify-center px-5 py-3 shadow-md"
      : "hidden size-10 shrink-0 justify-center sm:inline-flex lg:hidden";
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={`${place} items-center gap-2 rounded-full bg-blue-700 text-sm font-semibold text-white hover:bg-blue-800`}
    >
      <LifeBuoy aria-hidden="true" className="size-5 shrink-0" />
      <span className={where === "header" ? "sr-only" : undefined}>{t("help")}</span>
    </a>
  );
}

/** The language switcher of someone signed in: the choice is kept with their account. */
function OwnLanguageSelect({ className }: { className: string }) {
  const queryClient = useQueryClient();
  return (
    <LanguageSelect
      className={className}
      choose={(language) =>
        void chooseOwnLanguage(language, saveOwnLanguage).then(() =>
          queryClient.invalidateQueries({ queryKey: authKeys.me }),
        )
      }
    />
  );
}

function RoleSwitcher({ auth }: { auth: AuthState }) {
  const { t } = useTranslation("shell");
  const id = useId();
  const highest = auth.availableRoles[0];
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-600 dark:text-slate-300">
        {t("role")}
      </label>
      <select
        id={id}
        value={auth.activeRole ?? ""}
        onChange={(event) =>
          switchRole(
            event.target.value as (typeof auth.availableRoles)[number],
            auth.activeRole,
            auth.availableRoles,
          )
        }
        className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
      >
        {auth.availableRoles.map((role) => (
          <option key={role} value={role}>
            {t(`common:roles.${role}`)}
          </option>
        ))}
      </select>
      {auth.activeRole !== highest && (
        <button
          type="button"
          onClick={resetRole}
          className="text-sm font-medium text-brand-700 underline dark:text-brand-100"
        >
          {t("resetRole")}
        </button>
      )}
    </div>
  );
}

function ThemeSwitcher() {
  const { t } = useTranslation("shell");
  const [theme, setTheme] = useTheme();
  const next = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length] as Theme;
  const label = `${t(`theme.now.${theme}`)} ${t(`theme.switchTo.${next}`)}`;
  const ThemeIcon = theme === "dark" ? Moon : theme === "light" ? Sun : SunMoon;
  return (
    <button
      type="button"
      onClick={() => setTheme(next)}
      title={label}
      data-tour="theme"
      className="rounded-lg border border-slate-300 px-2.5 py-1.5 text-sm dark:border-slate-700"
    >
      <ThemeIcon aria-hidden="true" className="size-4" />
      <span className="sr-only">{label}</span>
    </button>
  );
}

function UserMenu({ auth, onChangePassword }: { auth: AuthState; onChangePassword: (() => void) | null }) {
  const { t } = useTranslation("shell");
  const queryClient = useQueryClient();
  const [isSigningOut, setIsSigningOut] = useState(false);
  return (
    <div className="flex items-center gap-3">
      {/* On a phone the header keeps its room for the icons and Sign out; the home says who and in which role. */}
      <div className="hidden text-right sm:block">
        <p className="text-sm font-semibold leading-tight">{fullName(auth.realUser)}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {auth.activeRole ? t(`common:roles.${auth.activeRole}`) : t("noRole")}
        </p>
      </div>
      {onChangePassword && (
        <button
          type="button"
          onClick={onChangePassword}
          className="hidden rounded-lg px-2 py-1.5 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline sm:block dark:text-brand-100"
        >
          {t("changePassword")}
        </button>
      )}
      <button
        type="button"
        disabled={isSigningOut}
        onClick={async () => {
          setIsSigningOut(true);
          await signOut().catch(() => undefined);
          queryClient.clear();
          window.location.assign("/login");
        }}
        className="whitespace-nowrap rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        {t("signOut")}
      </button>
    </div>
  );
}

function ImpersonationBanner({ auth }: { auth: AuthState }) {
  const { t } = useTranslation("shell");
  const [isStopping, setIsStopping] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <div role="status" className="bg-amber-400 text-amber-950">
      <div className="flex flex-wrap items-center justify-center gap-3 px-4 py-2 text-sm">
        <span className="font-semibold">{t("viewingAs", { name: fullName(auth.user) })}</span>
        {auth.activeRole && <span>{t("viewingAsRole", { role: t(`common:roles.${auth.activeRole}`) })}</span>}
        {failure && <span role="alert">{failure}</span>}
        <button
          type="button"
          disabled={isStopping}
          onClick={async () => {
            setIsStopping(true);
            try {
              await stopImpersonation();
              window.location.assign("/app");
            } catch (error) {
              setFailure(error instanceof Error ? error.message : t("couldNotStop"));
              setIsStopping(false);
            }
          }}
          className="rounded-md bg-amber-950 px-3 py-1 font-semibold text-amber-50 hover:bg-amber-900 disabled:opacity-60"
        >
          {t("stopViewingAs")}
        </button>
      </div>
    </div>
  );
}
