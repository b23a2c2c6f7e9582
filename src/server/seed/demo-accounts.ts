import { createHash } from "node:crypto";

/** The fixed sign-in accounts of the demo school, listed on the sign-in page while it is present. */
export const DEMO_PASSWORD = "dash-demo";

/** The sign-in page says who each one is in the reader's language (`auth:demoAccounts.<local part>`). */
export const DEMO_ACCOUNTS = [
  { email: "admin@dash.demo", name: "Alex Morgan" },
  { email: "guide@dash.demo", name: "Maya Patel" },
  { email: "student@dash.demo", name: "Ava Johnson" },
  { email: "parent@dash.demo", name: "Sam Johnson" },
  { email: "guardian@dash.demo", name: "Grace Miller" },
  { email: "proctor@dash.demo", name: "Pat Rivera" },
  { email: "multi@dash.demo", name: "Jordan Lee" },
] as const;

export type DemoEmail = (typeof DEMO_ACCOUNTS)[number]["email"];

/** A stable UUID-shaped sourcedId for a name, so every seed of the demo school has the same ids. */
export function demoId(key: string): string {
  const hex = createHash("sha1").update(`dash-demo:${key}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The demo's first school, where the class leaderboard is on by default. */
export const DEMO_FIRST_SCHOOL_ID = demoId("maple-grove");

/** The demo school's learning apps; the math app takes events with the key `demo-app-key`. */
export const DEMO_APP_KEY = "demo-app-key";
export const DEMO_APPS = [
  {
    key: "math",
    name: "Math Academy",
    subjects: ["Math"],
    launchUrl: "https://math.example.org",
    icon: "➗",
  },
  {
    key: "reading",
    name: "Reading Quest",
    subjects: ["Reading"],
    launchUrl: "https://reading.example.org",
    icon: "📚",
  },
  {
    key: "language",
    name: "Language Lab",
    subjects: ["Language"],
    launchUrl: "https://language.example.org",
    icon: "✏️",
  },
  {
    key: "science",
    name: "Science Explorer",
    subjects: ["Science"],
    launchUrl: "https://science.example.org",
    icon: "🔬",
  },
] as const;

/** The demo's OneRoster API client: a student information system with every rostering scope. */
export const DEMO_SIS_CLIENT = {
  name: "Demo SIS",
  clientId: "demo-sis",
  clientSecret: "demo-sis-secret",
} as const;
