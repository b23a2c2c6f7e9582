CREATE TABLE "pulse_deliveries" (
	"parent_sourced_id" text NOT NULL,
	"week_start" date NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pulse_deliveries_parent_sourced_id_week_start_pk" PRIMARY KEY("parent_sourced_id","week_start")
);
--> statement-breakpoint
CREATE TABLE "pulse_note_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"student_sourced_id" text NOT NULL,
	"week_start" date NOT NULL,
	"note" text NOT NULL,
	"author_sourced_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pulse_notes" (
	"student_sourced_id" text NOT NULL,
	"week_start" date NOT NULL,
	"note" text NOT NULL,
	"author_sourced_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pulse_notes_student_sourced_id_week_start_pk" PRIMARY KEY("student_sourced_id","week_start")
);
--> statement-breakpoint
CREATE TABLE "weekly_pulses" (
	"student_sourced_id" text NOT NULL,
	"week_start" date NOT NULL,
	"figures" jsonb NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weekly_pulses_student_sourced_id_week_start_pk" PRIMARY KEY("student_sourced_id","week_start")
);
--> statement-breakpoint
CREATE TABLE "announcement_recipients" (
	"announcement_id" uuid NOT NULL,
	"user_sourced_id" text NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "announcement_recipients_announcement_id_user_sourced_id_pk" PRIMARY KEY("announcement_id","user_sourced_id")
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"body_html" text NOT NULL,
	"audience" jsonb NOT NULL,
	"send_email" boolean DEFAULT true NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"recipient_count" integer,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_by" text,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "conversation_members" (
	"conversation_id" uuid NOT NULL,
	"user_sourced_id" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_read_at" timestamp with time zone,
	CONSTRAINT "conversation_members_conversation_id_user_sourced_id_pk" PRIMARY KEY("conversation_id","user_sourced_id")
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"author_sourced_id" text NOT NULL,
	"body_html" text NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_settings" (
	"org_sourced_id" text PRIMARY KEY NOT NULL,
	"students_may_write" boolean DEFAULT false NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_sourced_id" text NOT NULL,
	"type" text NOT NULL,
	"in_app" boolean NOT NULL,
	"email" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_user_sourced_id_type_pk" PRIMARY KEY("user_sourced_id","type")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_sourced_id" text NOT NULL,
	"type" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"link" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_preferences" (
	"user_sourced_id" text PRIMARY KEY NOT NULL,
	"digest_day" smallint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_drafts" (
	"round_id" uuid NOT NULL,
	"user_sourced_id" text NOT NULL,
	"answers" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_drafts_round_id_user_sourced_id_pk" PRIMARY KEY("round_id","user_sourced_id")
);
--> statement-breakpoint
CREATE TABLE "survey_participation" (
	"round_id" uuid NOT NULL,
	"user_sourced_id" text NOT NULL,
	CONSTRAINT "survey_participation_round_id_user_sourced_id_pk" PRIMARY KEY("round_id","user_sourced_id")
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"round_id" uuid NOT NULL,
	"user_sourced_id" text,
	"answers" jsonb NOT NULL,
	"respondent_role" text NOT NULL,
	"respondent_school_id" text,
	"respondent_grade" text,
	"submitted_on" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"survey_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone,
	"invited_count" integer
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"audience" jsonb NOT NULL,
	"is_anonymous" boolean DEFAULT false NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone,
	"repeat" text DEFAULT 'none' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_sourced_id" text,
	"to_address" text NOT NULL,
	"category" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"message_id" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "pulse_note_changes_week_idx" ON "pulse_note_changes" USING btree ("student_sourced_id","week_start","id");--> statement-breakpoint
CREATE INDEX "announcement_recipients_user_idx" ON "announcement_recipients" USING btree ("user_sourced_id");--> statement-breakpoint
CREATE INDEX "announcements_due_idx" ON "announcements" USING btree ("scheduled_for") WHERE "announcements"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "conversation_members_user_idx" ON "conversation_members" USING btree ("user_sourced_id");--> statement-breakpoint
CREATE INDEX "conversations_last_idx" ON "conversations" USING btree ("last_message_at");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_sourced_id","created_at");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_sourced_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_idx" ON "notifications" USING btree ("user_sourced_id","dedupe_key") WHERE "notifications"."dedupe_key" is not null;--> statement-breakpoint
CREATE INDEX "survey_responses_round_idx" ON "survey_responses" USING btree ("round_id");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_named_idx" ON "survey_responses" USING btree ("round_id","user_sourced_id") WHERE "survey_responses"."user_sourced_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "survey_rounds_number_idx" ON "survey_rounds" USING btree ("survey_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_dedupe_idx" ON "email_outbox" USING btree ("dedupe_key") WHERE "email_outbox"."dedupe_key" is not null;--> statement-breakpoint
CREATE INDEX "email_outbox_created_idx" ON "email_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "email_outbox_status_idx" ON "email_outbox" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "email_outbox_recipient_idx" ON "email_outbox" USING btree ("recipient_sourced_id","created_at");