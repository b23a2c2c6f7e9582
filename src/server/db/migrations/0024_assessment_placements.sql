CREATE TABLE "check_chart_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"level_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_chart_levels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chart_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"mapped_grade" integer,
	"mapped_by" text,
	"mapped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "check_charts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"subject" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_observations" (
	"check_id" uuid NOT NULL,
	"student_sourced_id" text NOT NULL,
	"observed_on" date NOT NULL,
	"observed_by" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "check_observations_check_id_student_sourced_id_pk" PRIMARY KEY("check_id","student_sourced_id")
);
--> statement-breakpoint
CREATE TABLE "placement_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"subject" text NOT NULL,
	"from_grade" integer,
	"to_grade" integer NOT NULL,
	"reason" text NOT NULL,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "placement_tests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"subject" text NOT NULL,
	"grade_level" integer NOT NULL,
	"test_name" text NOT NULL,
	"status" text NOT NULL,
	"score" numeric(5, 2),
	"taken_on" date,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "placements" (
	"student_sourced_id" text NOT NULL,
	"subject" text NOT NULL,
	"starting_grade" integer NOT NULL,
	"current_grade" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "placements_student_sourced_id_subject_pk" PRIMARY KEY("student_sourced_id","subject")
);
--> statement-breakpoint
CREATE TABLE "screening_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"applicant_name" text NOT NULL,
	"student_sourced_id" text,
	"subject" text NOT NULL,
	"grade" integer NOT NULL,
	"rit" integer,
	"test_name" text NOT NULL,
	"tested_on" date NOT NULL,
	"decision" text NOT NULL,
	"notes" text,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subject_track_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"track_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"grade_level" integer NOT NULL,
	"title" text NOT NULL,
	"course_sourced_id" text
);
--> statement-breakpoint
CREATE TABLE "subject_tracks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "subject_tracks_subject_unique" UNIQUE("subject")
);
--> statement-breakpoint
ALTER TABLE "check_chart_checks" ADD CONSTRAINT "check_chart_checks_level_id_check_chart_levels_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."check_chart_levels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_chart_levels" ADD CONSTRAINT "check_chart_levels_chart_id_check_charts_id_fk" FOREIGN KEY ("chart_id") REFERENCES "public"."check_charts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_observations" ADD CONSTRAINT "check_observations_check_id_check_chart_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."check_chart_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_observations" ADD CONSTRAINT "check_observations_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_changes" ADD CONSTRAINT "placement_changes_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placement_tests" ADD CONSTRAINT "placement_tests_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "placements" ADD CONSTRAINT "placements_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_results" ADD CONSTRAINT "screening_results_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_track_steps" ADD CONSTRAINT "subject_track_steps_track_id_subject_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."subject_tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_chart_checks_level_idx" ON "check_chart_checks" USING btree ("level_id","position");--> statement-breakpoint
CREATE INDEX "check_chart_levels_chart_idx" ON "check_chart_levels" USING btree ("chart_id","position");--> statement-breakpoint
CREATE INDEX "check_observations_student_idx" ON "check_observations" USING btree ("student_sourced_id");--> statement-breakpoint
CREATE INDEX "placement_changes_student_idx" ON "placement_changes" USING btree ("student_sourced_id","subject","changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "placement_tests_student_test_idx" ON "placement_tests" USING btree ("student_sourced_id","subject","grade_level","test_name");--> statement-breakpoint
CREATE UNIQUE INDEX "screening_results_key_idx" ON "screening_results" USING btree ("applicant_name","subject","test_name","tested_on");--> statement-breakpoint
CREATE INDEX "subject_track_steps_track_idx" ON "subject_track_steps" USING btree ("track_id","position");