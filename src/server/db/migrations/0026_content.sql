CREATE TABLE "learning_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" text NOT NULL,
	"assignee_kind" text NOT NULL,
	"assignee_id" text NOT NULL,
	"due_date" date,
	"note" text,
	"assigned_by" text NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_by" text,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lesson_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lesson_id" text NOT NULL,
	"student_sourced_id" text NOT NULL,
	"attempt_number" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"score_percent" numeric(5, 2),
	"correct_items" integer DEFAULT 0 NOT NULL,
	"total_items" integer DEFAULT 0 NOT NULL,
	"mastered" boolean DEFAULT false NOT NULL,
	"active_seconds" integer DEFAULT 0 NOT NULL,
	"activity_event_id" text
);
--> statement-breakpoint
CREATE TABLE "lesson_item_responses" (
	"attempt_id" uuid NOT NULL,
	"resource_id" uuid NOT NULL,
	"item_identifier" text NOT NULL,
	"response" jsonb NOT NULL,
	"score" numeric(10, 2) NOT NULL,
	"max_score" numeric(10, 2) NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_item_responses_attempt_id_resource_id_item_identifier_pk" PRIMARY KEY("attempt_id","resource_id","item_identifier")
);
--> statement-breakpoint
CREATE TABLE "lesson_resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lesson_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"sort_order" integer,
	"qti_items" text[] DEFAULT '{}'::text[] NOT NULL,
	"qti_test" text,
	"article_html" text,
	"video_url" text,
	"app_id" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lessons" (
	"component_sourced_id" text PRIMARY KEY NOT NULL,
	"expected_xp" numeric(10, 2) DEFAULT 10 NOT NULL,
	"mastery_percent" integer DEFAULT 80 NOT NULL,
	"description_html" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qti_assets" (
	"sha256" text PRIMARY KEY NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "qti_documents" (
	"kind" text NOT NULL,
	"identifier" text NOT NULL,
	"title" text NOT NULL,
	"raw_xml" text NOT NULL,
	"interactions" text[] DEFAULT '{}'::text[] NOT NULL,
	"response_declarations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"references" text[] DEFAULT '{}'::text[] NOT NULL,
	"source_version" text DEFAULT '3.0' NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qti_documents_kind_identifier_pk" PRIMARY KEY("kind","identifier")
);
--> statement-breakpoint
CREATE TABLE "saved_resources" (
	"student_sourced_id" text NOT NULL,
	"resource_id" uuid NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_resources_student_sourced_id_resource_id_pk" PRIMARY KEY("student_sourced_id","resource_id")
);
--> statement-breakpoint
ALTER TABLE "lesson_item_responses" ADD CONSTRAINT "lesson_item_responses_attempt_id_lesson_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."lesson_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "learning_assignments_active_idx" ON "learning_assignments" USING btree ("target_kind","target_id","assignee_kind","assignee_id") WHERE "learning_assignments"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "learning_assignments_assignee_idx" ON "learning_assignments" USING btree ("assignee_kind","assignee_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_attempts_number_idx" ON "lesson_attempts" USING btree ("lesson_id","student_sourced_id","attempt_number");--> statement-breakpoint
CREATE UNIQUE INDEX "lesson_attempts_open_idx" ON "lesson_attempts" USING btree ("lesson_id","student_sourced_id") WHERE "lesson_attempts"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "lesson_attempts_student_idx" ON "lesson_attempts" USING btree ("student_sourced_id","lesson_id");--> statement-breakpoint
CREATE INDEX "lesson_resources_lesson_idx" ON "lesson_resources" USING btree ("lesson_id");--> statement-breakpoint
CREATE INDEX "qti_documents_updated_idx" ON "qti_documents" USING btree ("kind","updated_at");
