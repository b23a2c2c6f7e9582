import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { learningApps } from "../activity/schema";

/**
 * A student's sign-in to one learning app, kept by the school. The password is stored only
 * encrypted (secret box, AES-256-GCM, its context naming the row); no answer lists it.
 */
export const appCredentials = pgTable(
  "app_credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentSourcedId: text("student_sourced_id").notNull(),
    appId: uuid("app_id")
      .notNull()
      .references(() => learningApps.id),
    username: text("username").notNull(),
    passwordEnvelope: text("password_envelope").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("app_credentials_student_app_idx").on(table.studentSourcedId, table.appId)],
);

/** Every time a password was shown in the clear: who asked, whose it is, when. */
export const credentialDecrypts = pgTable(
  "credential_decrypts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    credentialId: uuid("credential_id").notNull(),
    studentSourcedId: text("student_sourced_id").notNull(),
    appId: uuid("app_id").notNull(),
    decryptedBy: text("decrypted_by").notNull(),
    /** The role they acted in. */
    role: text("role").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("credential_decrypts_student_idx").on(table.studentSourcedId, table.at),
    index("credential_decrypts_at_idx").on(table.at),
  ],
);

/**
 * Every change to a student's app login: who added, changed, removed or imported it, and when.
 * Ids only: never a username's earlier value or a password.
 */
export const appCredentialChanges = pgTable(
  "app_credential_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    credentialId: uuid("credential_id").notNull(),
    studentSourcedId: text("student_sourced_id").notNull(),
    appId: uuid("app_id").notNull(),
    /** `added` | `changed` | `removed` | `imported`. */
    action: text("action").notNull(),
    changedBy: text("changed_by").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("app_credential_changes_student_idx").on(table.studentSourcedId, table.at)],
);
