CREATE TABLE "app_credential_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"credential_id" uuid NOT NULL,
	"student_sourced_id" text NOT NULL,
	"app_id" uuid NOT NULL,
	"action" text NOT NULL,
	"changed_by" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "app_credential_changes_student_idx" ON "app_credential_changes" USING btree ("student_sourced_id","at");