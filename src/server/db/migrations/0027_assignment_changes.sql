ALTER TABLE "learning_assignments" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "learning_assignments" ADD COLUMN "updated_at" timestamp with time zone;