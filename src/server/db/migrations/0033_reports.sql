CREATE TABLE "student_daily_totals" (
	"student_sourced_id" text NOT NULL,
	"local_date" date NOT NULL,
	"xp" numeric(14, 2) DEFAULT 0 NOT NULL,
	"active_seconds" integer DEFAULT 0 NOT NULL,
	"waste_seconds" integer DEFAULT 0 NOT NULL,
	"total_questions" integer DEFAULT 0 NOT NULL,
	"correct_questions" integer DEFAULT 0 NOT NULL,
	"mastered_units" integer DEFAULT 0 NOT NULL,
	"events" integer DEFAULT 0 NOT NULL,
	"subject_xp" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"metric_rows" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "student_daily_totals_student_sourced_id_local_date_pk" PRIMARY KEY("student_sourced_id","local_date")
);
--> statement-breakpoint
CREATE TABLE "report_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"frequency" text NOT NULL,
	"recipient_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_period" text,
	"last_sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
CREATE INDEX "student_daily_totals_day_idx" ON "student_daily_totals" USING btree ("local_date");--> statement-breakpoint
CREATE INDEX "report_schedules_frequency_idx" ON "report_schedules" USING btree ("frequency");--> statement-breakpoint
-- Two objects of numbers added key by key; a key whose sum is zero is left out.
CREATE FUNCTION "jsonb_add_numbers"(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from (
    select k, sum(v::numeric) as v
    from (select * from jsonb_each_text(a) union all select * from jsonb_each_text(b)) e (k, v)
    group by k having sum(v::numeric) <> 0) s
$$;
--> statement-breakpoint
-- Every change of the daily totals moves the student's day in the same statement: the rows a
-- statement inserted count in, the rows it deleted count out, an update counts the difference.
-- Adding differences (never recounting) keeps concurrent writers of one day from conflicting.
CREATE FUNCTION "student_daily_totals_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted text := 'student_sourced_id, local_date, subject, xp, active_seconds, waste_seconds,
    total_questions, correct_questions, mastered_units, events';
  negated text := 'student_sourced_id, local_date, subject, -xp, -active_seconds, -waste_seconds,
    -total_questions, -correct_questions, -mastered_units, -events';
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select 1, ' || counted || ' from new_rows'
    WHEN 'DELETE' THEN 'select -1, ' || negated || ' from old_rows'
    ELSE 'select 1, ' || counted || ' from new_rows union all select -1, ' || negated || ' from old_rows'
  END;
BEGIN
  EXECUTE 'insert into student_daily_totals as t (student_sourced_id, local_date, metric_rows, xp,
      active_seconds, waste_seconds, total_questions, correct_questions, mastered_units, events, subject_xp)
    select s, d, sum(n), sum(xp), sum(a), sum(w), sum(q), sum(c), sum(m), sum(e),
      coalesce(jsonb_object_agg(subject, xp) filter (where xp <> 0), ''{}''::jsonb)
    from (select s, d, subject, sum(n) as n, sum(xp) as xp, sum(a) as a, sum(w) as w, sum(q) as q,
        sum(c) as c, sum(m) as m, sum(e) as e
      from (' || changes || ') x (n, s, d, subject, xp, a, w, q, c, m, e) group by 1, 2, 3) by_subject
    group by 1, 2 order by 1, 2
    on conflict (student_sourced_id, local_date) do update set
      metric_rows = t.metric_rows + excluded.metric_rows, xp = t.xp + excluded.xp,
      active_seconds = t.active_seconds + excluded.active_seconds,
      waste_seconds = t.waste_seconds + excluded.waste_seconds,
      total_questions = t.total_questions + excluded.total_questions,
      correct_questions = t.correct_questions + excluded.correct_questions,
      mastered_units = t.mastered_units + excluded.mastered_units, events = t.events + excluded.events,
      subject_xp = jsonb_add_numbers(t.subject_xp, excluded.subject_xp)';
  IF TG_OP <> 'INSERT' THEN
    EXECUTE 'delete from student_daily_totals t using (select distinct student_sourced_id, local_date from old_rows) o
      where t.student_sourced_id = o.student_sourced_id and t.local_date = o.local_date and t.metric_rows <= 0';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "student_daily_totals_after_insert" AFTER INSERT ON "daily_student_metrics"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_daily_totals_follow"();
--> statement-breakpoint
CREATE TRIGGER "student_daily_totals_after_update" AFTER UPDATE ON "daily_student_metrics"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_daily_totals_follow"();
--> statement-breakpoint
CREATE TRIGGER "student_daily_totals_after_delete" AFTER DELETE ON "daily_student_metrics"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_daily_totals_follow"();
--> statement-breakpoint
INSERT INTO "student_daily_totals" (student_sourced_id, local_date, metric_rows, xp, active_seconds,
    waste_seconds, total_questions, correct_questions, mastered_units, events, subject_xp)
  SELECT student_sourced_id, local_date, sum(n), sum(xp), sum(a), sum(w), sum(q), sum(c), sum(m), sum(e),
    coalesce(jsonb_object_agg(subject, xp) FILTER (WHERE xp <> 0), '{}'::jsonb)
  FROM (SELECT student_sourced_id, local_date, subject, count(*) AS n, sum(xp) AS xp, sum(active_seconds) AS a,
      sum(waste_seconds) AS w, sum(total_questions) AS q, sum(correct_questions) AS c,
      sum(mastered_units) AS m, sum(events) AS e
    FROM daily_student_metrics GROUP BY 1, 2, 3) by_subject
  GROUP BY 1, 2;
