CREATE TABLE "leaderboard_opt_outs" (
	"student_sourced_id" text NOT NULL,
	"hidden_by" text NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leaderboard_opt_outs_student_sourced_id_hidden_by_pk" PRIMARY KEY("student_sourced_id","hidden_by")
);
--> statement-breakpoint
CREATE TABLE "league_placements" (
	"student_sourced_id" text NOT NULL,
	"week_start" date NOT NULL,
	"tier" text NOT NULL,
	"league" integer NOT NULL,
	CONSTRAINT "league_placements_student_sourced_id_week_start_pk" PRIMARY KEY("student_sourced_id","week_start")
);
--> statement-breakpoint
ALTER TABLE "leaderboard_opt_outs" ADD CONSTRAINT "leaderboard_opt_outs_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "league_placements" ADD CONSTRAINT "league_placements_student_sourced_id_users_sourced_id_fk" FOREIGN KEY ("student_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "league_placements_league_idx" ON "league_placements" USING btree ("week_start","tier","league");