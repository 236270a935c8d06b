CREATE TABLE "ad_status_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"request_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"about" text NOT NULL,
	"message_id" text NOT NULL,
	"recipients" jsonb NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "gbis_config" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ad_requests" ADD COLUMN "reject_reason" text;--> statement-breakpoint
ALTER TABLE "inquiries" ADD COLUMN "reply" text;--> statement-breakpoint
ALTER TABLE "inquiries" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ad_status_tokens" ADD CONSTRAINT "ad_status_tokens_request_id_ad_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."ad_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ad_status_tokens_by_request" ON "ad_status_tokens" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_due" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_about" ON "mail_outbox" USING btree ("about");