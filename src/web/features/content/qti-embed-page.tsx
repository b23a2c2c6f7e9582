import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { QtiResponseValue } from "../../../shared/contracts/content";
import { Card, PageHeader } from "../../components/page-header";
import { CopyButton } from "../../components/ui/copy-button";
import { isUnavailable, qtiItemQuery, qtiStimulusQuery } from "./qti-api";
import { QtiItemPlayer, QtiStimulusView } from "./qti-player";

/**
 * The public embeds (/qti-embed/{id}, /qti-stimulus-embed/{id}): one item or passage alone on a
 * plain background, for another site's iframe. They need no session; the bank shows them only
 * public documents (or any, to a signed-in visitor of this origin). The embed tells the page
 * that frames it each answer and its own height, with the messages the bare routes describe.
 */

/** What the embed posts to the page that frames it. */
type QtiEmbedMessage =
  | { type: "QTI_RESPONSE_CHANGE"; responseIdentifier: string; response: QtiResponseValue }
  | { type: "QTI_RESIZE"; height: number };

function postToHost(message: QtiEmbedMessage) {
  if (window.parent === window) return;
  // The embed cannot know which site frames it, so it posts to any ("*"): a message carries only
  // the learner's answer to a public item, or a height, never who the learner is or a secret.
  window.parent.postMessage(message, "*");
}

