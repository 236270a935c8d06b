CREATE TABLE "feed_states" (
	"feed" text PRIMARY KEY NOT NULL,
	"snapshot" jsonb,
	"last_error" text,
	"failing_since" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upstream_calls" (
	"day" text NOT NULL,
	"dataset" text NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "upstream_calls_day_dataset_pk" PRIMARY KEY("day","dataset")
);
