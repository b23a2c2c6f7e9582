CREATE TABLE "reward_accounts" (
	"student_sourced_id" text PRIMARY KEY NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"savings" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_accounts_available_check" CHECK ("reward_accounts"."balance" - "reward_accounts"."held" >= 0),
	CONSTRAINT "reward_accounts_savings_check" CHECK ("reward_accounts"."savings" >= 0),
	CONSTRAINT "reward_accounts_held_check" CHECK ("reward_accounts"."held" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reward_guide_weeks" (
	"guide_sourced_id" text NOT NULL,
	"week_start" date NOT NULL,
	"awarded" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "reward_guide_weeks_guide_sourced_id_week_start_pk" PRIMARY KEY("guide_sourced_id","week_start")
);
--> statement-breakpoint
CREATE TABLE "reward_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"stock" integer,
	"reserved" integer DEFAULT 0 NOT NULL,
	"category" text NOT NULL,
	"sort_order" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"audience_kind" text DEFAULT 'district' NOT NULL,
	"audience_org_id" text,
	"audience_student_id" text,
	"image_key" text,
	"image_url" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_items_price_check" CHECK ("reward_items"."price" > 0),
	CONSTRAINT "reward_items_stock_check" CHECK ("reward_items"."stock" is null or "reward_items"."stock" >= "reward_items"."reserved"),
	CONSTRAINT "reward_items_reserved_check" CHECK ("reward_items"."reserved" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reward_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"student_sourced_id" text NOT NULL,
	"account" text NOT NULL,
	"amount" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"reason_message" jsonb,
	"actor_sourced_id" text,
	"actor_key" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"redemption_id" uuid,
	"reverses_entry_id" bigint,
	"rule_key" text,
	"period" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reward_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_sourced_id" text NOT NULL,
	"item_id" uuid NOT NULL,
	"item_name" text NOT NULL,
	"price" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"approver_kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"note" text,
	"fulfilled_by" text,
	"fulfilled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_events" ADD COLUMN "score_percent" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "reward_redemptions" ADD CONSTRAINT "reward_redemptions_item_id_reward_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."reward_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_items_audience_idx" ON "reward_items" USING btree ("audience_kind","audience_org_id","audience_student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_ledger_idempotency_idx" ON "reward_ledger" USING btree ("actor_key","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_ledger_rule_period_idx" ON "reward_ledger" USING btree ("student_sourced_id","rule_key","period") WHERE "reward_ledger"."rule_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reward_ledger_reversal_idx" ON "reward_ledger" USING btree ("reverses_entry_id") WHERE "reward_ledger"."reverses_entry_id" is not null;--> statement-breakpoint
CREATE INDEX "reward_ledger_student_idx" ON "reward_ledger" USING btree ("student_sourced_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reward_ledger_kind_idx" ON "reward_ledger" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "reward_ledger_actor_kind_idx" ON "reward_ledger" USING btree ("actor_sourced_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_redemptions_idempotency_idx" ON "reward_redemptions" USING btree ("student_sourced_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "reward_redemptions_status_idx" ON "reward_redemptions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reward_redemptions_student_idx" ON "reward_redemptions" USING btree ("student_sourced_id","created_at");--> statement-breakpoint
CREATE INDEX "activity_events_earning_day_idx" ON "activity_events" USING btree ("local_date") WHERE "activity_events"."mastered_units" > 0 or "activity_events"."score_percent" is not null;--> statement-breakpoint
CREATE INDEX "daily_student_metrics_day_idx" ON "daily_student_metrics" USING btree ("local_date");