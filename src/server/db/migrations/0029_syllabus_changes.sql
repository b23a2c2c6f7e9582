CREATE TABLE "syllabus_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"course_sourced_id" text NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"action" text NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "syllabus_changes_course_idx" ON "syllabus_changes" USING btree ("course_sourced_id","id");