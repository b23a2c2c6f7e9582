import {
  ArrowUpRight,
  Check,
  Clock,
  ImageOff,
  Lock,
  type LucideIcon,
  Scale,
  ShieldAlert,
  X,
} from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import type { IncidentDecision, IncidentRecord, ReviewStatus } from "../../../shared/contracts/integrity";
import { DASH_ROLES } from "../../../shared/roles";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass } from "../../components/ui/form";
import { formatPercent, gradeLabel, instantDateLabel, instantLabel, relativeTime } from "../../lib/format";
import { i18next } from "../../lib/i18n";
import {
  ADMIN_INPUT_CLASS,
  AdminField,
  type FormProblems,
  ProblemsAlert,
  problemsOf,
} from "../rewards/admin-form";

/** Shared pieces of the integrity pages: badges, evidence, histories and the note dialog. */

/** Who reads: staff review incidents; a student and their family read about strikes. */
export type Reader = "staff" | "family";

const NOTE_MIN = 3;
const NOTE_MAX = 1000;

const TONES = {
  waiting:
    "bg-amber-100 text-amber-900 ring-amber-600/30 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-400/40",
  strike: "bg-red-100 text-red-900 ring-red-600/30 dark:bg-red-950 dark:text-red-100 dark:ring-red-400/40",
  calm: "bg-slate-100 text-slate-800 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-400/40",
  good: "bg-emerald-100 text-emerald-900 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-100 dark:ring-emerald-400/40",
  info: "bg-sky-100 text-sky-900 ring-sky-600/30 dark:bg-sky-950 dark:text-sky-100 dark:ring-sky-400/40",
} as const;

const STATUS_LOOKS: Record<ReviewStatus, { tone: keyof typeof TONES; icon: LucideIcon }> = {
  pending: { tone: "waiting", icon: Clock },
  awaiting_second: { tone: "info", icon: Scale },
  escalated: { tone: "info", icon: ArrowUpRight },
  appealed: { tone: "waiting", icon: Scale },
  confirmed: { tone: "strike", icon: ShieldAlert },
  dismissed: { tone: "good", icon: X },
};

/** A pill with an icon and a word, so that colour is never the only sign. */
export function Pill({
  tone,
  icon: Icon,
  children,
}: {
  tone: keyof typeof TONES;
  icon: LucideIcon;
  children: ReactNode;
}) {
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}
    >
      <Icon aria-hidden="true" className="size-3.5" strokeWidth={2.5} />
      {children}
    </span>
  );
}

/** Where an incident stands, in the reader's words. */
export function StatusBadge({ status, reader }: { status: ReviewStatus; reader: Reader }) {
  const { t } = useTranslation("integrity");
  const look = STATUS_LOOKS[status];
  return (
    <Pill tone={look.tone} icon={look.icon}>
      {t(`status.${reader}.${status}`)}
    </Pill>
  );
}

export function LockedBadge() {
  const { t } = useTranslation("integrity");
  return (
    <Pill tone="strike" icon={Lock}>
      {t("standing.locked")}
    </Pill>
  );
}

/** The agent's name for the kind of incident, made readable: "tab_switch" reads "tab switch". */
export function incidentTypeText(type: string): string {
  return type.replaceAll(/[_-]+/g, " ").trim();
}

/** "Grade 3" from the roster's "03"; nothing without a grade. */
export function gradeText(grade: string | null): string | null {
  return grade ? gradeLabel([grade]) : null;
}

/** Whole days from one moment to another. */
export function daysBetween(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000));
}

/** A moment as a date and time, with "2 hours ago" beside it. */
export function When({ instant }: { instant: string }) {
  return (
    <time dateTime={instant} title={instantLabel(instant)}>
      {instantLabel(instant)}{" "}
      <span className="text-slate-600 dark:text-slate-400">· {relativeTime(instant)}</span>
    </time>
  );
}

