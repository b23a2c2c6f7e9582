import { useQuery } from "@tanstack/react-query";
import { SearchX } from "lucide-react";
import { Fragment, type ReactNode, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  API_DOCUMENT_PATH,
  type ApiDocument,
  type ApiOperation,
  type ApiParameter,
} from "../../../shared/contracts/api-docs";
import { PageHeader } from "../../components/page-header";
import { DownloadLink } from "../../components/ui/download-link";
import { TextField } from "../../components/ui/form";
import { TableRegion } from "../../components/ui/table-region";
import { EmptyState, Loading, QueryError, Section } from "../home/parts";
import { apiDocumentQuery } from "./api";
import { type Components, componentNameOf, type FieldRow, limitsOf, shapesOf, typeOf } from "./schema-fields";

const TH = "px-3 py-2 text-left font-semibold";
const TD = "px-3 py-2 align-top";
const CODE = "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] wrap-anywhere dark:bg-slate-800";

const METHOD_COLOURS: Record<string, string> = {
  get: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100",
  post: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  put: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  patch: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  delete: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
};

const VERIFY_SAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

// rawBody: the request's bytes exactly as received (a Buffer), before any JSON parsing.
export function isFromDash(rawBody, signatureHeader, secret) {
  const hex = createHmac("sha256", secret).update(rawBody).digest("hex");
  const expected = Buffer.from(\`sha256=\${hex}\`);
  const given = Buffer.from(signatureHeader ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// With Express: app.post("/dash", express.raw({ type: "application/json" }), (req, res) => {
//   if (!isFromDash(req.body, req.get("X-Dash-Signature"), process.env.DASH_WEBHOOK_SECRET))
//     return res.sendStatus(401);
//   const event = JSON.parse(req.body); // deduplicate by req.get("X-Dash-Delivery") or event.id
//   res.sendStatus(204);
// });`;

/** A line of the document's text: `code` and **bold**, nothing else. */
function InlineText({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, index) => {
        const key = `${index}-${part}`;
        if (part.startsWith("`") && part.endsWith("`"))
          return (
            <code key={key} className={CODE}>
              {part.slice(1, -1)}
            </code>
          );
        if (part.startsWith("**") && part.endsWith("**"))
          return <strong key={key}>{part.slice(2, -2)}</strong>;
        return <Fragment key={key}>{part}</Fragment>;
      })}
    </>
  );
}

/** The document's text in paragraphs. */
function DocText({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\n+/).map((paragraph) => (
        <p key={paragraph} className="mt-2 text-sm leading-relaxed text-slate-700 dark:text-slate-300">
          <InlineText text={paragraph} />
        </p>
      ))}
    </>
  );
}

