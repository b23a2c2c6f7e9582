CREATE TABLE "goals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"student_sourced_id" text,
	"class_sourced_id" text,
	"subject" text,
	"course_sourced_id" text,
	"target" integer NOT NULL,
	"baseline" integer,
	"starts_on" date NOT NULL,
	"deadline" date,
	"set_by_sourced_id" text NOT NULL,
	"set_by_role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "goals_one_owner" CHECK (("goals"."student_sourced_id" is null) <> ("goals"."class_sourced_id" is null))
);
--> statement-breakpoint
ALTER TABLE "goals" ADD CONSTRAINT "goals_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goals" ADD CONSTRAINT "goals_class_sourced_id_classes_sourced_id_fk" FOREIGN KEY ("class_sourced_id") REFERENCES "public"."classes"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goals_student_idx" ON "goals" USING btree ("student_sourced_id");--> statement-breakpoint
CREATE INDEX "goals_class_idx" ON "goals" USING btree ("class_sourced_id");--> statement-breakpoint
CREATE UNIQUE INDEX "goals_weekly_student_idx" ON "goals" USING btree ("student_sourced_id") WHERE kind = 'weekly_xp' and student_sourced_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "goals_weekly_class_idx" ON "goals" USING btree ("class_sourced_id") WHERE kind = 'weekly_xp' and class_sourced_id is not null;