/** The screenshot the agent sent, or why there is none. */
export function Evidence({ incident }: { incident: IncidentRecord }) {
  const { t } = useTranslation("integrity");
  if (incident.screenshot_url)
    return (
      <figure className="min-w-0">
        <a
          href={incident.screenshot_url}
          target="_blank"
          rel="noopener noreferrer"
          className="block overflow-hidden rounded-lg border border-slate-200 bg-slate-50 hover:border-brand-600 dark:border-slate-700 dark:bg-slate-950"
        >
          <img
            src={incident.screenshot_url}
            alt={t("evidence.alt", {
              name: incident.student.name,
              when: instantLabel(incident.created_at),
            })}
            loading="lazy"
            className="max-h-56 w-full object-contain"
          />
        </a>
        <figcaption className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {t("evidence.open")}
        </figcaption>
      </figure>
    );
  return (
    <div className="flex min-h-24 flex-col items-center justify-center gap-1 rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
      <ImageOff aria-hidden="true" className="size-6" />
      {incident.evidence_deleted_at
        ? t("evidence.deleted", {
            count: daysBetween(incident.created_at, incident.evidence_deleted_at),
            date: instantDateLabel(incident.evidence_deleted_at),
          })
        : t("evidence.none")}
    </div>
  );
}

/** The confidence the agent gave, as a percent. */
export function confidenceText(score: number): string {
  return formatPercent(Math.max(0, Math.min(1, score)));
}

/** A role's display name, or the words the server gave when they name no role of Dash. */
function roleText(role: string): string {
  return (DASH_ROLES as readonly string[]).includes(role) ? i18next.t(`common:roles.${role}`) : role;
}

