import type { HeatmapRequest } from "./api";

/** The home's query keys, apart from its queries: the shell refreshes them without loading the home's code. */
export const homeKeys = {
  all: ["home"] as const,
  student: (studentId: string) => ["home", "student", studentId] as const,
  guideStudents: (guideId: string) => ["home", "guide-students", guideId] as const,
  children: (agentId: string) => ["home", "children-summary", agentId] as const,
  schools: ["home", "schools-summary"] as const,
  heatmap: (request: HeatmapRequest) =>
    ["home", "xp-heatmap", request.userId, request.startDate, request.endDate, request.timezone] as const,
};
