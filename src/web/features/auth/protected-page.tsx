import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { sessionExpirySchema } from "../../../shared/contracts/auth";
import { Card, PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { instantLabel } from "../../lib/format";
import { apiFetch } from "../../lib/http";
import { fullName } from "./auth-state";
import { useAuth } from "./use-auth";

const sessionQuery = {
  queryKey: ["auth", "session"] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiFetch("/api/auth/session", sessionExpirySchema, { signal }),
  // Each visit asks again: the time without use starts over with every request.
  staleTime: 0,
};

/** /protected: confirms the visitor is signed in, as whom, and until when. */
export function ProtectedPage() {
  const { t } = useTranslation("auth");
  const { realUser, user, isImpersonating, activeRole, availableRoles } = useAuth();
  const session = useQuery(sessionQuery);

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title={t("protected.title")} description={t("protected.description")} />
      <Card>
        <h2 className="text-lg font-bold">{t("protected.who")}</h2>
        <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">{t("protected.name")}</dt>
          <dd>{fullName(realUser)}</dd>
          <dt className="font-medium">{t("protected.email")}</dt>
          <dd className="break-all">{realUser.email ?? t("protected.noEmail")}</dd>
          <dt className="font-medium">{t("protected.activeRole")}</dt>
          <dd>{activeRole ? t(`common:roles.${activeRole}`) : t("protected.noRole")}</dd>
          <dt className="font-medium">{t("protected.roles")}</dt>
          <dd>
            {availableRoles.length
              ? availableRoles.map((role) => t(`common:roles.${role}`)).join(", ")
              : t("protected.noRole")}
          </dd>
          {isImpersonating && (
            <>
              <dt className="font-medium">{t("protected.viewingAs")}</dt>
              <dd>{fullName(user)}</dd>
            </>
          )}
        </dl>
      </Card>
      <Card>
        <h2 className="text-lg font-bold">{t("protected.session")}</h2>
        {session.isPending ? (
          <p role="status" className="mt-3 text-slate-600 dark:text-slate-300">
            {t("protected.loading")}
          </p>
        ) : session.isError ? (
          <p role="alert" className="mt-3 text-red-700 dark:text-red-300">
            {t("protected.loadFailed")}
          </p>
        ) : (
          <>
            <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
              <dt className="font-medium">{t("protected.signedInAt")}</dt>
              <dd>{instantLabel(session.data.signedInAt)}</dd>
              <dt className="font-medium">{t("protected.expiresAt")}</dt>
              <dd>{instantLabel(session.data.expiresAt)}</dd>
              <dt className="font-medium">{t("protected.idleEndsAt")}</dt>
              <dd>{instantLabel(session.data.endsWithoutUseAt)}</dd>
            </dl>
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
              {t("protected.explain", { minutes: session.data.idleMinutes })}
            </p>
          </>
        )}
      </Card>
      <Link to="/app" className={buttonClass("primary", "inline-block")}>
        {t("protected.home")}
      </Link>
    </div>
  );
}
