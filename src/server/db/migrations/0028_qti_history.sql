CREATE TABLE "qti_document_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"identifier" text NOT NULL,
	"action" text NOT NULL,
	"actor_sourced_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text,
	"previous_raw_xml" text
);
--> statement-breakpoint
CREATE INDEX "qti_document_changes_document_idx" ON "qti_document_changes" USING btree ("kind","identifier","at");