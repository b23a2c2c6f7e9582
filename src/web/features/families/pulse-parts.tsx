import type { TFunction } from "i18next";
import { BookOpen, Check, Flame, type LucideIcon, Sparkles, Star } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { PulseFigures, PulseNews } from "../../../shared/contracts/families";
import { dayLabel, formatNumber, formatXp, gradeLabel } from "../../lib/format";

/** The parts of a week's pulse: its figures at a glance, XP per subject against the goals, news and focus. */

const gradeOf = (grade: number) => gradeLabel([grade === 0 ? "KG" : String(grade)]);

function Tile({
  icon: Icon,
  term,
  value,
  hint,
}: {
  icon: LucideIcon;
  term: string;
  value: string;
  hint?: string;
}) {
  // Five tiles: on two columns, the last one takes the whole row.
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-3 last:col-span-2 lg:last:col-span-1 dark:bg-slate-800">
      <dt className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
        <Icon aria-hidden="true" className="size-4 shrink-0" />
        {term}
      </dt>
      <dd className="mt-1 text-xl font-bold tabular-nums">{value}</dd>
      {hint && <dd className="text-xs text-slate-600 dark:text-slate-300">{hint}</dd>}
    </div>
  );
}

/** XP, days with every goal met, the streak, units mastered and Alphas, as tiles. */
export function PulseTiles({ figures }: { figures: PulseFigures }) {
  const { t } = useTranslation("families");
  return (
    <dl aria-label={t("pulse.figures.label")} className="grid grid-cols-2 gap-3 lg:grid-cols-5">
      <Tile icon={Sparkles} term={t("pulse.figures.xp")} value={formatXp(figures.xp)} />
      <Tile
        icon={Check}
        term={t("pulse.figures.goalDays")}
        value={t("pulse.figures.goalDaysValue", {
          days: figures.daysAllGoalsMet,
          schoolDays: figures.schoolDays,
        })}
        hint={t("pulse.figures.goalDaysHint", { count: figures.schoolDays })}
      />
      <Tile
        icon={Flame}
        term={t("pulse.figures.streak")}
        value={t("pulse.figures.streakValue", { count: figures.streak })}
      />
      <Tile icon={BookOpen} term={t("pulse.figures.units")} value={formatNumber(figures.masteredUnits, 0)} />
      <Tile
        icon={Star}
        term={t("pulse.figures.alphas")}
        value={t("pulse.figures.alphasValue", {
          earned: formatNumber(figures.alphas.earned, 0),
          spent: formatNumber(figures.alphas.spent, 0),
        })}
        hint={t("pulse.figures.alphasHint", {
          earned: formatNumber(figures.alphas.earned, 0),
          spent: formatNumber(figures.alphas.spent, 0),
        })}
      />
    </dl>
  );
}

/**
 * Each subject's XP this week against its daily goal on every school day of the week: a bar per
 * subject, its figures in words beside it, and the days the goal was met.
 */
