CREATE TABLE "activity_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"student_sourced_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"local_date" date NOT NULL,
	"subject" text NOT NULL,
	"activity_id" text,
	"activity_name" text,
	"expected_xp" numeric(10, 2),
	"total_questions" integer DEFAULT 0 NOT NULL,
	"correct_questions" integer DEFAULT 0 NOT NULL,
	"mastered_units" integer DEFAULT 0 NOT NULL,
	"active_seconds" integer DEFAULT 0 NOT NULL,
	"inactive_seconds" integer DEFAULT 0 NOT NULL,
	"waste_seconds" integer DEFAULT 0 NOT NULL,
	"anti_pattern_seconds" integer DEFAULT 0 NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"awarded_xp" numeric(10, 2) NOT NULL,
	"xp_explanation" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"label" text NOT NULL,
	"key_prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "daily_student_metrics" (
	"student_sourced_id" text NOT NULL,
	"local_date" date NOT NULL,
	"subject" text NOT NULL,
	"app_key" text NOT NULL,
	"xp" numeric(12, 2) DEFAULT 0 NOT NULL,
	"active_seconds" integer DEFAULT 0 NOT NULL,
	"waste_seconds" integer DEFAULT 0 NOT NULL,
	"total_questions" integer DEFAULT 0 NOT NULL,
	"correct_questions" integer DEFAULT 0 NOT NULL,
	"mastered_units" integer DEFAULT 0 NOT NULL,
	"events" integer DEFAULT 0 NOT NULL,
	"last_event_at" timestamp with time zone,
	CONSTRAINT "daily_student_metrics_student_sourced_id_local_date_subject_app_key_pk" PRIMARY KEY("student_sourced_id","local_date","subject","app_key")
);
--> statement-breakpoint
CREATE TABLE "learning_apps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"subjects" text[] DEFAULT '{}'::text[] NOT NULL,
	"launch_url" text,
	"icon" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "school_holidays" (
	"org_sourced_id" text NOT NULL,
	"date" date NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "school_holidays_org_sourced_id_date_pk" PRIMARY KEY("org_sourced_id","date")
);
--> statement-breakpoint
CREATE TABLE "student_daily_goals" (
	"student_sourced_id" text NOT NULL,
	"subject" text NOT NULL,
	"daily_xp" integer NOT NULL,
	CONSTRAINT "student_daily_goals_student_sourced_id_subject_pk" PRIMARY KEY("student_sourced_id","subject")
);
--> statement-breakpoint
CREATE TABLE "xp_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"amount" numeric(10, 2) NOT NULL,
	"reason" text NOT NULL,
	"source" text NOT NULL,
	"activity_event_id" uuid,
	"actor_sourced_id" text,
	"local_date" date NOT NULL,
	"subject" text NOT NULL,
	"app_id" uuid,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_api_keys" ADD CONSTRAINT "app_api_keys_app_id_learning_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."learning_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_events_app_event_idx" ON "activity_events" USING btree ("app_id","event_id");--> statement-breakpoint
CREATE INDEX "activity_events_student_day_idx" ON "activity_events" USING btree ("student_sourced_id","local_date");--> statement-breakpoint
CREATE UNIQUE INDEX "app_api_keys_hash_idx" ON "app_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "app_api_keys_app_idx" ON "app_api_keys" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "xp_ledger_idempotency_idx" ON "xp_ledger" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "xp_ledger_student_day_idx" ON "xp_ledger" USING btree ("student_sourced_id","local_date");