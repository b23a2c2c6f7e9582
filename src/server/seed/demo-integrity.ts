import { sql } from "drizzle-orm";
import { DEFAULT_INTEGRITY_SETTINGS, type ReviewStatus } from "../../shared/contracts/integrity";
import { type Database, queryRows } from "../db/client";
import { setMeta } from "../db/meta";
import { appApiKeys, learningApps } from "../domains/activity/schema";
import { integrityDecisions, integrityIncidents } from "../domains/integrity/schema";
import { hashSecret } from "../lib/secrets";
import type { FileStorage } from "../platform/storage";
import { DEMO_FIRST_SCHOOL_ID, demoId } from "./demo-accounts";
import { type DemoScene, drawDemoScreenshot } from "./demo-screenshots";

/** The demo's monitoring agent reports incidents with this key. */
export const DEMO_AGENT_KEY = "demo-agent-key";
const AGENT_ID = demoId("app-focus-monitor");

const DAY = 86_400_000;
const MAYA = demoId("guide-patel");
const PAT = demoId("proctor");
const ALEX = demoId("admin");

type Step = [string, string, "confirm" | "dismiss" | "escalate" | "appeal", string];

interface DemoIncident {
  student: string;
  daysAgo: number;
  type: string;
  app: string;
  text: string;
  confidence: number;
  scene: DemoScene;
  status: ReviewStatus;
  /** Who did what, in order: [actor, role, action, note]. */
  decisions: Step[];
}

/**
 * The monitoring agent and its key, lockout on at Maple Grove School, and incidents in every state:
 * Ava Johnson near the threshold (two strikes that still count, one dismissed), and other students
 * with incidents waiting, waiting for a second reviewer, escalated, appealed by a parent, dismissed
 * and one strike that expired. With file storage, the incidents carry drawn screenshots.
 */
