CREATE TABLE "map_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"imported_by" text NOT NULL,
	"rows" jsonb NOT NULL,
	"imported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"nwea_student_id" text NOT NULL,
	"term_name" text NOT NULL,
	"season" text NOT NULL,
	"school_year" integer NOT NULL,
	"subject" text NOT NULL,
	"discipline" text,
	"test_name" text,
	"test_key" text NOT NULL,
	"test_id" text,
	"test_type" text,
	"growth_measure" boolean DEFAULT true NOT NULL,
	"test_date" date NOT NULL,
	"test_start_time" text,
	"duration_minutes" integer,
	"rit" integer NOT NULL,
	"standard_error" numeric(5, 2),
	"percentile" integer,
	"achievement_quintile" text,
	"percent_correct" numeric(5, 2),
	"rapid_guessing_percent" numeric(5, 2),
	"lexile" text,
	"grade" integer,
	"school_name" text,
	"goals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"growth" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"import_id" uuid,
	"imported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_student_links" (
	"nwea_student_id" text PRIMARY KEY NOT NULL,
	"student_sourced_id" text NOT NULL,
	"linked_by" text NOT NULL,
	"linked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "map_unmatched_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"nwea_student_id" text NOT NULL,
	"name" text,
	"school_name" text,
	"term_name" text NOT NULL,
	"subject" text NOT NULL,
	"test_key" text NOT NULL,
	"line" integer NOT NULL,
	"event" jsonb NOT NULL,
	"import_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "map_results" ADD CONSTRAINT "map_results_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "map_student_links" ADD CONSTRAINT "map_student_links_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "map_results_student_term_idx" ON "map_results" USING btree ("student_sourced_id","subject","school_year","season","test_key");--> statement-breakpoint
CREATE INDEX "map_results_term_idx" ON "map_results" USING btree ("school_year","season","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "map_unmatched_rows_key_idx" ON "map_unmatched_rows" USING btree ("nwea_student_id","subject","term_name","test_key");