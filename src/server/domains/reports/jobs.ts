import { sql } from "drizzle-orm";
import type { AuthUser } from "../../../shared/contracts/auth";
import type {
  ReportFrequency,
  ReportId,
  ReportResult,
  ScheduleFilters,
} from "../../../shared/contracts/reports";
import type { Language } from "../../../shared/languages";
import { formatReportValue } from "../../../shared/report-values";
import { addDays, localDateOf, monthStartOf, SCHOOL_TIME_ZONE, weekStartOf } from "../../../shared/time-zone";
import { type Database, queryRows } from "../../db/client";
import type { Actor } from "../../lib/context";
import { message, translate } from "../../lib/i18n";
import type { Logger } from "../../lib/logger";
import { buttonHtml, emailHtml, escapeHtml, paragraphsHtml } from "../../platform/email/layout";
import { appUrl, type OutgoingAttachment, queueEmail } from "../../platform/email/mailer";
import type { JobRunner } from "../../platform/jobs/runner";
import type { FileStorage } from "../../platform/storage";
import type { DomainJobDeps } from "../../server-jobs";
import { languageOfSql } from "../notifications/choices";
import { reportCsv, reportFileName } from "./csv";
import { LOCALES, runReport } from "./engine";
import { reportPdf } from "./pdf";
import { isStaffSql, scheduledDefinition } from "./schedules";

/** The job that emails scheduled reports. */
export const SCHEDULED_REPORTS_JOB = "reports.scheduled";
/** Early in the school's morning: the day, week or month before is complete by then. */
export const SCHEDULED_REPORTS_AT = { dailyAt: "06:00", timeZone: SCHOOL_TIME_ZONE } as const;
/** The mail category: a person unsubscribes from scheduled reports as one kind of mail. */
export const REPORT_MAIL_CATEGORY = "report";

export function defineReportJobs(runner: JobRunner, { db, storage, logger, now }: DomainJobDeps): void {
  runner.define(SCHEDULED_REPORTS_JOB, {
    description: message("reports:schedules.job"),
    timeoutMs: 60 * 60_000,
    maxAttempts: 3,
    handler: async ({ signal }) => {
      const run = await deliverScheduledReports({ db, storage, logger }, now(), signal);
      if (run.schedules > 0) logger.info("scheduled reports sent", { ...run });
    },
  });
  runner.schedule(SCHEDULED_REPORTS_JOB, SCHEDULED_REPORTS_AT);
}

/** A schedule's period: its first and last day, `yyyy-MM-dd`. */
export interface ReportPeriod {
  start: string;
  end: string;
}

/**
 * The period a frequency sends on the school day `today`, or null when it sends nothing that day:
 * daily ones yesterday, weekly ones on Mondays the Sunday–Saturday week just ended, monthly ones
 * on the 1st the month just ended.
 */
export function periodDue(frequency: ReportFrequency, today: string): ReportPeriod | null {
  const yesterday = addDays(today, -1);
  switch (frequency) {
    case "daily":
      return { start: yesterday, end: yesterday };
    case "weekly": {
      const isMonday = new Date(`${today}T12:00:00Z`).getUTCDay() === 1;
      const sunday = weekStartOf(today);
      return isMonday ? { start: addDays(sunday, -7), end: addDays(sunday, -1) } : null;
    }
    case "monthly":
      return today.endsWith("-01") ? { start: monthStartOf(yesterday), end: yesterday } : null;
  }
}

interface DueSchedule {
  id: string;
  reportId: ReportId;
  frequency: ReportFrequency;
  filters: ScheduleFilters;
  recipientIds: string[];
}

interface Recipient {
  id: string;
  name: string;
  email: string;
  givenName: string;
  familyName: string;
  role: "administrator" | "teacher";
  language: Language;
}

export interface ScheduledRun {
  schedules: number;
  mails: number;
}

/**
 * Sends every schedule due at `now` its period, once: each recipient gets the report run as them
 * (a Guide's copy holds only their students), in their language, with the PDF and the CSV. A
 * schedule's period is recorded once all its recipients' mails are queued; a run that stopped
 * half-way is safe to repeat, as each mail's dedupe key is written once.
 */
