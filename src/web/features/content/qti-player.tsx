import type { QtiAssessmentItem, QtiAssessmentStimulusRefConnectedEvent } from "@citolab/qti-components";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QtiResponseValue } from "../../../shared/contracts/content";
import { buttonClass } from "../../components/ui/form";
import { qtiStimulusQuery } from "./qti-api";
import { loadQtiLibrary } from "./qti-runtime";
import { sameResponse, toResponseValue } from "./qti-values";

/**
 * QTI 3 items and shared stimuli in the browser, drawn by @citolab/qti-components (decision 022).
 * The library loads with the first question a page shows; each item lives in the library's
 * `<item-container>`, whose shadow root carries the library's theme, so the app's styles and the
 * item's never mix.
 */

type PlayerState = "loading" | "ready" | "broken";

export interface QtiItemPlayerProps {
  /** The item's QTI 3 XML, as the bank keeps it. */
  rawXml: string;
  /** Called each time the learner changes an answer, with the answer as Dash stores it. */
  onResponseChange?: (responseIdentifier: string, response: QtiResponseValue) => void;
  /** Shows the answers without letting the learner change them. */
  readOnly?: boolean;
  /** Earlier answers by response identifier, put back when the item first shows. */
  responses?: Record<string, QtiResponseValue>;
  /**
   * Whether the learner may check an answer and see the item's own feedback (modal or inline),
   * when the item has any. Default true; a graded attempt turns it off.
   */
  feedback?: boolean;
}

/** One QTI item, answerable with the mouse, touch or keyboard. */
export function QtiItemPlayer({
  rawXml,
  onResponseChange,
  readOnly = false,
  responses,
  feedback = true,
}: QtiItemPlayerProps) {
  const { t } = useTranslation("content");
  const queryClient = useQueryClient();
  const hostRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<PlayerState>("loading");
  const [attempt, setAttempt] = useState(0);
  const [item, setItem] = useState<QtiAssessmentItem | null>(null);
  // Read when the item connects, so a new callback or answers object does not draw the item again.
  const latest = useRef({ onResponseChange, responses, readOnly, t });
  latest.current = { onResponseChange, responses, readOnly, t };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` draws the item again after a failed download.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const listening = new AbortController();
    const on = (type: string, listener: (event: Event) => void) =>
      host.addEventListener(type, listener, { signal: listening.signal });
    let isConnected = false;
    // Each response as last reported (or put back), so only real changes are reported.
    const known = new Map<string, QtiResponseValue>();
    setState("loading");
    setItem(null);

    on("qti-interaction-changed", (event) => {
      // Values that interactions take as they connect are the item's start, not the learner's
      // answers; a read-only item takes none.
      if (!isConnected || latest.current.readOnly) return;
      const detail = (event as CustomEvent<{ responseIdentifier: string; response: unknown }>).detail;
      const response = toResponseValue(detail.response);
      const before = known.get(detail.responseIdentifier);
      if (before !== undefined && sameResponse(before, response)) return;
      known.set(detail.responseIdentifier, response);
      latest.current.onResponseChange?.(detail.responseIdentifier, response);
    });
    on("qti-assessment-stimulus-ref-connected", (event) => {
      // The bank, not the package's relative path, holds the stimulus.
      event.preventDefault();
      void showReferencedStimulus(
        event as QtiAssessmentStimulusRefConnectedEvent,
        queryClient,
        latest.current.t,
      );
    });

    const draw = async () => {
      const library = await loadQtiLibrary();
      if (listening.signal.aborted) return;
      on("qti-assessment-item-connected", (event) => {
        const connected = (event as CustomEvent<QtiAssessmentItem>).detail;
        isConnected = true;
        for (const variable of connected.variables)
          if (variable.type === "response") known.set(variable.identifier, toResponseValue(variable.value));
        const earlier = Object.entries(latest.current.responses ?? {}).filter(([, value]) => value !== null);
        for (const [identifier, value] of earlier) known.set(identifier, value);
        if (earlier.length > 0)
          connected.variables = earlier.map(([identifier, value]) => ({
            identifier,
            value,
            type: "response",
          }));
        const { t } = latest.current;
        library
          .finishItem(connected, {
            answerField: (number, count) => t("qti.answerField", { number, count }),
            closeFeedback: t("qti.closeFeedback"),
          })
          .then(() => {
            if (listening.signal.aborted) return;
            setItem(connected);
            setState("ready");
          });
      });
      const player = document.createElement("qti-item");
      player.configContext = { inlineChoicePrompt: latest.current.t("qti.choosePrompt") };
      library.mount(host, library.itemFragment(rawXml), player);
    };
    draw().catch(() => !listening.signal.aborted && setState("broken"));

    return () => {
      listening.abort();
      host.replaceChildren();
    };
  }, [rawXml, attempt, queryClient]);

  useEffect(() => {
    if (item) item.readonly = readOnly;
  }, [item, readOnly]);

  const hasFeedback =
    item !== null &&
    item.querySelector("qti-modal-feedback, qti-feedback-block, qti-feedback-inline") !== null;

  return (
    <div className={PLAYER_SURFACE} data-qti-state={state}>
      <QtiStatus state={state} retry={() => setAttempt((count) => count + 1)} />
      {/* Drawn while hidden from sight, not from layout: the library measures its elements as they connect. */}
      <div ref={hostRef} className={state === "ready" ? undefined : "invisible"} />
      {state === "ready" && item && feedback && hasFeedback && !readOnly && (
        <div className="mt-4">
          <button
            type="button"
            className={buttonClass("primary")}
            onClick={() => item.processResponse(true, false)}
          >
            {t("qti.check")}
          </button>
        </div>
      )}
    </div>
  );
}

/** A shared stimulus (a reading passage, a picture with its text), to read beside items. */
export function QtiStimulusView({ rawXml }: { rawXml: string }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<PlayerState>("loading");
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` draws the passage again after a failed download.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let isCurrent = true;
    setState("loading");
    loadQtiLibrary()
      .then((library) => {
        if (!isCurrent) return;
        library.mount(host, library.stimulusFragment(rawXml));
        setState("ready");
      })
      .catch(() => isCurrent && setState("broken"));
    return () => {
      isCurrent = false;
      host.replaceChildren();
    };
  }, [rawXml, attempt]);

  return (
    <div className={PLAYER_SURFACE} data-qti-state={state}>
      <QtiStatus state={state} retry={() => setAttempt((count) => count + 1)} />
      <div ref={hostRef} className={state === "ready" ? undefined : "invisible"} />
    </div>
  );
}

