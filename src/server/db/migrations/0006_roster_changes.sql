CREATE TABLE "roster_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"action" text NOT NULL,
	"target_user_sourced_id" text,
	"org_sourced_id" text,
	"summary" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "roster_changes_created_idx" ON "roster_changes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "roster_changes_target_idx" ON "roster_changes" USING btree ("target_user_sourced_id");