export async function deliverScheduledReports(
  deps: { db: Database; storage: FileStorage; logger: Logger },
  now: Date,
  signal?: AbortSignal,
): Promise<ScheduledRun> {
  const { db, logger } = deps;
  const today = localDateOf(now, SCHOOL_TIME_ZONE);
  const run: ScheduledRun = { schedules: 0, mails: 0 };
  const failures: unknown[] = [];
  for (const frequency of ["daily", "weekly", "monthly"] as const) {
    const period = periodDue(frequency, today);
    if (!period) continue;
    const due = await queryRows<DueSchedule>(
      db,
      sql`select id, report_id as "reportId", frequency, filters, recipient_ids as "recipientIds"
          from report_schedules
          where frequency = ${frequency} and last_period is distinct from ${period.start}
          order by created_at, id`,
    );
    for (const schedule of due) {
      if (signal?.aborted) return run;
      try {
        run.mails += await deliverSchedule(deps, schedule, period, now);
        await db.execute(
          sql`update report_schedules set last_period = ${period.start}, last_sent_at = ${now.toISOString()}::timestamptz
              where id = ${schedule.id}::uuid`,
        );
        run.schedules += 1;
      } catch (error) {
        // One schedule that fails leaves the others to go; the job's retry sends what is left.
        logger.error("scheduled report failed", { scheduleId: schedule.id, error: String(error) });
        failures.push(error);
      }
    }
  }
  if (failures.length > 0) throw new Error(`${failures.length} scheduled report(s) could not be sent`);
  return run;
}

/** The mails of one schedule's period, one per recipient still on the staff; answers how many were written. */
async function deliverSchedule(
  deps: { db: Database; storage: FileStorage },
  schedule: DueSchedule,
  period: ReportPeriod,
  now: Date,
): Promise<number> {
  const { db, storage } = deps;
  const definition = scheduledDefinition(schedule.reportId);
  const dedupeKey = (recipientId: string) => `report:${schedule.id}:${period.start}:${recipientId}`;
  const recipients = await queryRows<Recipient & { queued: boolean }>(
    db,
    sql`select u.sourced_id as id, concat_ws(' ', coalesce(u.preferred_first_name, u.given_name), u.family_name) as name,
          u.email, u.given_name as "givenName", u.family_name as "familyName",
          case when exists (select 1 from user_roles ar where ar.user_sourced_id = u.sourced_id
            and lower(ar.role) = 'administrator') then 'administrator' else 'teacher' end as role,
          ${languageOfSql(sql`u.sourced_id`)} as language,
          exists (select 1 from email_outbox o
            where o.dedupe_key = 'report:' || ${schedule.id} || ':' || ${period.start} || ':' || u.sourced_id) as queued
        from jsonb_array_elements_text(${JSON.stringify(schedule.recipientIds)}::jsonb) as r(id)
        join users u on u.sourced_id = r.id
        where u.status = 'active' and u.enabled_user and coalesce(u.email, '') <> ''
          and ${isStaffSql(sql`u.sourced_id`)}`,
  );
  const search: RunSearch = {
    ...schedule.filters,
    date: period.start,
    startDate: period.start,
    endDate: period.end,
  };
  // Administrators all reach every student: one run per language serves them all.
  const shared = new Map<Language, Promise<ReportResult>>();
  let written = 0;
  for (const recipient of recipients) {
    if (recipient.queued) continue;
    const run = () =>
      runReport({ db, readDb: db }, definition, actorOf(recipient), search, recipient.language, now, {
        scheduledDelivery: true,
      });
    let result: Promise<ReportResult>;
    if (recipient.role === "administrator") {
      result = shared.get(recipient.language) ?? run();
      shared.set(recipient.language, result);
    } else result = run();
    const mail = await reportMail(await result, schedule.frequency, search, recipient);
    const id = await queueEmail(
      db,
      { ...mail, to: { address: recipient.email, userId: recipient.id }, dedupeKey: dedupeKey(recipient.id) },
      { storage },
    );
    if (id) written += 1;
  }
  return written;
}