/** Items are drawn light whatever the page's theme: the library's theme has no dark variant. */
const PLAYER_SURFACE = "min-w-0 rounded-xl bg-white p-4 text-slate-900 scheme-light";

function QtiStatus({ state, retry }: { state: PlayerState; retry: () => void }) {
  const { t } = useTranslation("content");
  if (state === "loading")
    return (
      <p role="status" className="py-6 text-sm text-slate-600">
        {t("qti.loading")}
      </p>
    );
  if (state === "broken")
    return (
      <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
        {t("qti.broken")}{" "}
        <button type="button" onClick={retry} className="font-semibold underline">
          {t("qti.tryAgain")}
        </button>
      </p>
    );
  return null;
}

/** Puts a referenced stimulus, read from the bank, in front of the item's body. */
async function showReferencedStimulus(
  event: QtiAssessmentStimulusRefConnectedEvent,
  queryClient: QueryClient,
  t: TFunction,
) {
  const passage = document.createElement("div");
  passage.className = "qti-shared-stimulus";
  try {
    const [stimulus, library] = await Promise.all([
      queryClient.fetchQuery(qtiStimulusQuery(event.element.identifier)),
      loadQtiLibrary(),
    ]);
    passage.append(
      ...Array.from(
        library.stimulusFragment(stimulus.rawXml).querySelectorAll("qti-stylesheet, qti-stimulus-body"),
      ),
    );
  } catch {
    const note = document.createElement("p");
    note.textContent = t("qti.passageUnavailable");
    passage.append(note);
  }
  event.element.after(passage);
}
