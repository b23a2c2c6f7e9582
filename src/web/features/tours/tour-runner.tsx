import { useRouter } from "@tanstack/react-router";
import { X } from "lucide-react";
import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type ArrowRenderProps, EVENTS, Joyride, type TooltipRenderProps } from "react-joyride";
import type { TourName, TourOutcome } from "../../../shared/contracts/tours";
import type { TourProgress } from "./progress";
import { findTarget, samePage, TOUR_STEPS, type TourStep } from "./steps";

/** The spec's waits: for a missing target 5 s, after Next or Back 6 s, looking every 100 ms. */
const MISSING_TARGET_WAIT_MS = 5_000;
const STEP_CHANGE_WAIT_MS = 6_000;
const POLL_MS = 100;

export type TourStartPoint =
  | { kind: "beginning" }
  | { kind: "resume"; progress: TourProgress }
  | { kind: "this-page"; pathname: string };

/** Where the tour starts: "this page" is the page's first step, or the beginning for a page the tour does not visit. */
function firstIndexOf(steps: readonly TourStep[], start: TourStartPoint): number {
  if (start.kind === "beginning") return 0;
  if (start.kind === "resume") return Math.min(start.progress.index, steps.length - 1);
  return Math.max(
    0,
    steps.findIndex((step) => samePage(start.pathname, step.path)),
  );
}

interface Shown {
  index: number;
  /** The target did not appear in time: the step is told in the middle of the page. */
  isCentred: boolean;
}

interface TourActions {
  index: number;
  size: number;
  back: () => void;
  next: () => void;
  skip: () => void;
  close: () => void;
}
const TourActionsContext = createContext<TourActions | null>(null);

/**
 * Runs one tour with react-joyride: each step is shown once its page is open and its target is
 * on screen. Joyride draws the spotlight, places the tooltip, scrolls and keeps focus in it; the
 * steps, the waiting and the endings are Dash's.
 */
