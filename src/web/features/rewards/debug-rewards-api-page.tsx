import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page-header";
import { buttonClass } from "../../components/ui/form";
import { formatNumber } from "../../lib/format";
import { ApiRequestError } from "../../lib/http";
import { i18next } from "../../lib/i18n";
import { Section } from "../home/parts";
import { SELECT_CLASS } from "../xp/student-picker";
import {
  ENDPOINTS,
  type Endpoint,
  pathParameters,
  REWARDS_API_BASE,
  resolvedPath,
} from "./admin-api-endpoints";
import { ADMIN_INPUT_CLASS, AdminField } from "./admin-form";
import { callRewardsApi } from "./api";

interface Answer {
  method: string;
  path: string;
  milliseconds: number;
  /** What came back: the JSON of a success, or the error's status, code, message and issues. */
  outcome:
    | { ok: true; status: number; body: unknown }
    | {
        ok: false;
        status?: number;
        code?: string;
        message: string;
        issues: readonly { path: string; message: string }[];
      };
}

const bodyTextOf = (endpoint: Endpoint) => (endpoint.body ? JSON.stringify(endpoint.body(), null, 2) : "");

/** Administrators call the rewards API by hand, as themselves, and read the answer as it came. */
export function DebugRewardsApiPage() {
  const { t } = useTranslation("rewards");
  const ids = { endpoint: useId(), answer: useId() };
  const [index, setIndex] = useState(0);
  const endpoint = ENDPOINTS[index] as Endpoint;
  const [parameters, setParameters] = useState<Record<string, string>>({});
  const [query, setQuery] = useState(endpoint.query ?? "");
  const [body, setBody] = useState(() => bodyTextOf(endpoint));
  const [problem, setProblem] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);

  function choose(next: number) {
    const chosen = ENDPOINTS[next] as Endpoint;
    setIndex(next);
    setQuery(chosen.query ?? "");
    setBody(bodyTextOf(chosen));
    setProblem(null);
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const missing = pathParameters(endpoint.path).find((name) => !parameters[name]?.trim());
    if (missing) return setProblem(t("debug.api.problems.parameter", { name: missing }));
    const path = resolvedPath(endpoint, parameters, query);
    if (!path) return setProblem(t("debug.api.problems.outside", { base: REWARDS_API_BASE }));
    let json: unknown;
    if (endpoint.body) {
      try {
        json = JSON.parse(body);
      } catch (error) {
        return setProblem(t("debug.api.problems.json", { message: (error as Error).message }));
      }
    }
    setIsSending(true);
    const started = performance.now();
    let outcome: Answer["outcome"];
    try {
      const { status, data } = await callRewardsApi(endpoint.method, path, json);
      outcome = { ok: true, status, body: data };
    } catch (error) {
      outcome =
        error instanceof ApiRequestError
          ? {
              ok: false,
              status: error.status,
              code: error.code,
              message: error.message,
              issues: error.issues,
            }
          : { ok: false, message: (error as Error).message, issues: [] };
    }
    setAnswer({ method: endpoint.method, path, milliseconds: performance.now() - started, outcome });
    setIsSending(false);
  }

  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/debug/rewards-api.title")}
        description={t("debug.api.description")}
      />
      <Section title={t("debug.api.requestTitle")}>
        <form onSubmit={send} noValidate className="space-y-4">
          <div>
            <label htmlFor={ids.endpoint} className="text-sm font-medium">
              {t("debug.api.endpoint")}
            </label>
            <select
              id={ids.endpoint}
              value={index}
              onChange={(event) => choose(Number(event.target.value))}
              className={`${SELECT_CLASS} font-mono text-sm`}
            >
              {ENDPOINTS.map((option, position) => (
                <option key={`${option.method} ${option.path}`} value={position}>
                  {option.method} {option.path}
                </option>
              ))}
            </select>
          </div>
          {pathParameters(endpoint.path).length > 0 && (
            <div className="grid gap-4 sm:grid-cols-2">
              {pathParameters(endpoint.path).map((name) => (
                <AdminField
                  key={name}
                  label={t("debug.api.parameter", { name })}
                  hint={name === "action" ? t("debug.api.actionHint") : undefined}
                >
                  {(control) => (
                    <input
                      {...control}
                      value={parameters[name] ?? ""}
                      onChange={(event) => setParameters({ ...parameters, [name]: event.target.value })}
                      spellCheck={false}
                      autoComplete="off"
                      className={`${ADMIN_INPUT_CLASS} font-mono text-sm`}
                    />
                  )}
                </AdminField>
              ))}
            </div>
          )}
          {endpoint.query !== undefined && (
            <AdminField label={t("debug.api.query")} hint={t("debug.api.queryHint")}>
              {(control) => (
                <input
                  {...control}
                  value={query}
                  onChange={(event) => setQuery(event.target.value)}
                  spellCheck={false}
                  autoComplete="off"
                  className={`${ADMIN_INPUT_CLASS} font-mono text-sm`}
                />
              )}
            </AdminField>
          )}
          {endpoint.body && (
            <AdminField label={t("debug.api.body")} hint={t("debug.api.bodyHint")}>
              {(control) => (
                <textarea
                  {...control}
                  value={body}
                  onChange={(event) => setBody(event.target.value)}
                  rows={Math.min(14, body.split("\n").length + 1)}
                  spellCheck={false}
                  className={`${ADMIN_INPUT_CLASS} font-mono text-sm`}
                />
              )}
            </AdminField>
          )}
          {problem && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {problem}
            </p>
          )}
          <button type="submit" disabled={isSending} className={buttonClass("primary", "w-full sm:w-auto")}>
            {isSending ? t("debug.api.sending") : t("debug.api.send", { method: endpoint.method })}
          </button>
        </form>
      </Section>
      <p role="status" className="sr-only">
        {answer && `${headlineOf(answer)}. ${durationOf(answer)}`}
      </p>
      {answer && <AnswerView answer={answer} headingId={ids.answer} />}
    </div>
  );
}

