CREATE TABLE "ad_daily_counts" (
	"ad_id" integer NOT NULL,
	"day" text NOT NULL,
	"impressions" integer DEFAULT 0 NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ad_daily_counts_ad_id_day_pk" PRIMARY KEY("ad_id","day")
);
--> statement-breakpoint
CREATE TABLE "ad_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"applicant_name" text NOT NULL,
	"applicant_phone" text NOT NULL,
	"applicant_email" text NOT NULL,
	"redirect_url" text,
	"image_url" text NOT NULL,
	"content_for_manager" text,
	"content" text,
	"duration" integer NOT NULL,
	"confirmed" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text,
	"redirect_url" text,
	"image_url" text,
	"content" text,
	"position" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"request_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ads_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "image_uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"image_url" text NOT NULL,
	"ad_type" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"status" text DEFAULT 'issued' NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "image_uploads_image_url_unique" UNIQUE("image_url")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ad_daily_counts" ADD CONSTRAINT "ad_daily_counts_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_request_id_ad_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."ad_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_requests_by_type" ON "ad_requests" USING btree ("type","status","created_at");--> statement-breakpoint
CREATE INDEX "ads_by_type" ON "ads" USING btree ("type","position");--> statement-breakpoint
CREATE INDEX "image_uploads_by_issue" ON "image_uploads" USING btree ("issued_at");