export function TourRunner({
  tour,
  start,
  onStep,
  onEnd,
}: {
  tour: TourName;
  start: TourStartPoint;
  /** A step is on screen (to remember where the tour is). */
  onStep: (progress: TourProgress) => void;
  onEnd: (outcome: TourOutcome) => void;
}) {
  const { t } = useTranslation("tours");
  const router = useRouter();
  const steps = TOUR_STEPS[tour];
  const [shown, setShown] = useState<Shown | null>(null);
  // Each move starts a new wait; a newer move (or the end) makes the older wait give up.
  const move = useRef(0);
  const report = useRef(onStep);
  report.current = onStep;

  const showStep = useCallback(
    (index: number, waitMs: number) => {
      const step = steps[index] as TourStep;
      const thisMove = ++move.current;
      setShown(null);
      const startedAt = Date.now();
      const look = () => {
        if (thisMove !== move.current) return;
        const isThere = samePage(window.location.pathname, step.path) && findTarget(step.target) !== null;
        const hasWaited = Date.now() - startedAt >= waitMs;
        if (isThere || hasWaited) {
          setShown({ index, isCentred: !isThere });
          report.current({ index, path: step.path });
          return;
        }
        window.setTimeout(look, POLL_MS);
      };
      if (!samePage(window.location.pathname, step.path)) router.history.push(step.path);
      look();
    },
    [router, steps],
  );

  const end = useCallback(
    (outcome: TourOutcome) => {
      move.current++;
      setShown(null);
      onEnd(outcome);
    },
    [onEnd],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: the tour starts once, where it was asked to
  useEffect(() => {
    showStep(firstIndexOf(steps, start), MISSING_TARGET_WAIT_MS);
    return () => {
      move.current++;
    };
  }, []);

  // Escape closes the tour, wherever focus is.
  useEffect(() => {
    if (!shown) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      end("closed");
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [shown, end]);

  if (!shown) return null;
  const step = steps[shown.index] as TourStep;
  const isLast = shown.index === steps.length - 1;
  const actions: TourActions = {
    index: shown.index,
    size: steps.length,
    back: () => showStep(shown.index - 1, STEP_CHANGE_WAIT_MS),
    next: () => (isLast ? end("finished") : showStep(shown.index + 1, STEP_CHANGE_WAIT_MS)),
    skip: () => end("skipped"),
    close: () => end("closed"),
  };
  return (
    <TourActionsContext.Provider value={actions}>
      <Joyride
        key={`${shown.index}-${shown.isCentred}`}
        run
        scrollToFirstStep
        steps={[
          {
            id: step.id,
            target: shown.isCentred ? "body" : () => findTarget(step.target),
            placement: shown.isCentred ? "center" : "auto",
            title: t(`${tour}.${step.id}.title`),
            content: t(`${tour}.${step.id}.text`),
          },
        ]}
        tooltipComponent={TourTooltip}
        // A page that draws its header again can take the target away as the step opens: wait
        // for it once more (and tell the step in the middle of the page if it does not come back).
        onEvent={(event) => {
          if (event.type === EVENTS.TARGET_NOT_FOUND) showStep(shown.index, MISSING_TARGET_WAIT_MS);
        }}
        arrowComponent={TourArrow}
        options={{
          skipBeacon: true,
          // Escape is Dash's (above); a click beside the tooltip does not end the tour.
          dismissKeyAction: false,
          overlayClickAction: false,
          overlayColor: "rgba(15, 23, 42, 0.55)",
          spotlightRadius: 12,
          spotlightPadding: 6,
          zIndex: 60,
          width: 360,
        }}
      />
    </TourActionsContext.Provider>
  );
}

/** The tooltip: the step's title and text, where it is in the tour, and Back, Next or Last, Skip and Close. */
function TourTooltip({ step, tooltipProps }: TooltipRenderProps) {
  const { t } = useTranslation("tours");
  const actions = useContext(TourActionsContext);
  if (!actions) return null;
  const { index, size } = actions;
  const isLast = index === size - 1;
  const button = "rounded-lg px-3 py-1.5 text-sm font-semibold";
  return (
    <div
      {...tooltipProps}
      role="dialog"
      aria-labelledby="tour-step-title"
      aria-describedby="tour-step-text"
      data-testid="tour-step"
      className="relative w-[min(360px,calc(100vw-24px))] rounded-2xl border-t-4 border-orange-500 bg-white p-5 text-left text-slate-900 shadow-xl dark:border-orange-400 dark:bg-slate-900 dark:text-slate-100"
    >
      <p className="text-xs font-semibold tracking-wide text-orange-700 uppercase dark:text-orange-300">
        {t("label")} · {t("progress", { current: index + 1, total: size })}
      </p>
      <h2 id="tour-step-title" className="mt-1 pr-8 text-lg font-bold">
        {step.title}
      </h2>
      <p id="tour-step-text" className="mt-2 text-sm leading-relaxed text-slate-700 dark:text-slate-200">
        {step.content}
      </p>
      <button
        type="button"
        onClick={actions.close}
        aria-label={t("close")}
        title={t("close")}
        className="absolute top-3 right-3 rounded-lg p-1.5 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={actions.skip}
          className={`${button} mr-auto px-2 text-orange-800 underline-offset-2 hover:underline dark:text-orange-300`}
        >
          {t("skip")}
        </button>
        {index > 0 && (
          <button
            type="button"
            onClick={actions.back}
            className={`${button} border border-blue-700 text-blue-800 hover:bg-blue-50 dark:border-blue-300 dark:text-blue-200 dark:hover:bg-slate-800`}
          >
            {t("back")}
          </button>
        )}
        {/* Joyride moves focus to the element marked as primary when the step opens. */}
        <button
          type="button"
          data-action="primary"
          onClick={actions.next}
          className={`${button} bg-blue-700 text-white hover:bg-blue-800`}
        >
          {isLast ? t("last") : t("next")}
        </button>
      </div>
    </div>
  );
}

/** The arrow in the tooltip's colours, light or dark. */
function TourArrow({ base, placement, size }: ArrowRenderProps) {
  const side = placement.split("-")[0];
  const isVertical = side === "top" || side === "bottom";
  const width = isVertical ? base : size;
  const height = isVertical ? size : base;
  const points = {
    top: `0,0 ${base / 2},${size} ${base},0`,
    bottom: `${base},${size} ${base / 2},0 0,${size}`,
    left: `0,0 ${size},${base / 2} 0,${base}`,
    right: `${size},${base} ${size},0 0,${base / 2}`,
  }[side as "top" | "bottom" | "left" | "right"];
  return (
    <svg
      aria-hidden="true"
      width={width}
      height={height}
      className={`block ${side === "bottom" ? "text-orange-500 dark:text-orange-400" : "text-white dark:text-slate-900"}`}
    >
      <polygon fill="currentColor" points={points} />
    </svg>
  );
}
