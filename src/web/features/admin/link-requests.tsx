import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { GuardianLinkRequest } from "../../../shared/contracts/people";
import { Card } from "../../components/page-header";
import { failureMessage } from "../../components/ui/dialog";
import { decideGuardianLinkRequest, guardianLinkRequestsQuery } from "./api";
import { DANGER_SMALL_BUTTON, SMALL_BUTTON } from "./people-search";
import { useRefreshRoster } from "./user-roles";

/**
 * Links Guides asked for while onboarding a student: a parent or guardian who already has an
 * account sees the child's learning only once an administrator approves.
 */
export function GuardianLinkRequests() {
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
        decision === "approve"
          ? `Linked ${request.agent.name} to ${request.student.name}.`
          : `${request.agent.name} was not linked to ${request.student.name}.`,
      );
    } catch (error) {
      setProblem(failureMessage(error, "Could not decide this request."));
    }
  }

  return (
    <Card>
      <h2 className="text-lg font-bold">Links waiting for approval</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        Guides asked to link these parents and guardians, who already have an account, to students they
        onboarded. Once linked, they see the child's learning.
      </p>
      <div aria-live="polite" className="mt-3 space-y-2">
        {notice && <p className="text-sm text-emerald-800 dark:text-emerald-200">{notice}</p>}
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {problem}
          </p>
        )}
        {requests.isError && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
            {failureMessage(requests.error, "Could not load the requests.")}
          </p>
        )}
      </div>
      <ul className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
        {waiting.map((request) => (
          <li key={request.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <p className="text-sm">
              <strong>{request.agent.name}</strong> as parent or guardian of{" "}
              <strong>{request.student.name}</strong>
              <span className="block text-xs text-slate-600 dark:text-slate-300">
                Asked by {request.requestedBy.name} on {new Date(request.requestedAt).toLocaleDateString()}
              </span>
            </p>
            <div className="flex gap-2">
              <button
                type="button"
                className={SMALL_BUTTON}
                onClick={() => decide(request, "approve")}
                aria-label={`Approve linking ${request.agent.name} to ${request.student.name}`}
              >
                Approve
              </button>
              <button
                type="button"
                className={DANGER_SMALL_BUTTON}
                onClick={() => decide(request, "refuse")}
                aria-label={`Refuse linking ${request.agent.name} to ${request.student.name}`}
              >
                Refuse
              </button>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
