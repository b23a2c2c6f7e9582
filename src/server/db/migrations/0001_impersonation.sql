CREATE TABLE "impersonation_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"target_sourced_id" text NOT NULL,
	"action" text NOT NULL,
	"reason" text,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonated_user_sourced_id" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonation_reason" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonation_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "impersonation_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "impersonation_audit_created_idx" ON "impersonation_audit" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "impersonation_audit_actor_idx" ON "impersonation_audit" USING btree ("actor_sourced_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_impersonated_user_sourced_id_users_sourced_id_fk" FOREIGN KEY ("impersonated_user_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE set null ON UPDATE no action;