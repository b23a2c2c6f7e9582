CREATE TABLE "map_growth" (
	"student_sourced_id" text NOT NULL,
	"subject" text NOT NULL,
	"school_year" integer NOT NULL,
	"window" text NOT NULL,
	"from_term" text NOT NULL,
	"to_term" text NOT NULL,
	"grade" integer,
	"end_test_date" date NOT NULL,
	"start_rit" integer NOT NULL,
	"end_rit" integer NOT NULL,
	"observed" integer NOT NULL,
	"projected" numeric(6, 2),
	"conditional_growth_percentile" integer,
	"met_projected" boolean,
	"multiple" numeric(7, 2),
	"reaches_target" boolean,
	CONSTRAINT "map_growth_student_sourced_id_subject_school_year_window_pk" PRIMARY KEY("student_sourced_id","subject","school_year","window")
);
--> statement-breakpoint
ALTER TABLE "map_growth" ADD CONSTRAINT "map_growth_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "map_growth_window_idx" ON "map_growth" USING btree ("school_year","window","subject");