/** Who did what and when, with their note: the review's history, oldest first. */
export function DecisionHistory({ decisions, reader }: { decisions: IncidentDecision[]; reader: Reader }) {
  const { t } = useTranslation("integrity");
  if (decisions.length === 0) return null;
  return (
    <ol className="space-y-2" aria-label={t("history.decisions")}>
      {decisions.map((decision) => (
        <li
          key={`${decision.at}-${decision.actorId}-${decision.action}`}
          className="rounded-lg border-l-4 border-slate-300 bg-slate-50 px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-800"
        >
          <p>
            <span className="font-semibold">
              {t(`history.action.${decision.action}`, {
                name: decision.actorName,
                role: roleText(decision.actorRole),
              })}
            </span>{" "}
            <span className="text-slate-600 dark:text-slate-300">
              · <time dateTime={decision.at}>{instantLabel(decision.at)}</time>
            </span>
          </p>
          {decision.note && (
            <p className="mt-0.5 break-words whitespace-pre-line text-slate-700 dark:text-slate-200">
              {reader === "family" ? t("history.noteSaid", { note: decision.note }) : decision.note}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Active strikes against the threshold (where lockout is on): dots, and the figures in words. */
export function StrikeMeter({ active, threshold }: { active: number; threshold: number | null }) {
  const { t } = useTranslation("integrity");
  const dots = Math.min(Math.max(threshold ?? 0, active), 20);
  return (
    <span className="inline-flex items-center gap-2 text-sm">
      <span aria-hidden="true" className="flex gap-1">
        {Array.from({ length: dots }, (_, place) => ({ key: `dot-${place}`, isStrike: place < active })).map(
          (dot) => (
            <span
              key={dot.key}
              className={`size-3 rounded-full ${dot.isStrike ? "bg-red-600 dark:bg-red-400" : "border-2 border-slate-400 dark:border-slate-500"}`}
            />
          ),
        )}
      </span>
      <span className="font-semibold tabular-nums">
        {threshold === null
          ? t("standing.strikesOnly", { count: active })
          : t("standing.strikes", { count: active, threshold })}
      </span>
    </span>
  );
}

/**
 * A dialog that asks for a note before a step (a decision, an appeal, an unlock), with the
 * six-digit code as a second field when asked for. Problems show beside their field; the server's
 * refusal (another reviewer's rule, a wrong code) above the buttons.
 */
export function NoteDialog({
  title,
  description,
  noteLabel,
  noteHint,
  confirmLabel,
  tone = "primary",
  withCode = false,
  onSubmit,
  onClose,
}: {
  title: string;
  description?: ReactNode;
  noteLabel: string;
  noteHint?: string;
  confirmLabel: string;
  tone?: "primary" | "danger";
  /** Ask for the student's six-digit code too (optional). */
  withCode?: boolean;
  onSubmit: (note: string, code: string | undefined) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation("integrity");
  const [note, setNote] = useState("");
  const [code, setCode] = useState("");
  const [problems, setProblems] = useState<FormProblems>({ fields: {} });
  const [isSaving, setIsSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const fields: Record<string, string> = {};
    const trimmed = note.trim();
    if (trimmed.length < NOTE_MIN) fields.note = t("note.tooShort", { minimum: NOTE_MIN });
    else if (trimmed.length > NOTE_MAX) fields.note = t("note.tooLong", { maximum: NOTE_MAX });
    const digits = code.replaceAll(/\s+/g, "");
    if (withCode && digits && !/^\d{6}$/.test(digits)) fields.code = t("unlock.codeSix");
    setProblems({ fields });
    if (Object.keys(fields).length > 0) return;
    setIsSaving(true);
    try {
      await onSubmit(trimmed, withCode && digits ? digits : undefined);
      onClose();
    } catch (error) {
      setProblems(
        problemsOf(error, t("note.failed"), (path) => (path === "note" || path === "code" ? path : null)),
      );
      setIsSaving(false);
    }
  }

  return (
    <Dialog title={title} description={description} onClose={onClose}>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        {withCode && (
          <AdminField label={t("unlock.code")} hint={t("unlock.codeHint")} error={problems.fields.code}>
            {(control) => (
              <input
                {...control}
                inputMode="numeric"
                autoComplete="off"
                maxLength={7}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                className={`${ADMIN_INPUT_CLASS} font-mono text-lg tracking-widest tabular-nums sm:max-w-48`}
              />
            )}
          </AdminField>
        )}
        <AdminField label={noteLabel} hint={noteHint} error={problems.fields.note}>
          {(control) => (
            <textarea
              {...control}
              // The dialog opens to write the note (after the code, when there is one).
              autoFocus={!withCode}
              required
              minLength={NOTE_MIN}
              maxLength={NOTE_MAX}
              rows={3}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              className={ADMIN_INPUT_CLASS}
            />
          )}
        </AdminField>
        <ProblemsAlert problems={problems} />
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} className={buttonClass("secondary")}>
            {t("common:dialog.cancel")}
          </button>
          <button type="submit" disabled={isSaving} className={buttonClass(tone)}>
            {isSaving ? t("common:dialog.working") : confirmLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A short line in the reader's words of what was noticed: the app and what the agent read. */
export function WhatHappened({
  incident,
  viewer,
}: {
  incident: IncidentRecord;
  viewer: "student" | "family";
}) {
  const { t } = useTranslation("integrity");
  const type = incidentTypeText(incident.incident_type);
  const date = instantLabel(incident.created_at);
  return (
    <div className="space-y-1 text-sm">
      <p>
        {incident.app_name
          ? t(`what.${viewer}.inApp`, { date, app: incident.app_name, type, name: incident.student.name })
          : t(`what.${viewer}.noApp`, { date, type, name: incident.student.name })}
      </p>
      {incident.detected_text.trim() && (
        <blockquote className="border-l-4 border-slate-300 pl-3 break-words whitespace-pre-line text-slate-700 italic dark:border-slate-600 dark:text-slate-200">
          {incident.detected_text}
        </blockquote>
      )}
    </div>
  );
}

/** A strike's term: until when it counts, or that it no longer does. */
export function StrikeTerm({ incident }: { incident: IncidentRecord }) {
  const { t } = useTranslation("integrity");
  if (incident.review_status !== "confirmed" && incident.review_status !== "appealed") return null;
  if (!incident.strike_expires_at) return null;
  const date = instantDateLabel(incident.strike_expires_at);
  return incident.is_active_strike ? (
    <Pill tone="calm" icon={Clock}>
      {t("strike.countsUntil", { date })}
    </Pill>
  ) : (
    <Pill tone="good" icon={Check}>
      {t("strike.expired", { date })}
    </Pill>
  );
}
