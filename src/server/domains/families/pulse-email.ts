import type { PulseFigures, PulseNews } from "../../../shared/contracts/families";
import type { Language } from "../../../shared/languages";
import { addDays } from "../../../shared/time-zone";
import { message, translate } from "../../lib/i18n";
import { appUrl, buttonHtml, emailHtml, escapeHtml, paragraphsHtml } from "../../platform/email/layout";

/** One child's part of a family's weekly mail. */
export interface ChildDigest {
  childId: string;
  givenName: string;
  figures: PulseFigures;
  note: { text: string; authorName: string | null } | null;
}

const LOCALES: Record<Language, string> = { en: "en-US", es: "es-US" };

/** The page of a child's week in Dash. */
export const pulseLink = (childId: string, week: string) =>
  `/app/child/${encodeURIComponent(childId)}/?week=${week}`;

/** The formats of a language, made once: making one costs far more than using it. */
const formats = new Map<Language, ReturnType<typeof formatsOf>>();

function formatsOf(language: Language) {
  const locale = LOCALES[language];
  return {
    numbers: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    // As the app shows XP: whole points reached, never rounded up.
    xp: new Intl.NumberFormat(locale, { maximumFractionDigits: 0, roundingMode: "floor" }),
    days: new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone: "UTC" }),
    weekdays: new Intl.DateTimeFormat(locale, {
      weekday: "short",
      month: "short",
      day: "numeric",
      timeZone: "UTC",
    }),
    names: new Intl.ListFormat(locale, { type: "conjunction" }),
  };
}

function formatsIn(language: Language) {
  let made = formats.get(language);
  if (!made) {
    made = formatsOf(language);
    formats.set(language, made);
  }
  return made;
}

/** "Ava and Leo" ("Ava y Leo"). */
export const namesIn = (names: string[], language: Language) => formatsIn(language).names.format(names);

/** Messages without values, said once per language: a family's mail repeats them for every child. */
const plainWords = new Map<string, string>();

function wordsIn(language: Language) {
  const { numbers, xp, days, weekdays } = formatsIn(language);
  const noon = (date: string) => new Date(`${date}T12:00:00Z`);
  const sayNow = (key: string, values?: Record<string, unknown>) =>
    translate(message(`families:pulse.email.${key}`, values), language).trim();
  return {
    say: (key: string, values?: Record<string, unknown>) => {
      if (values) return sayNow(key, values);
      const id = `${language} ${key}`;
      let said = plainWords.get(id);
      if (said === undefined) {
        said = sayNow(key);
        plainWords.set(id, said);
      }
      return said;
    },
    number: (value: number) => numbers.format(value),
    xp: (value: number) => xp.format(value),
    day: (date: string) => days.format(noon(date)),
    weekday: (date: string) => weekdays.format(noon(date)),
  };
}

type Words = ReturnType<typeof wordsIn>;

/** The table of a child's figures: a label and a value per row. */
function figureRows(figures: PulseFigures, words: Words): [string, string][] {
  const { say, number, xp } = words;
  return [
    [say("xp"), say("xpValue", { xp: xp(figures.xp) })],
    ...figures.subjects.map((subject): [string, string] => [
      subject.subject,
      subject.dailyGoal === null
        ? say("xpValue", { xp: xp(subject.xp) })
        : say("subjectValue", {
            xp: xp(subject.xp),
            target: xp(subject.dailyGoal * figures.schoolDays),
            days: subject.daysMet,
          }),
    ]),
    [
      say("goalDays"),
      say("goalDaysValue", { days: figures.daysAllGoalsMet, schoolDays: figures.schoolDays }),
    ],
    [say("streak"), say("streakValue", { days: figures.streak })],
    [say("units"), number(figures.masteredUnits)],
    [
      say("alphas"),
      say("alphasValue", { earned: number(figures.alphas.earned), spent: number(figures.alphas.spent) }),
    ],
  ];
}

function newsLine(news: PulseNews, words: Words): string {
  const { say, weekday } = words;
  const on = weekday(news.date);
  if (news.kind === "map")
    return say(news.percentile === null ? "map" : "mapWithPercentile", {
      subject: news.subject,
      term: news.termName,
      rit: news.rit,
      percentile: news.percentile,
      on,
    });
  if (news.kind === "placement")
    return say(news.fromGrade === null ? "placement" : "placementFrom", {
      subject: news.subject,
      toGrade: news.toGrade,
      fromGrade: news.fromGrade,
      on,
    });
  return say("placementTest", {
    subject: news.subject,
    grade: news.gradeLevel,
    test: news.testName,
    status: news.status.toLowerCase(),
    on,
  });
}

