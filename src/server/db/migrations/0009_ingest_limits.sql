CREATE TABLE "daily_ingest_totals" (
	"student_sourced_id" text NOT NULL,
	"local_date" date NOT NULL,
	"active_seconds" integer DEFAULT 0 NOT NULL,
	"auto_credited_xp" numeric(12, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_ingest_totals_student_sourced_id_local_date_pk" PRIMARY KEY("student_sourced_id","local_date")
);
--> statement-breakpoint
CREATE TABLE "held_activity_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"student_sourced_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"local_date" date NOT NULL,
	"subject" text NOT NULL,
	"activity_name" text,
	"fact" jsonb NOT NULL,
	"xp" numeric(10, 2) NOT NULL,
	"xp_explanation" text NOT NULL,
	"held_reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reviewer_sourced_id" text,
	"review_note" text,
	"reviewed_at" timestamp with time zone,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "held_activity_events_app_event_idx" ON "held_activity_events" USING btree ("app_id","event_id");--> statement-breakpoint
CREATE INDEX "held_activity_events_status_idx" ON "held_activity_events" USING btree ("status","received_at");--> statement-breakpoint
CREATE INDEX "held_activity_events_student_day_idx" ON "held_activity_events" USING btree ("student_sourced_id","local_date");