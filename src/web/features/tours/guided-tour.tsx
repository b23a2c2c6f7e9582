import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "@tanstack/react-router";
import { Map as MapIcon } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type TourName, type TourOutcome, tourOfRole } from "../../../shared/contracts/tours";
import { loadCatalogues } from "../../lib/i18n";
import type { AuthState } from "../auth/auth-state";
import { completedToursQuery, recordTourEnd, restartTourOnServer, tourKeys } from "./api";
import {
  forgetTour,
  isCompletedHere,
  markCompletedHere,
  savedProgress,
  saveProgress,
  type TourProgress,
} from "./progress";
import { onTourRequest, requestTour, type TourStart } from "./tour-control";
import type { TourStartPoint } from "./tour-runner";

// Joyride, the steps and their texts load only when a tour runs.
const TourRunner = lazy(() =>
  Promise.all([import("./tour-runner"), loadCatalogues(["tours"])]).then(([module]) => ({
    default: module.TourRunner,
  })),
);

/**
 * The guided tour of the active role: a student's starts by itself at first sign-in (unless it
 * was done on this device or, as the server says, on another), a tour under way resumes after a
 * reload, and the menus start one from the beginning or from the page in view. While viewing Dash
 * as someone, a tour runs only when asked for, and nothing of it is kept.
 */
export function GuidedTour({ auth, isLocked }: { auth: AuthState; isLocked: boolean }) {
  const tour = isLocked ? null : tourOfRole(auth.activeRole);
  const isOwn = !auth.isImpersonating;
  const userId = auth.user.sourcedId;
  const router = useRouter();
  const queryClient = useQueryClient();
  const completions = useQuery({ ...completedToursQuery(), enabled: tour !== null && isOwn });
  const [running, setRunning] = useState<{ start: TourStartPoint; run: number } | null>(null);
  const decidedFor = useRef<TourName | null>(null);

  // Once per tour: start or resume it by itself, or not.
  useEffect(() => {
    if (!tour || !isOwn || running || decidedFor.current === tour) return;
    const progress = savedProgress(userId, tour);
    if (isCompletedHere(userId, tour) || (!progress && tour !== "student")) {
      decidedFor.current = tour;
      return;
    }
    // Another device may have finished it: the server says so. Without its answer, no tour.
    if (!completions.isSuccess) return;
    decidedFor.current = tour;
    if (completions.data.some((done) => done.tour === tour)) {
      markCompletedHere(userId, tour);
      return;
    }
    setRunning({ start: progress ? { kind: "resume", progress } : { kind: "beginning" }, run: Date.now() });
  }, [tour, isOwn, running, userId, completions.isSuccess, completions.data]);

  useEffect(
    () =>
      onTourRequest((start: TourStart) => {
        if (!tour) return;
        if (start === "beginning" && isOwn) {
          forgetTour(userId, tour);
          // Restarted: it counts as not done, on every device, until it ends again.
          void restartTourOnServer(tour).then(
            () => queryClient.invalidateQueries({ queryKey: tourKeys.completions }),
            () => undefined,
          );
        }
        setRunning({
          start:
            start === "beginning"
              ? { kind: "beginning" }
              : { kind: "this-page", pathname: window.location.pathname },
          run: Date.now(),
        });
      }),
    [tour, isOwn, userId, queryClient],
  );

  const onStep = useCallback(
    (progress: TourProgress) => {
      if (tour && isOwn) saveProgress(userId, tour, progress);
    },
    [tour, isOwn, userId],
  );

  const onEnd = useCallback(
    (outcome: TourOutcome) => {
      setRunning(null);
      router.history.push("/app");
      if (!tour || !isOwn) return;
      markCompletedHere(userId, tour);
      void recordTourEnd(tour, outcome).then(
        () => queryClient.invalidateQueries({ queryKey: tourKeys.completions }),
        // Kept on this device all the same; another device may offer it once more.
        () => undefined,
      );
    },
    [router, tour, isOwn, userId, queryClient],
  );

  if (!tour || !running) return null;
  return (
    <Suspense fallback={null}>
      <TourRunner key={running.run} tour={tour} start={running.start} onStep={onStep} onEnd={onEnd} />
    </Suspense>
  );
}

/** "Take the tour" and "Tour this page", for the role's tour; nothing for a role without one. */
export function TourEntries({ auth, onChosen }: { auth: AuthState; onChosen?: () => void }) {
  const { t } = useTranslation("shell");
  if (!tourOfRole(auth.activeRole)) return null;
  const choose = (start: TourStart) => {
    onChosen?.();
    requestTour(start);
  };
  const entry =
    "block w-full rounded-lg px-3 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800";
  return (
    <ul aria-label={t("tour.menu")}>
      <li>
        <button type="button" className={entry} onClick={() => choose("beginning")}>
          {t("tour.fromStart")}
        </button>
      </li>
      <li>
        <button type="button" className={entry} onClick={() => choose("this-page")}>
          {t("tour.thisPage")}
        </button>
      </li>
    </ul>
  );
}

/** The tour's entries behind one header button, for those without the help button (students). */
export function TourMenu({ auth }: { auth: AuthState }) {
  const { t } = useTranslation("shell");
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setIsOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setIsOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [isOpen]);

  if (!tourOfRole(auth.activeRole)) return null;
  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        data-tour="tour-menu"
        aria-expanded={isOpen}
        // Only while the panel is there: a reference to a missing element is an error.
        aria-controls={isOpen ? panelId : undefined}
        onClick={() => setIsOpen((open) => !open)}
        title={t("tour.menu")}
        className="rounded-lg border border-orange-400 px-2.5 py-1.5 text-sm text-orange-800 hover:bg-orange-50 dark:border-orange-400 dark:text-orange-300 dark:hover:bg-slate-800"
      >
        <MapIcon aria-hidden="true" className="size-4" />
        <span className="sr-only">{t("tour.menu")}</span>
      </button>
      {isOpen && (
        <div
          id={panelId}
          className="absolute right-0 z-30 mt-2 w-52 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <TourEntries auth={auth} onChosen={() => setIsOpen(false)} />
        </div>
      )}
    </div>
  );
}
