CREATE TABLE "demographics" (
	"sourced_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"date_last_modified" timestamp with time zone DEFAULT now() NOT NULL,
	"metadata" jsonb,
	"birth_date" date,
	"sex" text,
	"american_indian_or_alaska_native" boolean,
	"asian" boolean,
	"black_or_african_american" boolean,
	"native_hawaiian_or_other_pacific_islander" boolean,
	"white" boolean,
	"demographic_race_two_or_more_races" boolean,
	"hispanic_or_latino_ethnicity" boolean,
	"country_of_birth_code" text,
	"state_of_birth_abbreviation" text,
	"city_of_birth" text,
	"public_school_residence_status" text
);
