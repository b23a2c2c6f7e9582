CREATE TABLE "student_xp_periods" (
	"student_sourced_id" text NOT NULL,
	"period" text NOT NULL,
	"starts_on" date NOT NULL,
	"subject" text NOT NULL,
	"xp" numeric(14, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "student_xp_periods_student_sourced_id_period_starts_on_subject_pk" PRIMARY KEY("student_sourced_id","period","starts_on","subject")
);
--> statement-breakpoint
-- Every change of the daily totals moves the periods' XP in the same statement: the rows a
-- statement inserted count in, the rows it deleted count out, an update counts the difference.
CREATE FUNCTION "student_xp_periods_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select student_sourced_id, local_date, subject, xp from new_rows'
    WHEN 'DELETE' THEN 'select student_sourced_id, local_date, subject, -xp from old_rows'
    ELSE 'select student_sourced_id, local_date, subject, xp from new_rows
      union all select student_sourced_id, local_date, subject, -xp from old_rows'
  END;
BEGIN
  EXECUTE 'insert into student_xp_periods as p (student_sourced_id, period, starts_on, subject, xp)
    select d.student_sourced_id, k.period, k.starts_on, d.subject, sum(d.xp)
    from (' || changes || ') d (student_sourced_id, local_date, subject, xp)
    cross join lateral (values
      (''week'', d.local_date - extract(dow from d.local_date)::int),
      (''month'', date_trunc(''month'', d.local_date)::date),
      (''all'', date ''2000-01-01'')) k (period, starts_on)
    group by 1, 2, 3, 4 having sum(d.xp) <> 0 order by 1, 2, 3, 4
    on conflict (student_sourced_id, period, starts_on, subject) do update set xp = p.xp + excluded.xp';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "student_xp_periods_after_insert" AFTER INSERT ON "daily_student_metrics"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_xp_periods_follow"();
--> statement-breakpoint
CREATE TRIGGER "student_xp_periods_after_update" AFTER UPDATE ON "daily_student_metrics"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_xp_periods_follow"();
--> statement-breakpoint
CREATE TRIGGER "student_xp_periods_after_delete" AFTER DELETE ON "daily_student_metrics"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_xp_periods_follow"();
--> statement-breakpoint
INSERT INTO "student_xp_periods" (student_sourced_id, period, starts_on, subject, xp)
  SELECT d.student_sourced_id, k.period, k.starts_on, d.subject, sum(d.xp)
  FROM daily_student_metrics d
  CROSS JOIN LATERAL (VALUES
    ('week', d.local_date - extract(dow FROM d.local_date)::int),
    ('month', date_trunc('month', d.local_date)::date),
    ('all', date '2000-01-01')) k (period, starts_on)
  GROUP BY 1, 2, 3, 4 HAVING sum(d.xp) <> 0;
