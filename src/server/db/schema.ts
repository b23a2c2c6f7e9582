// Every table of every domain, for Drizzle's migrations and typed queries.
export * from "../domains/activity/schema";
export * from "../domains/assessment/schema";
export * from "../domains/auth/schema";
export * from "../domains/content/schema";
export * from "../domains/goals/schema";
export * from "../domains/integrity/schema";
export * from "../domains/leaderboards/schema";
export * from "../domains/oauth/schema";
export * from "../domains/privacy/schema";
export * from "../domains/rewards/schema";
export * from "../domains/rostering/schema";
export { rateLimitWindows } from "../lib/rate-limit";
export * from "../platform/jobs/schema";
export { appMeta } from "./meta";
