CREATE TABLE "ingest_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_code" integer NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"reasons" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analytics_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"path" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"day" date NOT NULL,
	"user_sourced_id" text,
	"role" text,
	"school_sourced_id" text,
	"linked_ids" text[],
	"session_key" text,
	"message" text,
	"stack" text
);
--> statement-breakpoint
CREATE TABLE "athletic_activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"activity" text NOT NULL,
	"minutes" integer NOT NULL,
	"activity_date" date NOT NULL,
	"note" text,
	"recorded_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone,
	"removed_by" text,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "app_credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"app_id" uuid NOT NULL,
	"username" text NOT NULL,
	"password_envelope" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "credential_decrypts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credential_id" uuid NOT NULL,
	"student_sourced_id" text NOT NULL,
	"app_id" uuid NOT NULL,
	"decrypted_by" text NOT NULL,
	"role" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tour_completions" (
	"user_sourced_id" text NOT NULL,
	"tour" text NOT NULL,
	"outcome" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tour_completions_user_sourced_id_tour_pk" PRIMARY KEY("user_sourced_id","tour")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"event_id" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"last_status_code" integer,
	"last_error" text,
	"last_duration_ms" integer,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"replay_of" uuid,
	"requested_by" text
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret_envelope" text NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone,
	"removed_at" timestamp with time zone,
	"removed_by" text
);
--> statement-breakpoint
ALTER TABLE "app_credentials" ADD CONSTRAINT "app_credentials_app_id_learning_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."learning_apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_requests_app_idx" ON "ingest_requests" USING btree ("app_id","received_at");--> statement-breakpoint
CREATE INDEX "analytics_events_occurred_idx" ON "analytics_events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "analytics_events_type_day_idx" ON "analytics_events" USING btree ("type","day");--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_events_daily_active_idx" ON "analytics_events" USING btree ("user_sourced_id","day") WHERE "analytics_events"."type" = 'daily_active';--> statement-breakpoint
CREATE UNIQUE INDEX "analytics_events_login_idx" ON "analytics_events" USING btree ("session_key") WHERE "analytics_events"."type" = 'login';--> statement-breakpoint
CREATE INDEX "athletic_activities_student_idx" ON "athletic_activities" USING btree ("student_sourced_id","activity_date");--> statement-breakpoint
CREATE UNIQUE INDEX "app_credentials_student_app_idx" ON "app_credentials" USING btree ("student_sourced_id","app_id");--> statement-breakpoint
CREATE INDEX "credential_decrypts_student_idx" ON "credential_decrypts" USING btree ("student_sourced_id","at");--> statement-breakpoint
CREATE INDEX "credential_decrypts_at_idx" ON "credential_decrypts" USING btree ("at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."state" in ('queued', 'delivering');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_idx" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("subscription_id","event_id") WHERE "webhook_deliveries"."replay_of" is null;