ALTER TABLE "user_roles" ADD COLUMN "sourced_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_sourced_id_idx" ON "user_roles" USING btree ("sourced_id");