export async function seedDemoIntegrity(db: Database, today: Date, storage?: FileStorage): Promise<void> {
  await db.insert(learningApps).values({ id: AGENT_ID, name: "Focus Monitor", kind: "agent", subjects: [] });
  await db.insert(appApiKeys).values({
    appId: AGENT_ID,
    label: "Demo agent key",
    keyPrefix: DEMO_AGENT_KEY.slice(0, 12),
    keyHash: hashSecret(DEMO_AGENT_KEY),
  });
  await setMeta(db, "integrity_settings", {
    ...DEFAULT_INTEGRITY_SETTINGS,
    lockoutSchoolIds: [DEMO_FIRST_SCHOOL_ID],
  });

  // Students of Maya Patel's group at Maple Grove other than Ava, and one at Riverside.
  const classmates = await queryRows<{ id: string; parentId: string | null }>(
    db,
    sql`select distinct e.user_sourced_id as id, (select a.agent_sourced_id from user_agents a
        where a.user_sourced_id = e.user_sourced_id order by a.agent_sourced_id limit 1) as "parentId"
      from enrollments e join enrollments t on t.class_sourced_id = e.class_sourced_id
      where t.user_sourced_id = ${MAYA} and t.role = 'teacher' and e.role = 'student'
        and e.user_sourced_id <> ${demoId("student-ava")} and e.user_sourced_id <> ${demoId("multi")}
      order by e.user_sourced_id limit 5`,
  );
  const [mia, noah, liam, emma, zoe] = classmates;
  const ava = demoId("student-ava");
  const incidents: DemoIncident[] = [
    strike(ava, 3, "game", "Block Breaker", "Level 4 — 2,340 points", 0.94),
    strike(ava, 12, "video", "VideoTube", "Funny cats compilation", 0.88),
    {
      student: ava,
      daysAgo: 20,
      type: "off_task_app",
      app: "Messages",
      text: "Can you help me with question 3?",
      confidence: 0.61,
      scene: "chat",
      status: "dismissed",
      decisions: [[MAYA, "teacher", "dismiss", "She was asking a classmate about the lesson: that is fine."]],
    },
  ];
  if (mia && noah && liam && emma && zoe) {
    incidents.push(
      waiting(mia.id, 0, "game", "Block Breaker", "Level 2 — 860 points", 0.91),
      waiting(noah.id, 1, "video", "VideoTube", "Minecraft speedrun", 0.79),
      waiting(liam.id, 0, "chat", "Messages", "lol did you finish the quiz", 0.67),
      {
        ...waiting(emma.id, 2, "game", "Racing Stars", "Lap 3 of 5", 0.97),
        status: "awaiting_second",
        decisions: [
          [MAYA, "teacher", "confirm", "A racing game during the Math session, for twenty minutes."],
        ],
      },
      {
        ...waiting(zoe.id, 4, "video", "VideoTube", "Music video", 0.55),
        status: "escalated",
        decisions: [
          [PAT, "proctor", "escalate", "The video may be the Science lesson's: the Guide should decide."],
        ],
      },
      {
        ...strike(noah.id, 6, "game", "Block Breaker", "Level 7 — 5,120 points", 0.93),
        status: "appealed",
        decisions: [
          [MAYA, "teacher", "confirm", "A game open for most of the Reading session."],
          [PAT, "proctor", "confirm", "Agreed: the screenshot shows the game in front."],
          ...(noah.parentId
            ? [appealOf(noah.parentId, "Noah's little brother was using the laptop at that time.")]
            : []),
        ],
      },
      strike(liam.id, 45, "chat", "Messages", "who wants to play after school", 0.72),
      {
        student: mia.id,
        daysAgo: 9,
        type: "camera_absent",
        app: "Camera",
        text: "No one in front of the camera during a test",
        confidence: 0.83,
        scene: "video",
        status: "dismissed",
        decisions: [[MAYA, "teacher", "dismiss", "Mia had stepped out with my permission."]],
      },
    );
  }

  for (const [index, incident] of incidents.entries()) {
    const occurredAt = new Date(today.getTime() - incident.daysAgo * DAY - (index + 1) * 37 * 60_000);
    const screenshotKey = storage
      ? (
          await storage.put(drawDemoScreenshot(incident.scene), {
            folder: "evidence",
            contentType: "image/png",
            accept: ["png"],
            maxBytes: 2 * 1024 * 1024,
          })
        ).key
      : null;
    const isStrike = incident.status === "confirmed" || incident.status === "appealed";
    const decidedAt = new Date(occurredAt.getTime() + 3 * 3600_000);
    const [stored] = await db
      .insert(integrityIncidents)
      .values({
        studentSourcedId: incident.student,
        agentId: AGENT_ID,
        clientId: `demo-${index + 1}`,
        incidentType: incident.type,
        confidenceScore: incident.confidence,
        appName: incident.app,
        detectedText: incident.text,
        sessionId: `demo-session-${index + 1}`,
        occurredAt,
        receivedAt: new Date(occurredAt.getTime() + 5_000),
        screenshotKey,
        reviewStatus: incident.status,
        decidedAt: incident.decisions.length ? decidedAt : null,
        struckAt: isStrike ? decidedAt : null,
        strikeExpiresAt: isStrike
          ? new Date(decidedAt.getTime() + DEFAULT_INTEGRITY_SETTINGS.strikeExpiryDays * DAY)
          : null,
        cumulativeStrikes: isStrike ? strikesBefore(incidents, index) : null,
      })
      .returning({ id: integrityIncidents.id });
    if (incident.decisions.length)
      await db.insert(integrityDecisions).values(
        incident.decisions.map(([actor, role, action, note], step) => ({
          incidentId: stored?.id as string,
          step: step + 1,
          action,
          note,
          actorSourcedId: actor,
          actorRole: role,
          createdAt: new Date(decidedAt.getTime() + step * 60 * 60_000),
        })),
      );
  }
}

function strike(
  student: string,
  daysAgo: number,
  scene: DemoScene,
  app: string,
  text: string,
  confidence: number,
): DemoIncident {
  const isAva = student === demoId("student-ava");
  return {
    ...waiting(student, daysAgo, scene, app, text, confidence),
    status: "confirmed",
    decisions: [
      [MAYA, "teacher", "confirm", `${app} was open during the learning session.`],
      [isAva ? PAT : ALEX, isAva ? "proctor" : "administrator", "confirm", "Confirmed from the screenshot."],
    ],
  };
}

function appealOf(parentId: string, note: string): Step {
  return [parentId, "parent", "appeal", note];
}

function waiting(
  student: string,
  daysAgo: number,
  scene: DemoScene,
  app: string,
  text: string,
  confidence: number,
): DemoIncident {
  return {
    student,
    daysAgo,
    type: "off_task_app",
    app,
    text,
    confidence,
    scene,
    status: "pending",
    decisions: [],
  };
}

/** The strikes the student had once this one was confirmed, counting this one. */
function strikesBefore(incidents: DemoIncident[], index: number): number {
  const incident = incidents[index] as DemoIncident;
  return incidents.filter(
    (other) =>
      other.student === incident.student &&
      (other.status === "confirmed" || other.status === "appealed") &&
      other.daysAgo >= incident.daysAgo &&
      other.daysAgo - incident.daysAgo < DEFAULT_INTEGRITY_SETTINGS.strikeExpiryDays,
  ).length;
}
