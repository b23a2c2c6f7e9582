CREATE TABLE "student_period_totals" (
	"student_sourced_id" text NOT NULL,
	"period" text NOT NULL,
	"starts_on" date NOT NULL,
	"days" integer DEFAULT 0 NOT NULL,
	"days_learned" integer DEFAULT 0 NOT NULL,
	"goal_days" integer DEFAULT 0 NOT NULL,
	"xp" numeric(14, 2) DEFAULT 0 NOT NULL,
	"active_seconds" integer DEFAULT 0 NOT NULL,
	"waste_seconds" integer DEFAULT 0 NOT NULL,
	"total_questions" integer DEFAULT 0 NOT NULL,
	"correct_questions" integer DEFAULT 0 NOT NULL,
	"mastered_units" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "student_period_totals_student_sourced_id_period_starts_on_pk" PRIMARY KEY("student_sourced_id","period","starts_on")
);
--> statement-breakpoint
ALTER TABLE "student_daily_totals" ADD COLUMN "goals_met" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "student_period_totals_period_idx" ON "student_period_totals" USING btree ("period","starts_on");--> statement-breakpoint
-- The goals domain's rule (allGoalsMet over goalsWith): a day meets every daily goal when each
-- subject's XP reaches its goal, the school's goals with the student's own in their place; with
-- `only_subject`, that subject's goal only. A school that never set its goals has the ones the app
-- falls back to (FALLBACK_DAILY_GOALS; a test holds the two equal).
CREATE FUNCTION "daily_goals_met"(student text, subject_xp jsonb, only_subject text DEFAULT NULL)
  RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT NOT EXISTS (
    SELECT 1 FROM jsonb_each_text(
        coalesce((SELECT m.value FROM app_meta m WHERE m.key = 'daily_xp_goals'),
          '{"Math": 30, "Reading": 30, "Language": 20, "Science": 20}'::jsonb)
        || coalesce((SELECT jsonb_object_agg(g.subject, g.daily_xp) FROM student_daily_goals g
          WHERE g.student_sourced_id = student), '{}'::jsonb)) goal
    WHERE (only_subject IS NULL OR goal.key = only_subject)
      AND coalesce((subject_xp ->> goal.key)::numeric, 0) < goal.value::numeric)
$$;
--> statement-breakpoint
UPDATE "student_daily_totals" SET "goals_met" = true WHERE daily_goals_met(student_sourced_id, subject_xp);
--> statement-breakpoint
INSERT INTO "student_period_totals" (student_sourced_id, period, starts_on, days, days_learned, goal_days, xp,
    active_seconds, waste_seconds, total_questions, correct_questions, mastered_units)
  SELECT t.student_sourced_id, k.period, k.starts_on, count(*), count(*) FILTER (WHERE t.active_seconds > 0 OR t.events > 0),
    count(*) FILTER (WHERE t.goals_met), sum(t.xp), sum(t.active_seconds), sum(t.waste_seconds), sum(t.total_questions),
    sum(t.correct_questions), sum(t.mastered_units)
  FROM student_daily_totals t
  CROSS JOIN LATERAL (VALUES ('week', t.local_date - extract(dow FROM t.local_date)::int),
    ('month', date_trunc('month', t.local_date)::date)) k (period, starts_on)
  GROUP BY 1, 2, 3;
--> statement-breakpoint
-- Every change of a student's day moves its week and month in the same statement, as the days
-- follow the daily totals: inserted days count in, deleted ones out, an update the difference.
CREATE FUNCTION "student_period_totals_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted text := 'student_sourced_id, local_date, 1, (active_seconds > 0 or events > 0)::int, goals_met::int, xp,
    active_seconds, waste_seconds, total_questions, correct_questions, mastered_units';
  negated text := 'student_sourced_id, local_date, -1, -(active_seconds > 0 or events > 0)::int, -goals_met::int, -xp,
    -active_seconds, -waste_seconds, -total_questions, -correct_questions, -mastered_units';
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select ' || counted || ' from new_rows'
    WHEN 'DELETE' THEN 'select ' || negated || ' from old_rows'
    ELSE 'select ' || counted || ' from new_rows union all select ' || negated || ' from old_rows'
  END;
