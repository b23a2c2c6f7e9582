/** One colour per subject, the same on every chart and timeline (AA contrast with white text). */
const SUBJECT_COLORS: Record<string, string> = {
  Math: "#2563eb",
  Reading: "#7c3aed",
  Language: "#0f766e",
  Science: "#c2410c",
  Vocabulary: "#be185d",
  Writing: "#4d7c0f",
  "Social Studies": "#a16207",
};
const FALLBACK_COLORS = ["#475569", "#0369a1", "#9d174d", "#15803d"];

export function subjectColor(subject: string): string {
  const known = SUBJECT_COLORS[subject];
  if (known) return known;
  const hash = [...subject].reduce((total, char) => total + char.charCodeAt(0), 0);
  return FALLBACK_COLORS[hash % FALLBACK_COLORS.length] as string;
}

/** "09:30" in the student's own timezone. */
export function timeOfDayIn(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone }).format(
    new Date(instant),
  );
}

/** Minutes since midnight in a timezone, for placing an instant on a day's timeline. */
export function minuteOfDayIn(instant: string, timeZone: string): number {
  const [hours, minutes] = timeOfDayIn(instant, timeZone).split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}
