ALTER TABLE "orgs" ADD COLUMN "default_language" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "preferred_language" text;