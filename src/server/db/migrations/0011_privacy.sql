CREATE TABLE "retention_runs" (
	"job" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"removed" jsonb
);
--> statement-breakpoint
CREATE TABLE "sensitive_access_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"real_actor_sourced_id" text NOT NULL,
	"person_sourced_id" text,
	"kind" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "student_anonymisations" (
	"student_sourced_id" text PRIMARY KEY NOT NULL,
	"number" serial NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"reason" text NOT NULL,
	"anonymised_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sensitive_access_log_created_idx" ON "sensitive_access_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sensitive_access_log_person_idx" ON "sensitive_access_log" USING btree ("person_sourced_id","created_at");