function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-block w-16 shrink-0 rounded-md px-2 py-0.5 text-center font-mono text-xs font-bold uppercase ${METHOD_COLOURS[method] ?? ""}`}
    >
      {method}
    </span>
  );
}

function FieldTable({ label, rows }: { label: string; rows: FieldRow[] }) {
  const { t } = useTranslation("api-docs");
  if (rows.length === 0)
    return <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t("fields.none")}</p>;
  return (
    <TableRegion label={label} className="mt-2 rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full min-w-[40rem] text-sm">
        <thead className="bg-slate-50 dark:bg-slate-800/60">
          <tr>
            <th scope="col" className={TH}>
              {t("fields.name")}
            </th>
            <th scope="col" className={TH}>
              {t("fields.type")}
            </th>
            <th scope="col" className={TH}>
              {t("fields.required")}
            </th>
            <th scope="col" className={TH}>
              {t("fields.description")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={row.name}>
              <th scope="row" className={`${TD} text-left font-mono text-xs font-medium break-words`}>
                {row.name}
              </th>
              <td className={`${TD} text-xs break-words`}>{row.type}</td>
              <td className={TD}>{row.required ? t("fields.yes") : t("fields.no")}</td>
              <td className={TD}>
                <InlineText text={row.description} />
                {row.limits.length > 0 && (
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    {row.limits.join(" · ")}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

const parameterRows = (parameters: ApiParameter[], components: Components): FieldRow[] =>
  parameters.map((parameter) => ({
    name: parameter.name,
    type: `${typeOf(parameter.schema, components)} · ${parameter.in}`,
    required: parameter.required ?? false,
    description: parameter.description ?? "",
    limits: limitsOf(parameter.schema),
  }));

function BodyShapes({
  schema,
  components,
  label,
}: {
  schema: Record<string, unknown>;
  components: Components;
  label: string;
}) {
  const { t } = useTranslation("api-docs");
  const shapes = shapesOf(schema, components);
  return (
    <>
      {shapes.map((shape, index) => (
        <div key={shape.name ?? index} className="mt-2">
          {(shapes.length > 1 || shape.name) && (
            <p className="text-sm font-medium">
              {shapes.length > 1 && `${t("body.either", { number: index + 1 })} `}
              {shape.name && <code className={CODE}>{shape.name}</code>}
            </p>
          )}
          <FieldTable label={`${label} ${shape.name ?? index + 1}`} rows={shape.fields} />
        </div>
      ))}
    </>
  );
}

function OperationDetails({
  method,
  path,
  operation,
  document,
  open,
}: {
  method: string;
  path: string;
  operation: ApiOperation;
  document: ApiDocument;
  open: boolean;
}) {
  const { t } = useTranslation("api-docs");
  const components = document.components.schemas;
  const bodyMedia = operation.requestBody && Object.entries(operation.requestBody.content)[0];
  const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
  return (
    <details open={open} className="group rounded-xl border border-slate-200 dark:border-slate-800">
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 rounded-xl p-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 dark:hover:bg-slate-800/60">
        <MethodBadge method={method} />
        <code className="font-mono text-sm font-semibold break-all">{path}</code>
        <span className="text-sm text-slate-600 dark:text-slate-300">{operation.summary}</span>
      </summary>
      <div className="space-y-4 border-t border-slate-200 p-4 dark:border-slate-800">
        <div>
          <DocText text={operation.description} />
          <p className="mt-2 text-sm">
            <span className="font-medium">{t("operation.auth")} </span>
            {schemes.length === 0
              ? t("operation.public")
              : schemes.map((scheme) => t(`schemes.${scheme}.name`)).join(` ${t("operation.or")} `)}
          </p>
        </div>
        {operation.parameters && (
          <div>
            <h3 className="font-semibold">{t("operation.parameters")}</h3>
            <FieldTable
              label={`${t("operation.parameters")}: ${method.toUpperCase()} ${path}`}
              rows={parameterRows(operation.parameters, components)}
            />
          </div>
        )}
        {bodyMedia && (
          <div>
            <h3 className="font-semibold">
              {t("operation.body")} <code className={CODE}>{bodyMedia[0]}</code>
            </h3>
            <BodyShapes
              schema={bodyMedia[1].schema}
              components={components}
              label={`${t("operation.body")}: ${method.toUpperCase()} ${path}`}
            />
          </div>
        )}
        <div>
          <h3 className="font-semibold">{t("operation.responses")}</h3>
          <ul className="mt-2 space-y-3">
            {Object.entries(operation.responses).map(([status, response]) => {
              const schema = response.content?.["application/json"]?.schema;
              const isSuccess = status.startsWith("2");
              return (
                <li key={status} className="text-sm">
                  <span className="font-mono font-bold">
                    {status === "default" ? t("operation.otherStatus") : status}
                  </span>{" "}
                  {schema && <code className={CODE}>{componentNameOf(schema) ?? t("operation.json")}</code>}
                  <DocText text={response.description} />
                  {isSuccess && schema && (
                    <BodyShapes
                      schema={schema}
                      components={components}
                      label={`${t("operation.responses")} ${status}: ${method.toUpperCase()} ${path}`}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </details>
  );
}

function Intro({ document }: { document: ApiDocument }) {
  const { t, i18n } = useTranslation("api-docs");
  const token = document.components.securitySchemes.oneRosterOAuth?.flows?.clientCredentials.tokenUrl;
  return (
    <Section title={t("intro.title")} description={t("intro.description")}>
      {!i18n.language.startsWith("en") && (
        <p className="mb-3 rounded-lg bg-sky-50 p-3 text-sm text-sky-900 dark:bg-sky-950 dark:text-sky-100">
          {t("intro.englishOnly")}
        </p>
      )}
      <p className="text-sm">
        <span className="font-medium">{t("intro.baseUrl")} </span>
        <code className={CODE}>{window.location.origin}</code>
        <span className="text-slate-600 dark:text-slate-300">
          {" "}
          · {t("intro.version", { version: document.info.version })}
        </span>
      </p>
      <h3 className="mt-4 font-semibold">{t("intro.authTitle")}</h3>
      <dl className="mt-2 grid gap-3 md:grid-cols-2">
        {Object.entries(document.components.securitySchemes).map(([name, scheme]) => (
          <div key={name} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
            <dt className="font-medium">{t(`schemes.${name}.name`)}</dt>
            <dd className="text-sm text-slate-700 dark:text-slate-300">
              {t(`schemes.${name}.how`, { cookie: scheme.name, tokenUrl: token })}
              <DocText text={scheme.description} />
            </dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-4 font-semibold">{t("intro.moreTitle")}</h3>
      <DocText text={document.info.description} />
    </Section>
  );
}

function SignatureHelp() {
  const { t } = useTranslation("api-docs");
  return (
    <div className="rounded-xl border border-orange-200 bg-orange-50 p-4 dark:border-orange-900 dark:bg-orange-950/40">
      <h3 className="font-semibold">{t("signature.title")}</h3>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm">
        <li>{t("signature.raw")}</li>
        <li>{t("signature.hmac")}</li>
        <li>{t("signature.compare", { signature: "sha256=<hex>" })}</li>
        <li>{t("signature.dedupe")}</li>
      </ol>
      <section
        aria-label={t("signature.sample")}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: code wider than a phone scrolls, so it must be reachable by keyboard
        tabIndex={0}
        className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-3 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <pre className="font-mono text-xs leading-relaxed text-slate-100">
          <code>{VERIFY_SAMPLE}</code>
        </pre>
      </section>
    </div>
  );
}

/**
 * An event's description is what the event means, then how every delivery is made and verified:
 * the page says the second part once for all the events.
 */
const leadOf = (description: string) => description.split(/\n\n+/)[0] ?? "";
const deliveryTextOf = (description: string) => description.split(/\n\n+/).slice(1).join("\n\n");

const matches = (needle: string, ...haystack: string[]) =>
  needle === "" || haystack.some((text) => text.toLowerCase().includes(needle));

function Reference({ document, filter }: { document: ApiDocument; filter: string }) {
  const { t } = useTranslation("api-docs");
  const needle = filter.trim().toLowerCase();
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const visible = operations.filter(({ path, method, operation }) =>
    matches(
      needle,
      path,
      method,
      operation.summary,
      operation.description,
      operation.operationId,
      ...operation.tags,
    ),
  );
  const events = Object.entries(document.webhooks).filter(([type, { post }]) =>
    matches(needle, type, "webhook", post.description),
  );
  const isOpen = needle !== "";
  if (visible.length === 0 && events.length === 0)
    return (
      <EmptyState icon={SearchX} title={t("filter.noneTitle")}>
        {t("filter.noneBody", { filter })}
      </EmptyState>
    );
  return (
    <>
      {document.tags.map((tag) => {
        const ofTag = visible.filter(({ operation }) => operation.tags.includes(tag.name));
        if (ofTag.length === 0) return null;
        return (
          <Section key={tag.name} title={tag.name} description={<DocText text={tag.description} />}>
            <div className="space-y-3">
              {ofTag.map(({ path, method, operation }) => (
                <OperationDetails
                  key={`${method} ${path}`}
                  method={method}
                  path={path}
                  operation={operation}
                  document={document}
                  open={isOpen}
                />
              ))}
            </div>
          </Section>
        );
      })}
      {events.length > 0 && (
        <Section title={t("events.title")} description={t("events.description")}>
          <div className="space-y-3">
            <DocText text={deliveryTextOf(events[0]?.[1].post.description ?? "")} />
            <SignatureHelp />
            {events.map(([type, { post }]) => (
              <EventDetails
                key={type}
                type={type}
                event={post}
                components={document.components.schemas}
                open={isOpen}
              />
            ))}
          </div>
        </Section>
      )}
    </>
  );
}

function EventDetails({
  type,
  event,
  components,
  open,
}: {
  type: string;
  event: ApiOperation;
  components: Components;
  open: boolean;
}) {
  const { t } = useTranslation("api-docs");
  const body = event.requestBody?.content["application/json"]?.schema;
  return (
    <details open={open} className="rounded-xl border border-slate-200 dark:border-slate-800">
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 rounded-xl p-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 dark:hover:bg-slate-800/60">
        <MethodBadge method="post" />
        <code className="font-mono text-sm font-semibold">{type}</code>
      </summary>
      <div className="space-y-4 border-t border-slate-200 p-4 dark:border-slate-800">
        <DocText text={leadOf(event.description)} />
        {event.parameters && (
          <div>
            <h3 className="font-semibold">{t("events.headers")}</h3>
            <FieldTable
              label={`${t("events.headers")}: ${type}`}
              rows={parameterRows(event.parameters, components)}
            />
          </div>
        )}
        {body && (
          <div>
            <h3 className="font-semibold">{t("events.body")}</h3>
            <BodyShapes schema={body} components={components} label={`${t("events.body")}: ${type}`} />
          </div>
        )}
      </div>
    </details>
  );
}

/** The administrators' readable reference of the API, from its own OpenAPI document. */
export function ApiDocsPage(): ReactNode {
  const { t } = useTranslation("api-docs");
  const document = useQuery(apiDocumentQuery);
  const [filter, setFilter] = useState("");
  const deferredFilter = useDeferredValue(filter);
  return (
    <div className="space-y-6">
      <PageHeader
        title={t("common:pages./app/admin/api-docs.title")}
        description={t("description")}
        actions={<DownloadLink href={API_DOCUMENT_PATH}>{t("download")}</DownloadLink>}
      />
      {document.isError ? (
        <QueryError
          error={document.error}
          fallback={t("loadFailed")}
          onRetry={() => void document.refetch()}
        />
      ) : !document.data ? (
        <Loading label={t("loading")} rows={6} />
      ) : (
        <>
          <Intro document={document.data} />
          <TextField
            label={t("filter.label")}
            type="search"
            value={filter}
            placeholder={t("filter.placeholder")}
            onChange={(event) => setFilter(event.target.value)}
            className="max-w-md"
          />
          <Reference document={document.data} filter={deferredFilter} />
        </>
      )}
    </div>
  );
}
