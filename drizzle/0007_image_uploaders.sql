ALTER TABLE "image_uploads" ADD COLUMN "uploader" text;--> statement-breakpoint
ALTER TABLE "image_uploads" ADD COLUMN "uploader_network" text;--> statement-breakpoint
CREATE INDEX "image_uploads_by_uploader" ON "image_uploads" USING btree ("uploader");--> statement-breakpoint
CREATE INDEX "image_uploads_by_uploader_network" ON "image_uploads" USING btree ("uploader_network");