ALTER TABLE "ad_requests" ADD COLUMN "locale" text DEFAULT 'ko' NOT NULL;--> statement-breakpoint
ALTER TABLE "ad_requests" ADD COLUMN "lang" text DEFAULT 'ko' NOT NULL;--> statement-breakpoint
ALTER TABLE "ads" ADD COLUMN "lang" text DEFAULT 'ko' NOT NULL;--> statement-breakpoint
ALTER TABLE "inquiries" ADD COLUMN "locale" text DEFAULT 'ko' NOT NULL;