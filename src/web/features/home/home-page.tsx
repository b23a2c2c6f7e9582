import { ROLE_DISPLAY_NAMES } from "../../../shared/roles";
import { useAuth } from "../auth/use-auth";
import { ViewAsPanel } from "../auth/view-as";

export function HomePage() {
  const { user, activeRole, isImpersonating } = useAuth();
  const organisations = new Map(user.roles.map((entry) => [entry.org.sourcedId, entry.org]));
  const roleNames = [...new Set(user.roles.map((entry) => ROLE_DISPLAY_NAMES[entry.role]))];

  return (
    <section aria-labelledby="welcome" className="space-y-6">
      <div className="rounded-2xl bg-gradient-to-r from-brand-600 to-brand-700 p-8 text-white shadow">
        <p className="text-sm font-medium text-brand-100">Welcome back</p>
        <h1 id="welcome" className="mt-1 text-3xl font-extrabold tracking-tight">
          {user.givenName} {user.familyName}
        </h1>
        {user.email && <p className="mt-1 text-brand-100">{user.email}</p>}
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h2 className="text-lg font-bold">Your roles</h2>
          {roleNames.length ? (
            <ul className="mt-3 flex flex-wrap gap-2" aria-label="Roles">
              {roleNames.map((name) => (
                <li
                  key={name}
                  className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-700 dark:bg-brand-900 dark:text-brand-100"
                >
                  {name}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-3 text-slate-600 dark:text-slate-300">
              You have no role in Dash yet. Ask your school to add one.
            </p>
          )}
        </article>
        <article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h2 className="text-lg font-bold">Your organisations</h2>
          <ul className="mt-3 space-y-2" aria-label="Organisations">
            {[...organisations.values()].map((org) => (
              <li key={org.sourcedId} className="flex items-center justify-between gap-3">
                <span className="font-medium">{org.name}</span>
                <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700 capitalize dark:bg-slate-800 dark:text-slate-300">
                  {org.type}
                </span>
              </li>
            ))}
          </ul>
        </article>
      </div>
      {activeRole === "teacher" && !isImpersonating && (
        <ViewAsPanel
          title="Your students"
          description="Your students and their families. View Dash as one of them to see what they see."
        />
      )}
    </section>
  );
}