/** Posts the element's height whenever it changes, so the host can size its iframe to fit. */
function useHeightPosting() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || window.parent === window) return;
    let posted = 0;
    const observer = new ResizeObserver(() => {
      const height = Math.ceil(element.getBoundingClientRect().height);
      if (height === posted) return;
      posted = height;
      postToHost({ type: "QTI_RESIZE", height });
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return ref;
}

/** The white page of an embed; its content (not the viewport) is what the host's iframe fits. */
function EmbedFrame({ title, children }: { title: string; children: ReactNode }) {
  const ref = useHeightPosting();
  return (
    <div className="min-h-screen bg-white text-slate-900 scheme-light">
      <main id="main" ref={ref} className="mx-auto max-w-4xl p-2 sm:p-4">
        <h1 className="sr-only">{title}</h1>
        {children}
      </main>
    </div>
  );
}

function EmbedNotice({ children, tone = "info" }: { children: ReactNode; tone?: "info" | "error" }) {
  const colours = tone === "error" ? "bg-red-50 text-red-800" : "bg-slate-100 text-slate-800";
  return (
    <p role={tone === "error" ? "alert" : "status"} className={`rounded-lg p-4 text-sm ${colours}`}>
      {children}
    </p>
  );
}

/** /qti-embed/{qtiId}: one item, answerable; each change of an answer goes to the host page. */
export function QtiItemEmbedPage() {
  const { t } = useTranslation("content");
  const { qtiId } = useParams({ strict: false }) as { qtiId: string };
  const item = useQuery(qtiItemQuery(qtiId));
  return (
    <EmbedFrame title={item.data?.title ?? t("embed.item.heading")}>
      {item.isPending ? (
        <EmbedNotice>{t("embed.item.loading")}</EmbedNotice>
      ) : item.isError ? (
        <EmbedNotice tone="error">
          {isUnavailable(item.error) ? t("embed.item.unavailable") : t("embed.failed")}
        </EmbedNotice>
      ) : (
        <QtiItemPlayer
          rawXml={item.data.rawXml}
          onResponseChange={(responseIdentifier, response) =>
            postToHost({ type: "QTI_RESPONSE_CHANGE", responseIdentifier, response })
          }
        />
      )}
    </EmbedFrame>
  );
}

/** /qti-stimulus-embed/{qtiId}: one shared stimulus to read; its route loader fetches the XML. */
export function QtiStimulusEmbedPage() {
  const { t } = useTranslation("content");
  const { qtiId } = useParams({ strict: false }) as { qtiId: string };
  const stimulus = useQuery(qtiStimulusQuery(qtiId));
  return (
    <EmbedFrame title={stimulus.data?.title ?? t("embed.stimulus.heading")}>
      {stimulus.isPending ? (
        <EmbedNotice>{t("embed.stimulus.loading")}</EmbedNotice>
      ) : stimulus.isError ? (
        <EmbedNotice tone="error">
          {isUnavailable(stimulus.error) ? t("embed.stimulus.unavailable") : t("embed.failed")}
        </EmbedNotice>
      ) : (
        <QtiStimulusView rawXml={stimulus.data.rawXml} />
      )}
    </EmbedFrame>
  );
}

const iframeSnippet = (src: string, title: string, height: number) => `<iframe
  src="${src}"
  title="${title}"
  width="100%"
  height="${height}"
  style="border: 0"
></iframe>`;

/** /qti-embed: what the item embed is for, how to frame it and what it posts. */
export function QtiEmbedInfoPage() {
  const { t } = useTranslation("content");
  const origin = window.location.origin;
  const snippet = iframeSnippet(`${origin}/qti-embed/ITEM_ID`, "Question", 400);
  return (
    <EmbedInfo
      title={t("embed.itemInfo.heading")}
      intro={[t("embed.itemInfo.purpose"), t("embed.itemInfo.public")]}
      snippet={snippet}
      messages={[
        {
          description: t("embed.itemInfo.responseMessage"),
          example: { type: "QTI_RESPONSE_CHANGE", responseIdentifier: "RESPONSE", response: "ChoiceA" },
        },
        { description: t("embed.resizeMessage"), example: { type: "QTI_RESIZE", height: 420 } },
      ]}
      listener={`window.addEventListener("message", (event) => {
  if (event.origin !== "${origin}") return;
  if (event.data.type === "QTI_RESPONSE_CHANGE")
    saveAnswer(event.data.responseIdentifier, event.data.response);
  if (event.data.type === "QTI_RESIZE")
    document.querySelector("iframe").style.height = event.data.height + "px";
});`}
    />
  );
}

/** /qti-stimulus-embed: what the passage embed is for and how to frame it. */
export function QtiStimulusEmbedInfoPage() {
  const { t } = useTranslation("content");
  const origin = window.location.origin;
  const snippet = iframeSnippet(`${origin}/qti-stimulus-embed/STIMULUS_ID`, "Passage", 600);
  return (
    <EmbedInfo
      title={t("embed.stimulusInfo.heading")}
      intro={[t("embed.stimulusInfo.purpose"), t("embed.stimulusInfo.public")]}
      snippet={snippet}
      messages={[{ description: t("embed.resizeMessage"), example: { type: "QTI_RESIZE", height: 640 } }]}
      listener={`window.addEventListener("message", (event) => {
  if (event.origin !== "${origin}") return;
  if (event.data.type === "QTI_RESIZE")
    document.querySelector("iframe").style.height = event.data.height + "px";
});`}
    />
  );
}

function EmbedInfo({
  title,
  intro,
  snippet,
  messages,
  listener,
}: {
  title: string;
  intro: string[];
  snippet: string;
  messages: { description: string; example: QtiEmbedMessage }[];
  listener: string;
}) {
  const { t } = useTranslation("content");
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10">
      <PageHeader title={title} description={intro[0]} />
      <div className="space-y-6">
        <Card>
          {intro.slice(1).map((paragraph) => (
            <p key={paragraph} className="text-slate-700 dark:text-slate-200">
              {paragraph}
            </p>
          ))}
          <h2 className="mt-5 text-lg font-bold">{t("embed.snippetHeading")}</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("embed.snippetHelp")}</p>
          <div className="mt-3 flex flex-wrap items-start gap-3">
            <CodeBlock code={snippet} label={t("embed.snippetHeading")} />
            <CopyButton value={snippet} label={t("embed.copySnippet")} />
          </div>
        </Card>
        <Card>
          <h2 className="text-lg font-bold">{t("embed.messagesHeading")}</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{t("embed.messagesHelp")}</p>
          <dl className="mt-4 space-y-4">
            {messages.map((message) => (
              <div key={message.example.type}>
                <dt className="font-mono text-sm font-semibold">{message.example.type}</dt>
                <dd className="mt-1 space-y-2">
                  <p className="text-sm text-slate-700 dark:text-slate-200">{message.description}</p>
                  <CodeBlock code={JSON.stringify(message.example, null, 2)} label={message.example.type} />
                </dd>
              </div>
            ))}
          </dl>
          <h3 className="mt-6 font-semibold">{t("embed.listenerHeading")}</h3>
          <div className="mt-2">
            <CodeBlock code={listener} label={t("embed.listenerHeading")} />
          </div>
        </Card>
      </div>
    </main>
  );
}

/** Code to copy, kept as typed: scrolls sideways inside its box on a phone instead of wrapping. */
function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
      tabIndex={0}
      className="min-w-0 flex-1 overflow-x-auto rounded-lg bg-slate-100 p-3 dark:bg-slate-800"
    >
      <pre className="text-xs leading-relaxed text-slate-800 dark:text-slate-100">
        <code>{code}</code>
      </pre>
    </section>
  );
}
