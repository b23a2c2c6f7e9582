/** The fixed sign-in accounts of the demo school, listed on the sign-in page while it is present. */
export const DEMO_PASSWORD = "dash-demo";

export const DEMO_ACCOUNTS = [
  { email: "admin@dash.demo", name: "Alex Morgan", description: "Administrator (district)" },
  { email: "guide@dash.demo", name: "Maya Patel", description: "Guide of Ava Johnson" },
  { email: "student@dash.demo", name: "Ava Johnson", description: "Student, grade 3" },
  { email: "parent@dash.demo", name: "Sam Johnson", description: "Parent of Ava and Leo" },
  { email: "guardian@dash.demo", name: "Grace Miller", description: "Guardian of Ava" },
  { email: "proctor@dash.demo", name: "Pat Rivera", description: "Proctor" },
  { email: "multi@dash.demo", name: "Jordan Lee", description: "Guide and student" },
] as const;

export type DemoEmail = (typeof DEMO_ACCOUNTS)[number]["email"];
