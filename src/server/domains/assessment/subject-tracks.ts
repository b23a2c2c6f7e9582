import { sql } from "drizzle-orm";
import type { SubjectTrack, TrackCourse, TrackStepsInput } from "../../../shared/contracts/assessment";
import { type Database, isoInstant, isUniqueViolation, queryRows, uuidEquals } from "../../db/client";
import type { Actor } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { message } from "../../lib/i18n";
import { invalidFields } from "../../lib/validation";
import { nameOf } from "../rostering/queries";

/**
 * Subject tracks: per subject the ordered courses from grade to grade. A placement's grade level
 * names a step of its subject's track, and that step's course is where the student is.
 */

const TRACK_NOT_FOUND = message("assessment:tracks.notFound");

/** The step a grade level stands for: the first (by position) at that grade; none without one. */
export function currentCourseOf(
  steps: readonly { position: number; gradeLevel: number; title: string; courseId: string | null }[],
  grade: number | null,
): TrackCourse | null {
  if (grade === null) return null;
  const step = steps
    .filter((candidate) => candidate.gradeLevel === grade)
    .reduce<(typeof steps)[number] | null>(
      (first, step) => (!first || step.position < first.position ? step : first),
      null,
    );
  return step ? { title: step.title, gradeLevel: step.gradeLevel, courseId: step.courseId } : null;
}

const TRACK_JSON = sql`json_build_object(
  'id', t.id, 'subject', t.subject, 'updatedBy', ${nameOf(sql`t.updated_by`)},
  'updatedAt', ${isoInstant(sql`t.updated_at`)},
  'steps', (select coalesce(json_agg(json_build_object('id', s.id, 'position', s.position,
      'gradeLevel', s.grade_level, 'title', s.title, 'courseId', s.course_sourced_id, 'courseTitle', c.title)
      order by s.position), '[]'::json)
    from subject_track_steps s left join courses c on c.sourced_id = s.course_sourced_id
    where s.track_id = t.id))`;

/** Every track, by subject. */
export async function listTracks(db: Database): Promise<SubjectTrack[]> {
  const rows = await queryRows<{ track: SubjectTrack }>(
    db,
    sql`select ${TRACK_JSON} as track from subject_tracks t order by t.subject`,
  );
  return rows.map((row) => row.track);
}

/** The tracks' steps by subject, for telling a placement's current course. */
export async function stepsBySubject(db: Database): Promise<Map<string, SubjectTrack["steps"]>> {
  return new Map((await listTracks(db)).map((track) => [track.subject, track.steps]));
}

async function trackById(db: Database, trackId: string): Promise<SubjectTrack> {
  const [row] = await queryRows<{ track: SubjectTrack }>(
    db,
    sql`select ${TRACK_JSON} as track from subject_tracks t where ${uuidEquals(sql`t.id`, trackId)}`,
  );
  if (!row) throw new AppError("not_found", TRACK_NOT_FOUND);
  return row.track;
}

/** A new, empty track for a subject; one track per subject. */
export async function createTrack(
  db: Database,
  actor: Actor,
  subject: string,
  now: Date,
): Promise<SubjectTrack> {
  try {
    const [row] = await queryRows<{ id: string }>(
      db,
      sql`insert into subject_tracks (subject, updated_by, updated_at)
        values (${subject}, ${actor.realUser.sourcedId}, ${now.toISOString()}::timestamptz) returning id`,
    );
    return trackById(db, row?.id as string);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("conflict", message("assessment:tracks.subjectTaken", { subject }));
    throw error;
  }
}

/** Replaces a track's steps with the given ones, in their order (the reorder), in one transaction. */
export async function replaceTrackSteps(
  db: Database,
  actor: Actor,
  trackId: string,
  input: TrackStepsInput,
  now: Date,
): Promise<SubjectTrack> {
  const courseIds = [...new Set(input.steps.flatMap((step) => (step.courseId ? [step.courseId] : [])))];
  const known = courseIds.length
    ? await queryRows<{ id: string }>(
        db,
        sql`select sourced_id as id from courses where sourced_id in ${courseIds}`,
      )
    : [];
  const knownIds = new Set(known.map((row) => row.id));
  const unknown = input.steps.flatMap((step, index) =>
    step.courseId && !knownIds.has(step.courseId)
      ? [
          {
            path: `steps.${index}.courseId`,
            message: message("assessment:tracks.courseNotFound", { id: step.courseId }),
          },
        ]
      : [],
  );
  if (unknown.length) throw invalidFields(unknown);
  await db.transaction(async (tx) => {
    const [track] = await queryRows<{ id: string }>(
      tx as unknown as Database,
      sql`update subject_tracks set updated_by = ${actor.realUser.sourcedId}, updated_at = ${now.toISOString()}::timestamptz
        where ${uuidEquals(sql`id`, trackId)} returning id`,
    );
    if (!track) throw new AppError("not_found", TRACK_NOT_FOUND);
    await tx.execute(sql`delete from subject_track_steps where track_id = ${track.id}::uuid`);
    if (input.steps.length === 0) return;
    const rows = input.steps.map(
      (step, index) =>
        sql`(${track.id}::uuid, ${index + 1}::int, ${step.gradeLevel}::int, ${step.title}, ${step.courseId ?? null}::text)`,
    );
    await tx.execute(sql`insert into subject_track_steps (track_id, position, grade_level, title, course_sourced_id)
      values ${sql.join(rows, sql`, `)}`);
  });
  return trackById(db, trackId);
}

export async function deleteTrack(db: Database, trackId: string): Promise<void> {
  const deleted = await queryRows<{ id: string }>(
    db,
    sql`delete from subject_tracks where ${uuidEquals(sql`id`, trackId)} returning id`,
  );
  if (deleted.length === 0) throw new AppError("not_found", TRACK_NOT_FOUND);
}
