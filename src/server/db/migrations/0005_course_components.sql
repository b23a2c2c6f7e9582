CREATE TABLE "course_components" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"course_sourced_id" text NOT NULL,
	"parent_component_sourced_id" text,
	"title" text NOT NULL,
	"sort_order" integer
);
--> statement-breakpoint
CREATE INDEX "course_components_course_idx" ON "course_components" USING btree ("course_sourced_id");--> statement-breakpoint
CREATE INDEX "course_components_parent_idx" ON "course_components" USING btree ("parent_component_sourced_id");--> statement-breakpoint
CREATE INDEX "enrollments_begin_date_idx" ON "enrollments" USING btree ("begin_date" DESC NULLS LAST,"sourced_id");