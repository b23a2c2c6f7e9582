import type { TFunction } from "i18next";
import type { ForecastStatus, Goal, GoalKind, GoalProgress } from "../../../shared/contracts/goals";
import { daysBetween } from "../../../shared/time-zone";
import { dateLabel, dayLabel, formatNumber, formatXp, monthDayLabel } from "../../lib/format";

/** Goals in words: a goal's title, its figures, where it comes from and its forecast. */

/** Who reads a goal: the student themself ("you"), or someone else (staff). */
export type Reader = "self" | "other";

/** A deadline as people say it: "Dec 25" this year, "Mar 1, 2027" another. */
export function deadlineLabel(date: string, today: string): string {
  return date.slice(0, 4) === today.slice(0, 4) ? monthDayLabel(date) : dateLabel(date);
}

/** "Finish Grade 4 Math by Mar 1", "Reach 220 RIT in Reading by May 15", "Master 40 units by Nov 30". */
export function goalTitle(goal: Goal, today: string, t: TFunction<"goals">): string {
  const date = goal.deadline ? deadlineLabel(goal.deadline, today) : "";
  const subject = goal.subject ?? "none";
  switch (goal.kind) {
    case "weekly_xp":
      return t("title.weekly_xp", { target: formatXp(goal.target), subject });
    case "course":
      return goal.courseTitle
        ? t("title.course", { course: goal.courseTitle, date })
        : t("title.courseUnnamed", { date });
    case "rit":
      return goal.subject
        ? t("title.rit", { target: goal.target, subject: goal.subject, date })
        : t("title.ritNoSubject", { target: goal.target, date });
    case "units":
      return t("title.units", { target: goal.target, subject, date });
  }
}

/** An amount of what a goal counts: "40 XP", "12 units", "RIT 205". */
export function amountText(kind: GoalKind, amount: number, t: TFunction<"goals">): string {
  if (kind === "units") return t("amount.units", { count: Math.floor(amount) });
  if (kind === "rit") return t("amount.rit", { amount: formatNumber(amount, 0) });
  return t("amount.xp", { amount: formatXp(amount) });
}

/** The forecast in plain words, for the student ("you") or for staff. */
export function forecastText(goal: GoalProgress, reader: Reader, t: TFunction<"goals">): string {
  const { forecast } = goal;
  const self = reader === "self";
  const needed = forecast.dailyNeeded === null ? "" : amountText(goal.kind, forecast.dailyNeeded, t);
  switch (forecast.status) {
    case "reached":
      return t("forecast.reached");
    case "missed":
      return t("forecast.missed");
    case "awaiting_test":
      return self ? t("forecast.awaitingSelf") : t("forecast.awaitingOther");
    case "no_pace":
      return self ? t("forecast.noPaceSelf", { needed }) : t("forecast.noPaceOther", { needed });
    case "on_track": {
      const reachedOn = forecast.reachedOn ?? goal.deadline;
      const values = { day: dayLabel(reachedOn), early: Math.max(0, daysBetween(reachedOn, goal.deadline)) };
      return self ? t("forecast.onTrackSelf", values) : t("forecast.onTrackOther", values);
    }
    case "behind":
      if (!forecast.reachedOn)
        return self ? t("forecast.behindFarSelf", { needed }) : t("forecast.behindFarOther", { needed });
      return self
        ? t("forecast.behindSelf", { day: dayLabel(forecast.reachedOn), needed })
        : t("forecast.behindOther", { day: dayLabel(forecast.reachedOn), needed });
  }
}

/** Where a goal comes from: the student's own, set by someone, their class's, or the school's. */
export function sourceText(goal: Goal, studentName: string | null, reader: Reader, t: TFunction<"goals">) {
  if (goal.source === "school") return t("source.school");
  if (goal.source === "class") return t("source.class", { name: goal.classTitle ?? "" });
  if (goal.setByName && goal.setByName === studentName)
    return reader === "self" ? t("source.own") : t("source.ownOther", { name: studentName });
  return goal.setByName ? t("source.setBy", { name: goal.setByName }) : "";
}

/** Green where it is going well, orange where it needs a push, grey where there is nothing to tell. */
export type Tone = "good" | "warn" | "neutral";

export function toneOf(status: ForecastStatus): Tone {
  if (status === "reached" || status === "on_track") return "good";
  if (status === "behind") return "warn";
  return "neutral";
}

/** The nearest goal with a date that is still open, else the first. */
export function nearestTarget(targets: GoalProgress[]): GoalProgress | undefined {
  const open = targets.filter(
    (goal) => goal.forecast.status !== "reached" && goal.forecast.status !== "missed",
  );
  return [...(open.length ? open : targets)].sort((a, b) => a.deadline.localeCompare(b.deadline))[0];
}