/**
 * The recipient as the report's caller: their administrator role when they hold it, else their
 * Guide role, never viewing as anyone, so the report's population is their own reach.
 */
function actorOf(recipient: Recipient): Actor {
  const user: AuthUser = {
    sourcedId: recipient.id,
    email: recipient.email,
    givenName: recipient.givenName,
    familyName: recipient.familyName,
    roles: [],
    primaryOrg: null,
  };
  return {
    session: { tokenHash: "", user, impersonation: null, isDashboardLocked: false },
    realUser: user,
    user,
    availableRoles: [recipient.role],
    activeRole: recipient.role,
  };
}

/** What a run asks of the report: the schedule's filters and the period. */
type RunSearch = ScheduleFilters & { date: string; startDate: string; endDate: string };

/** The report's page with the run's filters and period, as a link in the mail. */
function reportPath(reportId: ReportId, search: RunSearch): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) if (value) query.set(key, value);
  return `/app/${reportId}?${query.toString()}`;
}

/** The mail of a report: the headline figures, a link to the page, and the report as PDF and CSV. */
async function reportMail(
  result: ReportResult,
  frequency: ReportFrequency,
  search: RunSearch,
  recipient: Recipient,
): Promise<{
  category: string;
  subject: string;
  text: string;
  html: string;
  attachments: OutgoingAttachment[];
}> {
  const { language } = recipient;
  const locale = LOCALES[language];
  const say = (key: string, values?: Record<string, unknown>) =>
    translate(message(`reports:schedules.${key}`, values), language);
  const figures = result.figures.map((figure) => {
    const value = formatReportValue(figure.value, figure.unit, locale);
    const change =
      figure.change === null || figure.change === undefined
        ? ""
        : ` (${say("change", {
            change: new Intl.NumberFormat(locale, {
              style: "percent",
              maximumFractionDigits: 0,
              signDisplay: "exceptZero",
            }).format(figure.change),
          })})`;
    return `${figure.label}: ${value}${change}`;
  });
  const link = appUrl(reportPath(result.id, search));
  const main = result.tables.find((table) => table.main) ?? result.tables[0];
  const attachments: OutgoingAttachment[] = [
    {
      fileName: reportFileName(result, "pdf"),
      contentType: "application/pdf",
      content: await reportPdf(result, language),
    },
  ];
  if (main)
    attachments.push({
      fileName: reportFileName(result, "csv", main),
      contentType: "text/csv; charset=utf-8",
      content: [...reportCsv(main)].join(""),
    });
  const intro = say("intro", {
    frequency,
    title: result.title,
    subtitle: result.subtitle,
    scope: result.scope,
  });
  const paragraphs = [
    say("greeting", { name: recipient.name }),
    intro,
    ...(recipient.role === "teacher" ? [say("yourStudents")] : []),
  ];
  const closing = [say("attached"), say("why")];
  const text = [
    ...paragraphs,
    [say("figures"), ...figures.map((line) => `- ${line}`)].join("\n"),
    ...result.highlights,
    say("openText", { url: link }),
    ...closing,
  ].join("\n\n");
  const figuresHtml = figures.length
    ? `<h2 style="font-size:18px;margin:0 0 8px">${escapeHtml(say("figures"))}</h2>
<ul style="margin:0 0 16px;padding-left:20px">${figures.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>`
    : "";
  const subject = say("subject", { title: result.title, subtitle: result.subtitle, scope: result.scope });
  const html = emailHtml({
    language,
    title: subject,
    bodyHtml: [
      paragraphsHtml(paragraphs.join("\n\n")),
      figuresHtml,
      paragraphsHtml(result.highlights.join("\n\n")),
      buttonHtml(say("open"), link),
      paragraphsHtml(closing.join("\n\n")),
    ].join("\n"),
  });
  return { category: REPORT_MAIL_CATEGORY, subject, text, html, attachments };
}