const headlineOf = ({ outcome }: Answer) =>
  outcome.ok
    ? i18next.t("rewards:debug.api.succeeded", { status: outcome.status })
    : i18next.t("rewards:debug.api.failed", { status: outcome.status ?? "—" });

const durationOf = (answer: Answer) =>
  i18next.t("rewards:debug.api.duration", { ms: formatNumber(answer.milliseconds, 0) });

function AnswerView({ answer, headingId }: { answer: Answer; headingId: string }) {
  const { t } = useTranslation("rewards");
  const { outcome } = answer;
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={headingId} className="text-lg font-bold">
        {headlineOf(answer)}
      </h2>
      <p className="mt-1 font-mono text-sm break-all text-slate-600 dark:text-slate-300">
        {answer.method} {answer.path} · {durationOf(answer)}
      </p>
      {!outcome.ok && (
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium">{t("debug.api.code")}</dt>
          <dd className="font-mono break-all">{outcome.code ?? "—"}</dd>
          <dt className="font-medium">{t("debug.api.message")}</dt>
          <dd className="break-words">{outcome.message}</dd>
          {outcome.issues.length > 0 && (
            <>
              <dt className="font-medium">{t("debug.api.issues")}</dt>
              <dd>
                <ul className="list-disc pl-5">
                  {outcome.issues.map((issue) => (
                    <li key={`${issue.path}:${issue.message}`}>
                      <code className="font-mono">{issue.path || "—"}</code>: {issue.message}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          )}
        </dl>
      )}
      {outcome.ok && (
        <section
          aria-label={t("debug.api.answerBody")}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard
          tabIndex={0}
          className="mt-4 max-h-[32rem] overflow-auto rounded-lg bg-slate-50 p-3 focus-visible:outline-2 focus-visible:outline-brand-600 dark:bg-slate-950"
        >
          <pre className="font-mono text-xs leading-relaxed">
            {outcome.body === undefined ? t("debug.api.noBody") : JSON.stringify(outcome.body, null, 2)}
          </pre>
        </section>
      )}
    </section>
  );
}
