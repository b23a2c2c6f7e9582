import { unstorableTextIn } from "../../lib/validation";
import type { IngestItem } from "./ingest";

/**
 * Reads Caliper 1.2 events (and the activity-metrics and time-spent shapes that learning
 * platforms send in Caliper envelopes) into Dash's plain activity facts. Anything it cannot read
 * becomes a reason, never an exception: one bad event must not sink a batch.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() ? value.trim() : undefined;
const number = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/**
 * The last path segment of an IRI such as `https://…/users/<id>`, or the id itself; null when its
 * percent-escapes do not decode (`%ZZ`, a cut-off `%E0%A4%A`).
 */
function idFromIri(value: string): string | null {
  const match = /\/([^/?#]+)\/?(?:[?#].*)?$/.exec(value);
  if (!match?.[1] || !/^https?:\/\//.test(value)) return value.replace(/^urn:uuid:/, "");
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** `items` of a generated metrics collection, as type → value. */
function metricItems(generated: unknown): Map<string, number> {
  const values = new Map<string, number>();
  const items = isObject(generated) && Array.isArray(generated.items) ? generated.items : [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const name = text(item.type === "AggregateMeasure" ? item.metric : item.type);
    const value = number(item.value ?? item.metricValue);
    if (name && value !== undefined) values.set(name, (values.get(name) ?? 0) + value);
  }
  return values;
}

/** A test's score in percent, from `scoreGiven` / `maxScore`, an explicit percent, or the answers. */
function scorePercentOf(
  generated: Json,
  extensions: Json,
  total?: number,
  correct?: number,
): number | undefined {
  const given = number(generated.scoreGiven);
  const max = number(generated.maxScore);
  const percent =
    given !== undefined && max
      ? (given / max) * 100
      : (number(extensions.scorePercent) ?? (total ? ((correct ?? 0) / total) * 100 : undefined));
  return percent === undefined ? undefined : Math.min(100, Math.max(0, Math.round(percent * 100) / 100));
}

const wholeSeconds = (value: number | undefined) => (value === undefined ? undefined : Math.round(value));

const SUPPORTED = [
  "ActivityEvent",
  "TimeSpentEvent",
  "ToolUseEvent",
  "AssessmentEvent",
  "AssessmentItemEvent",
];

export function readCaliperEvent(event: unknown): IngestItem {
  if (!isObject(event)) return { eventId: null, reason: "An event must be a JSON object" };
  const eventId = text(event.id) ?? null;
  const unstorable = unstorableTextIn(event);
  if (unstorable) return { eventId, reason: unstorable };
  const type = text(event.type);
  if (!type || !SUPPORTED.includes(type)) {
    return { eventId, reason: `Unsupported event type ${type ?? "(none)"}: send ${SUPPORTED.join(", ")}` };
  }

  const actor = event.actor;
  const actorId = typeof actor === "string" ? actor : isObject(actor) ? text(actor.id) : undefined;
  const object = isObject(event.object) ? event.object : {};
  const extensions = {
    ...(isObject(object.extensions) ? object.extensions : {}),
    ...(isObject(event.extensions) ? event.extensions : {}),
  };
  const metrics = metricItems(event.generated);
  const generated = isObject(event.generated) ? event.generated : {};

  const ownId = eventId ? idFromIri(eventId) : undefined;
  const studentId = actorId ? idFromIri(actorId) : undefined;
  if (ownId === null) return { eventId, reason: "id: is not a valid IRI (a percent-escape does not decode)" };
  if (studentId === null)
    return { eventId, reason: "actor.id: is not a valid IRI (a percent-escape does not decode)" };

  const fact: Record<string, unknown> = {
    eventId: ownId,
    studentId,
    email: isObject(actor) ? text(actor.email) : undefined,
    occurredAt: event.eventTime,
    subject: text(object.subject) ?? text(extensions.subject),
    activityId: text(object.id),
    activityName: isObject(object.activity) ? text(object.activity.name) : text(object.name),
    sessionId: isObject(event.session) ? text(event.session.id) : text(event.session),
    expectedXp: number(extensions.expectedXp),
    attempt: number(extensions.attempt) ?? number(generated.count),
  };

  if (type === "ActivityEvent") {
    Object.assign(fact, {
      xpEarned: metrics.get("xpEarned"),
      totalQuestions: metrics.get("totalQuestions"),
      correctQuestions: metrics.get("correctQuestions"),
      masteredUnits: metrics.get("masteredUnits"),
    });
  } else if (type === "TimeSpentEvent") {
    Object.assign(fact, {
      activeSeconds: wholeSeconds(metrics.get("active")),
      inactiveSeconds: wholeSeconds((metrics.get("inactive") ?? 0) + (metrics.get("unknown") ?? 0)),
      wasteSeconds: wholeSeconds(metrics.get("waste")),
      antiPatternSeconds: wholeSeconds(metrics.get("anti-pattern")),
    });
  } else if (type === "ToolUseEvent") {
    const minutesOnTask = metrics.get("MinutesOnTask");
    Object.assign(fact, {
      activeSeconds: wholeSeconds(minutesOnTask === undefined ? undefined : minutesOnTask * 60),
      masteredUnits:
        (metrics.get("SkillsMastered") ?? 0) +
        (metrics.get("UnitsCompleted") ?? 0) +
        (metrics.get("StandardsMastered") ?? 0),
    });
  } else {
    // Assessments: an item is one question; a whole assessment reports its counts in extensions.
    const isCorrect =
      extensions.isCorrect ?? (isObject(generated.extensions) ? generated.extensions.isCorrect : undefined);
    const totalQuestions = type === "AssessmentItemEvent" ? 1 : number(extensions.totalQuestions);
    const correctQuestions =
      type === "AssessmentItemEvent" ? (isCorrect === true ? 1 : 0) : number(extensions.correctQuestions);
    Object.assign(fact, {
      totalQuestions,
      correctQuestions,
      // A whole assessment's score: said outright (a Caliper Score), or its share of correct answers.
      scorePercent:
        type === "AssessmentEvent"
          ? scorePercentOf(generated, extensions, totalQuestions, correctQuestions)
          : undefined,
    });
  }
  // Leave out what the event did not say, so the plain schema's defaults apply.
  for (const [key, value] of Object.entries(fact)) if (value === undefined) delete fact[key];
  return { fact };
}