/** What the focus monitor's records say of the week, in plain words. */
function integrityLines(figures: PulseFigures, words: Words): string[] {
  const { say, weekday } = words;
  const { integrity } = figures;
  const lines = [
    integrity.strikesConfirmed > 0
      ? say("strikes", { count: integrity.strikesConfirmed, active: integrity.activeStrikes })
      : say("noStrikes"),
  ];
  for (const lockout of integrity.lockouts)
    lines.push(
      lockout.unlockedOn
        ? say("lockedAndUnlocked", {
            locked: weekday(lockout.lockedOn),
            unlocked: weekday(lockout.unlockedOn),
          })
        : say("locked", { locked: weekday(lockout.lockedOn) }),
    );
  if (integrity.isLocked && integrity.lockouts.every((lockout) => lockout.unlockedOn !== null))
    lines.push(say("stillLocked"));
  return lines;
}

/** A child's part of the mail in words, said once for both the HTML and the plain-text parts. */
function childWords(child: ChildDigest, week: string, words: Words) {
  const { say } = words;
  return {
    name: child.givenName,
    rows: figureRows(child.figures, words),
    news: { heading: say("news"), lines: child.figures.news.map((item) => newsLine(item, words)) },
    focus: { heading: say("focus"), lines: integrityLines(child.figures, words) },
    note: child.note && {
      heading: child.note.authorName ? say("noteBy", { author: child.note.authorName }) : say("note"),
      text: child.note.text,
    },
    open: { label: say("open", { name: child.givenName }), url: appUrl(pulseLink(child.childId, week)) },
  };
}

type ChildWords = ReturnType<typeof childWords>;

const CELL = "padding:8px 0;border-bottom:1px solid #e4e4e7;vertical-align:top";
const H3 = "margin:0 0 4px;font-size:16px";

function childHtml(child: ChildWords): string {
  const rows = child.rows
    .map(
      ([label, value]) =>
        `<tr><th scope="row" style="${CELL};text-align:left;font-weight:600;padding-right:16px">${escapeHtml(label)}</th><td style="${CELL};text-align:right">${escapeHtml(value)}</td></tr>`,
    )
    .join("\n");
  const list = (items: string[]) =>
    `<ul style="margin:0 0 16px;padding-left:20px">${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;
  return [
    `<h2 style="margin:24px 0 8px;font-size:20px">${escapeHtml(child.name)}</h2>`,
    `<table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 16px;font-size:15px">${rows}</table>`,
    child.news.lines.length > 0
      ? `<h3 style="${H3}">${escapeHtml(child.news.heading)}</h3>${list(child.news.lines)}`
      : "",
    `<h3 style="${H3}">${escapeHtml(child.focus.heading)}</h3>${list(child.focus.lines)}`,
    child.note
      ? `<h3 style="${H3}">${escapeHtml(child.note.heading)}</h3>${paragraphsHtml(child.note.text)}`
      : "",
    buttonHtml(child.open.label, child.open.url),
  ]
    .filter(Boolean)
    .join("\n");
}

function childText(child: ChildWords): string {
  const lines = [child.name, "=".repeat(child.name.length)];
  for (const [label, value] of child.rows) lines.push(`${label}: ${value}`);
  if (child.news.lines.length > 0)
    lines.push("", `${child.news.heading}:`, ...child.news.lines.map((line) => `- ${line}`));
  lines.push("", `${child.focus.heading}:`, ...child.focus.lines.map((line) => `- ${line}`));
  if (child.note) lines.push("", `${child.note.heading}:`, child.note.text);
  lines.push("", `${child.open.label}: ${child.open.url}`);
  return lines.join("\n");
}

/** A family's weekly mail: every child's figures as a small table, the Guide's note and a button to the page. */
export function pulseEmail(
  children: readonly ChildDigest[],
  week: string,
  language: Language,
): { subject: string; text: string; html: string } {
  const words = wordsIn(language);
  const names = namesIn(
    children.map((child) => child.givenName),
    language,
  );
  const range = { week: words.day(week), end: words.day(addDays(week, 6)) };
  const subject = words.say("subject", { names, ...range });
  const intro = words.say("intro", { names, ...range });
  const parts = children.map((child) => childWords(child, week, words));
  const text = [intro, ...parts.map(childText)].join("\n\n");
  const html = emailHtml({
    language,
    title: subject,
    bodyHtml: [
      `<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3">${escapeHtml(subject)}</h1>`,
      paragraphsHtml(intro),
      ...parts.map(childHtml),
    ].join("\n"),
  });
  return { subject, text: `${text}\n`, html };
}
