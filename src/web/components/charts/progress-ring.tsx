import type { ReactNode } from "react";

const RADIUS = 52;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/**
 * A goal's progress as a ring (a progressbar to assistive technology, with `valueText` saying it
 * in words): `share` of it drawn in `strokeClass`, `children` in the middle for sighted readers.
 */
export function ProgressRing({
  share,
  label,
  value,
  max,
  valueText,
  strokeClass,
  children,
}: {
  /** 0 to 1. */
  share: number;
  label: string;
  value: number;
  max: number;
  valueText: string;
  strokeClass: string;
  children: ReactNode;
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={valueText}
      className="relative size-32 shrink-0"
    >
      <svg viewBox="0 0 120 120" className="size-full -rotate-90" aria-hidden="true">
        <circle
          cx="60"
          cy="60"
          r={RADIUS}
          fill="none"
          strokeWidth="12"
          className="stroke-slate-200 dark:stroke-slate-700"
        />
        <circle
          cx="60"
          cy="60"
          r={RADIUS}
          fill="none"
          strokeWidth="12"
          strokeLinecap="round"
          strokeDasharray={CIRCUMFERENCE}
          strokeDashoffset={CIRCUMFERENCE * (1 - Math.min(1, Math.max(0, share)))}
          className={`${strokeClass} motion-safe:transition-[stroke-dashoffset]`}
        />
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center" aria-hidden="true">
        {children}
      </div>
    </div>
  );
}
