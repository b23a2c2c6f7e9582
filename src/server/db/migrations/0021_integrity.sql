CREATE TABLE "integrity_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"incident_id" uuid NOT NULL,
	"step" integer NOT NULL,
	"action" text NOT NULL,
	"note" text NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"actor_role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrity_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"agent_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"incident_type" text NOT NULL,
	"confidence_score" numeric(4, 3) NOT NULL,
	"app_name" text,
	"detected_text" text NOT NULL,
	"session_id" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"screenshot_key" text,
	"evidence_deleted_at" timestamp with time zone,
	"review_status" text DEFAULT 'pending' NOT NULL,
	"decided_at" timestamp with time zone,
	"struck_at" timestamp with time zone,
	"strike_expires_at" timestamp with time zone,
	"cumulative_strikes" integer,
	"lockout_id" uuid,
	"voided_xp" numeric(12, 2) DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrity_lockouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"code" text NOT NULL,
	"locked_at" timestamp with time zone NOT NULL,
	"incident_id" uuid,
	"unlocked_at" timestamp with time zone,
	"unlocked_by_sourced_id" text,
	"unlock_note" text,
	"unlock_reason" text,
	"unlocked_with_code" boolean
);
--> statement-breakpoint
ALTER TABLE "activity_events" ADD COLUMN "session_id" text;--> statement-breakpoint
ALTER TABLE "learning_apps" ADD COLUMN "kind" text DEFAULT 'learning' NOT NULL;--> statement-breakpoint
ALTER TABLE "integrity_decisions" ADD CONSTRAINT "integrity_decisions_incident_id_integrity_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."integrity_incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_incidents" ADD CONSTRAINT "integrity_incidents_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_incidents" ADD CONSTRAINT "integrity_incidents_agent_id_learning_apps_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."learning_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrity_lockouts" ADD CONSTRAINT "integrity_lockouts_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integrity_decisions_incident_idx" ON "integrity_decisions" USING btree ("incident_id","step");--> statement-breakpoint
CREATE UNIQUE INDEX "integrity_incidents_client_idx" ON "integrity_incidents" USING btree ("agent_id","client_id");--> statement-breakpoint
CREATE INDEX "integrity_incidents_student_idx" ON "integrity_incidents" USING btree ("student_sourced_id","occurred_at");--> statement-breakpoint
CREATE INDEX "integrity_incidents_open_idx" ON "integrity_incidents" USING btree ("occurred_at") WHERE "integrity_incidents"."review_status" in ('pending', 'awaiting_second', 'escalated', 'appealed');--> statement-breakpoint
CREATE INDEX "integrity_incidents_session_idx" ON "integrity_incidents" USING btree ("student_sourced_id","session_id") WHERE "integrity_incidents"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "integrity_incidents_evidence_idx" ON "integrity_incidents" USING btree ("received_at") WHERE "integrity_incidents"."screenshot_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "integrity_lockouts_open_idx" ON "integrity_lockouts" USING btree ("student_sourced_id") WHERE "integrity_lockouts"."unlocked_at" is null;--> statement-breakpoint
CREATE INDEX "integrity_lockouts_student_idx" ON "integrity_lockouts" USING btree ("student_sourced_id","locked_at");--> statement-breakpoint
CREATE INDEX "activity_events_session_idx" ON "activity_events" USING btree ("student_sourced_id","session_id") WHERE "activity_events"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "xp_ledger_integrity_event_idx" ON "xp_ledger" USING btree ("activity_event_id") WHERE "xp_ledger"."source" = 'integrity';