CREATE TABLE "guardian_link_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"agent_sourced_id" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "impersonation_audit" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonation_viewer_role" text;--> statement-breakpoint
ALTER TABLE "guardian_link_requests" ADD CONSTRAINT "guardian_link_requests_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardian_link_requests" ADD CONSTRAINT "guardian_link_requests_agent_sourced_id_users_sourced_id_fk" FOREIGN KEY ("agent_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guardian_link_requests_pending_idx" ON "guardian_link_requests" USING btree ("student_sourced_id","agent_sourced_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "guardian_link_requests_status_idx" ON "guardian_link_requests" USING btree ("status","requested_at");