BEGIN
  EXECUTE 'insert into student_period_totals as p (student_sourced_id, period, starts_on, days, days_learned, goal_days,
      xp, active_seconds, waste_seconds, total_questions, correct_questions, mastered_units)
    select d.s, k.period, k.starts_on, sum(d.n), sum(d.l), sum(d.g), sum(d.xp), sum(d.a), sum(d.w), sum(d.q), sum(d.c), sum(d.m)
    from (' || changes || ') d (s, day, n, l, g, xp, a, w, q, c, m)
    cross join lateral (values (''week'', d.day - extract(dow from d.day)::int),
      (''month'', date_trunc(''month'', d.day)::date)) k (period, starts_on)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (student_sourced_id, period, starts_on) do update set
      days = p.days + excluded.days, days_learned = p.days_learned + excluded.days_learned,
      goal_days = p.goal_days + excluded.goal_days, xp = p.xp + excluded.xp,
      active_seconds = p.active_seconds + excluded.active_seconds,
      waste_seconds = p.waste_seconds + excluded.waste_seconds,
      total_questions = p.total_questions + excluded.total_questions,
      correct_questions = p.correct_questions + excluded.correct_questions,
      mastered_units = p.mastered_units + excluded.mastered_units';
  IF TG_OP <> 'INSERT' THEN
    EXECUTE 'delete from student_period_totals p using (select distinct student_sourced_id, local_date from old_rows) o
      where p.student_sourced_id = o.student_sourced_id and p.days <= 0
        and p.starts_on in (o.local_date - extract(dow from o.local_date)::int, date_trunc(''month'', o.local_date)::date)';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "student_period_totals_after_insert" AFTER INSERT ON "student_daily_totals"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_period_totals_follow"();
--> statement-breakpoint
CREATE TRIGGER "student_period_totals_after_update" AFTER UPDATE ON "student_daily_totals"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_period_totals_follow"();
--> statement-breakpoint
CREATE TRIGGER "student_period_totals_after_delete" AFTER DELETE ON "student_daily_totals"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_period_totals_follow"();
--> statement-breakpoint
-- The days' trigger of migration 0033, now also saying whether each changed day met every goal.
CREATE OR REPLACE FUNCTION "student_daily_totals_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
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
  touched text := CASE TG_OP WHEN 'DELETE' THEN 'old_rows' ELSE 'new_rows' END;
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
  EXECUTE 'update student_daily_totals t set goals_met = not t.goals_met
    from (select distinct student_sourced_id, local_date from ' || touched || ') c
    where t.student_sourced_id = c.student_sourced_id and t.local_date = c.local_date
      and t.goals_met <> daily_goals_met(t.student_sourced_id, t.subject_xp)';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A student's own goals changed: their days say again whether they met every goal.
CREATE FUNCTION "student_goals_recount"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  students text := CASE TG_OP
    WHEN 'INSERT' THEN 'select student_sourced_id from new_rows'
    WHEN 'DELETE' THEN 'select student_sourced_id from old_rows'
    ELSE 'select student_sourced_id from new_rows union select student_sourced_id from old_rows'
  END;
BEGIN
  EXECUTE 'update student_daily_totals t set goals_met = not t.goals_met
    where t.student_sourced_id in (' || students || ')
      and t.goals_met <> daily_goals_met(t.student_sourced_id, t.subject_xp)';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "student_goals_recount_after_insert" AFTER INSERT ON "student_daily_goals"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_goals_recount"();
--> statement-breakpoint
CREATE TRIGGER "student_goals_recount_after_update" AFTER UPDATE ON "student_daily_goals"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_goals_recount"();
--> statement-breakpoint
CREATE TRIGGER "student_goals_recount_after_delete" AFTER DELETE ON "student_daily_goals"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "student_goals_recount"();
--> statement-breakpoint
-- The school's goals changed: every day says again whether it met every goal (a rare, whole-table change).
CREATE FUNCTION "school_goals_recount"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(NEW.key, OLD.key) = 'daily_xp_goals' THEN
    UPDATE student_daily_totals t SET goals_met = NOT t.goals_met
      WHERE t.goals_met <> daily_goals_met(t.student_sourced_id, t.subject_xp);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "school_goals_recount_after_change" AFTER INSERT OR UPDATE OR DELETE ON "app_meta"
  FOR EACH ROW EXECUTE FUNCTION "school_goals_recount"();
