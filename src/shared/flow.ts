/** A learning session seen as blocks of time: the shapes behind the flow pages. */
export interface FlowEvent {
  id: string;
  subject: string;
  activityName: string | null;
  appName: string | null;
  /** ISO instants: when the work started and when the app reported it done. */
  start: string;
  end: string;
  xp: number;
  accuracy: number | null;
}

export interface FlowChunk {
  start: string;
  end: string;
  subjects: string[];
  events: FlowEvent[];
  xp: number;
  minutes: number;
}

/** A pause longer than this starts a new chunk. */
export const CHUNK_GAP_MINUTES = 10;

/** Groups a day's events into chunks of continuous work. */
export function chunksOf(events: readonly FlowEvent[], gapMinutes = CHUNK_GAP_MINUTES): FlowChunk[] {
  const sorted = [...events].sort((a, b) => a.start.localeCompare(b.start));
  const chunks: FlowChunk[] = [];
  for (const event of sorted) {
    const last = chunks.at(-1);
    const gapMs = last ? Date.parse(event.start) - Date.parse(last.end) : Number.POSITIVE_INFINITY;
    if (last && gapMs <= gapMinutes * 60_000) {
      last.events.push(event);
      if (event.end > last.end) last.end = event.end;
      if (!last.subjects.includes(event.subject)) last.subjects.push(event.subject);
      last.xp = Math.round((last.xp + event.xp) * 100) / 100;
    } else {
      chunks.push({
        start: event.start,
        end: event.end,
        subjects: [event.subject],
        events: [event],
        xp: event.xp,
        minutes: 0,
      });
    }
  }
  for (const chunk of chunks)
    chunk.minutes = Math.round((Date.parse(chunk.end) - Date.parse(chunk.start)) / 60_000);
  return chunks;
}
