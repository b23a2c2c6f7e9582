import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { GuardianLinkRequest } from "../../../shared/contracts/people";
import { Card } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { instantDateLabel } from "../../lib/format";
import { decideGuardianLinkRequest, guardianLinkRequestsQuery } from "./api";
import { DANGER_SMALL_BUTTON, SMALL_BUTTON } from "./people-search";
import { useRefreshRoster } from "./user-roles";

/**
 * Links Guides asked for while onboarding a student: a parent or guardian who already has an
 * account sees the child's learning only once an administrator approves.
 */
export function GuardianLinkRequests() {
  const { t } = useTranslation("admin");
  const requests = useQuery(guardianLinkRequestsQuery);
  const refresh = useRefreshRoster();
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const waiting = requests.data?.data ?? [];
  if (!requests.isError && !waiting.length) return null;

  async function decide(request: GuardianLinkRequest, decision: "approve" | "refuse") {
    setNotice(null);
    setProblem(null);
    try {
      await decideGuardianLinkRequest(request.id, decision);
      await refresh();
      setNotice(
        t(decision === "approve" ? "linkRequests.linked" : "linkRequests.notLinked", {
          agent: request.agent.name,
          student: request.student.name,
        }),
      );
    } catch (error) {
      setProblem(failureMessage(error, t("linkRequests.decideFailed")));
    }
  }

  return (
    <Card>
      <h2 className="text-lg font-bold">{t("linkRequests.heading")}</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("linkRequests.description")}</p>
      <div aria-live="polite" className="mt-3 space-y-2">
        {notice && <p className="text-sm text-emerald-800 dark:text-emerald-200">{notice}</p>}
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
        {requests.isError && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {failureMessage(requests.error, t("linkRequests.loadFailed"))}
          </p>
        )}
      </div>
      <ul className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
        {waiting.map((request) => (
          <li key={request.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <p className="text-sm">
              {t("linkRequests.pair", { agent: request.agent.name, student: request.student.name })}
              <span className="block text-xs text-slate-600 dark:text-slate-300">
                {t("linkRequests.askedBy", {
                  name: request.requestedBy.name,
                  date: instantDateLabel(request.requestedAt),
                })}
              </span>
            </p>
            <div className="flex gap-2">
              <button
                type="button"
                className={SMALL_BUTTON}
                onClick={() => decide(request, "approve")}
                aria-label={t("linkRequests.approveLabel", {
                  agent: request.agent.name,
                  student: request.student.name,
                })}
              >
                {t("linkRequests.approve")}
              </button>
              <button
                type="button"
                className={DANGER_SMALL_BUTTON}
                onClick={() => decide(request, "refuse")}
                aria-label={t("linkRequests.refuseLabel", {
                  agent: request.agent.name,
                  student: request.student.name,
                })}
              >
                {t("linkRequests.refuse")}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
