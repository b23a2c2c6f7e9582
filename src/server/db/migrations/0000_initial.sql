CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"throttle_key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_sourced_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "user_credentials" (
	"user_sourced_id" text PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "academic_sessions" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"parent_sourced_id" text,
	"school_year" text NOT NULL,
	"org_sourced_id" text
);
--> statement-breakpoint
CREATE TABLE "classes" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"title" text NOT NULL,
	"class_code" text,
	"class_type" text DEFAULT 'scheduled' NOT NULL,
	"location" text,
	"grades" text[] DEFAULT '{}'::text[] NOT NULL,
	"subjects" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"periods" text[] DEFAULT '{}'::text[] NOT NULL,
	"course_sourced_id" text NOT NULL,
	"school_sourced_id" text NOT NULL,
	"term_sourced_ids" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "courses" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"title" text NOT NULL,
	"school_year_sourced_id" text,
	"course_code" text,
	"grades" text[] DEFAULT '{}'::text[] NOT NULL,
	"subjects" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"org_sourced_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrollments" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"user_sourced_id" text NOT NULL,
	"class_sourced_id" text NOT NULL,
	"school_sourced_id" text NOT NULL,
	"role" text NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"begin_date" date,
	"end_date" date
);
--> statement-breakpoint
CREATE TABLE "orgs" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"identifier" text,
	"parent_sourced_id" text
);
--> statement-breakpoint
CREATE TABLE "user_agents" (
	"user_sourced_id" text NOT NULL,
	"agent_sourced_id" text NOT NULL,
	CONSTRAINT "user_agents_user_sourced_id_agent_sourced_id_pk" PRIMARY KEY("user_sourced_id","agent_sourced_id")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_sourced_id" text NOT NULL,
	"role" text NOT NULL,
	"role_type" text NOT NULL,
	"org_sourced_id" text NOT NULL,
	"begin_date" date,
	"end_date" date,
	CONSTRAINT "user_roles_user_sourced_id_role_org_sourced_id_pk" PRIMARY KEY("user_sourced_id","role","org_sourced_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"enabled_user" boolean DEFAULT true NOT NULL,
	"username" text,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"middle_name" text,
	"preferred_first_name" text,
	"preferred_middle_name" text,
	"preferred_last_name" text,
	"pronouns" text,
	"identifier" text,
	"email" text,
	"sms" text,
	"phone" text,
	"grades" text[] DEFAULT '{}'::text[] NOT NULL,
	"primary_org_sourced_id" text,
	"timezone" text DEFAULT 'America/New_York' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_sourced_id_users_sourced_id_fk" FOREIGN KEY ("user_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_credentials" ADD CONSTRAINT "user_credentials_user_sourced_id_users_sourced_id_fk" FOREIGN KEY ("user_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_agents" ADD CONSTRAINT "user_agents_user_sourced_id_users_sourced_id_fk" FOREIGN KEY ("user_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_agents" ADD CONSTRAINT "user_agents_agent_sourced_id_users_sourced_id_fk" FOREIGN KEY ("agent_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_sourced_id_users_sourced_id_fk" FOREIGN KEY ("user_sourced_id") REFERENCES "public"."users"("sourced_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_sourced_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "academic_sessions_parent_idx" ON "academic_sessions" USING btree ("parent_sourced_id");--> statement-breakpoint
CREATE INDEX "classes_course_idx" ON "classes" USING btree ("course_sourced_id");--> statement-breakpoint
CREATE INDEX "classes_school_idx" ON "classes" USING btree ("school_sourced_id");--> statement-breakpoint
CREATE INDEX "courses_org_idx" ON "courses" USING btree ("org_sourced_id");--> statement-breakpoint
CREATE INDEX "enrollments_user_idx" ON "enrollments" USING btree ("user_sourced_id");--> statement-breakpoint
CREATE INDEX "enrollments_class_idx" ON "enrollments" USING btree ("class_sourced_id");--> statement-breakpoint
CREATE INDEX "orgs_parent_idx" ON "orgs" USING btree ("parent_sourced_id");--> statement-breakpoint
CREATE INDEX "user_agents_agent_idx" ON "user_agents" USING btree ("agent_sourced_id");--> statement-breakpoint
CREATE INDEX "user_roles_org_idx" ON "user_roles" USING btree ("org_sourced_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_primary_org_idx" ON "users" USING btree ("primary_org_sourced_id");