import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { myAppLoginsQuery } from "./api";
import { RevealPassword } from "./reveal-password";

/** On a student's app card: the username the school keeps for that app, and its password on request. */
export function YourLogin({ appId, appName }: { appId: string; appName: string }) {
  const { t } = useTranslation("credentials");
  const logins = useQuery(myAppLoginsQuery);
  const login = logins.data?.credentials.find((entry) => entry.app.id === appId);
  if (!login) return null;
  return (
    <div className="mt-3 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
      <p className="font-medium">{t("yourLogin.heading")}</p>
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
        <span className="text-slate-600 dark:text-slate-300">{t("yourLogin.username")}</span>
        <span className="font-mono break-all">{login.username}</span>
      </p>
      <div className="mt-2">
        <RevealPassword credentialId={login.id} appName={appName} />
      </div>
    </div>
  );
}