export function PulseSubjectBars({ figures }: { figures: PulseFigures }) {
  const { t } = useTranslation("families");
  const subjects = figures.subjects.filter((subject) => subject.dailyGoal !== null || subject.xp > 0);
  if (figures.xp === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-300">{t("pulse.subjects.none")}</p>;
  const targetOf = (goal: number | null) => (goal === null ? null : goal * figures.schoolDays);
  const top = Math.max(
    1,
    ...subjects.map((subject) => Math.max(subject.xp, targetOf(subject.dailyGoal) ?? 0)),
  );
  return (
    <ul aria-label={t("pulse.subjects.label")} className="space-y-4">
      {subjects.map((subject) => {
        const target = targetOf(subject.dailyGoal);
        const isMet = target !== null && target > 0 && subject.xp >= target;
        return (
          <li key={subject.subject}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
              <span className="font-semibold">{subject.subject}</span>
              <span className="tabular-nums text-slate-700 dark:text-slate-200">
                {target === null
                  ? t("pulse.subjects.noGoal", { xp: formatXp(subject.xp) })
                  : t("pulse.subjects.figures", { xp: formatXp(subject.xp), target: formatXp(target) })}
              </span>
            </div>
            <div
              aria-hidden="true"
              className="relative mt-1.5 h-3 rounded-full bg-slate-100 dark:bg-slate-800"
            >
              <div
                className={`h-3 rounded-full ${isMet ? "bg-emerald-600 dark:bg-emerald-400" : "bg-brand-600 dark:bg-brand-500"}`}
                style={{ width: `${Math.max(subject.xp > 0 ? 2 : 0, (subject.xp / top) * 100)}%` }}
              />
              {target !== null && target > 0 && (
                <div
                  className="absolute inset-y-[-3px] w-0.5 rounded bg-slate-700 dark:bg-slate-200"
                  style={{ left: `calc(${(target / top) * 100}% - 1px)` }}
                />
              )}
            </div>
            {subject.dailyGoal !== null && (
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                {t("pulse.subjects.daysMet", { count: subject.daysMet, goal: formatXp(subject.dailyGoal) })}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function newsLine(news: PulseNews, t: TFunction<"families">): string {
  const on = dayLabel(news.date);
  if (news.kind === "map")
    return t(news.percentile === null ? "pulse.news.map" : "pulse.news.mapWithPercentile", {
      on,
      subject: news.subject,
      term: news.termName,
      rit: news.rit,
      percentile: news.percentile,
    });
  if (news.kind === "placement")
    return news.fromGrade === null
      ? t("pulse.news.placement", { on, subject: news.subject, grade: gradeOf(news.toGrade) })
      : t("pulse.news.placementFrom", {
          on,
          subject: news.subject,
          grade: gradeOf(news.toGrade),
          before: gradeOf(news.fromGrade),
        });
  return t("pulse.news.placementTest", {
    on,
    subject: news.subject,
    grade: gradeOf(news.gradeLevel),
    test: news.testName,
    status: news.status.toLowerCase(),
  });
}

/** MAP tests, placement tests and new levels of the week, in words. */
export function PulseNewsList({ news }: { news: PulseNews[] }) {
  const { t } = useTranslation("families");
  if (news.length === 0)
    return <p className="text-sm text-slate-600 dark:text-slate-300">{t("pulse.news.none")}</p>;
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm">
      {news.map((item) => (
        <li key={`${item.kind}-${item.subject}-${item.date}`}>{newsLine(item, t)}</li>
      ))}
    </ul>
  );
}

/** What the focus monitor's records say of the week: strikes and any lockout, in plain words. */
export function PulseFocus({ figures }: { figures: PulseFigures }) {
  const { t } = useTranslation("families");
  const { integrity } = figures;
  const lines = [
    integrity.strikesConfirmed > 0
      ? t("pulse.focus.strikes", { count: integrity.strikesConfirmed })
      : t("pulse.focus.noStrikes"),
  ];
  if (integrity.activeStrikes > 0) lines.push(t("pulse.focus.counting", { count: integrity.activeStrikes }));
  for (const lockout of integrity.lockouts)
    lines.push(
      lockout.unlockedOn
        ? t("pulse.focus.lockedAndUnlocked", {
            locked: dayLabel(lockout.lockedOn),
            unlocked: dayLabel(lockout.unlockedOn),
          })
        : t("pulse.focus.locked", { locked: dayLabel(lockout.lockedOn) }),
    );
  if (integrity.isLocked && integrity.lockouts.every((lockout) => lockout.unlockedOn !== null))
    lines.push(t("pulse.focus.stillLocked"));
  const isCalm = integrity.strikesConfirmed === 0 && integrity.activeStrikes === 0 && !integrity.isLocked;
  return (
    <ul className={`space-y-1 text-sm ${isCalm ? "" : "font-medium text-amber-900 dark:text-amber-200"}`}>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
