-- Reminders set before targets were kept cannot be scheduled: they and their subscriptions go (none were offered yet).
DELETE FROM "push_subscriptions";--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "target_at" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "reminders" ADD COLUMN "plate_no" text;--> statement-breakpoint
CREATE INDEX "reminders_pending_by_creation" ON "reminders" USING btree ("created_at") WHERE "reminders"."sent_at" is null;